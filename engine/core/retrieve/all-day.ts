/**
 * All-day events. The calendar importer stores an all-day event's day as 00:00 UTC of that day
 * (server/import/formats/ics.ts: a zone there would enter its idempotency key): such an instant names
 * a calendar date, not a moment, and a query's days hold it by its date in any zone. The rule is the
 * viewer's (renderer/all-day.ts, which shows these events as their date): an `event` whose `starts_at`
 * is exactly midnight written in UTC ("Z" or "+00:00"; an offset of its own names a wall time) and whose
 * `ends_at` is absent or a UTC midnight a whole number of days later. Read from the event's citable
 * text ("<title>; when: <starts_at>[ to <ends_at>]; …"), which a hit carries, so no column is added.
 */

const DAY = 86_400_000;
const whenPart = /(?:^|; )when: (\S+?)(?: to (\S+?))?(?=; |$)/;

function utcMidnight(iso: string | undefined): number | null {
  if (iso === undefined || !/(?:z|[+-]00:?00)$/i.test(iso)) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) && t % DAY === 0 ? t : null;
}

/**
 * The date an all-day Record names, as its 00:00 UTC in ms: an event whose text's times have the
 * all-day shape and start at its `occurred_at`; else null (a timed event, a message at 00:00Z).
 */
export function allDayDate(r: { kind: string; text: string; occurredMs: number }): number | null {
  if (r.kind !== 'event' || r.occurredMs % DAY !== 0) return null;
  const m = whenPart.exec(r.text);
  if (!m || utcMidnight(m[1]) !== r.occurredMs) return null;
  if (m[2] === undefined) return r.occurredMs;
  const end = utcMidnight(m[2]);
  return end !== null && end >= r.occurredMs ? r.occurredMs : null;
}
