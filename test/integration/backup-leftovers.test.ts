import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backupStore } from '../../engine/adapters/sqlite/backup-store.ts';
import { open, tempDir, tenant, key } from './local-helpers.ts';

const child = fileURLToPath(new URL('./backup-killed-child.ts', import.meta.url));

/** A backup in another process, stopped once its copy is written: killed, or left waiting. */
function backupStoppedMidway(dataDir: string, out: string, how: 'die' | 'hang') {
  // Under the TypeScript loader this file runs under.
  const p = spawn(process.execPath, [...process.execArgv, child, dataDir, key, out, how], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    p.on('exit', (_c, signal) => resolve(signal)),
  );
  const copied = new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('copied')) resolve();
    });
    p.on('error', reject);
    void exited.then(() => reject(new Error('the backup ended before its copy was written')));
  });
  return { p, copied, exited };
}

const kill = async (p: ChildProcess, exited: Promise<unknown>) => {
  p.kill('SIGKILL');
  await exited;
};

const notes = (dataDir: string) => readdirSync(dataDir).filter((n) => n.startsWith('mnemo.backup-'));

describe('the draft of a backup killed midway', () => {
  it('is removed by the next backup or start once its process is gone, never while it runs', async () => {
    const root = tempDir('mnemo-backup-left-');
    const dataDir = join(root, 'data');
    const engine = await open(dataDir);
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(tenant, 'b', { content: { kind: 'document', text: 'kept' } }, {});
    await engine.close();

    const dead = backupStoppedMidway(dataDir, join(root, 'monday.db'), 'die');
    await dead.copied.catch(() => {});
    assert.equal(await dead.exited, 'SIGKILL');
    const deadDraft = join(root, `monday.db.partial-${dead.p.pid}`);
    assert.ok(existsSync(deadDraft), 'the killed backup left its draft');

    // The next day's backup, under another name.
    const s = backupStore({ dataDir, key, out: join(root, 'tuesday.db') });
    assert.deepEqual(s.removedDrafts, [{ file: deadDraft, pid: dead.p.pid }]);
    assert.equal(existsSync(deadDraft), false, "the dead process's draft is gone");
    assert.deepEqual(notes(dataDir), []);

    const live = backupStoppedMidway(dataDir, join(root, 'wednesday.db'), 'hang');
    try {
      await live.copied;
      const liveDraft = join(root, `wednesday.db.partial-${live.p.pid}`);
      const other = backupStore({ dataDir, key, out: join(root, 'wednesday-too.db') });
      assert.deepEqual(other.removedDrafts, []);
      assert.ok(existsSync(liveDraft), 'a running backup keeps its draft');
      assert.equal(notes(dataDir).length, 1, 'only the running backup is noted');

      await kill(live.p, live.exited);
      const warnings: string[] = [];
      const again = await open(dataDir, { logger: { info() {}, warn: (m) => warnings.push(m), error() {} } });
      await again.close();
      assert.equal(existsSync(liveDraft), false, 'removed at start once its process was gone');
      assert.deepEqual(notes(dataDir), []);
      assert.ok(
        warnings.some((w) => w.startsWith(`removed ${liveDraft}, the unfinished copy of a backup`)),
        warnings.join('\n'),
      );
      for (const made of ['tuesday.db', 'wednesday-too.db']) assert.ok(existsSync(join(root, made)));
    } finally {
      if (live.p.exitCode === null && live.p.signalCode === null) await kill(live.p, live.exited);
    }
  });
});
