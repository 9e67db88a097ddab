import { createHash, randomBytes } from 'node:crypto';
import type { Context } from '../../contract/index.ts';
import type { ThoroughSync } from '../../core/context/thorough-sync.ts';
import { coerceError, MnemoError, type ErrorExtra } from '../../errors/mnemo-error.ts';
import type { ErrorCode } from '../../errors/codes.ts';
import type { PgClient } from './client.ts';

export interface PgThoroughSyncOptions {
  syncMs: number;
  newId: () => string;
  /**
   * How long an assembly is left to its process without word from it: renewed every third of it while
   * it runs, so only a process that died (or lost the database) lets it lapse, and another process
   * then assembles the request under the same id. Default 30 s.
   */
  leaseMs?: number;
  /** How long a finished Context waits for its retry before it is swept. Default 10 min. */
  ttlMs?: number;
}

type State = 'assembling' | 'ready' | 'failed';

interface Row {
  context_id: string;
  state: State;
  refresh: boolean;
  live: boolean;
}

interface Taken {
  context: Context | null;
  error: { code: ErrorCode; message: string; extra?: ErrorExtra } | null;
}

/** This process's own assemblies, so its own retries wait on the promise rather than on the row. */
interface Running {
  id: string;
  outcome: Promise<Context>;
  /** Settles once the assembly ended and what it left is stored (or there was nothing to store). */
  ended: Promise<void>;
}

/** Every Record a Context names (its citations, its Memories' citations), wherever it names one. */
function recordIdsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) recordIdsIn(v, into);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === 'record_id' && typeof v === 'string') into.add(v);
      else recordIdsIn(v, into);
    }
  return into;
}

/**
 * The thorough synchronous budget over the database (ThoroughSync), for engines whose processes share
 * it: the request a 202 answered is kept as a row any process finds, so the same request sent to
 * another process is answered with the same Context id and one Trace, not assembled there again. One
 * process assembles it at a time (the row's lease); when that process dies, the next retry after the
 * lease assembles it under the same id.
 *
 * A kept Context quotes Records: it is stored only while every Record it cites is still there (locked
 * as the Trace store locks them, so a concurrent forget either comes first and nothing is stored, or
 * comes after and deletes the row), and a forget deletes every row of its Brain.
 */
export function pgThoroughSync(client: PgClient, o: PgThoroughSyncOptions): ThoroughSync {
  const leaseMs = o.leaseMs ?? 30_000;
  const ttlMs = o.ttlMs ?? 10 * 60_000;
  const running = new Map<string, Running>();
  const pollMs = Math.max(10, Math.min(100, Math.floor(o.syncMs / 5)));

  const hashOf = (key: string) => createHash('sha256').update(key).digest();

  const read = async (brain: string, hash: Buffer): Promise<Row | null> =>
    (
      await client.query<Row>(
        `SELECT context_id, state, refresh, lease_until > clock_timestamp() AS live
         FROM thorough_contexts WHERE brain_uid = $1 AND request_hash = $2`,
        [brain, hash],
      )
    ).rows[0] ?? null;

  /**
   * Claims a new assembly of the request under a token of its own; null when another process claimed
   * it first. The token, not the id (a takeover keeps the id its 202s gave), is what the assembly's
   * renewals and its end must still hold: one whose lease was taken over stores nothing.
   */
  const claim = async (
    brain: string,
    hash: Buffer,
    id: string,
    refresh: boolean,
    replacing?: string,
  ): Promise<string | null> => {
    // What lapsed long ago (finished and never asked for again, or left by a process that died), of
    // every Brain: the table holds only requests waiting for a retry, so the scan is short.
    await client.query(
      `DELETE FROM thorough_contexts
       WHERE COALESCE(lease_until, settled_at) < clock_timestamp() - make_interval(secs => $1::double precision / 1000)`,
      [ttlMs],
    );
    const owner = randomBytes(12).toString('base64url');
    const r = await client.query(
      replacing === undefined
        ? `INSERT INTO thorough_contexts (brain_uid, request_hash, context_id, owner, state, refresh, lease_until)
           VALUES ($1, $2, $3, $6, 'assembling', $4, clock_timestamp() + make_interval(secs => $5::double precision / 1000))
           ON CONFLICT DO NOTHING`
        : `UPDATE thorough_contexts SET context_id = $3, owner = $6, state = 'assembling', refresh = $4, context = NULL,
             error = NULL, record_ids = '{}',
             lease_until = clock_timestamp() + make_interval(secs => $5::double precision / 1000)
           WHERE brain_uid = $1 AND request_hash = $2 AND context_id = $7
             AND state = 'assembling' AND lease_until <= clock_timestamp()`,
      replacing === undefined
        ? [brain, hash, id, refresh, leaseMs, owner]
        : [brain, hash, id, refresh, leaseMs, owner, replacing],
    );
    return (r.rowCount ?? 0) > 0 ? owner : null;
  };

  /**
   * Serves a finished row once: the process whose delete returns it answers with it. One citing a
   * Record gone since is served to nobody (a forget whose clearing of the rows failed after its
   * commit): the request is assembled again.
   */
  const take = async (brain: string, hash: Buffer, id: string): Promise<Taken | null> => {
    const row = (
      await client.query<Taken & { intact: boolean }>(
        `DELETE FROM thorough_contexts t WHERE brain_uid = $1 AND request_hash = $2 AND context_id = $3
           AND state <> 'assembling'
         RETURNING context, error, (SELECT count(*) FROM records r
           WHERE r.brain_uid = t.brain_uid AND r.id = ANY(t.record_ids)) = cardinality(t.record_ids) AS intact`,
        [brain, hash, id],
      )
    ).rows[0];
    return row?.intact ? { context: row.context, error: row.error } : null;
  };

  const drop = (brain: string, hash: Buffer, owner: string) =>
    client.query('DELETE FROM thorough_contexts WHERE brain_uid = $1 AND request_hash = $2 AND owner = $3', [
      brain,
      hash,
      owner,
    ]);

  const keepReady = async (brain: string, hash: Buffer, owner: string, context: Context) => {
    const ids = [...recordIdsIn(context)];
    // The Brain's row before the Records, in the order a unit of work locks them (trace-store.ts).
    await client.query(
      `WITH brain AS MATERIALIZED (SELECT 1 FROM brains WHERE uid = $1 FOR KEY SHARE),
         held AS (SELECT count(*) AS n FROM (
           SELECT 1 FROM records WHERE brain_uid = $1 AND id = ANY($4::text[]) AND EXISTS (SELECT 1 FROM brain)
           FOR KEY SHARE) r),
         go AS (SELECT 1 FROM held WHERE held.n = cardinality($4::text[]) AND EXISTS (SELECT 1 FROM brain)),
         kept AS (
           UPDATE thorough_contexts SET state = 'ready', context = $5::json, record_ids = $4::text[],
             lease_until = NULL, settled_at = clock_timestamp()
           WHERE brain_uid = $1 AND request_hash = $2 AND owner = $3 AND state = 'assembling'
             AND EXISTS (SELECT 1 FROM go))
       DELETE FROM thorough_contexts WHERE brain_uid = $1 AND request_hash = $2 AND owner = $3
         AND state = 'assembling' AND NOT EXISTS (SELECT 1 FROM go)`,
      [brain, hash, owner, ids, JSON.stringify(context)],
    );
  };

  /** Stores the failure for the next retry; false when this assembly no longer holds the row. */
  const keepFailed = async (brain: string, hash: Buffer, owner: string, error: unknown): Promise<boolean> => {
    const e = coerceError(error);
    const r = await client.query(
      `UPDATE thorough_contexts SET state = 'failed', error = $4::json, lease_until = NULL,
         settled_at = clock_timestamp()
       WHERE brain_uid = $1 AND request_hash = $2 AND owner = $3 AND state = 'assembling'`,
      [brain, hash, owner, JSON.stringify({ code: e.code, message: e.message, extra: e.extra })],
    );
    return (r.rowCount ?? 0) > 0;
  };

  const served = (t: Taken): Context => {
    if (t.error) throw new MnemoError(t.error.code, t.error.message, t.error.extra ?? {});
    return t.context!;
  };

  /**
   * Assembles the request here under `id` (its row claimed with `owner`): the Context if it is done
   * within the budget, else the 202, the row then kept up to date until the Context or its failure is
   * stored.
   */
  async function assembleHere(
    key: string,
    brain: string,
    hash: Buffer,
    id: string,
    owner: string,
    compute: (id: string) => Promise<Context>,
    processing: (id: string) => Context | Promise<Context>,
    failedAfter202: ((id: string, error: unknown) => void | Promise<void>) | undefined,
  ): Promise<Context> {
    const outcome = compute(id);
    const renew = setInterval(
      () => {
        void client
          .query(
            `UPDATE thorough_contexts SET lease_until = clock_timestamp() + make_interval(secs => $4::double precision / 1000)
             WHERE brain_uid = $1 AND request_hash = $2 AND owner = $3 AND state = 'assembling'`,
            [brain, hash, owner, leaseMs],
          )
          .catch(() => {});
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    let announced = false;
    let settled: { ok: Context } | { error: unknown } | null = null;
    let stored = false;
    // Runs when the assembly ends and when the 202 goes out, whichever is last: only an announced
    // assembly is kept for its retry; one that ends within the budget is its caller's alone.
    const keep = async () => {
      if (!announced || settled === null || stored) return;
      stored = true;
      if ('ok' in settled) await keepReady(brain, hash, owner, settled.ok);
      // Its Trace only while the row is still this assembly's: one that took it over tells its own.
      else if (await keepFailed(brain, hash, owner, settled.error)) await failedAfter202?.(id, settled.error);
    };
    // A row that cannot be stored (the database gone a moment) lapses with its lease: the next retry
    // assembles the request again, which is all a lost row costs.
    const keepQuietly = () => keep().catch(() => {});
    const ended = outcome
      .then(
        (c) => {
          settled = { ok: c };
        },
        (error: unknown) => {
          settled = { error };
        },
      )
      .then(() => {
        clearInterval(renew);
        return keepQuietly();
      });
    const mine: Running = { id, outcome, ended };
    running.set(key, mine);
    void ended.then(() => {
      if (running.get(key) === mine) running.delete(key);
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((r) => {
      timer = setTimeout(() => r(null), o.syncMs);
    });
    try {
      const first = await Promise.race([outcome, late]);
      if (first !== null) {
        // The Context is the caller's whatever: a row left behind lapses with its lease.
        await drop(brain, hash, owner).catch(() => {});
        return first;
      }
    } catch (error) {
      await drop(brain, hash, owner).catch(() => {});
      throw error;
    } finally {
      clearTimeout(timer);
    }
    announced = true;
    void keepQuietly();
    return processing(id);
  }

  /**
   * Waits out the budget on an assembly under way (here or in another process), then the 202; null when
   * its row went meanwhile (served to the request that started it, or forgotten) or now holds another
   * assembly, so that the request is looked at again rather than told of an id nobody will answer.
   */
  async function awaitAssembly(
    key: string,
    brain: string,
    hash: Buffer,
    id: string,
    processing: (id: string) => Context | Promise<Context>,
  ): Promise<Context | null> {
    const deadline = Date.now() + o.syncMs;
    const mine = running.get(key);
    if (mine?.id === id) {
      // As the request that started it: the Context if it ends within the budget (served to both
      // callers, then no longer kept), else the 202.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((r) => {
        timer = setTimeout(() => r(null), o.syncMs);
      });
      let first: Context | null;
      try {
        first = await Promise.race([mine.outcome, late]);
      } catch (error) {
        await mine.ended;
        await take(brain, hash, id);
        throw error;
      } finally {
        clearTimeout(timer);
      }
      if (first === null) return processing(id);
      await mine.ended;
      await take(brain, hash, id);
      return first;
    }
    for (;;) {
      const row = await read(brain, hash);
      if (row?.context_id !== id) return null;
      if (row.state !== 'assembling') {
        const t = await take(brain, hash, id);
        return t ? served(t) : null;
      }
      if (Date.now() >= deadline) return processing(id);
      await new Promise((r) => setTimeout(r, Math.min(pollMs, Math.max(1, deadline - Date.now()))));
    }
  }

  return {
    async run(key, compute, processing, failedAfter202, stale) {
      const brain = key.slice(0, key.indexOf('\n'));
      const hash = hashOf(key);
      // A few rounds settle any race between processes; one that never settles is assembled here,
      // unkept, which answers the request all the same.
      for (let round = 0; round < 4; round++) {
        const row = await read(brain, hash);
        if (row === null) {
          const id = o.newId();
          const owner = await claim(brain, hash, id, false);
          if (owner !== null)
            return assembleHere(key, brain, hash, id, owner, compute, processing, failedAfter202);
          continue;
        }
        if (row.state === 'assembling') {
          if (row.live) {
            const out = await awaitAssembly(key, brain, hash, row.context_id, processing);
            if (out !== null) return out;
            continue;
          }
          // Its process stopped renewing the lease: assembled here, under the id its 202s gave.
          const owner = await claim(brain, hash, row.context_id, row.refresh, row.context_id);
          if (owner !== null)
            return assembleHere(key, brain, hash, row.context_id, owner, compute, processing, failedAfter202);
          continue;
        }
        if (row.state === 'ready' && !row.refresh && stale) {
          const t = await take(brain, hash, row.context_id);
          if (!t) continue;
          if (!stale(t.context!)) return served(t);
          // Assembled afresh, once: that one is served whatever has changed (thorough-sync.ts).
          const id = o.newId();
          const owner = await claim(brain, hash, id, true);
          if (owner !== null)
            return assembleHere(key, brain, hash, id, owner, compute, processing, failedAfter202);
          continue;
        }
        const t = await take(brain, hash, row.context_id);
        if (t) return served(t);
      }
      return compute(o.newId());
    },
    async forget(prefix) {
      const brain = prefix.slice(0, prefix.indexOf('\n'));
      for (const k of running.keys()) if (k.startsWith(prefix)) running.delete(k);
      await client.query('DELETE FROM thorough_contexts WHERE brain_uid = $1', [brain]);
    },
  };
}
