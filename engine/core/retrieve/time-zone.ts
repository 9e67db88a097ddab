/**
 * The calendar a person means by "yesterday" or "on 3 October": days start at midnight where they
 * live, not in UTC. Time expressions are worked out on wall-clock time (the instant shifted by the
 * zone's offset, read with UTC arithmetic) and their bounds turned back into instants.
 */
export interface TimeZone {
  /** IANA name ("Europe/Lisbon", "UTC"). */
  readonly name: string;
  /** The wall-clock time at an instant, as milliseconds read with UTC arithmetic. */
  toWall(instantMs: number): number;
  /**
   * The instant at which the wall clock shows `wallMs`: the earlier one in a repeated hour, and in a
   * skipped hour the instant the clock jumped at, shifted by the gap (02:30 -> 03:30).
   */
  toInstant(wallMs: number): number;
}

const MINUTE = 60_000;
/** Zone offsets change only on whole quarter hours (DST rules, historical changes): cache per bucket. */
const bucketMs = 15 * MINUTE;

export const utc: TimeZone = { name: 'UTC', toWall: (ms) => ms, toInstant: (ms) => ms };

/** The zone this machine is set to (TZ, else the system's), which is what its person lives by. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** True for a zone name the platform knows (IANA names, "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * A TimeZone by IANA name; throws a RangeError naming the zone when the platform does not know it.
 * Offsets come from Intl (the platform's tz database); no table of our own to go stale.
 */
export function timeZone(name: string): TimeZone {
  if (!isTimeZone(name)) throw new RangeError(`unknown time zone: ${JSON.stringify(name)}`);
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: name,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  const resolved = fmt.resolvedOptions().timeZone;
  if (resolved === 'UTC' || resolved === 'Etc/UTC') return { ...utc, name: resolved };
  const offsets = new Map<number, number>();
  /** Wall clock minus UTC at an instant (e.g. +3,600,000 in Lisbon in summer). */
  const offsetAt = (instantMs: number): number => {
    const bucket = Math.floor(instantMs / bucketMs);
    const known = offsets.get(bucket);
    if (known !== undefined) return known;
    const at = bucket * bucketMs;
    const part: Record<string, number> = {};
    for (const p of fmt.formatToParts(at)) if (p.type !== 'literal') part[p.type] = Number(p.value);
    // Bucket starts are whole minutes, and offsets since 1900 are whole minutes.
    const offset = Date.UTC(part.year!, part.month! - 1, part.day!, part.hour!, part.minute!) - at;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(bucket, offset);
    return offset;
  };
  return {
    name: resolved,
    toWall: (ms) => ms + offsetAt(ms),
    toInstant(wallMs) {
      // Guess with the offset at the wall time read as an instant, then check the guess; a second
      // check settles an offset that changed in between (Temporal's "compatible" disambiguation).
      const o1 = offsetAt(wallMs);
      const o2 = offsetAt(wallMs - o1);
      if (o1 === o2) return wallMs - o1;
      const o3 = offsetAt(wallMs - o2);
      if (o2 === o3) return wallMs - o2;
      // A skipped hour shows this wall time at no instant: the one the clock jumps to.
      return wallMs - Math.min(o2, o3);
    },
  };
}

/**
 * INSTANT as a clock OFFSET minutes from UTC reads it, with that offset: "2024-03-12T21:17:45-04:00"
 * rather than "2024-03-13T01:17:45.000Z", the same instant, which a prompt reads as the next day.
 * Milliseconds only where there are some.
 */
export function atOffset(instant: Date, offsetMinutes: number): string {
  const local = new Date(instant.getTime() + offsetMinutes * 60_000).toISOString();
  const clock = local.endsWith('.000Z') ? local.slice(0, 19) : local.slice(0, 23);
  const m = Math.abs(offsetMinutes);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${clock}${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(m / 60))}:${two(m % 60)}`;
}

/**
 * An instant as the person's clock in ZONE shows it ("2026-12-03T15:22:36.120-05:00"): a Record
 * stamped so keeps the day its words were said on, which "tomorrow" and "on Monday" count from. At
 * offset zero as toISOString writes it. (TimeZone's offsets are whole minutes, as RFC 3339 writes them.)
 */
export function isoInZone(zone: TimeZone, instantMs: number): string {
  const offsetMinutes = Math.round((zone.toWall(instantMs) - instantMs) / 60_000);
  if (offsetMinutes === 0) return new Date(instantMs).toISOString();
  return atOffset(new Date(instantMs), offsetMinutes);
}
