import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DataDirInUseError, holderFileName, lockDataDir } from './data-dir-lock.ts';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-dir-lock-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Another process holding the lock on `dir` until it is killed. */
async function holdInChild(dir: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      `import('${new URL('./data-dir-lock.ts', import.meta.url).href}').then((m) => {
        m.lockDataDir(${JSON.stringify(dir)});
        process.stdout.write('locked\\n');
        setInterval(() => {}, 1000);
      });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  after(() => child.kill('SIGKILL'));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the child exited (${code}) before locking`)));
  });
  return { pid: child.pid!, kill: () => (child.kill('SIGKILL'), exited) };
}

describe('data dir lock', () => {
  it('refuses a second holder in this process, naming it; free again once released', () => {
    const dir = tempDir();
    const first = lockDataDir(dir);
    assert.throws(
      () => lockDataDir(dir),
      (e: unknown) =>
        e instanceof DataDirInUseError &&
        e.message.includes(dir) &&
        e.message.includes(`this process (pid ${process.pid})`),
    );
    first.release();
    first.release();
    lockDataDir(dir).release();
  });

  it('refuses while another process holds it, naming its pid; taken over once that process is killed', async () => {
    const dir = tempDir();
    const holder = await holdInChild(dir);
    assert.throws(
      () => lockDataDir(dir),
      (e: unknown) =>
        e instanceof DataDirInUseError &&
        e.message.includes(dir) &&
        e.message.includes(`another Mnemo process (pid ${holder.pid}`),
    );
    // SIGKILL: no clean-up ran, its holder file still names it. The OS let go of the lock all the same.
    await holder.kill();
    assert.equal(JSON.parse(readFileSync(join(dir, holderFileName), 'utf8')).pid, holder.pid);
    const lock = lockDataDir(dir);
    assert.equal(JSON.parse(readFileSync(join(dir, holderFileName), 'utf8')).pid, process.pid);
    lock.release();
  });

  it('a holder file left by a crash does not hold the lock, even when its pid is alive again (reused)', () => {
    const dir = tempDir();
    // A live pid that is not a Mnemo holding anything: what a pid reused after a reboot looks like.
    const stale = { pid: process.ppid, host: hostname(), since: '2020-01-01T00:00:00.000Z' };
    writeFileSync(join(dir, holderFileName), JSON.stringify(stale));
    lockDataDir(dir).release();
  });
});
