import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrate } from '../migrate.ts';
import { postgresStorageOver } from '../storage.ts';
import { addBrain, addRecord } from './fixtures.ts';
import { reusedPgliteDatabases } from './pglite.ts';

const database = await reusedPgliteDatabases({ migrated: true });

/** What a test could tell two databases apart by: every table's rows, the indexes and the sequences. */
async function state(db: Awaited<ReturnType<typeof database>>) {
  const tables = await db.query<{ t: string }>(
    "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  const rows: Record<string, unknown[]> = {};
  for (const { t } of tables.rows) rows[t] = (await db.query(`SELECT * FROM ${t} ORDER BY 1`)).rows;
  const indexes = await db.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1");
  const sequences = await db.query(
    "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1",
  );
  return { rows, indexes: indexes.rows, sequences: sequences.rows };
}

describe('a reused PGlite database', () => {
  it('is handed out again after close, as it started: rows, identities, indexes, settings', async () => {
    const first = await database();
    const started = await state(first);
    await postgresStorageOver(first); // writes its watermark secret
    await addBrain(first, 'brn_a');
    await addRecord(first, 'brn_a', 'rec_a');
    await first.exec('CREATE INDEX made_later ON records (text)');
    await first.exec("SET statement_timeout = '1234ms'");
    assert.notDeepEqual(await state(first), started);
    await first.close();

    const second = await database();
    assert.deepEqual(await state(second), started);
    const timeout = await second.query<{ statement_timeout: string }>('SHOW statement_timeout');
    assert.equal(timeout.rows[0]?.statement_timeout, '0');
    assert.deepEqual((await migrate(second)).applied, []);
    // The same identities again: a row written now takes the number the first one took.
    await addBrain(second, 'brn_b');
    await addRecord(second, 'brn_b', 'rec_b');
    const n = await second.query<{ n: number }>('SELECT n FROM records');
    assert.deepEqual(n.rows, [{ n: 1 }]);
    await second.close();
  });

  it('is a new one while the other is still open', async () => {
    const a = await database();
    const b = await database();
    await addBrain(a, 'brn_open');
    assert.deepEqual((await b.query("SELECT uid FROM brains WHERE uid = 'brn_open'")).rows, []);
    await Promise.all([a.close(), b.close()]);
  });
});

const blankDatabase = await reusedPgliteDatabases();

describe('a reused blank PGlite database', () => {
  const tablesIn = async (db: Awaited<ReturnType<typeof blankDatabase>>) =>
    (
      await db.query<{ t: string }>(
        "SELECT schemaname || '.' || tablename AS t FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1",
      )
    ).rows.map((r) => r.t);

  it('is handed out blank again after its test migrated it and made a schema of its own', async () => {
    const first = await blankDatabase();
    assert.deepEqual(await tablesIn(first), []);
    const searchPath = async (db: typeof first) =>
      (await db.query<{ search_path: string }>('SHOW search_path')).rows[0]?.search_path;
    const path = await searchPath(first);
    const versions = (await migrate(first)).applied;
    await first.exec('CREATE SCHEMA mnemo; SET search_path = mnemo');
    assert.deepEqual((await migrate(first)).applied, versions);
    await first.close();

    const second = await blankDatabase();
    assert.deepEqual(await tablesIn(second), []);
    assert.equal(await searchPath(second), path);
    assert.deepEqual((await migrate(second)).applied, versions);
    await second.close();
  });

  it('is refused, not handed out, when what its test left cannot be put back', async () => {
    const first = await blankDatabase();
    // A role is the cluster's, not a schema's: dropping the schemas leaves it.
    await first.exec('CREATE ROLE left_behind');
    await first.close();
    await assert.rejects(blankDatabase(), /a reused PGlite database is not blank again/);
    // The next is a new one.
    const fresh = await blankDatabase();
    assert.deepEqual(await tablesIn(fresh), []);
    await fresh.close();
  });
});
