import fc from 'fast-check';
import type { MemoryStatus } from '../../../contract/index.ts';
import type { VersionTimes } from '../memory-time.ts';

/*
 * Random histories of Memory versions, for the property tests that hold each storage adapter's
 * translation of the temporal rules to memory-time.ts. The instants come from a small pool, so equal
 * instants (a value closed exactly where it starts, "now" on a boundary) are common, not a lucky draw.
 */

export const statuses: MemoryStatus[] = ['active', 'scheduled', 'superseded', 'retracted'];

export const instant = fc.oneof(
  fc.integer({ min: 0, max: 6 }).map((k) => 1_700_000_000_000 + k * 1000),
  fc.integer({ min: 0, max: 4_000_000_000_000 }),
);

export const version = fc.record({
  slot: fc.option(fc.constant('ana\u001flives in'), { nil: null }),
  valid_from_ms: instant,
  valid_to_ms: fc.option(instant, { nil: null }),
  status: fc.constantFrom('active' as const, 'superseded' as const, 'retracted' as const),
  revised_by: fc.option(fc.constant('rec_newer'), { nil: null }),
  pending: fc.constantFrom(0, 1),
});

export type Version = typeof version extends fc.Arbitrary<infer V> ? V : never;

/** A history of one to twelve versions. */
export const history = fc.array(version, { minLength: 1, maxLength: 12 });

/** A history of one slot's values only. */
export const slotHistory = fc.array(
  version.map((v) => ({ ...v, slot: 'ana\u001flives in' as const })),
  { minLength: 1, maxLength: 12 },
);

/** The version as the rules read it (`revised`: replaced by a newer revision). */
export const timesOf = (v: Version): VersionTimes & { pending: number } => ({
  ...v,
  revised: v.revised_by !== null,
});
