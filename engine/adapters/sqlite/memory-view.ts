import type { MemoryStatus } from '../../contract/index.ts';
import type { SqlParam, Store } from './store.ts';

/*
 * Time. A version's world-time interval [valid_from, valid_to) is settled once, independent of the
 * clock (settleLineage): a slot value is closed where the next value starts, even when that start is
 * in the future. What a reader sees *now* is then read from the interval, so nothing has to be
 * rewritten when the clock passes a scheduled start:
 * - in force: not retracted, not replaced by a newer revision, and its interval has
 *   not ended (a corrected version's interval is empty: it never held);
 * - current (status `active`): in force and, for a slot value, already begun. A slot value that starts in
 *   the future is scheduled (status `scheduled`): in force, not current, and it does not displace the
 *   value that holds until it starts.
 *   A statement that is not a slot value (an event, a message, a passage) is current from the moment
 *   it is known, whatever date it is about: an appointment next week is something known today.
 * "Now" is the engine's clock, read once by each operation and bound as a parameter, so one request
 * reads every Memory at the same instant (Context, listMemories and the profile alike).
 */

/** In force at nowMs (the effective status `active` or `scheduled`). */
export function inForceSql(nowMs: number, alias = 'm'): { sql: string; params: SqlParam[] } {
  return {
    sql: `(${alias}.status <> 'retracted' AND ${alias}.revised_by IS NULL
           AND (${alias}.valid_to_ms IS NULL OR ${alias}.valid_to_ms > max(${alias}.valid_from_ms, ?)))`,
    params: [nowMs],
  };
}

/** Begun at nowMs, or no slot value (an event or a message is current from when it is known). */
const begunSql = (alias: string) => `(${alias}.slot IS NULL OR ${alias}.valid_from_ms <= ?)`;

/** Current at nowMs: in force, and begun if it is a slot value. Never pending. */
export function currentSql(nowMs: number, alias = 'm'): { sql: string; params: SqlParam[] } {
  const f = inForceSql(nowMs, alias);
  return {
    sql: `${alias}.pending = 0 AND ${f.sql} AND ${begunSql(alias)}`,
    params: [...f.params, nowMs],
  };
}

/**
 * Scheduled at nowMs: in force, but starting later. Not served, yet replaced by nothing either (a
 * Context's drop reason says so rather than "superseded"). At an `as_of` before it, any statement is
 * "later", slot value or not; the status `scheduled` (statusSql) is a slot value's alone.
 */
export function scheduledSql(nowMs: number, alias = 'm'): { sql: string; params: SqlParam[] } {
  const f = inForceSql(nowMs, alias);
  return { sql: `(${f.sql} AND ${alias}.valid_from_ms > ?)`, params: [...f.params, nowMs] };
}

/**
 * The effective status at nowMs as SQL: `active` (current, pending or not), `scheduled`, `superseded`
 * (no longer in force), `retracted`. So a slot has one active value at any instant, as the spec enforces.
 */
export function statusSql(
  status: MemoryStatus,
  nowMs: number,
  alias = 'm',
): { sql: string; params: SqlParam[] } {
  if (status === 'retracted') return { sql: `${alias}.status = 'retracted'`, params: [] };
  const f = inForceSql(nowMs, alias);
  if (status === 'active') return { sql: `(${f.sql} AND ${begunSql(alias)})`, params: [...f.params, nowMs] };
  if (status === 'scheduled')
    return { sql: `(${f.sql} AND NOT ${begunSql(alias)})`, params: [...f.params, nowMs] };
  return { sql: `(${alias}.status <> 'retracted' AND NOT ${f.sql})`, params: f.params };
}

/**
 * The condition "served at this world time" for alias m: current at nowMs (the engine's clock) when
 * asOfMs is undefined (see above), else valid at asOfMs (its interval contains it); never pending
 * re-derivation, never retracted.
 */
export function servedSql(
  asOfMs: number | undefined,
  nowMs: number,
  alias = 'm',
): { sql: string; params: SqlParam[] } {
  if (asOfMs === undefined) return currentSql(nowMs, alias);
  return {
    sql: `${alias}.pending = 0 AND ${alias}.status <> 'retracted' AND ${alias}.valid_from_ms <= ?
          AND (${alias}.valid_to_ms IS NULL OR ${alias}.valid_to_ms > ?)`,
    params: [asOfMs, asOfMs],
  };
}

/**
 * A hosted deployment serves a Memory only through Records it may show: the Memory must have at
 * least one supporting Record that is not local_only (its other citations are then left out).
 */
export function shareableSql(alias = 'm'): string {
  return `EXISTS (SELECT 1 FROM citations hc JOIN records hr ON hr.id = hc.record_id
                  WHERE hc.memory_id = ${alias}.id AND hr.visibility <> 'local_only')`;
}

/** The citation rows of these Memories, by Memory then Record; `shareableOnly` leaves local_only out. */
export function citationRows(
  store: Store,
  ids: readonly string[],
  opts: { shareableOnly?: boolean } = {},
): { memory_id: string; record_id: string; quote: string }[] {
  if (ids.length === 0) return [];
  return store.all<{ memory_id: string; record_id: string; quote: string }>(
    opts.shareableOnly
      ? `SELECT c.memory_id, c.record_id, c.quote FROM citations c JOIN records r ON r.id = c.record_id
         WHERE c.memory_id IN (SELECT value FROM json_each(?)) AND r.visibility <> 'local_only'
         ORDER BY c.memory_id, c.record_id`
      : `SELECT memory_id, record_id, quote FROM citations
         WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY memory_id, record_id`,
    JSON.stringify(ids),
  );
}
