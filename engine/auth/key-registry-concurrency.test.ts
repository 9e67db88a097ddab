import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withFileLock } from './file-lock.ts';
import { KeyRegistry } from './key-registry.ts';

const registryModule = join(dirname(fileURLToPath(import.meta.url)), 'key-registry.ts');

/**
 * One process running `script` on the registry at `path`, from `startAt` (epoch ms) on: each pays ~1 s
 * of start-up, so without a common start the workers' few milliseconds of writes would rarely overlap.
 */
function worker(path: string, script: string, startAt: number): Promise<string> {
  const code = `import { KeyRegistry } from ${JSON.stringify(registryModule)};
const registry = new KeyRegistry(${JSON.stringify(path)});
while (Date.now() < ${startAt});
${script}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`worker failed: ${err}`))));
  });
}

function freshPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-keys-race-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return KeyRegistry.ensure(join(dir, 'keys.json')).path;
}

describe('KeyRegistry across processes', () => {
  it('loses no key when six processes create keys at once', async () => {
    const path = freshPath();
    const perWorker = 10;
    const startAt = Date.now() + 4_000;
    const outputs = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        worker(
          path,
          `for (let n = 0; n < ${perWorker}; n++) console.log(registry.create({ env: 'test', project: 'w${i}' }).entry.id);`,
          startAt,
        ),
      ),
    );
    const printed = outputs.flatMap((o) => o.trim().split('\n'));
    assert.equal(printed.length, 6 * perWorker);
    const stored = new KeyRegistry(path).list().map((e) => e.id);
    assert.deepEqual([...stored].sort(), [...printed].sort(), 'every key printed is in the registry');
    assert.deepEqual(
      readdirSync(dirname(path)).filter((f) => f !== 'keys.json'),
      [],
      'no lock or temp file is left behind',
    );
  });

  it('loses no revocation racing with creates in other processes', async () => {
    const path = freshPath();
    const registry = new KeyRegistry(path);
    const ids = Array.from({ length: 40 }, () => registry.create({ env: 'test', project: 'r' }).entry.id);
    const startAt = Date.now() + 4_000;
    await Promise.all([
      worker(path, `for (const id of ${JSON.stringify(ids.slice(0, 20))}) registry.revoke(id);`, startAt),
      worker(path, `for (const id of ${JSON.stringify(ids.slice(20))}) registry.revoke(id);`, startAt),
      worker(path, `for (let n = 0; n < 20; n++) registry.create({ env: 'test', project: 'c' });`, startAt),
    ]);
    const after = new KeyRegistry(path).list();
    assert.equal(after.length, 60);
    assert.equal(after.filter((e) => e.revoked_at).length, 40);
  });

  it("takes over a lock whose process is gone or which is old, and waits for a live holder's", () => {
    const path = freshPath();
    const lock = (holder: object) => writeFileSync(`${path}.lock`, JSON.stringify(holder));
    // Above Linux's largest pid: no such process.
    lock({ pid: 2 ** 22 + 7, host: hostname(), token: 'dead' });
    assert.equal(
      withFileLock(path, () => 'taken'),
      'taken',
    );
    lock({ pid: process.pid, host: hostname(), token: 'alive' });
    assert.throws(() => withFileLock(path, () => 1, { timeoutMs: 100 }), /locked by another process/);
    // Another host's pid cannot be checked: only age makes its lock stale.
    lock({ pid: 1, host: 'elsewhere', token: 'remote' });
    assert.throws(() => withFileLock(path, () => 1, { timeoutMs: 100 }), /locked by another process/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    assert.equal(
      new KeyRegistry(path).create({ env: 'test', project: 'after' }).entry.prefix,
      'sk_test_after',
    );
    assert.equal(existsSync(`${path}.lock`), false);
  });

  it('refuses a project that cannot be a key segment, and an empty scope list', () => {
    const registry = new KeyRegistry(freshPath());
    assert.throws(() => registry.create({ env: 'test', project: 'a_b' }), {
      code: 'invalid_request_body',
      message: /^project: /,
    });
    assert.throws(() => registry.create({ env: 'test', project: 'ab', scopes: [] }), {
      code: 'invalid_request_body',
      message: /^scopes: /,
    });
  });
});
