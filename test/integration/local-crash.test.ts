import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createLocalEngine } from '../../engine/local/index.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import { testStoreKey as key } from '../../engine/adapters/sqlite/testing.ts';
import { tempDir } from './local-helpers.ts';

const child = fileURLToPath(new URL('./local-crash-child.ts', import.meta.url));
const tenant = { project: 'crash', env: 'test' as const };

/** Runs the writer until it has acknowledged `acks` writes (plus a random few ms), then SIGKILLs it. */
function burstAndKill(dataDir: string, acks: number, run: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // Under the TypeScript loader this file runs under (npm test's is a fraction of tsx's start-up).
    const p = spawn(process.execPath, [...process.execArgv, child, dataDir, key, `run${run}`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: string[] = [];
    let buffer = '';
    let killing = false;
    p.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) if (line.startsWith('ack ')) acked.push(line.slice(4));
      if (!killing && acked.length >= acks) {
        killing = true;
        setTimeout(() => p.kill('SIGKILL'), Math.floor(Math.random() * 15));
      }
    });
    p.on('error', reject);
    p.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited without being killed (${signal ?? _code})`));
      // A line cut by the kill was never a complete acknowledgement; count only whole lines.
      else resolve(acked);
    });
  });
}

describe('local engine: crash safety', () => {
  it('every acknowledged write survives SIGKILL mid-burst; integrity_check ok; derivation resumes (3 trials)', async () => {
    const dataDir = join(tempDir('mnemo-crash-'), 'data');
    let expected: string[] = [];
    for (let trial = 0; trial < 3; trial += 1) {
      const acked = await burstAndKill(dataDir, 40 + Math.floor(Math.random() * 80), trial);
      assert.ok(acked.length >= 40, `only ${acked.length} acks`);
      expected = expected.concat(acked);

      const db = openDatabase({ file: join(dataDir, 'mnemo.db'), key });
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      assert.deepEqual(db.pragma('foreign_key_check'), []);
      db.close();

      const engine = await createLocalEngine({ dataDir, dbKey: key });
      try {
        for (const id of expected) assert.equal((await engine.getRecord(tenant, 'b', id)).id, id);
        await engine.idle();
        for (const id of acked.slice(-5)) {
          const r = await engine.getRecord(tenant, 'b', id);
          assert.equal(r.status, 'ready');
          assert.ok(r.memory_ids.length > 0, JSON.stringify(r));
        }
        const census = await engine.getCensus(tenant, 'b');
        assert.equal(census.counts.records_processing, 0);
        // Eight writes are in flight: at most eight per kill were committed but not yet acknowledged.
        assert.ok(
          census.counts.records >= expected.length &&
            census.counts.records <= expected.length + (trial + 1) * 8,
          `${census.counts.records} Records for ${expected.length} acknowledged`,
        );
      } finally {
        await engine.close();
      }
    }
  });
});
