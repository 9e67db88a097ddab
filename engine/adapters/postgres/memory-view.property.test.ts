import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { inForceAt, servedAt, statusAt } from '../../core/temporal/memory-time.ts';
import {
  history as anyHistory,
  instant,
  slotHistory,
  statuses,
  timesOf,
  type Version,
} from '../../core/temporal/testing/histories.ts';
import { inForceSql, params, servedSql, statusSql, type Params } from './memory-view.ts';
import { pglite } from './testing/pglite.ts';

/*
 * The SQLite adapter's property test, on PostgreSQL: the same random histories
 * (core/temporal/testing/) through this adapter's translations of the temporal rules and through the
 * core's JS, on PGlite, with the same answer asked.
 */

const runs = { seed: 27, numRuns: 300 };

// The columns the rules read, typed as migration 001 types them (bigint instants, boolean pending).
const db = await pglite();
await db.exec(`CREATE TABLE memories (n integer PRIMARY KEY, slot text, valid_from_ms bigint NOT NULL,
  valid_to_ms bigint, status text NOT NULL, revised_by text, pending boolean NOT NULL)`);

async function insertHistory(history: Version[]): Promise<void> {
  await db.query('DELETE FROM memories');
  await db.query(
    `INSERT INTO memories SELECT * FROM json_to_recordset($1::json) AS v(n integer, slot text,
       valid_from_ms bigint, valid_to_ms bigint, status text, revised_by text, pending boolean)`,
    [JSON.stringify(history.map((v, n) => ({ ...v, n, pending: v.pending === 1 })))],
  );
}

async function matching(where: (p: Params) => string): Promise<Set<number>> {
  const p = params();
  const sql = `SELECT n FROM memories m WHERE ${where(p)}`;
  return new Set((await db.query<{ n: number }>(sql, p.values)).rows.map((r) => r.n));
}

const where = (history: Version[], keep: (v: Version) => boolean) =>
  new Set(history.flatMap((v, n) => (keep(v) ? [n] : [])));

describe('the rules of time, PostgreSQL and JS', () => {
  it('statusSql and statusAt give every version of a history the same status at any now', async () => {
    await fc.assert(
      fc.asyncProperty(anyHistory, instant, async (history, now) => {
        await insertHistory(history);
        for (const status of statuses)
          assert.deepEqual(
            await matching((p) => statusSql(p, status, now)),
            where(history, (v) => statusAt(timesOf(v), now) === status),
            `status ${status} at ${now}`,
          );
      }),
      runs,
    );
  });

  it('inForceSql holds exactly where statusAt says active or scheduled', async () => {
    await fc.assert(
      fc.asyncProperty(anyHistory, instant, async (history, now) => {
        await insertHistory(history);
        assert.deepEqual(
          await matching((p) => inForceSql(p, now)),
          where(history, (v) => ['active', 'scheduled'].includes(statusAt(timesOf(v), now))),
        );
      }),
      runs,
    );
  });

  it("derivation's inForceAt of a slot value is statusSql('active') at that world time", async () => {
    await fc.assert(
      fc.asyncProperty(slotHistory, instant, async (history, at) => {
        await insertHistory(history);
        assert.deepEqual(
          await matching((p) => statusSql(p, 'active', at)),
          where(history, (v) => inForceAt(timesOf(v), at)),
        );
      }),
      runs,
    );
  });

  it('servedSql serves exactly what servedAt serves, now and as of any instant', async () => {
    const asOf = fc.option(instant, { nil: undefined });
    await fc.assert(
      fc.asyncProperty(anyHistory, asOf, instant, async (history, at, now) => {
        await insertHistory(history);
        assert.deepEqual(
          await matching((p) => servedSql(p, at, now)),
          where(history, (v) => servedAt(timesOf(v), at, now)),
        );
      }),
      runs,
    );
  });
});
