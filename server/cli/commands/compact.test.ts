import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { connectPostgres } from '../../../engine/adapters/postgres/client.ts';
import { migrate } from '../../../engine/adapters/postgres/migrate.ts';
import { startCluster } from '../../../engine/adapters/postgres/testing/cluster.ts';

function mnemo(env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync(process.execPath, ['bin/mnemo.mjs', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, MNEMO_DATABASE_URL: '', ...env },
  });
}

describe('mnemo compact', () => {
  it('needs a database', () => {
    const r = mnemo({}, 'compact');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /name the database with --database-url URL \(or MNEMO_DATABASE_URL\)/);
  });

  it('refuses a MNEMO_DATABASE_URL it could not read before connecting, as it refuses the flag', () => {
    const r = mnemo({ MNEMO_DATABASE_URL: 'postgres://me:s3cret@/db?host=tmp/pgqa' }, 'compact');
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^mnemo: MNEMO_DATABASE_URL: must have a \?host= that is a host name or the Unix socket/,
    );
    assert.ok(!r.stderr.includes('s3cret'), r.stderr);
  });
});

const started = await startCluster();
const skip = 'skip' in started ? `no PostgreSQL server to test on: ${started.skip}` : false;
after(() => ('cluster' in started ? started.cluster.stop() : undefined));
describe("mnemo compact on a hosted Mnemo's database", { skip }, () => {
  const cluster = 'cluster' in started ? started.cluster : null;

  it('rewrites the tables that hold Records and says what each weighed', async () => {
    const url = await cluster!.freshDatabase();
    const client = connectPostgres(url, { max: 1 });
    try {
      await migrate(client);
      const file = async () =>
        (await client.query<{ f: number }>("SELECT pg_relation_filenode('records') AS f")).rows[0]!.f;
      const before = await file();
      // The vectors' table is there when the server offers pgvector (Debian 12 ships none).
      const vectors = (
        await client.query<{ t: boolean }>("SELECT to_regclass('embeddings') IS NOT NULL AS t")
      ).rows[0]!.t;
      const r = mnemo({ MNEMO_DATABASE_URL: url }, 'compact');
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        r.stdout,
        new RegExp(
          String.raw`^records {2}\d+ kB -> \d+ kB\nturns .*\nmemories .*\ncitations .*\ntraces .*\nderive_failures .*\n` +
            (vectors ? String.raw`embeddings .*\n` : '') +
            String.raw`thorough_contexts .*\npg_statistic {2}compacted\n$`,
        ),
      );
      assert.notEqual(await file(), before, 'records was written anew');
    } finally {
      await client.close();
    }
  });

  it('refuses a database without a Mnemo schema, and one it cannot reach, without the password', async () => {
    const empty = mnemo({}, 'compact', '--database-url', await cluster!.freshDatabase());
    assert.equal(empty.status, 1);
    assert.match(empty.stderr, /holds no Mnemo schema: nothing to compact/);
    const down = mnemo({}, 'compact', '--database-url', 'postgres://me:s3cret@127.0.0.1:1/db');
    assert.equal(down.status, 1);
    assert.match(
      down.stderr,
      /^mnemo: the database at postgres:\/\/me:\*\*\*@127\.0\.0\.1:1\/db could not be compacted: /,
    );
    assert.ok(!down.stderr.includes('s3cret'), down.stderr);
  });

  it('refuses a schema newer than it knows: its tables may hold bytes this Mnemo would not rewrite', async () => {
    const url = await cluster!.freshDatabase();
    const client = connectPostgres(url, { max: 1 });
    try {
      await migrate(client);
      await client.query("INSERT INTO mnemo_migrations (version, name) VALUES (9999, 'from the future')");
      const r = mnemo({}, 'compact', '--database-url', url);
      assert.equal(r.status, 1);
      assert.equal(r.stdout, '', 'nothing was compacted');
      assert.match(
        r.stderr,
        /schema is at version 9999, newer than this Mnemo knows \(\d+\): compact it with the Mnemo that migrated it/,
      );
    } finally {
      await client.close();
    }
  });
});
