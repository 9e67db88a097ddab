import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileKeyRegistry } from '../engine/auth/key-registry.ts';
import { hashKey } from '../engine/auth/api-key.ts';
import { lockDataDir } from '../engine/adapters/sqlite/data-dir-lock.ts';
import { testStoreKey } from '../engine/adapters/sqlite/testing.ts';
import { registryPathFor } from './data-dir.ts';
import { startServer, type ServerOptions } from './start-server.ts';
import { freePort } from '../test/support/free-port.ts';

// The embedder's worker thread is beside the point here, and slow to load.
process.env.MNEMO_EMBEDDER = 'none';

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-start-server-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function occupiedPort(): Promise<number> {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  after(() => blocker.close());
  return (blocker.address() as { port: number }).port;
}

const local = (dataDir: string) => ({
  engine: 'local' as const,
  dataDir,
  dbKey: testStoreKey,
  configDir: join(dataDir, 'config'),
  timeZone: 'UTC',
});

describe('startServer when start-up fails', () => {
  it('refuses a port outside 0-65535 before it creates or opens anything', async () => {
    const dir = join(tempDir(), 'data');
    for (const port of [65_536, 70_000, -1, 1.5, Number.NaN]) {
      await assert.rejects(startServer({ ...local(dir), port }), /port must be an integer from 0 to 65535/);
    }
    assert.equal(existsSync(dir), false, 'no data dir, registry, key or store was made');
  });

  it('takes the port before it creates or opens anything, so a port in use leaves nothing', async () => {
    const dir = join(tempDir(), 'data');
    const configDir = join(dir, '..', 'config');
    const port = await occupiedPort();
    await assert.rejects(startServer({ ...local(dir), configDir, dbKey: undefined, port }), /EADDRINUSE/);
    assert.equal(existsSync(dir), false, 'no data dir, registry or store was made');
    assert.equal(existsSync(configDir), false, 'no database key was generated');
    const again = await startServer({ ...local(dir), port: 0 });
    await again.close();
  });

  it('lets its port go when the store cannot be opened', async () => {
    const dir = join(tempDir(), 'data');
    const first = await startServer({ ...local(dir), port: 0 });
    try {
      const port = await freePort();
      // The data dir is the first server's: the second took its port, then could not take the dir.
      await assert.rejects(startServer({ ...local(dir), port }), /in use|lock|another/i);
      const blocker = createServer();
      await new Promise<void>((resolve, reject) => {
        blocker.once('error', reject);
        blocker.listen(port, '127.0.0.1', resolve);
      });
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    } finally {
      await first.close();
    }
    lockDataDir(dir).release();
  });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Starts and closes a server, returning what it logged. */
async function startAndClose(options: ServerOptions): Promise<string[]> {
  const lines: string[] = [];
  const server = await startServer({ ...options, port: 0, log: (line) => lines.push(line) });
  await server.close();
  return lines;
}

describe('data dir permissions', { skip: process.platform === 'win32' }, () => {
  it('a new data dir and everything in it are owner-only', async () => {
    const dir = join(tempDir(), 'data');
    await startAndClose(local(dir));
    assert.equal(modeOf(dir), 0o700);
    for (const name of readdirSync(dir)) {
      assert.equal(modeOf(join(dir, name)) & 0o077, 0, `${name} is ${modeOf(join(dir, name)).toString(8)}`);
    }
  });

  it('an existing data dir open to others is made owner-only at start, and said once', async () => {
    const dir = join(tempDir(), 'data');
    await startAndClose(local(dir));
    // As an older Mnemo, or mkdir and cp with umask 022, left them.
    chmodSync(dir, 0o755);
    for (const name of ['mnemo.db', 'keys.json', 'mnemo.lock']) chmodSync(join(dir, name), 0o644);
    chmodSync(join(dir, 'tmp'), 0o755);

    const lines = (await startAndClose(local(dir))).filter((l) => /owner-only/.test(l));
    assert.equal(lines.length, 1, lines.join('\n'));
    for (const name of ['mnemo.db', 'keys.json', 'mnemo.lock']) {
      assert.equal(modeOf(join(dir, name)), 0o600, name);
      assert.match(lines[0]!, new RegExp(`${join(dir, name)} \\(was 0644\\)`));
    }
    assert.equal(modeOf(join(dir, 'tmp')), 0o700);
    assert.equal(modeOf(dir), 0o700);
    assert.match(lines[0]!, new RegExp(`${dir} \\(was 0755\\)`));
    assert.deepEqual(
      (await startAndClose(local(dir))).filter((l) => /owner-only/.test(l)),
      [],
      'once',
    );
  });

  it("a running backup's note and a restore's replaced store are Mnemo's: the dir is still closed", async () => {
    const dir = join(tempDir(), 'data');
    await startAndClose(local(dir));
    chmodSync(dir, 0o755);
    // A backup running now (this process is alive) noted its draft; a restore kept the store it replaced.
    writeFileSync(join(dir, `mnemo.backup-${process.pid}-0a1b2c3d.json`), '{}');
    writeFileSync(join(dir, 'mnemo.db.replaced-2026-01-01T00-00-00.000Z'), '');
    const lines = await startAndClose(local(dir));
    assert.equal(modeOf(dir), 0o700, lines.join('\n'));
    assert.ok(!lines.some((l) => /not Mnemo's/.test(l)), lines.join('\n'));
  });

  it("a dir shared with other files keeps its mode (with a warning); Mnemo's files in it do not", async () => {
    const dir = join(tempDir(), 'shared');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'notes.txt'), 'not Mnemo');
    await startAndClose(local(dir));
    chmodSync(join(dir, 'mnemo.db'), 0o644);
    // In a shared dir a tmp/ or keys.json may be someone else's (--data-dir /var: /var/tmp is 1777).
    chmodSync(join(dir, 'tmp'), 0o1777);
    chmodSync(join(dir, 'keys.json'), 0o644);
    const lines = await startAndClose(local(dir));
    assert.equal(modeOf(dir), 0o755, 'not ours to close to others');
    assert.equal(modeOf(join(dir, 'mnemo.db')), 0o600);
    assert.equal(statSync(join(dir, 'tmp')).mode & 0o7777, 0o1777, 'a shared tmp/ keeps its sticky bit');
    assert.equal(modeOf(join(dir, 'keys.json')), 0o644);
    assert.ok(
      lines.some((l) =>
        /^warn: the data directory .* holds files that are not Mnemo's \(notes\.txt\)/.test(l),
      ),
      lines.join('\n'),
    );
  });

  it('a --db-key-file open to others is warned of as a line of the log, not as a Node warning', async () => {
    const saved = process.env.MNEMO_DB_KEY;
    delete process.env.MNEMO_DB_KEY;
    after(() => (saved === undefined ? undefined : (process.env.MNEMO_DB_KEY = saved)));
    const root = tempDir();
    const keyFile = join(root, 'my.key');
    writeFileSync(keyFile, `${testStoreKey}\n`);
    chmodSync(keyFile, 0o644);
    const nodeWarnings: string[] = [];
    const onWarning = (w: Error) => nodeWarnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const { dbKey: _none, ...options } = local(join(root, 'data'));
      const lines = await startAndClose({ ...options, dbKeyFile: keyFile });
      const said = lines.filter((l) => l.includes(keyFile));
      assert.deepEqual(said, [
        `warn: the database key file ${keyFile} is open to other users (mode 0644), and whoever reads ` +
          `it can read the store: chmod 600 ${keyFile}`,
      ]);
      assert.equal(modeOf(keyFile), 0o644, "the user's own file is left as it is");
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(nodeWarnings, []);
  });

  it('the generated database key file in the config dir is made owner-only too', async () => {
    const saved = process.env.MNEMO_DB_KEY;
    delete process.env.MNEMO_DB_KEY;
    after(() => (saved === undefined ? undefined : (process.env.MNEMO_DB_KEY = saved)));
    const root = tempDir();
    const configDir = join(root, 'config');
    mkdirSync(configDir, { mode: 0o700 });
    writeFileSync(join(configDir, 'db.key'), `${'a'.repeat(64)}\n`, { mode: 0o644 });
    chmodSync(join(configDir, 'db.key'), 0o644);
    const { dbKey: _none, ...options } = local(join(root, 'data'));
    const lines = await startAndClose({ ...options, configDir });
    assert.equal(modeOf(join(configDir, 'db.key')), 0o600);
    assert.ok(
      lines.some((l) => l.includes(`${join(configDir, 'db.key')} (was 0644)`)),
      lines.join('\n'),
    );
  });
});

/**
 * As a user who is not root: `process.getuid` answers `uid` while `run` runs. The files are made
 * another user's with chown, which needs root, so these tests run only as root.
 */
async function asUser<T>(uid: number, run: () => Promise<T>): Promise<T> {
  const real = process.getuid;
  process.getuid = () => uid;
  try {
    return await run();
  } finally {
    process.getuid = real;
  }
}

/** Why startServer refused `options`; a server that started after all is closed, and the test fails. */
async function refusal(options: ServerOptions): Promise<string> {
  let server;
  try {
    server = await startServer({ ...options, port: 0 });
  } catch (e) {
    return (e as Error).message;
  }
  await server.close();
  return assert.fail('the server started');
}

const me = 4242;
const someoneElse = 4343;

describe(
  'a data dir or key registry of another user',
  {
    skip: process.platform === 'win32' || process.getuid?.() !== 0 ? 'chown needs root' : false,
  },
  () => {
    it('a data dir another user made first (--data-dir /tmp/mnemo) is refused before anything is opened', async () => {
      const dir = join(tempDir(), 'mnemo');
      mkdirSync(dir, { mode: 0o755 });
      chownSync(dir, someoneElse, someoneElse);
      assert.match(
        await asUser(me, () => refusal(local(dir))),
        new RegExp(`the data directory ${dir} belongs to another user \\(uid ${someoneElse}\\)`),
      );
      assert.deepEqual(readdirSync(dir), [], 'no registry, lock or store was made there');
    });

    it('a keys.json planted in a shared dir is refused: it would choose which keys open the store', async () => {
      const shared = tempDir();
      chmodSync(shared, 0o1777);
      chownSync(shared, me, me);
      // What another user left there: a registry admitting their own key, with every scope.
      const theirs = FileKeyRegistry.ensure(registryPathFor(shared));
      await theirs.create({ env: 'live', project: 'local', admin: true });
      chownSync(registryPathFor(shared), someoneElse, someoneElse);
      assert.match(
        await asUser(me, () => refusal(local(shared))),
        new RegExp(`the key registry ${registryPathFor(shared)} belongs to another user`),
      );
    });

    it("root's own choice of a user's dir (a container on a mounted volume) still starts", async () => {
      const dir = join(tempDir(), 'volume');
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, someoneElse, someoneElse);
      await startAndClose(local(dir));
    });
  },
);

describe('the default data dir', () => {
  it('has its key registry too: a key it never issued is refused', async () => {
    const dir = join(tempDir(), 'default');
    const saved = process.env.MNEMO_DATA_DIR;
    process.env.MNEMO_DATA_DIR = dir;
    after(() =>
      saved === undefined ? delete process.env.MNEMO_DATA_DIR : (process.env.MNEMO_DATA_DIR = saved),
    );
    const { dataDir: _default, ...options } = local(dir);
    const server = await startServer({ ...options, port: 0 });
    try {
      const res = await fetch(`${server.url}/brains`, {
        headers: { authorization: 'Bearer sk_live_local_neverissued' },
      });
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { code: string }).code, 'invalid_api_key');
      assert.ok(existsSync(registryPathFor(dir)), 'the registry is in the default data dir');
    } finally {
      await server.close();
    }
  });
});

describe('UI session keys of a Mnemo from before they were marked', () => {
  const legacyKey = (registry: FileKeyRegistry, label: string) =>
    registry.create({ env: 'live', project: 'local', admin: true, label });

  it('are named on stderr but never revoked: a key someone made by hand looks the same', async () => {
    const dir = join(tempDir(), 'data');
    await startAndClose(local(dir));
    const registry = new FileKeyRegistry(registryPathFor(dir));
    const headless = await legacyKey(registry, 'desktop UI session');
    const desktop = await legacyKey(registry, 'desktop app');
    const agent = await legacyKey(registry, 'my agent');

    const lines = await startAndClose(local(dir));
    const warning = lines.find((l) => /look like UI session keys/.test(l));
    assert.ok(warning, lines.join('\n'));
    assert.match(warning, new RegExp(`${headless.record.id}, ${desktop.record.id}\\)`));
    assert.doesNotMatch(warning, new RegExp(agent.record.id));
    for (const { key } of [headless, desktop, agent]) {
      assert.equal((await registry.byHash(hashKey(key)))?.revoked_at, null, 'still active');
    }

    // Once a server has marked its session keys in this registry, a key made later with such a label
    // is a person's: not named.
    const server = await startServer({ ...local(dir), port: 0 });
    await server.mintSessionKey('desktop app');
    await server.close();
    const later = await legacyKey(registry, 'desktop UI session');
    const again = (await startAndClose(local(dir))).find((l) => /look like UI session keys/.test(l)) ?? '';
    assert.match(again, new RegExp(headless.record.id));
    assert.doesNotMatch(again, new RegExp(later.record.id));
  });
});
