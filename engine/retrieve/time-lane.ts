import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { months, timeIntent, weekdays, type TimeIntent } from '../core/retrieve/time-expressions.ts';
import type { TimeZone } from '../core/retrieve/time-zone.ts';
import { allDayDate } from '../core/retrieve/all-day.ts';
import { whenDays, whenPart } from '../contract/all-day.ts';
import { namedSpeakers } from './entity-lane.ts';
import { searchQuery, searchTurns, sharedReason, type TurnRow } from './turn-lexical-lane.ts';

const DAY = 86_400_000;
/** People tell of things some time after they happen ("two weeks ago"): Records this much later may too. */
const tellingLag = 15 * DAY;
/**
 * People tell of plans before they happen ("next Tuesday", "in two weeks", "next month"): Records
 * this much earlier than the window may point into it.
 */
const planningLead = 31 * DAY;
/** At most this many Records of the window are read when the query's words alone find too few. */
const windowScan = 400;

const monthWords = `(?:${months.join('|')}|${months.map((m) => m.slice(0, 3)).join('|')}|sept)`;
/** A month or weekday name, written out or cut short ("oct", "sept"), in a lower-cased time phrase. */
const calendarName = new RegExp(`\\b(?:${monthWords}|${weekdays.join('|')})\\b`, 'gu');
const leadingPreposition = /^(in|during|for|on|at)\s+/u;
/** A time phrase naming one day: "2024-06-18", "the 3rd of october", "october 3, 2023", "friday". */
const oneDay = new RegExp(
  [
    '\\d{4}-\\d{2}-\\d{2}\\b',
    `(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${monthWords}\\b`,
    `${monthWords}\\.?\\s+(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\b`,
    `(?:${weekdays.join('|')})\\b`,
  ]
    .map((p) => `^${p}`)
    .join('|'),
  'u',
);
/** A time phrase naming a month or a year: "mid october", "mid-october", "december", "2023". */
const monthOrYear = new RegExp(`^(?:\\d{4}\\b|(?:early|mid|late)\\b|${monthWords}\\b)`, 'u');

/** A time phrase of the query, lower-cased when read, with its month and weekday names capitalised. */
const named = (phrase: string) => phrase.replace(calendarName, (w) => w[0]!.toUpperCase() + w.slice(1));

/**
 * The query's time phrase after "tells of": without the preposition the query put before it. "tells of
 * in mid october" read as a slip in every Trace of a question about a month.
 */
export function toldOfLabel(label: string): string {
  return named(label.replace(leadingPreposition, ''));
}

/**
 * The query's time phrase after "occurred" or "is": with the preposition its kind of time takes: "on"
 * a day ("on October 3, 2023", "on 2024-06-18", "on Friday"), "in" a month or a year ("in mid
 * October", also for the query's "for December"), else as the query said it ("during March",
 * "yesterday", "last week", "between 2 and 4 October").
 */
export function occurredLabel(label: string): string {
  const prep = leadingPreposition.exec(label);
  const bare = prep ? label.slice(prep[0].length) : label;
  if (oneDay.test(bare)) return `on ${named(bare)}`;
  if (prep?.[1] !== 'during' && monthOrYear.test(bare)) return `in ${named(bare)}`;
  return named(label);
}

/** The calendar day of a Record where the person lives (an all-day event's own date), as the Trace shows it. */
const day = (row: TurnRow, zone: TimeZone) =>
  new Date(allDayDate(row) ?? zone.toWall(row.occurredMs)).toISOString().slice(0, 10);

/**
 * What the query says about time, counted from `as_of` when the request sets it, else from now, in
 * the calendar of `zone`; read once per request (the time and recency lanes both need it).
 */
export function queryTimeIntent(input: LaneInput, now: () => Date, zone: TimeZone): TimeIntent | null {
  const memo = input.memo?.get('timeIntent') as TimeIntent | null | undefined;
  if (memo !== undefined) return memo;
  const intent = timeIntent(input.query, input.eligibility.asOfMs ?? now().getTime(), zone);
  input.memo?.set('timeIntent', intent);
  return intent;
}

/**
 * When a Record's text says something happened ("yesterday", "last Friday", "two weeks ago", "in May")
 * or is to happen ("tomorrow", "next Tuesday", "in two weeks"), the world-time range it points at,
 * counted from when the Record occurred.
 */
export function eventRange(
  text: string,
  occurredMs: number,
  zone: TimeZone,
): { fromMs: number; toMs: number; said: string } | null {
  const t = timeIntent(text, occurredMs, zone);
  if (!t || t.fromMs === undefined || t.toMs === undefined) return null;
  return { fromMs: t.fromMs, toMs: t.toMs, said: t.label };
}

type Placed =
  | { row: TurnRow; how: 'told'; said: string }
  | { row: TurnRow; how: 'occurred' }
  | { row: TurnRow; how: 'scheduled'; on: string };

/**
 * The span an event's own times name ("<title>; when: <starts_at>[ to <ends_at>]", its citable text),
 * as the window's days or instants hold it: an agent writing a plan leaves `occurred_at` to the moment
 * it wrote it, weeks before the day, and the event is still on its day. All-day events (whose `when`
 * is dates, the last inclusive, or in Records written before, UTC midnights and whole days) by their
 * dates, as `place` reads an imported one.
 */
function scheduledSpan(row: TurnRow, intent: TimeIntent): { inWindow: boolean; on: string } | null {
  if (row.kind !== 'event') return null;
  const m = whenPart.exec(row.text);
  if (!m) return null;
  const days = whenDays(m[1], m[2]);
  if (days)
    return {
      inWindow:
        days.first < (intent.toDay ?? intent.toMs ?? Infinity) &&
        days.last >= (intent.fromDay ?? intent.fromMs ?? -Infinity),
      on: new Date(days.first).toISOString().slice(0, 10),
    };
  const start = Date.parse(m[1]!);
  if (!Number.isFinite(start)) return null;
  const endParsed = m[2] === undefined ? NaN : Date.parse(m[2]);
  const end = Number.isFinite(endParsed) && endParsed > start ? endParsed : start + 1;
  return {
    inWindow: start < (intent.toMs ?? Infinity) && end > (intent.fromMs ?? -Infinity),
    on: m[1]!,
  };
}

/**
 * An event's own start, when its times fall in the query's window, as a lane candidate's `datedMs`:
 * whichever way the lane placed it (an event written today for a day of the window "occurred" today
 * too, and one whose title tells of another time is still on its own day), and none for an event
 * written in the window for a day outside it.
 */
function datedIn(row: TurnRow, intent: TimeIntent): { datedMs?: number } {
  const own = scheduledSpan(row, intent);
  const at = own?.inWindow ? Date.parse(own.on) : NaN;
  return Number.isFinite(at) ? { datedMs: at } : {};
}

/**
 * Where a Record sits against the query's window: it tells of something inside it ("yesterday", said
 * the day after), or it occurred inside it; or neither. An all-day event occurred on its date, which
 * is in the window when the window's dates hold it: stored at 00:00 UTC, it lies outside the local
 * day west of UTC (in Los Angeles 00:00Z of 4 July is the evening of 3 July).
 */
function place(row: TurnRow, intent: TimeIntent, zone: TimeZone): Placed | null {
  const from = intent.fromMs ?? -Infinity;
  const to = intent.toMs ?? Infinity;
  // An event's own times are no telling of a time: its dates ("when: 2026-12-23 to 2026-12-26") read
  // as one would tell of the first day, in the server's zone. They are scheduledSpan's to read.
  const told = row.kind === 'event' ? row.text.replace(whenPart, '') : row.text;
  const ev = eventRange(told, row.occurredMs, zone);
  if (ev && ev.fromMs < to && ev.toMs > from) return { row, how: 'told', said: ev.said };
  const date = allDayDate(row);
  const inWindow =
    date === null
      ? row.occurredMs >= from && row.occurredMs < to
      : date >= (intent.fromDay ?? -Infinity) && date < (intent.toDay ?? Infinity);
  if (inWindow) return { row, how: 'occurred' };
  // After "occurred", so an imported calendar's events (occurred_at is their start) rank as before.
  const scheduled = scheduledSpan(row, intent);
  return scheduled?.inWindow ? { row, how: 'scheduled', on: scheduled.on } : null;
}

/** Records of the Brain that occurred in [fromMs, toMs), earliest first, under the eligibility rules. */
function recordsBetween(
  input: LaneInput,
  fromMs: number,
  toMs: number,
  order: 'oldest' | 'newest' = 'oldest',
): Promise<TurnRow[]> {
  return input.lexical.inWindow({ ...input.eligibility, fromMs, toMs }, windowScan, order);
}

/**
 * Time lane: a query that names a time ("on 3 October 2023", "in May", "last week") finds what happened
 * then: Records whose text tells of that time ("yesterday I met ...", said the next day; "next Tuesday
 * at 3pm", said the week before) and Records that occurred then, among the query's other words first; when those are too few, the window's own Records
 * (the named person's first), because a question about a date may share no other word with its answer.
 * "The latest in May" orders them newest first. Relative times count from `as_of` when the request
 * sets it, else from now; days are those of `zone`, where the person lives. (Queries that only ask for
 * the latest or the first: the recency lane.)
 */
export function createTimeLane(now: () => Date, zone: TimeZone): Lane {
  return {
    name: 'time',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const intent = queryTimeIntent(input, now, zone);
      if (!intent || intent.fromMs === undefined) return [];
      const terms = input.terms.filter((t) => !intent.timeWords.includes(t));
      const fromMs = intent.fromMs;
      const toMs = (intent.toMs ?? input.eligibility.asOfMs ?? now().getTime()) + tellingLag;
      const placed: Placed[] = [];
      const seen = new Set<number>();
      const keepPlaced = (ps: Placed[]) => {
        for (const p of ps) {
          if (seen.has(p.row.recordN)) continue;
          seen.add(p.row.recordN);
          placed.push(p);
        }
      };
      const keep = (rows: TurnRow[]) =>
        keepPlaced(rows.map((r) => place(r, intent, zone)).filter((p) => p !== null));
      // The query's own lexical matches (shared with the other lanes) are all there is when they do not
      // fill the pool; only a saturated pool needs a search of its own inside the window.
      const pool = await searchQuery(input);
      keep(
        pool.length < 3 * input.limit
          ? pool
          : await searchTurns(input, {
              terms: terms.length > 0 ? terms : input.terms,
              limit: input.limit,
              fromMs,
              toMs,
            }),
      );
      // West of UTC the first date's all-day events (at its 00:00Z) lie before the local window: read
      // them at that one instant (the time index, no wider scan), after the query's word matches.
      const firstDate = intent.fromDay;
      if (firstDate !== undefined && firstDate < fromMs)
        keep(await recordsBetween(input, firstDate, firstDate + 1));
      if (placed.length < input.limit) {
        const names = await namedSpeakers(input);
        // Before the window, only Records that point forward into it ("next Tuesday"), nearest first.
        const lead = await recordsBetween(input, fromMs - planningLead, fromMs, 'newest');
        const window = [...(await recordsBetween(input, fromMs, toMs)), ...lead]
          .map((r) => place(r, intent, zone))
          .filter((p) => p !== null);
        // Told-of first (a Record saying what happened then), the named person's first within each.
        const rank = (p: Placed) =>
          (p.how === 'occurred' ? 2 : 0) +
          (names.length > 0 && !names.includes(p.row.speakerNorm ?? '') ? 1 : 0);
        keepPlaced(window.sort((a, b) => rank(a) - rank(b)).slice(0, input.limit));
      }
      if (intent.order) {
        const dir = intent.order === 'newest' ? -1 : 1;
        placed.sort((a, b) => dir * (a.row.occurredMs - b.row.occurredMs));
      }
      const out = placed.slice(0, input.limit).map((p, i) => ({
        recordId: p.row.recordId,
        score: placed.length - i,
        ...datedIn(p.row, intent),
        reason:
          p.how === 'told'
            ? `tells of ${toldOfLabel(intent.label)} ("${named(p.said)}", on ${day(p.row, zone)}); ${sharedReason(p.row.text, input.terms)}`
            : p.how === 'scheduled'
              ? `is ${occurredLabel(intent.label)} (${p.on}); ${sharedReason(p.row.text, input.terms)}`
              : `occurred ${occurredLabel(intent.label)} (${day(p.row, zone)}); ${sharedReason(p.row.text, input.terms)}`,
      }));
      input.ledger.charge('processing', (out.length + seen.size) / 1000);
      return out;
    },
  };
}
