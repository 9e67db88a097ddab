import type { TypedContent } from '../engine/contract/index.ts';
import {
  allDayDays,
  textDays as contractTextDays,
  whenDays,
  whenPart,
  type Days,
} from '../engine/contract/all-day.ts';
import { dateOnlyUtc, dateTimeRange, formatDateTime } from './format.ts';

// The rule is the contract's, which the engine's time lane follows too: the viewer shows such a time
// as its date, read in UTC, with no time (west of UTC it fell on the day before at "17:00").

/** The days a Record's occurred_at names: an all-day event's, dated at its start (as imports date it). */
export function recordDays(r: { content: TypedContent; occurred_at: string }): Days | null {
  if (r.content.kind !== 'event') return null;
  const days = allDayDays(r.content.starts_at, r.content.ends_at);
  return days && Date.parse(r.occurred_at) === days.first ? days : null;
}

/** The days an event's text names when all-day and starting at `at` (evidence, an event's Memory). */
const textDays = (text: string, at: string): Days | null => contractTextDays(text, Date.parse(at));

/** An event's evidence: the days its occurred_at names, for an all-day event. */
export const evidenceDays = (e: { kind: string; text: string | null; occurred_at: string }): Days | null =>
  e.kind === 'event' && e.text !== null ? textDays(e.text, e.occurred_at) : null;

/** A Memory (or one of its versions) worked out from an all-day event: its valid_from names a day. */
export const memoryDays = (m: { statement: string; valid_from: string }): Days | null =>
  textDays(m.statement, m.valid_from);

/** The days as dates of the calendar (in UTC, where they are stored): "Apr 15, 2024", "Apr 15 – 17, 2024". */
export function formatDays(d: Days): string {
  return d.last === d.first ? dateOnlyUtc.format(d.first) : dateOnlyUtc.formatRange(d.first, d.last);
}

/** When an all-day event happened, as said beside a Record or a quote: "Apr 15, 2024 (all day)". */
export function formatAllDay(d: Days): string {
  return d.last === d.first ? `${formatDays(d)} (all day)` : formatDays(d);
}

/** When a piece of evidence happened: its day for an all-day event, else its date and time. */
export function evidenceWhen(e: { kind: string; text: string | null; occurred_at: string }): string {
  const days = evidenceDays(e);
  return days ? formatAllDay(days) : formatDateTime(e.occurred_at);
}

/** A time as the engine writes one: RFC 3339, with a time of day and an offset. */
const stamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)$/u;

/**
 * An event's line with its times as a person reads them: "Maya's birthday; when: Mar 14, 2027 (all
 * day)" for "…; when: 2027-03-14" (or, written before, "…; when: 2027-03-14T00:00:00.000Z to
 * 2027-03-15T00:00:00.000Z", which read as two days),
 * "Portuguese class; when: Nov 17, 2026, 6:00 – 7:30 PM". Any other text as it is.
 */
export function eventTimesWorded(text: string): string {
  const m = whenPart.exec(text);
  if (!m) return text;
  // An all-day event's dates ("2027-03-14", the last inclusive) or, as Records written before say
  // them, its UTC midnights: read as days, never as instants, which named another day west of UTC.
  const days = whenDays(m[1], m[2]);
  let when: string;
  if (days) when = formatAllDay(days);
  else {
    // Else only the times the engine writes (RFC 3339 with a time and an offset): "when: 7/8" in
    // someone's own words is theirs.
    if (!stamp.test(m[1]!) || (m[2] !== undefined && !stamp.test(m[2]))) return text;
    const start = Date.parse(m[1]!);
    const end = m[2] === undefined ? null : Date.parse(m[2]);
    if (Number.isNaN(start) || (end !== null && Number.isNaN(end))) return text;
    when = end === null || end < start ? formatDateTime(m[1]) : dateTimeRange(start, end);
  }
  const lead = m[0].startsWith('; ') ? '; ' : '';
  return `${text.slice(0, m.index)}${lead}when: ${when}${text.slice(m.index + m[0].length)}`;
}
