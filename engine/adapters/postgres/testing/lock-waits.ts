import type { BrainUnitOfWork } from '../../../ports/index.ts';
import type { PgClient } from '../client.ts';
import { pgUnitsOfWork, unitTxOf } from '../unit-of-work.ts';

/** Until `count` statements on the database wait for a lock (a Brain's row). */
export async function waitForLockWaits(db: PgClient, count = 1): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const r = await db.query<{ c: number }>(
      `SELECT count(*)::int AS c FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    if (r.rows[0]!.c >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} statements waited for a Brain`);
}

/**
 * A process that dies mid-unit: a write unit of `brainUid` on `db` runs `work`, then holds its
 * transaction (and the Brain's row) open. `kill` ends its backend from `other` (as a killed process's
 * connection ends) and resolves to what the unit ended with: an Error, since it never commits.
 */
export async function unitKilledMidway(
  db: PgClient,
  brainUid: string,
  work: (uow: BrainUnitOfWork) => Promise<void>,
): Promise<{ kill: (other: PgClient) => Promise<unknown> }> {
  let pid!: number;
  let holding!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const dead = pgUnitsOfWork(db)
    .write(brainUid, async (u) => {
      await work(u);
      const tx = unitTxOf(u);
      pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      holding();
      await released;
      await tx.query('SELECT 1');
    })
    .then(
      () => null,
      (e: unknown) => e,
    );
  await held;
  return {
    kill: async (other) => {
      await other.query('SELECT pg_terminate_backend($1)', [pid]);
      release();
      return dead;
    },
  };
}
