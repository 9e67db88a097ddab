import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const env = { ...process.env, MNEMO_LOG: '', MNEMO_EMBEDDER: 'none', MNEMO_DB_KEY: 'serve-tz-test-key' };

describe('mnemo serve --time-zone', () => {
  it('refuses a name that is not an IANA zone, saying what it wants', () => {
    const r = spawnSync(
      process.execPath,
      ['bin/mnemo.mjs', 'serve', '--port', '0', '--time-zone', 'Mars/Base'],
      {
        encoding: 'utf8',
        env,
        timeout: 30_000,
      },
    );
    assert.notEqual(r.status, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /--time-zone.*must be an IANA time zone name/);
  });

  it('serves with the zone given and says so on stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-serve-tz-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const child = spawn(
      process.execPath,
      ['bin/mnemo.mjs', 'serve', '--port', '0', '--data-dir', dir, '--no-ui', '--time-zone', 'Asia/Tokyo'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 30_000;
      while (!/time zone/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.match(stdout, /^listening on http:\/\/127\.0\.0\.1:\d+\/v1\n$/);
      assert.match(stderr, /engine local, deployment local, data dir .*, time zone Asia\/Tokyo/);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
  });
});
