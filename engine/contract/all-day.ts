/**
 * All-day events, as Records carry them. The calendar importer stores an all-day event's day as 00:00
 * UTC of that day (server/import/formats/ics.ts: a zone there would enter its idempotency key), so such
 * an instant names a calendar date, not a moment. The rule, shared by the engine's time lane and the
 * viewer: an event whose `starts_at` is exactly midnight written in UTC ("Z" or "+00:00"; an offset of
 * its own names a wall time, not a day) and whose `ends_at` is absent or also a UTC midnight, a whole
 * number of days later (the end is exclusive, as DTEND is; equal counts as one day). A timed event
 * starting exactly at 00:00Z and lasting whole days reads as all-day too: it cannot be told apart.
 *
 * Its citable text says those days as dates, the last one inclusive ("when: 2026-12-23 to 2026-12-26"):
 * written as instants ("when: 2026-12-23T00:00:00.000Z to 2026-12-27T00:00:00.000Z"), an agent quoting
 * it said the trip ran into the 27th, at an hour that is another day west or east of UTC. Records
 * written before say the instants, and are never rewritten: every reader takes both (`whenDays`).
 */

const dayMs = 86_400_000;

/** The days an all-day event covers, each as its 00:00 UTC in ms; `last` is inclusive. */
export interface Days {
  first: number;
  last: number;
}

/** The instant of a time written in UTC that falls exactly on midnight, else null. */
function utcMidnight(iso: string | undefined): number | null {
  if (iso === undefined || !/(?:z|[+-]00:?00)$/i.test(iso.trim())) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) && t % dayMs === 0 ? t : null;
}

/** The days of an event with these times, when it is all-day; null when it has a time of day. */
export function allDayDays(startsAt: string | undefined, endsAt: string | undefined): Days | null {
  const first = utcMidnight(startsAt);
  if (first === null) return null;
  if (endsAt === undefined) return { first, last: first };
  const end = utcMidnight(endsAt);
  if (end === null || end < first) return null;
  return { first, last: Math.max(first, end - dayMs) };
}

/** A calendar date alone, as an all-day event's text says it. */
const dateOnly = /^\d{4}-\d\d-\d\d$/u;

/** A date's 00:00 UTC in ms, when DATE is a real one ("2026-02-30" is not). */
function dateMs(date: string): number | null {
  if (!dateOnly.test(date)) return null;
  const t = Date.parse(date);
  return Number.isFinite(t) && new Date(t).toISOString().startsWith(date) ? t : null;
}

/** A day (its 00:00 UTC in ms) as a date: "2026-12-23". */
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * An event's times as its citable text says them after "when: ": an all-day event's days as dates, the
 * last inclusive ("2026-12-23 to 2026-12-26"; one day, "2026-12-23"); any other as given.
 */
export function whenWords(startsAt: string, endsAt: string | undefined): string {
  const days = allDayDays(startsAt, endsAt);
  // A year past 9999 has no date of this form: its instants are said instead.
  if (days && dateOnly.test(dateOf(days.first)) && dateOnly.test(dateOf(days.last)))
    return days.last === days.first ? dateOf(days.first) : `${dateOf(days.first)} to ${dateOf(days.last)}`;
  return `${startsAt}${endsAt ? ` to ${endsAt}` : ''}`;
}

/**
 * The days an event line's times name, read from either form the engine has written them in: dates, the
 * last inclusive ("2026-12-23 to 2026-12-26"), or UTC midnights, the end exclusive (allDayDays); null
 * for times of day, a mix of the two, or an end before the start.
 */
export function whenDays(start: string | undefined, end: string | undefined): Days | null {
  if (start !== undefined && dateOnly.test(start)) {
    const first = dateMs(start);
    const last = end === undefined ? first : dateMs(end);
    return first !== null && last !== null && last >= first ? { first, last } : null;
  }
  if (end !== undefined && dateOnly.test(end)) return null;
  return allDayDays(start, end);
}

/**
 * The event line's times in a Record's citable text ("<title>; when: <starts_at>[ to <ends_at>]; …",
 * as the Citation describes it; `whenWords`), which evidence, an event's Memory and a lexical hit carry instead of
 * the Record's content.
 */
export const whenPart = /(?:^|; )when: (\S+?)(?: to (\S+?))?(?=; |$)/;

/**
 * The days an event's text names when they are all-day and begin at `atMs` (its occurred_at, or its
 * Memory's valid_from, which is that): else null.
 */
export function textDays(text: string, atMs: number): Days | null {
  const m = whenPart.exec(text);
  if (!m) return null;
  const days = whenDays(m[1], m[2]);
  return days && days.first === atMs ? days : null;
}
