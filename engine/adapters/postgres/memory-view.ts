/*
 * The temporal rules (core/temporal/memory-time.ts: statusAt, inForceAt, servedAt) as PostgreSQL
 * conditions over memories (alias m), the twins of the SQLite adapter's memory-view.ts and held to the
 * core by the same property test's histories (memory-view.property.test.ts). A version's interval
 * [valid_from, valid_to) is settled once; what a reader sees at "now" (the engine's clock, read once
 * by each operation and bound as a parameter) is read from it:
 * - in force: not retracted, not replaced by a newer revision, and its interval has not ended (a
 *   corrected version's interval is empty: it never held);
 * - current (status `active`): in force and, for a slot value, already begun; a slot value that starts
 *   later is `scheduled`. A statement that is not a slot value is current from when it is known.
 */

/** The parameters of one statement: `bind` adds a value and answers its `$n`. */
export interface Params {
  readonly values: unknown[];
  bind(value: unknown): string;
}

export function params(...initial: unknown[]): Params {
  const values = [...initial];
  return {
    values,
    bind(value) {
      values.push(value);
      return `$${values.length}`;
    },
  };
}

// Instants are bigint columns: a bare parameter beside one in GREATEST would be typed from it anyway,
// but an explicit type keeps the comparison integral whatever the planner infers.
const instant = (p: Params, ms: number) => `${p.bind(ms)}::bigint`;

/** In force at nowMs (the effective status `active` or `scheduled`). */
export function inForceSql(p: Params, nowMs: number, alias = 'm'): string {
  const m = alias;
  return `(${m}.status <> 'retracted' AND ${m}.revised_by IS NULL
           AND (${m}.valid_to_ms IS NULL OR ${m}.valid_to_ms > GREATEST(${m}.valid_from_ms, ${instant(p, nowMs)})))`;
}

/** Begun at nowMs, or no slot value (an event or a message is current from when it is known). */
const begunSql = (p: Params, nowMs: number, m: string) =>
  `(${m}.slot IS NULL OR ${m}.valid_from_ms <= ${instant(p, nowMs)})`;

/** Current at nowMs: in force, and begun if it is a slot value. Never pending. */
export function currentSql(p: Params, nowMs: number, alias = 'm'): string {
  return `(NOT ${alias}.pending AND ${inForceSql(p, nowMs, alias)} AND ${begunSql(p, nowMs, alias)})`;
}

/**
 * Scheduled at nowMs: in force, but starting later (at an as_of before it, any statement is, slot value
 * or not). Not served, yet replaced by nothing either.
 */
export function scheduledSql(p: Params, nowMs: number, alias = 'm'): string {
  return `(${inForceSql(p, nowMs, alias)} AND ${alias}.valid_from_ms > ${instant(p, nowMs)})`;
}

/**
 * The effective status at nowMs: `active` (current, pending or not), `scheduled`, `superseded` (no
 * longer in force), `retracted`.
 */
export function statusSql(
  p: Params,
  status: 'active' | 'scheduled' | 'superseded' | 'retracted',
  nowMs: number,
  alias = 'm',
): string {
  const m = alias;
  if (status === 'retracted') return `${m}.status = 'retracted'`;
  if (status === 'active') return `(${inForceSql(p, nowMs, m)} AND ${begunSql(p, nowMs, m)})`;
  if (status === 'scheduled') return `(${inForceSql(p, nowMs, m)} AND NOT ${begunSql(p, nowMs, m)})`;
  return `(${m}.status <> 'retracted' AND NOT ${inForceSql(p, nowMs, m)})`;
}

/**
 * Served at a world time: current at nowMs when asOfMs is undefined, else valid at asOfMs (its
 * interval contains it); never pending re-derivation, never retracted.
 */
export function servedSql(p: Params, asOfMs: number | undefined, nowMs: number, alias = 'm'): string {
  if (asOfMs === undefined) return currentSql(p, nowMs, alias);
  const m = alias;
  const at = instant(p, asOfMs);
  return `(NOT ${m}.pending AND ${m}.status <> 'retracted' AND ${m}.valid_from_ms <= ${at}
           AND (${m}.valid_to_ms IS NULL OR ${m}.valid_to_ms > ${at}))`;
}

/**
 * A hosted deployment serves a Memory only through Records it may show: at least one supporting
 * Record that is not local_only (its other citations are then left out).
 */
export function shareableSql(alias = 'm'): string {
  return `EXISTS (SELECT 1 FROM citations hc
                  JOIN records hr ON hr.brain_uid = hc.brain_uid AND hr.id = hc.record_id
                  WHERE hc.brain_uid = ${alias}.brain_uid AND hc.memory_id = ${alias}.id
                    AND hr.visibility <> 'local_only')`;
}
