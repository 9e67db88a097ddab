import type { MemoryStatus } from '../../contract/index.ts';
import type { MemoryVersionRow } from '../../ports/index.ts';

/*
 * The temporal rules, written once. A version's world-time interval [valid_from, valid_to) is settled
 * once, independent of the clock (settleLineage); what a reader sees *now* is read from the interval.
 * Each storage adapter translates these into its query language (the SQLite one in
 * adapters/sqlite/memory-view.ts), and a property test holds each translation to these functions.
 */

/** What the rules read of one version of a Memory. */
export interface VersionTimes {
  /** The stored lifecycle: what holds once every known version has begun (see settleLineage). */
  status: 'active' | 'superseded' | 'retracted';
  /** A newer revision of the same external item replaced it (closed whatever its dates); 0 or 1 as rows give it. */
  revised: boolean | number;
  /** The slot it holds a value of, or null for an event, a message, a passage. */
  slot: string | null;
  valid_from_ms: number;
  valid_to_ms: number | null;
}

/** What the rules read of a version as the ports carry it (replaced by a revision: `revised_by`). */
export const timesOf = (
  v: Pick<MemoryVersionRow, 'status' | 'revised_by' | 'slot' | 'valid_from_ms' | 'valid_to_ms'>,
): VersionTimes => ({
  status: v.status,
  revised: v.revised_by !== null,
  slot: v.slot,
  valid_from_ms: v.valid_from_ms,
  valid_to_ms: v.valid_to_ms,
});

/**
 * The effective status at nowMs: `active` (current), `scheduled` (a slot value that starts later),
 * `superseded` (no longer in force: closed, or replaced by a revision), `retracted`. A statement that
 * is not a slot value is current from the moment it is known, whatever date it is about.
 */
export function statusAt(v: VersionTimes, nowMs: number): MemoryStatus {
  if (v.status === 'retracted') return 'retracted';
  if (v.revised) return 'superseded';
  if (v.valid_to_ms !== null && v.valid_to_ms <= Math.max(v.valid_from_ms, nowMs)) return 'superseded';
  return v.slot !== null && v.valid_from_ms > nowMs ? 'scheduled' : 'active';
}

/**
 * The version holds its slot at world time `ms`: not retracted or replaced by a revision, begun, and
 * not yet closed (by world time, so a value closed by a later-scheduled one still holds before then).
 * For a slot value, the same as statusAt(v, ms) === 'active'.
 */
export function inForceAt(v: Omit<VersionTimes, 'slot'>, ms: number): boolean {
  return (
    v.status !== 'retracted' &&
    !v.revised &&
    v.valid_from_ms <= ms &&
    (v.valid_to_ms === null || v.valid_to_ms > ms)
  );
}

/**
 * Served at a world time: with no `asOfMs`, current at `nowMs` (active, and not waiting to be derived
 * again); with one, its interval contains that instant, whatever later versions say, because a reader
 * asking about the past wants what held then. Never a retracted version, never one pending
 * re-derivation.
 */
export function servedAt(
  v: VersionTimes & { pending: boolean | number },
  asOfMs: number | undefined,
  nowMs: number,
): boolean {
  if (v.pending || v.status === 'retracted') return false;
  if (asOfMs === undefined) return statusAt(v, nowMs) === 'active';
  return v.valid_from_ms <= asOfMs && (v.valid_to_ms === null || v.valid_to_ms > asOfMs);
}
