import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { hashKey } from '../../../engine/auth/api-key.ts';
import { FileKeyRegistry } from '../../../engine/auth/key-registry.ts';
import { testStoreKey } from '../../../engine/adapters/sqlite/testing.ts';
import { createLocalEngine } from '../../../engine/local/index.ts';
import { pgBrains } from '../../../engine/adapters/postgres/brain-repository.ts';
import { connectPostgres } from '../../../engine/adapters/postgres/client.ts';
import { pgKeyRegistry } from '../../../engine/adapters/postgres/key-registry.ts';
import { startCluster } from '../../../engine/adapters/postgres/testing/cluster.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-keys-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const registry = join(dir, 'keys.json');

function mnemo(...args: string[]) {
  return mnemoWith({}, ...args);
}
function mnemoWith(env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync(process.execPath, ['bin/mnemo.mjs', ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, MNEMO_DATABASE_URL: '', ...env },
  });
}
const create = (...extra: string[]) =>
  mnemo('keys', 'create', '--project', 'p', '--env', 'test', '--key-registry', registry, ...extra);

describe('mnemo keys create refuses bad arguments (exit 2, nothing issued)', () => {
  const refusals: [string, string[], RegExp][] = [
    ['an empty --scopes', ['--scopes', ''], /--scopes.*name at least one scope/],
    ['a --scopes of separators only', ['--scopes', ' , '], /--scopes.*name at least one scope/],
    ['an unknown scope', ['--scopes', 'records:read,nope'], /--scopes.*unknown scope\(s\): nope/],
    ['a --brain that is not a Brain id', ['--brain', 'bad id/..'], /--brain.*must be 1-128 characters/],
    [
      '--data-dir together with --key-registry',
      ['--data-dir', dir],
      /--data-dir.*cannot be used with.*--key-registry/,
    ],
  ];
  for (const [name, extra, message] of refusals) {
    it(name, async () => {
      const r = create(...extra);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.ok(
        !existsSync(registry) || (await new FileKeyRegistry(registry).list()).length === 0,
        'no key was issued',
      );
    });
  }

  it('a --database-url it refuses is not repeated with its password', () => {
    for (const url of [
      'postgres://me:s3cret@:5432/db?host=/tmp/pgqa',
      'postgres://me:2024#s3cret@127.0.0.1:1/db',
      'postgres:me:s3cret@/db',
      // A value whose letters stand elsewhere in the message: only the value itself is shown otherwise.
      's',
    ]) {
      const r = mnemo('keys', 'list', '--database-url', url);
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /--database-url/);
      assert.ok(!r.stderr.includes('s3cret'), r.stderr);
    }
  });

  it('a MNEMO_DATABASE_URL it could not read, refused before connecting as the flag would be', () => {
    const r = mnemoWith(
      { MNEMO_DATABASE_URL: 'postgres://me:s3cret@/db?host=tmp/pgqa' },
      'keys',
      'create',
      '--project',
      'p',
      '--env',
      'test',
    );
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^mnemo: MNEMO_DATABASE_URL: must have a \?host= that is a host name or the Unix socket/,
    );
    assert.ok(!r.stderr.includes('s3cret'), r.stderr);
    assert.equal(r.stdout, '');
  });

  it('a project with "_", which cannot be one part of a key', () => {
    const r = mnemo('keys', 'create', '--project', 'a_b', '--env', 'test', '--key-registry', registry);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--project.*"_" separates the parts of a key/);
  });

  it('still issues a key from good arguments, with exactly the scopes named', async () => {
    const r = create('--scopes', 'records:read, context:read', '--brain', 'life');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^sk_test_p_\S+\n$/);
    const [entry] = await new FileKeyRegistry(registry).list();
    assert.deepEqual(entry?.scopes, ['records:read', 'context:read']);
    assert.equal(entry?.brain, 'life');
  });
});

describe('mnemo keys create --brain for a Brain the store does not hold', () => {
  // The store's key, as the server that made the store was given it.
  const withStoreKey = { MNEMO_DB_KEY: testStoreKey };
  const createIn = (dataDir: string, brain: string, env = 'test') =>
    mnemoWith(
      withStoreKey,
      'keys',
      'create',
      '--project',
      'p',
      '--env',
      env,
      '--brain',
      brain,
      '--data-dir',
      dataDir,
    );
  const warning =
    /^mnemo keys create: warning: there is no Brain "(\S+)" in project p \((test|live)\) in .+ yet; the key is bound to it all the same/;

  it('warns on stderr and still issues the key, the key alone on stdout (exit 0)', async () => {
    const dataDir = mkdtempSync(join(dir, 'store-'));
    // No store yet: no Brain at all.
    const none = createIn(dataDir, 'ana');
    assert.equal(none.status, 0, none.stderr);
    assert.match(none.stdout, /^sk_test_p_\S+\n$/);
    assert.match(none.stderr, warning);
    assert.equal(none.stderr.trimEnd().split('\n').length, 1, none.stderr);

    const engine = await createLocalEngine({ dataDir, dbKey: testStoreKey });
    try {
      await engine.createBrain({ project: 'p', env: 'test' }, { id: 'ana' });
      // Read while the engine has the store open, as a running server would.
      const there = createIn(dataDir, 'ana');
      assert.equal(there.status, 0, there.stderr);
      assert.equal(there.stderr, '', 'no warning for a Brain that exists');
      const typo = createIn(dataDir, 'anna');
      assert.match(typo.stdout, /^sk_test_p_\S+\n$/);
      assert.match(typo.stderr, warning);
      assert.match(typo.stderr, /"anna"/);
      // The same id in the other env is another tenant's Brain.
      assert.match(createIn(dataDir, 'ana', 'live').stderr, /"ana" in project p \(live\)/);
    } finally {
      await engine.close();
    }
    const bound = (await new FileKeyRegistry(join(dataDir, 'keys.json')).list()).map((e) => e.brain);
    assert.deepEqual(bound, ['ana', 'ana', 'anna', 'ana'], 'every key was issued');
  });

  it('checks a store keyed by a file with --db-key-file, and says so when it has no key to check with', async () => {
    const dataDir = mkdtempSync(join(dir, 'store-'));
    const keyFile = join(dataDir, 'db.key');
    writeFileSync(keyFile, `${testStoreKey}\n`, { mode: 0o600 });
    const engine = await createLocalEngine({ dataDir, dbKey: testStoreKey });
    await engine.close();
    const createFor = (brain: string, ...extra: string[]) =>
      mnemoWith(
        { MNEMO_DB_KEY: '', XDG_CONFIG_HOME: join(dataDir, 'no-config') },
        ...['keys', 'create', '--project', 'p', '--env', 'test', '--brain', brain, '--data-dir', dataDir],
        ...extra,
      );
    const checked = createFor('ana', '--db-key-file', keyFile);
    assert.equal(checked.status, 0, checked.stderr);
    assert.match(checked.stderr, /warning: there is no Brain "ana" in project p \(test\)/);
    const unchecked = createFor('ana');
    assert.equal(unchecked.status, 0, unchecked.stderr);
    assert.match(unchecked.stdout, /^sk_test_p_\S+\n$/);
    assert.match(
      unchecked.stderr,
      /^mnemo keys create: note: did not check that Brain "ana" is in .+ \(its store's key is not here: give --db-key-file or set MNEMO_DB_KEY\); the key is bound to it all the same\n$/,
    );
    assert.equal((await new FileKeyRegistry(join(dataDir, 'keys.json')).list()).length, 2);
  });

  it('says nothing when it cannot tell: a --key-registry file names no store', () => {
    const r = create('--brain', 'nowhere');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});

describe('mnemo keys revoke', () => {
  it('revokes once, then says when a key was already revoked (exit 0 both times)', async () => {
    const key = create().stdout.trim();
    const first = mnemo('keys', 'revoke', key, '--key-registry', registry);
    assert.equal(first.status, 0, first.stderr);
    // A whole key is taken, as the CLI spec has it, with a word on where it is now visible.
    const [warning, revoked] = first.stderr.split(/(?<=\n)/);
    assert.equal(
      warning,
      'mnemo keys revoke: warning: a whole key on the command line is visible to other programs (ps) and ' +
        'kept in shell history; give its id instead (mnemo keys list shows it)\n',
    );
    assert.match(revoked ?? '', /^revoked sk_test_p_…\S{4} \((key_\S+)\)\n$/);
    const id = /\((key_\S+)\)/.exec(revoked!)![1]!;
    const at = (await new FileKeyRegistry(registry).byHash(hashKey(key)))?.revoked_at;
    assert.ok(at);
    // By its id: nothing secret on the command line, nothing to warn of.
    const again = mnemo('keys', 'revoke', id, '--key-registry', registry);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.stderr, `${revoked!.slice('revoked '.length, -1)} was already revoked at ${at}\n`);
    assert.equal((await new FileKeyRegistry(registry).byHash(hashKey(key)))?.revoked_at, at);
  });
});

describe('mnemo keys list on a data dir with no registry', () => {
  /** `mnemo keys list` on a store of NAME made as KEPT leaves its registry: none to list, and how to make one. */
  const listsNoKeysYet = async (name: string, kept: (registry: string) => void) => {
    const dataDir = join(dir, name);
    await (await createLocalEngine({ dataDir, dbKey: testStoreKey })).close();
    kept(join(dataDir, 'keys.json'));
    const r = mnemo('keys', 'list', '--data-dir', dataDir);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      new RegExp(
        `^mnemo keys list: no keys yet in .*${name}: \`mnemo keys create --project local --env live --data-dir '.*${name}'\` makes one`,
      ),
    );
    return dataDir;
  };

  it('a store with no keys yet (restored onto a new machine): none to list, and how to make one', async () => {
    const dataDir = await listsNoKeysYet('restored store', (registry) => rmSync(registry, { force: true }));
    assert.equal(existsSync(join(dataDir, 'keys.json')), false, 'listing makes no registry');
  });

  it('a store served once, whose registry is there and empty: no keys yet, and how to make one', async () => {
    // What the server's first start leaves: a registry file with no keys in it.
    await listsNoKeysYet('served store', (registry) => FileKeyRegistry.ensure(registry));
  });

  it('a dir with no store: no Mnemo there, exit 1', () => {
    const r = mnemo('keys', 'list', '--data-dir', join(dir, 'not-a-store'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^mnemo keys list: no Mnemo store in .*not-a-store: give the --data-dir/);
  });
});

describe('mnemo keys on a registry that cannot be read', () => {
  it('names the file with its full path on stderr (an API client gets neither)', () => {
    const missing = join(dir, 'nowhere', 'keys.json');
    const r = mnemo('keys', 'list', '--key-registry', missing);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mnemo: The key registry keys\.json could not be read: it does not exist\.\n/);
    assert.ok(r.stderr.includes(`(${missing}: ENOENT`), r.stderr);
  });
});

const started = await startCluster();
const skip = 'skip' in started ? `no PostgreSQL server to test on: ${started.skip}` : false;
// At the file's level: a hook in the describe would not run when a name filter skips it.
after(() => ('cluster' in started ? started.cluster.stop() : undefined));
describe("mnemo keys on a hosted Mnemo's database (--database-url)", { skip }, () => {
  const cluster = 'cluster' in started ? started.cluster : null;

  it("creates, lists and revokes keys in the database, in the file registry's formats", async () => {
    const url = await cluster!.freshDatabase();
    const made = mnemo(
      'keys',
      'create',
      '--project',
      'acme',
      '--env',
      'live',
      '--brain',
      'team',
      '--label',
      'ci',
      '--database-url',
      url,
    );
    assert.equal(made.status, 0, made.stderr);
    assert.match(made.stdout, /^sk_live_acme_\S+\n$/);
    assert.match(
      made.stderr,
      /warning: there is no Brain "team" in project acme \(live\) in the database yet/,
    );
    const key = made.stdout.trim();

    // MNEMO_DATABASE_URL names the same database.
    const listed = mnemoWith({ MNEMO_DATABASE_URL: url }, 'keys', 'list');
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(
      listed.stdout,
      new RegExp(`^key_\\S+  sk_live_acme_…${key.slice(-4)}  active  scopes=\\S+  brain=team  "ci"\\n$`),
    );
    const json = mnemo('keys', 'list', '--json', '--database-url', url);
    const shown = JSON.parse(json.stdout) as Record<string, unknown>;
    assert.equal(shown.hash, undefined);
    assert.equal(shown.prefix, 'sk_live_acme');

    const revoked = mnemo('keys', 'revoke', key, '--database-url', url);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.match(revoked.stderr, new RegExp(`\\nrevoked sk_live_acme_…${key.slice(-4)} \\(key_\\S+\\)\\n$`));
    const client = connectPostgres(url, { max: 1 });
    try {
      const registry = pgKeyRegistry(client);
      assert.ok((await registry.byHash(hashKey(key)))?.revoked_at);
      // Once the Brain is there, a key bound to it is made without a word.
      await pgBrains(client).create({
        uid: 'brn_team',
        project: 'acme',
        env: 'live',
        id: 'team',
        name: null,
        self_type: null,
        self_name: null,
        created_at: new Date().toISOString(),
      });
    } finally {
      await client.close();
    }
    const bound = mnemo(
      'keys',
      'create',
      '--project',
      'acme',
      '--env',
      'live',
      '--brain',
      'team',
      '--database-url',
      url,
    );
    assert.equal(bound.status, 0, bound.stderr);
    assert.equal(bound.stderr, '');
    const again = mnemo('keys', 'revoke', key, '--database-url', url);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /\nsk_live_acme_…\S{4} \(key_\S+\) was already revoked at \d{4}-\S+Z\n$/);
    assert.equal(mnemo('keys', 'revoke', 'key_nope', '--database-url', url).status, 1);
  });

  it('creates and lists keys through a Unix socket named by ?host=, with no host before the path', async () => {
    const url = new URL(await cluster!.freshDatabase());
    // The cluster's own socket directory, the shared one's too (its URL names only TCP).
    const admin = connectPostgres(url.href, { max: 1 });
    let socketDir: string;
    try {
      const dirs = await admin.query<{ d: string }>("SELECT current_setting('unix_socket_directories') AS d");
      socketDir = dirs.rows[0]!.d.split(',')[0]!.trim();
    } finally {
      await admin.close();
    }
    assert.ok(socketDir.startsWith('/'), socketDir);
    // As psql takes it: `postgresql://user@/db?host=/dir&port=N`.
    const socketUrl = `postgresql://${url.username}@${url.pathname}?host=${socketDir}&port=${url.port}`;
    const made = mnemo('keys', 'create', '--project', 'acme', '--env', 'test', '--database-url', socketUrl);
    assert.equal(made.status, 0, made.stderr);
    const key = made.stdout.trim();
    const listed = mnemoWith({ MNEMO_DATABASE_URL: socketUrl }, 'keys', 'list');
    assert.equal(listed.status, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`sk_test_acme_…${key.slice(-4)}  active`));
    // The same database as its TCP URL names.
    const client = connectPostgres(url.href, { max: 1 });
    try {
      assert.ok(await pgKeyRegistry(client).byHash(hashKey(key)));
    } finally {
      await client.close();
    }
  });

  it('lists or revokes nothing in a database that holds no Mnemo, and leaves it as it was', async () => {
    const url = await cluster!.freshDatabase();
    for (const args of [['list'], ['revoke', 'sk_live_acme_nope1234']]) {
      const r = mnemo('keys', ...args, '--database-url', url);
      assert.equal(r.status, 1, args.join(' '));
      assert.match(r.stderr, /holds no Mnemo \(no keys to list or revoke\): check the URL/);
    }
    const client = connectPostgres(url, { max: 1 });
    try {
      const tables = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
      );
      assert.equal(tables.rows[0]!.n, 0, 'no table was made');
    } finally {
      await client.close();
    }
  });

  it('refuses --database-url with a file registry, and names an unreachable database without its password', () => {
    const both = mnemo(
      'keys',
      'list',
      '--database-url',
      'postgres://x@127.0.0.1:1/db',
      '--key-registry',
      registry,
    );
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--database-url.*cannot be used with.*--key-registry/);
    const down = mnemo('keys', 'list', '--database-url', 'postgres://me:s3cret@127.0.0.1:1/db');
    assert.equal(down.status, 1);
    assert.match(
      down.stderr,
      /^mnemo: the database at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/db could not be used: /,
    );
    assert.ok(!down.stderr.includes('s3cret'), down.stderr);
    assert.equal(down.stderr.trimEnd().split('\n').length, 1, `said once: ${down.stderr}`);
    const inQuery = mnemo('keys', 'list', '--database-url', 'postgres://me@127.0.0.1:1/db?password=s3cret');
    assert.equal(inQuery.status, 1);
    assert.match(inQuery.stderr, /postgres:\/\/me@127\.0\.0\.1:1\/db\?password=\*\*\*/);
    assert.ok(!inQuery.stderr.includes('s3cret'), inQuery.stderr);
    // A socket directory no server listens in: named as given, with its empty host, password hidden.
    const noServer = mkdtempSync(join(tmpdir(), 'mnemo-keys-nosocket-'));
    try {
      const socket = mnemo('keys', 'list', '--database-url', `postgres://me:s3cret@/db?host=${noServer}`);
      assert.equal(socket.status, 1);
      assert.equal(
        socket.stderr.split(' could not be used: ')[0],
        `mnemo: the database at postgres://me:***@/db?host=${noServer}`,
      );
      assert.match(socket.stderr, /connect ENOENT/);
    } finally {
      rmSync(noServer, { recursive: true, force: true });
    }
    const other = mnemo('keys', 'list', '--database-url', 'mysql://me@127.0.0.1:1/db');
    assert.equal(other.status, 2);
    assert.match(other.stderr, /--database-url.*must be a postgres:\/\//);
  });
});
