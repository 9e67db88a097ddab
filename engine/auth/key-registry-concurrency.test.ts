import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { withFileLock } from './file-lock.ts';
import { FileKeyRegistry } from './key-registry.ts';

const registryModule = join(dirname(fileURLToPath(import.meta.url)), 'key-registry.ts');

/**
 * Processes running each script on the registry at `path`, released together: each pays ~1 s of
 * start-up, so without a common start their few milliseconds of writes would rarely overlap. Each says
 * `ready` once loaded and waits on stdin; all are told to go once every one is ready. Resolves to what
 * each printed after that.
 */
async function workers(path: string, scripts: string[]): Promise<string[]> {
  const children = scripts.map((script) => {
    const code = `import { FileKeyRegistry } from ${JSON.stringify(registryModule)};
const registry = new FileKeyRegistry(${JSON.stringify(path)});
process.stdout.write('ready\\n');
await new Promise((go) => process.stdin.once('data', go));
process.stdin.destroy();
${script}`;
    // Under the TypeScript loader this file runs under (npm test's is a fraction of tsx's start-up).
    const child = spawn(process.execPath, [...process.execArgv, '--input-type=module', '-e', code], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let ready: () => void = () => {};
    const isReady = new Promise<void>((r) => (ready = r));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('ready\n')) ready();
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const done = new Promise<string>((resolve, reject) =>
      child.on('exit', (c) =>
        c === 0 ? resolve(out.slice('ready\n'.length)) : reject(new Error(`worker failed: ${err}`)),
      ),
    );
    // A worker that dies before it is ready fails the wait instead of hanging it.
    return { child, ready: Promise.race([isReady, done.then(() => {})]), done };
  });
  try {
    await Promise.all(children.map((c) => c.ready));
  } catch (e) {
    for (const c of children) c.child.kill();
    throw e;
  }
  for (const c of children) c.child.stdin.end('go\n');
  return Promise.all(children.map((c) => c.done));
}

function freshPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-keys-race-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return FileKeyRegistry.ensure(join(dir, 'keys.json')).path;
}

describe('FileKeyRegistry across processes', () => {
  it('loses no key when six processes create keys at once', async () => {
    const path = freshPath();
    const perWorker = 10;
    const outputs = await workers(
      path,
      Array.from(
        { length: 6 },
        (_, i) =>
          `for (let n = 0; n < ${perWorker}; n++) console.log((await registry.create({ env: 'test', project: 'w${i}' })).record.id);`,
      ),
    );
    const printed = outputs.flatMap((o) => o.trim().split('\n'));
    assert.equal(printed.length, 6 * perWorker);
    const stored = (await new FileKeyRegistry(path).list()).map((e) => e.id);
    assert.deepEqual([...stored].sort(), [...printed].sort(), 'every key printed is in the registry');
    assert.deepEqual(
      readdirSync(dirname(path)).filter((f) => f !== 'keys.json'),
      [],
      'no lock or temp file is left behind',
    );
  });

  it('loses no revocation racing with creates in other processes', async () => {
    const path = freshPath();
    const registry = new FileKeyRegistry(path);
    const ids: string[] = [];
    for (let n = 0; n < 40; n++) ids.push((await registry.create({ env: 'test', project: 'r' })).record.id);
    await workers(path, [
      `for (const id of ${JSON.stringify(ids.slice(0, 20))}) await registry.revoke(id);`,
      `for (const id of ${JSON.stringify(ids.slice(20))}) await registry.revoke(id);`,
      `for (let n = 0; n < 20; n++) await registry.create({ env: 'test', project: 'c' });`,
    ]);
    const after = await new FileKeyRegistry(path).list();
    assert.equal(after.length, 60);
    assert.equal(after.filter((e) => e.revoked_at).length, 40);
  });

  it("takes over a lock whose process is gone or which is old, and waits for a live holder's", async () => {
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
      (await new FileKeyRegistry(path).create({ env: 'test', project: 'after' })).record.prefix,
      'sk_test_after',
    );
    assert.equal(existsSync(`${path}.lock`), false);
  });

  it('refuses a project that cannot be a key segment, and an empty scope list', async () => {
    const registry = new FileKeyRegistry(freshPath());
    await assert.rejects(registry.create({ env: 'test', project: 'a_b' }), {
      code: 'invalid_request_body',
      message: /^project: /,
    });
    await assert.rejects(registry.create({ env: 'test', project: 'ab', scopes: [] }), {
      code: 'invalid_request_body',
      message: /^scopes: /,
    });
  });
});
