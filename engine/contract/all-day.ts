/**
 * All-day events, as Records carry them. The calendar importer stores an all-day event's day as 00:00
 * UTC of that day (server/import/formats/ics.ts: a zone there would enter its idempotency key), so such
 * an instant names a calendar date, not a moment. The rule, shared by the engine's time lane and the
 * viewer: an event whose `starts_at` is exactly midnight written in UTC ("Z" or "+00:00"; an offset of
 * its own names a wall time, not a day) and whose `ends_at` is absent or also a UTC midnight, a whole
 * number of days later (the end is exclusive, as DTEND is; equal counts as one day). A timed event
 * starting exactly at 00:00Z and lasting whole days reads as all-day too: it cannot be told apart.
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

/**
 * The event line's times in a Record's citable text ("<title>; when: <starts_at>[ to <ends_at>]; …",
 * as the Citation describes it), which evidence, an event's Memory and a lexical hit carry instead of
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
  const days = allDayDays(m[1], m[2]);
  return days && days.first === atMs ? days : null;
}
