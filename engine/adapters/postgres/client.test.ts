import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { connectPostgres, sqlLiteral, type PgClient } from './client.ts';
import { poolBusy, storeFailure, unreachable } from './store-failure.ts';
import { migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';

const awkward = `it's a \\ back'slash; $2 -- not a comment`;

/** The transaction's cases, on a client; `other`, a second connection to its database, where there is one. */
function transactionCases(clients: () => Promise<[PgClient, PgClient | null]>) {
  it("gives work its opening statement's rows, parameters as written", async () => {
    const [db] = await clients();
    const got = await db.transaction(
      async (tx, opened) => ({ opened: opened?.rows, next: (await tx.query('SELECT 2 AS two')).rows }),
      {
        readOnly: true,
        opening: { sql: 'SELECT $1::text AS a, $2::text AS b', params: [awkward, 'plain'] },
      },
    );
    assert.deepEqual(got, { opened: [{ a: awkward, b: 'plain' }], next: [{ two: 2 }] });
    assert.equal(await db.transaction(async (_tx, opened) => opened), null, 'no opening, no rows');
    const both = await db.transaction(async (_tx, opened, then) => [opened?.rows, then?.rows], {
      readOnly: true,
      // `then` is not the opening's: a $1 in it is text, not a parameter.
      opening: { sql: 'SELECT $1::text AS a', params: [awkward], then: "SELECT '$1' AS b" },
    });
    assert.deepEqual(both, [[{ a: awkward }], [{ b: '$1' }]]);
  });

  it('takes a repeatable read snapshot at the opening: a commit after it is not seen', async (t) => {
    const [db, other] = await clients();
    if (!other) return t.skip('one connection: no other commit can come between');
    await db.exec('CREATE TABLE IF NOT EXISTS snap (v int); DELETE FROM snap; INSERT INTO snap VALUES (1)');
    const seen = await db.transaction(
      async (tx, opened) => {
        await other.query('UPDATE snap SET v = 2');
        return [opened?.rows[0]?.['v'], (await tx.query<{ v: number }>('SELECT v FROM snap')).rows[0]?.v];
      },
      { isolation: 'repeatable read', readOnly: true, opening: { sql: 'SELECT v FROM snap', params: [] } },
    );
    assert.deepEqual(seen, [1, 1]);
    assert.equal((await db.query<{ v: number }>('SELECT v FROM snap')).rows[0]?.v, 2);
  });

  it('runs the script work finishes with before COMMIT, literals as written; a failing one rolls all back', async () => {
    const [db] = await clients();
    await db.exec('CREATE TABLE IF NOT EXISTS finish (k text PRIMARY KEY, v text, n bigint, b boolean)');
    await db.exec('DELETE FROM finish');
    const values = [awkward, 'line\nbreak', 'tab\tand ünïcødé ✓', `''`, '\\'];
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO finish (k) VALUES ('before')");
      tx.finishWith?.(
        values
          .map(
            (v, i) =>
              `INSERT INTO finish VALUES (${sqlLiteral(`k${i}`)}, ${sqlLiteral(v)}, ${sqlLiteral(-i * 2 ** 40)}, ${sqlLiteral(i % 2 === 0)})`,
          )
          .join(';\n'),
      );
    });
    const rows = (
      await db.query<{ k: string; v: string; n: number; b: boolean }>('SELECT * FROM finish ORDER BY k')
    ).rows;
    assert.deepEqual(
      rows.filter((r) => r.k !== 'before').map((r) => [r.v, r.n, r.b]),
      values.map((v, i) => [v, -i * 2 ** 40 || 0, i % 2 === 0]),
    );
    await assert.rejects(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO finish (k) VALUES ('kept only if all commit')");
        tx.finishWith?.("INSERT INTO finish (k) VALUES ('k9'); INSERT INTO finish (k) VALUES ('k0')");
      }),
      /duplicate key|unique/,
    );
    assert.equal(
      (await db.query('SELECT k FROM finish')).rows.length,
      values.length + 1,
      'nothing of it stayed',
    );
    await assert.rejects(
      db.transaction(
        async (tx) => {
          assert.ok(tx.finishWith);
          tx.finishWith('SELECT 1');
        },
        { readOnly: true },
      ),
      /read-only/,
      'a read-only transaction has nothing to send with its COMMIT',
    );
    assert.throws(() => sqlLiteral(1.5), TypeError);
    assert.throws(() => sqlLiteral({}), TypeError);
  });

  it('rolls back a read-only transaction whose work throws, and each connection serves again', async () => {
    const [db] = await clients();
    await assert.rejects(
      db.transaction(
        async () => {
          throw new Error('the read failed');
        },
        { readOnly: true },
      ),
      /the read failed/,
    );
    for (let i = 0; i < 6; i++)
      assert.equal(
        await db.transaction(
          async (tx) => (await tx.query<{ i: number }>('SELECT $1::int AS i', [i])).rows[0]?.i,
          {
            readOnly: true,
          },
        ),
        i,
      );
    await assert.rejects(
      db.transaction(async (tx) => tx.query('CREATE TABLE refused (a int)'), { readOnly: true }),
      /read-only transaction/,
    );
  });
}

describe('transactions on PGlite', () => {
  const db = migratedPglite();
  transactionCases(async () => [await db, null]);
});

const server = await serverForTests();
describe('transactions on a server', { skip: server.skip }, () => {
  let pools: Promise<PgClient[]> | null = null;
  // A pool of one connection: a transaction that did not give its connection back would hang the next.
  transactionCases(async () => {
    pools ??= migratedDatabase(server.cluster(), 2, 1);
    const [db, other] = await pools;
    return [db!, other!];
  });
  after(async () => {
    for (const p of (await pools) ?? []) await p.close();
  });

  it("names its connections by the process, so pg_stat_activity tells a fleet's processes apart", async () => {
    const [db] = await migratedDatabase(server.cluster(), 1, 1);
    try {
      const { rows } = await db!.query<{ name: string }>(
        'SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()',
      );
      assert.equal(rows[0]?.name, `mnemo ${process.pid}`);
    } finally {
      await db!.close();
    }
  });

  it('prepares a statement with parameters once a connection, and runs it again by name', async () => {
    const [db] = await migratedDatabase(server.cluster(), 1, 1);
    try {
      const sql = 'SELECT $1::int + 1 AS v';
      assert.equal((await db!.query<{ v: number }>(sql, [1])).rows[0]?.v, 2);
      assert.equal((await db!.query<{ v: number }>(sql, [41])).rows[0]?.v, 42);
      const { rows } = await db!.query<{ statement: string }>(
        'SELECT statement FROM pg_prepared_statements WHERE NOT from_sql AND statement = $1',
        [sql],
      );
      assert.equal(rows.length, 1, 'one prepared statement for the two runs');
    } finally {
      await db!.close();
    }
    // Unless asked, as the commands that reach the database through any pooler are not.
    const plain = connectPostgres(await server.cluster().freshDatabase(), { max: 1 });
    try {
      await plain.query('SELECT $1::int AS v', [1]);
      const { rows } = await plain.query('SELECT name FROM pg_prepared_statements WHERE $1', [true]);
      assert.deepEqual(rows, []);
    } finally {
      await plain.close();
    }
  });

  it('rejects a transaction whose connection the server ends between statements, and serves again', async () => {
    const [db, other] = await migratedDatabase(server.cluster(), 2, 1);
    const ended = db!.transaction(async (tx) => {
      const { pid } = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
      // Ended while idle in the transaction: the connection reports it as an 'error' event.
      await other!.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.query('SELECT 1');
    });
    // As a failure of the store, which the derive worker waits out instead of counting against a job.
    await assert.rejects(ended, (e) => storeFailure(e));
    assert.equal((await db!.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1);
  });
});

describe('a pool whose connections are all busy, and one that cannot connect', { skip: server.skip }, () => {
  it('tells a wait behind busy connections from an outage, and pings on a connection of its own', async () => {
    const url = await server.cluster().freshDatabase();
    const db = connectPostgres(url, { max: 1, connectionTimeoutMs: 300 });
    let release = () => {};
    const holding = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await new Promise<void>((resolve) => (release = resolve));
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const waited = await db.query('SELECT 1').then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(poolBusy(waited), String(waited));
      assert.match(String(waited), /pool's 1 connections to the database stayed in use for 0\.3 s/);
      assert.ok(!unreachable(waited), 'a busy pool is not an outage');
      assert.ok(storeFailure(waited), 'derivation waits it out instead of counting a failed attempt');
      await db.ping(1000);
      release();
      await holding;
      assert.equal((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1);
    } finally {
      release();
      await holding;
      await db.close();
    }
  });

  it('counts a wait behind connections that never connect as an outage; its ping fails in time', async () => {
    // Accepts and never answers: each connection of the pool hangs in its start-up.
    const held = new Set<Socket>();
    const silent = createServer((s) => held.add(s.on('error', () => {})));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const db = connectPostgres(`postgres://postgres@127.0.0.1:${port}/none`, {
      max: 1,
      connectionTimeoutMs: 300,
    });
    try {
      const failed = await Promise.all(
        [0, 1].map(() =>
          db.query('SELECT 1').then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      );
      for (const e of failed) assert.ok(unreachable(e) && !poolBusy(e), String(e));
      const started = Date.now();
      await assert.rejects(
        db.ping(200),
        (e: Error) => /did not answer within 200 ms/.test(e.message) && unreachable(e),
      );
      assert.ok(Date.now() - started < 1000);
    } finally {
      await db.close();
      for (const s of held) s.destroy();
      silent.close();
    }
  });
});
