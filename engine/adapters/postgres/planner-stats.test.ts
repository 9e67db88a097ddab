import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { plannerStats } from './planner-stats.ts';
import { addBrain, migratedDatabase, migratedPglite, recordRow, serverForTests } from './testing/fixtures.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';
import type { PgClient } from './client.ts';

/** Writes `count` Records to the Brain in one unit of work, through units that tell `stats`. */
async function write(
  db: PgClient,
  stats: ReturnType<typeof plannerStats>,
  uid: string,
  from: number,
  count: number,
) {
  const units = pgUnitsOfWork(db, { onCommitted: (n) => stats.wrote(n) });
  await units.write(uid, async (u) => {
    for (let i = from; i < from + count; i++) {
      const seq = await u.sequence.next();
      await u.records.insert(recordRow(uid, `${uid}_r${i}`, seq));
    }
  });
  await stats.idle();
}

const recordTuples = async (db: PgClient) =>
  (
    await db.query<{ n: number }>(
      "SELECT reltuples::bigint AS n FROM pg_class WHERE oid = 'records'::regclass",
    )
  ).rows[0]!.n;

describe("the planner's statistics after many writes", () => {
  it('analyses the Brain tables once a process wrote enough Records, then after half as many again', async () => {
    const db = await migratedPglite();
    await addBrain(db, 'brn_stats');
    const stats = plannerStats(db, { minRecords: 50 });
    await write(db, stats, 'brn_stats', 0, 40);
    assert.equal(stats.runs, 0, 'not yet: 40 Records');
    await write(db, stats, 'brn_stats', 40, 60);
    assert.equal(stats.runs, 1);
    assert.equal(await recordTuples(db), 100, 'the table is counted as it is now');
    // Next after max(50, half of 100): 50 more.
    await write(db, stats, 'brn_stats', 100, 40);
    assert.equal(stats.runs, 1);
    await write(db, stats, 'brn_stats', 140, 10);
    assert.equal(stats.runs, 2);
    await stats.stop();
    await write(db, stats, 'brn_stats', 150, 100);
    assert.equal(stats.runs, 2, 'stopped: none after');
  });
});

const server = await serverForTests();
describe("the planner's statistics on a server", { skip: server.skip }, () => {
  it('is analysed by one process at a time: one that finds another at it skips', async () => {
    const [a, b] = await migratedDatabase(server.cluster(), 2, 2);
    await addBrain(a!, 'brn_stats2');
    const held = await b!.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [0x6d6e_656d_6f02]);
      const stats = plannerStats(a!, { minRecords: 10 });
      await write(a!, stats, 'brn_stats2', 0, 20);
      return stats.runs;
    });
    assert.equal(held, 0, 'another held the lock');
    const stats = plannerStats(a!, { minRecords: 10 });
    await write(a!, stats, 'brn_stats2', 20, 20);
    assert.equal(stats.runs, 1);
  });
});
