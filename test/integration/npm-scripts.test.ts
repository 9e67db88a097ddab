import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

// cli-and-harness.md: `npm run serve -- <flags>` is the same as `mnemo serve <flags>`, signals included.
const env = { ...process.env, MNEMO_LOG: '', MNEMO_EMBEDDER: 'none' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Settles with what `p` gave, or with 'timeout' after `ms` (the timer is cleared: it held the file open). */
const within = <T>(p: Promise<T>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
};

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

describe('npm run scripts', { skip: process.platform === 'win32' && 'POSIX signals' }, () => {
  it('SIGTERM to `npm run serve` reaches the server: it stops cleanly and npm exits 0', async () => {
    const npm = spawn('npm', ['run', '--silent', 'serve', '--', '--engine', 'reference', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    after(() => npm.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    npm.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.on('exit', (code, signal) => resolve({ code, signal })),
    );
    const deadline = Date.now() + 60_000;
    while (!/listening on/.test(stdout) && npm.exitCode === null && Date.now() < deadline) await sleep(25);
    const port = Number(/^listening on http:\/\/127\.0\.0\.1:(\d+)\/v1\n$/.exec(stdout)?.[1]);
    assert.ok(port > 0, `not exactly the listening line on stdout: ${JSON.stringify(stdout)} ${stderr}`);

    npm.kill('SIGTERM');
    const result = await within(exited, 30_000);
    assert.deepEqual(result, { code: 0, signal: null }, stderr);
    assert.match(stderr, /SIGTERM: finishing in-flight requests/, 'the server itself got the signal');
    assert.equal(await accepts(port), false, 'no server left running on the port');
  });

  it('`npm run --silent mnemo -- keys create` prints the key alone (what README uses in $(...))', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-npm-scripts-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const r = spawnSync(
      'npm',
      ['run', '--silent', 'mnemo', '--', 'keys', 'create', '--project', 'demo', '--env', 'test'].concat([
        '--key-registry',
        join(dir, 'keys.json'),
      ]),
      { env, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^sk_test_demo_\S+\n$/);
  });
});
