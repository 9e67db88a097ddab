import { atOffset } from '../../engine/index.ts';

export { atOffset, isTimeZone } from '../../engine/index.ts';

/** Wall-clock fields as written in an export that carries no offset. */
export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

export function offsetMs(utcMs: number, timeZone: string): number {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(utcMs)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

const dayMs = 86_400_000;

/**
 * The instant a wall-clock time denotes in `timeZone` (IANA), or in the machine's own zone when none is
 * given (where Date itself does the same). A time in a repeated hour is its first occurrence; a time in
 * a DST gap is read with the offset before the gap, so it moves forward (RFC 5545 3.3.5: New York's
 * 02:30 on the spring-forward day is 07:30Z). The offsets a day before and after are the candidates: a
 * candidate holds when the zone has that offset at the instant it gives.
 */
export function wallTimeToDate(t: WallTime, timeZone?: string): Date {
  const { year, month, day, hour = 0, minute = 0, second = 0 } = t;
  if (!timeZone) return new Date(year, month - 1, day, hour, minute, second);
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  // No offset to look up: a chat is read as if in UTC to find an earlier import's order and zone
  // (earlier-zone.ts), and four formatToParts a message were most of that reading's time.
  if (timeZone === 'UTC') return new Date(wall);
  const before = offsetMs(wall - dayMs, timeZone);
  const after = offsetMs(wall + dayMs, timeZone);
  const holding = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - offsetMs(instant, timeZone) === instant);
  return new Date(holding.length > 0 ? Math.min(...holding) : wall - before);
}

/**
 * A wall time at the instant it was read as (wallTimeToDate), written with its offset (atOffset). The
 * instant as toISOString writes it at UTC, or when the offset is not whole minutes (a zone's local
 * mean time of the 1800s), which RFC 3339 cannot write.
 */
export function wallTimeWithOffset(t: WallTime, instant: Date): string {
  const { year, month, day, hour = 0, minute = 0, second = 0 } = t;
  const offsetMs = Date.UTC(year, month - 1, day, hour, minute, second) - instant.getTime();
  if (offsetMs === 0 || offsetMs % 60_000 !== 0) return instant.toISOString();
  return atOffset(instant, offsetMs / 60_000);
}

/** Valid calendar fields (Date would silently roll 31 February into March). */
export function isValidWallTime(t: WallTime): boolean {
  const d = new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour ?? 0, t.minute ?? 0, t.second ?? 0));
  return (
    d.getUTCFullYear() === t.year &&
    d.getUTCMonth() === t.month - 1 &&
    d.getUTCDate() === t.day &&
    (t.hour ?? 0) < 24 &&
    (t.minute ?? 0) < 60 &&
    (t.second ?? 0) < 60
  );
}

/** RFC 3339 from epoch seconds (ChatGPT, Slack); null when not a usable number. */
export function epochSecondsToIso(v: unknown): string | null {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) return null;
  return new Date(Math.floor(n * 1000)).toISOString();
}

/** RFC 3339 from anything Date can read; null when it cannot. */
export function toIso(v: unknown): string | null {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
