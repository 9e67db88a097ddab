import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Settles with what `p` gave, or with 'timeout' after `ms` (the timer is cleared: it held the file open). */
const within = <T>(p: Promise<T>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
};

/** `mnemo bench write` with its own TMPDIR, so what it leaves there can be seen. */
function bench(tmp: string, records = 1_000_000) {
  const child = spawn(
    process.execPath,
    ['bin/mnemo.mjs', 'bench', 'write', '--records', String(records), '--concurrency', '4'],
    {
      // No tsx cache in the temp dir: the client process, which outlives the bench by a moment on a
      // loaded machine, would still be writing it while the test removes the dir.
      env: { ...process.env, TMPDIR: tmp, MNEMO_LOG: '', MNEMO_EMBEDDER: 'none', TSX_DISABLE_CACHE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  after(() => child.kill('SIGKILL'));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const benchDirs = () => readdirSync(tmp).filter((n) => n.startsWith('mnemo-bench-'));
  return { child, exited, benchDirs };
}

describe('an interrupted mnemo bench removes its temp data dir', () => {
  for (const [signal, when] of [
    ['SIGTERM', 'while it writes'],
    ['SIGINT', 'while its server starts'],
  ] as const) {
    it(`${signal} ${when}: the dir is gone, and the process still ends by the signal`, async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'mnemo-bench-interrupt-'));
      // The benchmark's client process outlives it by a moment (it leaves on the IPC channel's
      // disconnect) and may still be writing tsx's cache in the temp dir.
      after(() => rmSync(tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));
      const b = bench(tmp);
      const deadline = Date.now() + 60_000;
      while (b.benchDirs().length === 0 && b.child.exitCode === null && Date.now() < deadline) await sleep(5);
      const [dir] = b.benchDirs();
      assert.ok(dir, 'the benchmark made its temp data dir');
      if (when === 'while it writes') {
        // Its store is open and Records are going in.
        while (!existsSync(join(tmp, dir, 'mnemo.db')) && Date.now() < deadline) await sleep(10);
        await sleep(1_000);
        assert.equal(b.child.exitCode, null, 'a million Records take longer than this');
      }
      b.child.kill(signal);
      const result = await within(b.exited, 60_000);
      assert.deepEqual(result, { code: null, signal });
      assert.deepEqual(b.benchDirs(), [], 'no store or database key left in the temp dir');
    });
  }
});

describe('a benchmark whose reader stops early', () => {
  it('runs to its end and removes its temp data dir; what it had left to print is dropped', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'mnemo-bench-reader-gone-'));
    after(() => rmSync(tmp, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 }));
    const b = bench(tmp, 50);
    // As `| head -0` would: the reading end is gone before the first line is written.
    b.child.stdout.destroy();
    let stderr = '';
    b.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const result = await within(b.exited, 120_000);
    assert.deepEqual(result, { code: 0, signal: null }, stderr);
    assert.doesNotMatch(stderr, /EPIPE/);
    assert.deepEqual(b.benchDirs(), [], 'no store or database key left in the temp dir');
  });
});
