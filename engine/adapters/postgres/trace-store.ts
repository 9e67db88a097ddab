import type { Trace, TracePage } from '../../contract/index.ts';
import { recordIdsOf, summarize, traceCursor } from '../../context/trace-buffer.ts';
import { encodeCursor } from '../../core/shared/page-cursor.ts';
import { traceNotFound } from '../../errors/trace-not-found.ts';
import type { TraceStore } from '../../ports/index.ts';
import type { PgClient } from './client.ts';

/**
 * Traces in the database, so any process lists and reads the Traces of any other. Bounded per Brain
 * (the oldest evicted). Stored as `json`, not `jsonb`: a Trace reads back with its keys in the order
 * written, as the in-memory buffer serves it.
 *
 * A Trace whose assembly outlived a forget must not keep what the forget removed. `forgets()` counts
 * this process's forgets only (the port's check, for a forget here); a forget in another process is
 * caught by `add` itself: it locks the Records the Trace names (FOR KEY SHARE, which a DELETE waits
 * for) and stores nothing when one is gone. So either the forget deleted them first and the Trace is
 * not stored, or the Trace committed first and the forget's forgetRecords removes it.
 */
export function pgTraceStore(client: PgClient, opts: { perBrain?: number } = {}): TraceStore {
  const perBrain = opts.perBrain ?? 500;
  let forgets = 0;
  return {
    async add(brainUid, trace) {
      if (perBrain <= 0) return;
      const ids = [...recordIdsOf(trace)];
      // One statement, its own transaction. It locks the Brain's row before the Records, in the order
      // a unit of work takes them: locking a Record first, its insert's foreign key would then wait for
      // the Brain's row, held by a forget that waits for that Record's lock (a deadlock, both answering
      // 500). The uncorrelated EXISTS is a one-time filter, run before the scan locks any Record.
      // It stores nothing unless it holds every Record the Trace names (nor when the Brain is gone),
      // and then drops the one its 202 left under the same id: a forget in another process must not
      // leave that one saying `processing` for ever (this process's forgets make the assembly call
      // `remove` instead). A thorough Context's final Trace replaces, in place, the one its 202 left,
      // and never the other way round: the 202's is written while the assembly runs on, and may come
      // second (ON CONFLICT also lets the two race without a unique violation). A
      // new one evicts the oldest beyond `perBrain` (the statement's snapshot does not hold the new
      // row, so one fewer is kept of those before it). Its commit does not wait for the disk: a Trace
      // is seen by every process at once all the same, and a server that crashes loses at most the
      // Traces of its last moments, never other data.
      await client.query(
        `WITH async AS (SELECT set_config('synchronous_commit', 'off', true)),
         brain AS MATERIALIZED (SELECT 1 FROM brains WHERE uid = $1 FOR KEY SHARE),
         held AS (SELECT count(*) AS n FROM (
           SELECT 1 FROM records WHERE brain_uid = $1 AND id = ANY($4::text[]) AND EXISTS (SELECT 1 FROM brain)
           FOR KEY SHARE) r),
         go AS (SELECT 1 FROM held, async WHERE held.n = cardinality($4::text[]) AND EXISTS (SELECT 1 FROM brain)),
         added AS (
           INSERT INTO traces (brain_uid, id, trace, record_ids)
           SELECT $1, $2, $3::json, $4::text[] FROM go
           ON CONFLICT (brain_uid, id) DO UPDATE SET trace = EXCLUDED.trace, record_ids = EXCLUDED.record_ids
             WHERE NOT $6::boolean
           RETURNING xmax = 0 AS inserted),
         dropped AS (DELETE FROM traces WHERE brain_uid = $1 AND id = $2 AND NOT EXISTS (SELECT 1 FROM go))
         DELETE FROM traces WHERE brain_uid = $1 AND EXISTS (SELECT 1 FROM added WHERE inserted) AND n <= (
           SELECT n FROM traces WHERE brain_uid = $1 ORDER BY n DESC OFFSET $5 LIMIT 1)`,
        [brainUid, trace.id, JSON.stringify(trace), ids, perBrain - 1, trace.status === 'processing'],
      );
    },
    async list(brainUid, limit, cursor) {
      const before = cursor === undefined ? null : traceCursor(cursor);
      const r = await client.query<{ n: number; trace: Trace }>(
        `SELECT n, trace FROM traces WHERE brain_uid = $1 AND ($2::bigint IS NULL OR n < $2)
         ORDER BY n DESC LIMIT $3`,
        [brainUid, before, limit + 1],
      );
      const page = r.rows.slice(0, limit);
      const hasMore = r.rows.length > limit;
      const out: TracePage = {
        data: page.map((row) => summarize(row.trace)),
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor(String(page[page.length - 1]!.n)) : null,
      };
      return out;
    },
    async get(brainUid, id) {
      const r = await client.query<{ trace: Trace }>(
        'SELECT trace FROM traces WHERE brain_uid = $1 AND id = $2',
        [brainUid, id],
      );
      const hit = r.rows[0];
      if (!hit) throw traceNotFound(id);
      return hit.trace;
    },
    async purge(brainUid) {
      forgets += 1;
      await client.query('DELETE FROM traces WHERE brain_uid = $1', [brainUid]);
    },
    async forgetRecords(brainUid, recordIds) {
      forgets += 1;
      if (recordIds.length === 0) return;
      await client.query('DELETE FROM traces WHERE brain_uid = $1 AND record_ids && $2::text[]', [
        brainUid,
        [...recordIds],
      ]);
    },
    async remove(brainUid, id) {
      await client.query('DELETE FROM traces WHERE brain_uid = $1 AND id = $2', [brainUid, id]);
    },
    forgets: () => forgets,
  };
}
