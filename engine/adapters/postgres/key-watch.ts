import { randomUUID } from 'node:crypto';
import type { KeyRecord } from '../../ports/index.ts';
import type { PgClient, PgQueryable } from './client.ts';

export interface KeyWatchOptions {
  /** How long one renewal lets the database count this process as watching, ms. Default 3,000. */
  leaseMs?: number;
  /** How often the revocation epoch is read (how long a revoke waits for a live process), ms. Default 100. */
  pollMs?: number;
  /** A copy unused this long is dropped and the watch ended, so an idle process sends nothing, ms. Default 30,000. */
  idleMs?: number;
  /** The monotonic clock leases are timed by, ms. Tests replace it. */
  now?: () => number;
}

/** A server process's copy of the API keys it has looked up. */
export interface KeyWatch {
  /**
   * The key with this hash, or null: from the copy while the watch holds (an absent hash too),
   * otherwise `read` (kept when it may be).
   */
  lookup(hash: string, read: () => Promise<KeyRecord | null>): Promise<KeyRecord | null>;
  /** Ends the watch: the copy is dropped and the process is no longer counted. */
  close(): Promise<void>;
}

// A process trusts its lease for this share of it: the database counts the lease from when the renewal
// ran, which is after this process sent it, so the process stops using its copy first.
const trustedShare = 0.8;

/**
 * When the last renewal was sent, by two clocks: the monotonic one stops while a machine sleeps or a VM
 * is paused, when the database's clock (which ends the lease) runs on; the wall clock runs on then, but
 * may be set back. Trust ends at whichever says the trusted share has passed first.
 */
interface Sent {
  mono: number;
  wall: number;
}

/**
 * Lets a process answer a request's key without a round trip, and still refuse a key on the first
 * request after its revoke has returned, in every process.
 *
 * A process that keeps keys is a row in `mnemo_key_watchers`: the revocation epoch its copy has seen,
 * and a lease it renews. A revoke bumps `mnemo_key_epoch` and waits (`waitForWatchers`) until every
 * row whose lease has not run out has seen the new epoch. A process reads the epoch every `pollMs`; on
 * a new one it drops its copy, then says so. It uses its copy only inside its lease (by its own clock,
 * from when it sent the renewal); after a gap in which the lease may have run out, and with it the
 * revoke's wait for this process, it drops the copy before trusting a renewal. A key read while the copy
 * was dropped, or read before the watch began, is not kept, as its row may predate the revoke.
 */
export function pgKeyWatch(client: PgClient, options: KeyWatchOptions = {}): KeyWatch {
  const leaseMs = options.leaseMs ?? 3_000;
  const pollMs = options.pollMs ?? 100;
  const idleMs = options.idleMs ?? 30_000;
  const now = options.now ?? (() => performance.now());
  const renewEvery = leaseMs / 3;

  const copy = new Map<string, KeyRecord>();
  // Hashes the table did not hold, so a client retrying a key it was never given (or a stranger trying
  // one) costs a round trip once, not every request. A key's secret is random and minted with its row,
  // so a hash absent now is not one a later create adds; the set is dropped with the copy all the same.
  const absent = new Set<string>();
  // Bumped whenever the copy is dropped: a read begun before that is not kept.
  let generation = 0;
  let watching: { id: string; seen: number; sent: Sent } | null = null;
  let starting: Promise<void> | null = null;
  // A start that failed (the database unreachable) is not tried again by every lookup.
  let startAfter = -Infinity;
  let ticker: NodeJS.Timeout | null = null;
  let ticking = false;
  let lastUsed = now();
  let closed = false;

  const drop = () => {
    copy.clear();
    absent.clear();
    generation++;
  };
  const trustMs = leaseMs * trustedShare;
  const sentNow = (): Sent => ({ mono: now(), wall: Date.now() });
  const within = (t: Sent) => now() < t.mono + trustMs && Date.now() < t.wall + trustMs;
  const trusted = () => watching !== null && within(watching.sent);

  const start = async () => {
    const id = randomUUID();
    const sent = sentNow();
    const seen = epochOf(
      (
        await client.query<{ epoch: number }>(
          `INSERT INTO mnemo_key_watchers (id, seen, lease_until)
           SELECT $1, epoch, clock_timestamp() + $2 * interval '1 millisecond' FROM mnemo_key_epoch
           RETURNING seen AS epoch`,
          [id, leaseMs],
        )
      ).rows[0],
    );
    await client.query(expiredLongAgo).catch(() => {});
    if (closed) {
      await forget(client, id);
      return;
    }
    drop();
    watching = { id, seen, sent };
    ticker = setInterval(() => void tick(), pollMs);
    ticker.unref();
  };

  const stop = async () => {
    if (ticker) clearInterval(ticker);
    ticker = null;
    drop();
    const was = watching;
    watching = null;
    if (was) await forget(client, was.id).catch(() => {});
  };

  // A new epoch: a revoke is waiting for this process. Drop the copy first, then say it is dropped.
  const saw = async (epoch: number) => {
    const w = watching;
    if (!w || epoch <= w.seen) return;
    drop();
    w.seen = epoch;
    await client.query('UPDATE mnemo_key_watchers SET seen = $2 WHERE id = $1', [w.id, epoch]);
  };

  const renew = async (w: NonNullable<typeof watching>) => {
    const sent = sentNow();
    const row = (
      await client.query<{ epoch: number }>(
        `UPDATE mnemo_key_watchers SET lease_until = clock_timestamp() + $2 * interval '1 millisecond', seen = $3
         WHERE id = $1 RETURNING (SELECT epoch FROM mnemo_key_epoch)`,
        [w.id, leaseMs, w.seen],
      )
    ).rows[0];
    if (watching !== w) return;
    if (!row) {
      // Another process removed the row (its lease had long run out): the next lookup starts anew.
      await stop();
      return;
    }
    // The answer came after the lease this process trusted: a revoke may have stopped waiting for it.
    if (!within(w.sent)) drop();
    w.sent = sent;
    await saw(row.epoch);
  };

  const tick = async () => {
    const w = watching;
    if (ticking || !w) return;
    ticking = true;
    try {
      if (now() - lastUsed > idleMs) await stop();
      else if (now() - w.sent.mono >= renewEvery) await renew(w);
      else {
        const epoch = await currentEpoch(client);
        if (watching === w) await saw(epoch);
      }
    } catch {
      // The database is unreachable: the lease runs out on its own and lookups read the table,
      // which answers (or fails) each request itself.
    } finally {
      ticking = false;
    }
  };

  return {
    async lookup(hash, read) {
      lastUsed = now();
      if (trusted()) {
        const kept = copy.get(hash);
        if (kept) return kept;
        if (absent.has(hash)) return null;
      } else if (!watching && !starting && !closed && now() >= startAfter) {
        starting = start()
          .catch(() => void (startAfter = now() + renewEvery))
          .finally(() => (starting = null));
      }
      const from = trusted() ? generation : null;
      const found = await read();
      if (from === generation && trusted()) {
        if (found) copy.set(hash, found);
        else if (absent.size < maxAbsent) absent.add(hash);
      }
      return found;
    },
    async close() {
      closed = true;
      await starting;
      await stop();
    },
  };
}

// Enough for every client of a hosted server retrying a stale key; past it a made-up key is read again.
const maxAbsent = 10_000;

// The rows of processes that died without removing theirs; a lease an hour over belongs to no process.
const expiredLongAgo =
  "DELETE FROM mnemo_key_watchers WHERE lease_until < clock_timestamp() - interval '1 hour'";

async function forget(client: PgQueryable, id: string): Promise<void> {
  await client.query('DELETE FROM mnemo_key_watchers WHERE id = $1', [id]);
}

/** The revocation epoch as the statement's snapshot sees it. */
export async function currentEpoch(q: PgQueryable): Promise<number> {
  return epochOf((await q.query<{ epoch: number }>('SELECT epoch FROM mnemo_key_epoch')).rows[0]);
}

function epochOf(row: { epoch: number } | undefined): number {
  if (!row) throw new Error('mnemo_key_epoch has no row');
  return row.epoch;
}

/**
 * Returns once every process keeping keys has dropped the copies made before `epoch`, or stopped being
 * counted (its lease ran out: a process that died, or cannot reach the database). A live process
 * answers within its poll; a dead one holds a revoke up to its lease. Rows whose lease ran out long ago
 * are removed on the way, as each watch's start removes them.
 */
export async function waitForWatchers(
  client: PgQueryable,
  epoch: number,
  options: { pollMs?: number; giveUpMs?: number } = {},
): Promise<void> {
  const pollMs = options.pollMs ?? 20;
  const giveUpAt = performance.now() + (options.giveUpMs ?? 60_000);
  await client.query(expiredLongAgo);
  for (;;) {
    const behind = (
      await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM mnemo_key_watchers
         WHERE seen < $1 AND lease_until > clock_timestamp()`,
        [epoch],
      )
    ).rows[0]!.n;
    if (behind === 0) return;
    if (performance.now() > giveUpAt)
      throw new Error(
        `the key is revoked, but ${behind} server process(es) renewing their lease have not dropped their copy of the keys; revoking it again waits again`,
      );
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
