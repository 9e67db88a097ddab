import type { TypedContent } from '../engine/contract/index.ts';
import { formatDateTime } from './format.ts';

/**
 * All-day events. The calendar importer stores an all-day event's day as 00:00 UTC of that day
 * (server/import/formats/ics.ts: a zone there would enter its idempotency key), so shown in the
 * viewer's zone, west of UTC, it fell on the day before at "17:00". Such a time names a day: it is
 * shown as that date, read in UTC, with no time.
 *
 * The rule: an event whose `starts_at` is exactly midnight written in UTC ("Z" or "+00:00"; an
 * offset of its own names a wall time, not a day) and whose `ends_at` is absent or also a UTC
 * midnight, a whole number of days later (the end is exclusive, as DTEND is; equal counts as one
 * day). A timed event starting exactly at 00:00Z and lasting whole days reads as all-day too: it
 * cannot be told apart.
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

/** The days a Record's occurred_at names: an all-day event's, dated at its start (as imports date it). */
export function recordDays(r: { content: TypedContent; occurred_at: string }): Days | null {
  if (r.content.kind !== 'event') return null;
  const days = allDayDays(r.content.starts_at, r.content.ends_at);
  return days && Date.parse(r.occurred_at) === days.first ? days : null;
}

/**
 * The event line's times in a Record's citable text ("<title>; when: <starts_at>[ to <ends_at>]; …",
 * as the contract's Citation describes it), which evidence and an event's Memory carry instead of the
 * Record's content.
 */
const whenPart = /(?:^|; )when: (\S+?)(?: to (\S+?))?(?=; |$)/;

/**
 * The days `at` names, when `text` is an all-day event's line starting at `at`: an event's evidence
 * (its text and occurred_at) or an event's Memory (its statement and valid_from, which is the Record's
 * occurred_at).
 */
export function textDays(text: string, at: string): Days | null {
  const m = whenPart.exec(text);
  if (!m) return null;
  const days = allDayDays(m[1], m[2]);
  return days && Date.parse(at) === days.first ? days : null;
}

/** An event's evidence: the days its occurred_at names, for an all-day event. */
export const evidenceDays = (e: { kind: string; text: string; occurred_at: string }): Days | null =>
  e.kind === 'event' ? textDays(e.text, e.occurred_at) : null;

/** A Memory (or one of its versions) worked out from an all-day event: its valid_from names a day. */
export const memoryDays = (m: { statement: string; valid_from: string }): Days | null =>
  textDays(m.statement, m.valid_from);

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The days as dates of the calendar (in UTC, where they are stored): "Apr 15, 2024", "Apr 15 – 17, 2024". */
export function formatDays(d: Days): string {
  return d.last === d.first ? dayFormat.format(d.first) : dayFormat.formatRange(d.first, d.last);
}

/** When an all-day event happened, as said beside a Record or a quote: "Apr 15, 2024 (all day)". */
export function formatAllDay(d: Days): string {
  return d.last === d.first ? `${formatDays(d)} (all day)` : formatDays(d);
}

/** When a piece of evidence happened: its day for an all-day event, else its date and time. */
export function evidenceWhen(e: { kind: string; text: string; occurred_at: string }): string {
  const days = evidenceDays(e);
  return days ? formatAllDay(days) : formatDateTime(e.occurred_at);
}
