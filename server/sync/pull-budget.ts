import type { SyncStatus } from '../../engine/contract/index.ts';
import type { PulledHour } from '../../engine/types.ts';

/** What a pairing's pull may read from its remote's change feed (docs/sync.md, "The pull's budget"). */
export interface PullBudget {
  /** Records one run reads at most; the next run reads on 2 s later (catching up). */
  pullRecordsPerRun: number;
  /** Bytes (the feed's JSON) one run reads at most; as pullRecordsPerRun. */
  pullBytesPerRun: number;
  /** Records the pull reads in a rolling day at most; past it the pull pauses, the push goes on. */
  pullRecordsPerDay: number;
  /** Bytes the pull reads in a rolling day at most; as pullRecordsPerDay. */
  pullBytesPerDay: number;
}

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/**
 * The hours still counted at `now`: an hour counts until a day after its end, so what was read counts
 * for at least a day (up to a day and an hour), never less. An hour after now's was counted by a clock
 * that ran ahead and was set back since: it counts as now's, so a clock a year ahead once does not
 * pause the pull for a year.
 */
export function withinDay(hours: readonly PulledHour[], now: number): PulledHour[] {
  const current = Math.floor(now / hourMs) * hourMs;
  const byHour = new Map<number, PulledHour>();
  for (const h of hours) {
    const hour = Math.min(h.hour, current);
    if (hour + hourMs + dayMs <= now) continue;
    const had = byHour.get(hour);
    byHour.set(
      hour,
      had ? { hour, records: had.records + h.records, bytes: had.bytes + h.bytes } : { ...h, hour },
    );
  }
  return [...byHour.values()];
}

/** Records and bytes read in the day before `now`. */
export function dayTotals(hours: readonly PulledHour[], now: number): { records: number; bytes: number } {
  let records = 0;
  let bytes = 0;
  for (const h of withinDay(hours, now)) {
    records += h.records;
    bytes += h.bytes;
  }
  return { records, bytes };
}

/** `hours` with what was read at `now` added to its hour, and the hours no longer counted left out. */
export function addPulled(
  hours: readonly PulledHour[],
  now: number,
  records: number,
  bytes: number,
): PulledHour[] {
  const hour = Math.floor(now / hourMs) * hourMs;
  const kept = withinDay(hours, now);
  if (!kept.some((h) => h.hour === hour)) return [...kept, { hour, records, bytes }];
  return kept.map((h) =>
    h.hour === hour ? { hour, records: h.records + records, bytes: h.bytes + bytes } : h,
  );
}

/**
 * When the pull may read again: null when the day's reads are under both budgets; else the end of the
 * count of the hour whose leaving brings them under both (the oldest first).
 */
export function pausedUntil(hours: readonly PulledHour[], now: number, b: PullBudget): number | null {
  let { records, bytes } = dayTotals(hours, now);
  const under = () => records < b.pullRecordsPerDay && bytes < b.pullBytesPerDay;
  if (under()) return null;
  for (const h of withinDay(hours, now).sort((x, y) => x.hour - y.hour)) {
    records -= h.records;
    bytes -= h.bytes;
    if (under()) return h.hour + hourMs + dayMs;
  }
  // A budget of 0: nothing leaving brings the reads under it.
  return Infinity;
}

/** The status's pull_budget at `now`. */
export function budgetStatus(
  hours: readonly PulledHour[],
  now: number,
  b: PullBudget,
): NonNullable<SyncStatus['pull_budget']> {
  const until = pausedUntil(hours, now, b);
  return {
    ...dayTotals(hours, now),
    records_per_day: b.pullRecordsPerDay,
    bytes_per_day: b.pullBytesPerDay,
    paused_until: until === null ? null : new Date(Number.isFinite(until) ? until : 8.64e15).toISOString(),
  };
}

/** Bytes as a person reads them: 512 MiB, 20.5 MB. */
export function bytesText(n: number): string {
  if (n >= 1024 * 1024 * 1024 && n % (1024 * 1024 * 1024) === 0) return `${n / 1024 ** 3} GiB`;
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / 1024 ** 2} MiB`;
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)} MB`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)} kB`;
  return `${n} bytes`;
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * What the status's warning says of a paused pull: what it read, until when it waits, that the push
 * goes on, and how the person lifts it. Null when it is not paused.
 */
export function pausedWarning(
  brainId: string,
  budget: NonNullable<SyncStatus['pull_budget']>,
): string | null {
  if (budget.paused_until === null) return null;
  return (
    `the pull is paused: it read ${count(budget.records)} Records (${bytesText(budget.bytes)}) from the hosted ` +
    `Mnemo in the last 24 hours, and a day's budget is ${count(budget.records_per_day)} Records or ` +
    `${bytesText(budget.bytes_per_day)}; it reads on by itself at ${budget.paused_until}, and the push goes on ` +
    'meanwhile. If this is a large history of your own arriving, allow another day’s budget now: ' +
    `mnemo sync run --brain ${brainId} --allow-more, or Allow more in the Sync panel. If it is not, the ` +
    'hosted Mnemo, or a key of its project (an agent’s), is writing far more than you do'
  );
}
