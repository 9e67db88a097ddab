import { inEnglishTime, type ReadPhrase } from './foreign-time.ts';
import { foldText } from '../shared/fold-text.ts';
import { utc, type TimeZone } from './time-zone.ts';
import { months, weekdays } from './calendar-words.ts';

export { months, weekdays };

/** What a query says about time: a world-time range it points at, and whether it asks for the newest or oldest. */
export interface TimeIntent {
  fromMs?: number | undefined;
  toMs?: number | undefined;
  /**
   * The same window's calendar dates, each as its 00:00 UTC (from inclusive, to exclusive): where an
   * all-day event is stored (contract/all-day.ts), whatever the zone.
   */
  fromDay?: number | undefined;
  toDay?: number | undefined;
  order?: 'newest' | 'oldest' | undefined;
  /** Query words that only express the time (left out of the text match inside the range). */
  timeWords: string[];
  label: string;
}

const monthAbbr = months.map((m) => m.slice(0, 3));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function monthIndex(w: string): number {
  const i = months.indexOf(w);
  return i >= 0 ? i : monthAbbr.indexOf(w);
}

/** Whether `day` is a day of month `mi` in some year (29 February is). */
function realDay(mi: number, day: number): boolean {
  return day >= 1 && new Date(Date.UTC(2024, mi, day)).getUTCMonth() === mi;
}

function startOfDay(ms: number): number {
  return ms - (((ms % DAY) + DAY) % DAY);
}

/**
 * The Monday that begins the calendar week holding `day` (a wall-clock midnight). Weeks run Monday
 * to Sunday as ISO 8601 counts them: the engine knows the person's zone but no locale, and most
 * calendars outside North America start on Monday.
 */
function weekStart(day: number): number {
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
}

/** The calendar week, month or year holding `day`, as [first midnight, the next one's). */
function calendarPeriod(unit: string, day: number): [number, number] {
  const d = new Date(day);
  if (unit === 'week') return [weekStart(day), weekStart(day) + 7 * DAY];
  if (unit === 'month')
    return [
      Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
      Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
    ];
  return [Date.UTC(d.getUTCFullYear(), 0, 1), Date.UTC(d.getUTCFullYear() + 1, 0, 1)];
}

/**
 * Reads time expressions in English: explicit dates (2023-05-08, 8 May 2023, May 8, 2023, 25/12/2023 and
 * 12/25/2023 where a part over 12 says which is the day, 08.05.2023 day first), months
 * with or without a year, years, and expressions relative to `refMs` (as_of or now): yesterday,
 * today, this morning/afternoon/evening, tonight, last/past week/month/year, N days/weeks/months/years
 * ago; the calendar week (Monday to Sunday), month or year holding `refMs` for "this week/month/year",
 * only its part gone by for "earlier this …" and only the rest for "later this …"; this weekend and
 * this <weekday> (of this calendar week); forward: tomorrow, next <weekday>/weekend, the calendar
 * week/month/year after this one for "next week/month/year",
 * and, in a sentence about what is to come, on <weekday> and in N days/weeks/months (never open-ended
 * words: "soon", "later"); and recency words (latest,
 * most recent, recently, lately, currently, last time) or their opposite (first, earliest).
 * Returns null when the query says nothing about time. Days are the calendar days of `zone` (default
 * UTC): "yesterday" in Lisbon starts at midnight in Lisbon. The same times said in Portuguese, Spanish,
 * French, German or Italian ("há duas semanas", "la semana pasada", "hier") are read as their English
 * (foreign-time.ts), and the label and time words are the query's own.
 */
export function timeIntent(query: string, refMs: number, zone: TimeZone = utc): TimeIntent | null {
  const read = inEnglishTime(query);
  // "em maio", "en mayo", "im Mai" name the month, where English's "in may" is as often the verb; so
  // does "May" written with its capital after a word that leads to a month ("plans for May").
  const mayIsMonth =
    read.phrases.some((p) => /\bin May\b/u.test(p.en)) ||
    /\b(?:in|for|during|last|early|mid|late)[\s-]+May\b/u.test(query);
  let wall = wallTimeIntent(read.text, zone.toWall(refMs), mayIsMonth, read.ahead);
  if (wall === null) return null;
  if (read.phrases.length > 0) wall = saidAsWritten(wall, read.phrases);
  return {
    ...wall,
    fromMs: wall.fromMs === undefined ? undefined : zone.toInstant(wall.fromMs),
    toMs: wall.toMs === undefined ? undefined : zone.toInstant(wall.toMs),
    ...wallDays(wall.fromMs, wall.toMs),
  };
}

/**
 * The calendar dates a wall-clock window holds, for all-day events: those of a window of whole days
 * as they are; one cut inside a day ("tonight", "later this week") holds the date it starts on up to
 * the one it ends on, that one left out (tonight's small hours are not tomorrow's all-day events).
 */
function wallDays(
  fromMs: number | undefined,
  toMs: number | undefined,
): { fromDay: number | undefined; toDay: number | undefined } {
  const fromDay = fromMs === undefined ? undefined : startOfDay(fromMs);
  const toDay =
    toMs === undefined
      ? undefined
      : Math.max(startOfDay(toMs), fromDay === undefined ? -Infinity : fromDay + DAY);
  return { fromDay, toDay };
}

/**
 * A reading of a text whose time phrases were put in English, told in the text's words: the label says
 * what the text said ("semana passada", not "last week"), and every word of a phrase read is a time word
 * of the query ("na", "semana", "passada"), folded as the query's terms are.
 */
function saidAsWritten(wall: TimeIntent, phrases: readonly ReadPhrase[]): TimeIntent {
  let label = wall.label;
  for (const p of phrases)
    if (label.includes(p.en.toLowerCase())) label = label.replace(p.en.toLowerCase(), p.said);
  const words = phrases.flatMap((p) => foldText(p.said).match(/[\p{L}\p{N}]+/gu) ?? []);
  return { ...wall, label, timeWords: [...new Set([...wall.timeWords, ...words])] };
}

/** Days from `today` (a wall-clock midnight) to the next `weekday` strictly after it: 1 to 7. */
function daysUntil(today: number, weekday: string): number {
  return (weekdays.indexOf(weekday) - new Date(today).getUTCDay() + 7) % 7 || 7;
}

/** How many a count word says: "3", "two", "a couple of", "a few"; one for "a", "an", "one". */
export function countOf(word: string): number {
  if (/^\d+$/u.test(word)) return Number(word);
  const n = word.replace(/\s+/gu, ' ');
  const counts: Record<string, number> = {
    two: 2,
    'a couple of': 2,
    'a couple': 2,
    three: 3,
    'a few': 3,
    four: 4,
    five: 5,
    six: 6,
  };
  return counts[n] ?? 1;
}

/** Says what is to come: a future tense, or a plan in the present ("is", "have"), with no past tense. */
const future =
  /\b(will|won't|shall|going to|gonna|plan(?:s|ning)? to|about to|can't wait|looking forward)\b|\w['\u2019]ll\b/;
const present = /\b(is|are|am|have|has|(?:i|we|it|she|he|they|you|that|there)['\u2019](?:m|re|s))\b/;
const past = /\b(was|were|did|had|went|ago|last|yesterday|\w+[^e\W]ed)\b/;
/**
 * A plan put in place, in the past tense, for the time it names: "I booked the dentist for December 8",
 * "my appointment moved to Thursday December 10", "the call is set for Monday". The time is the plan's,
 * still to come when it was said, though "booked" and "moved" read as the past.
 */
const putInPlace = new RegExp(
  String.raw`\b(?:booked|(?:re)?scheduled|reserved|moved|postponed|pushed(?: back)?|bumped|set|planned|arranged|confirmed)\b` +
    String.raw`[^.!?;\n]*\b(?:for|to|until)\s+(?:the\s+)?(?:${[...weekdays, ...months].join('|')}|\d)`,
);

/**
 * `re` in the first sentence that speaks of what is to come: a future tense, or the present ("is",
 * "have") with no past tense. Past words ending in "-ed" count, so "excited" does too: missing a plan
 * costs less than dating a memory wrongly.
 */
function aheadMatch(q: string, re: RegExp): RegExpExecArray | null {
  for (const sentence of q.split(/[.!?;\n]+/)) {
    const m = re.exec(sentence);
    if (
      m &&
      (future.test(sentence) || putInPlace.test(sentence) || (present.test(sentence) && !past.test(sentence)))
    )
      return m;
  }
  return null;
}

const thisDay = /\bthis\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/;

/**
 * How far "this Friday" or "this weekend" moves from the one of this calendar week, its days `first`
 * to `last`: a week on when the sentence holding `re` speaks of what is to come and they have gone
 * by; a week back when it speaks of the past and they are still to come; else not at all.
 */
function saidShift(q: string, re: RegExp, first: number, last: number, today: number): number {
  const sentence = q.split(/[.!?;\n]+/).find((s) => re.test(s)) ?? q;
  if (aheadMatch(sentence, re) !== null) return last < today ? 7 * DAY : 0;
  return past.test(sentence) && first > today ? -7 * DAY : 0;
}

/** timeIntent on wall-clock time: `refMs` and the bounds returned are read with UTC arithmetic. */
function wallTimeIntent(
  query: string,
  refMs: number,
  mayIsMonth = false,
  saidAhead = false,
): TimeIntent | null {
  const q = query.toLowerCase();
  const words: string[] = [];
  let fromMs: number | undefined;
  let toMs: number | undefined;
  let label = '';
  const ref = new Date(refMs);
  const set = (from: number, to: number, l: string, ...ws: string[]) => {
    if (fromMs === undefined) {
      fromMs = from;
      toMs = to;
      label = l;
    }
    words.push(...ws);
  };

  const today = startOfDay(refMs);
  // A day of the year named without its year: in this year, or the last if that is still to come
  // (a question of the past), or the next if it has gone by (a sentence of what is to come).
  // Another language's future tense says so too (`saidAhead`: "O que vou fazer a 3 de maio?").
  const ahead = saidAhead || aheadMatch(q, /./) !== null;
  /** The day named in the year yearless gives it; a 29 February in the nearest leap year that way. */
  const yearlessDay = (mi: number, day: number): number => {
    let d = yearless(Date.UTC(ref.getUTCFullYear(), mi, day));
    for (let i = 0; i < 8 && new Date(d).getUTCDate() !== day; i++)
      d = Date.UTC(new Date(d).getUTCFullYear() + (ahead ? 1 : -1), mi, day);
    return d;
  };
  const yearless = (d: number) => {
    const shift = (years: number) => {
      const x = new Date(d);
      return Date.UTC(x.getUTCFullYear() + years, x.getUTCMonth(), x.getUTCDate());
    };
    if (ahead) return d < today ? shift(1) : d;
    return d > today ? shift(-1) : d;
  };

  let m: RegExpExecArray | null;
  if ((m = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(q))) {
    const d = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    set(d, d + DAY, m[0], m[1]!, m[2]!, m[3]!);
  }
  // A date in numbers with its year ("25/12/2024", "12/25/2024", "03.05.2025"): day and month told apart
  // by a part over 12, or by dots, which write it day first; "03/05/2025" is either and is read as none.
  if ((m = /(?<![\d./-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?![\d./-]*\d)/.exec(q))) {
    const [a, b] = [Number(m[1]), Number(m[3])];
    const dayFirst = a > 12 ? b <= 12 : b > 12 ? false : m[2] === '.' ? true : null;
    const [day, mi] = dayFirst ? [a, b - 1] : [b, a - 1];
    if (dayFirst !== null && realDay(mi, day)) {
      const d = Date.UTC(Number(m[4]), mi, day);
      set(d, d + DAY, m[0], m[1]!, m[3]!, m[4]!);
    }
  }
  const monthRe =
    '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|jun(?:e)?|jul(?:y)?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
  const dayMonth = `(?:(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${monthRe}|${monthRe}\\s+(?:the\\s+)?(\\d{1,2})(?:st|nd|rd|th)?)`;
  if (
    (m = new RegExp(
      `\\b(?:between|from)\\s+${dayMonth}(?:,?\\s+(\\d{4}))?\\s+(?:and|to|until|till)\\s+${dayMonth}(?:,?\\s+(\\d{4}))?(?![\\w])`,
    ).exec(q))
  ) {
    // "between August 11 and August 15 2023": both days, the first taking the second's year if it has
    // none; with no year at all ("between Nov 23 and Nov 29"), the year that puts the end nearest.
    const at = (day: string, month: string, year: string) =>
      Date.UTC(Number(year), monthIndex(month.slice(0, 3)), Number(day));
    const endYear =
      m[10] ??
      String(
        new Date(yearless(at(m[6] ?? m[9]!, m[7] ?? m[8]!, String(ref.getUTCFullYear())))).getUTCFullYear(),
      );
    const end = at(m[6] ?? m[9]!, m[7] ?? m[8]!, endYear);
    let start = at(m[1] ?? m[4]!, m[2] ?? m[3]!, m[5] ?? endYear);
    // "between December 28 and January 3 2024" starts the year before; a range written backwards is
    // still the same range.
    if (start > end && m[5] === undefined && new Date(start).getUTCMonth() > new Date(end).getUTCMonth())
      start = at(m[1] ?? m[4]!, m[2] ?? m[3]!, String(Number(endYear) - 1));
    const [lo, hi] = start <= end ? [start, end] : [end, start];
    set(lo, hi + DAY, m[0], ...m.slice(1).filter((x): x is string => x !== undefined));
  } else if (
    (m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${monthRe},?\\s+(\\d{4})\\b`).exec(q))
  ) {
    const d = Date.UTC(Number(m[3]), monthIndex(m[2]!.slice(0, 3)), Number(m[1]));
    set(d, d + DAY, m[0], m[1]!, m[2]!, m[3]!);
  } else if ((m = new RegExp(`\\b${monthRe}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`).exec(q))) {
    const d = Date.UTC(Number(m[3]), monthIndex(m[1]!.slice(0, 3)), Number(m[2]));
    set(d, d + DAY, m[0], m[1]!, m[2]!, m[3]!);
  } else if (
    (m = new RegExp(
      `\\b(?:between|from)\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:and|to|until|till)\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${monthRe}(?:,?\\s+(\\d{4}))?(?![\\w])`,
    ).exec(q))
  ) {
    // "between 23 and 29 November": one month's days.
    const mi = monthIndex(m[3]!.slice(0, 3));
    const year = Number(
      m[4] ?? new Date(yearless(Date.UTC(ref.getUTCFullYear(), mi, Number(m[2])))).getUTCFullYear(),
    );
    const [a, b] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y);
    set(
      Date.UTC(year, mi, a),
      Date.UTC(year, mi, b!) + DAY,
      m[0],
      ...m.slice(1).filter((x): x is string => x !== undefined),
    );
  } else if (
    (m = new RegExp(`\\b${dayMonth}(?![\\w,]|,?\\s+\\d)`).exec(q)) &&
    // "may" and "march" are verbs as often ("did we march 10 km"): months only where the query writes
    // them so ("May 5", "5 March").
    !(['may', 'march', 'mar'].includes(m[3] ?? '') && !/\b(?:May|March|Mar)\b/.test(query)) &&
    realDay(monthIndex((m[2] ?? m[3]!).slice(0, 3)), Number(m[1] ?? m[4]))
  ) {
    // "on Nov 23", "23 November": that day in the year it was last (or, said of what is to come, next);
    // a 29 February in the nearest leap year that way.
    const d = yearlessDay(monthIndex((m[2] ?? m[3]!).slice(0, 3)), Number(m[1] ?? m[4]));
    set(d, d + DAY, m[0], ...m.slice(1).filter((x): x is string => x !== undefined));
  } else if ((m = new RegExp(`\\b${monthRe}\\s+(?:of\\s+)?(\\d{4})\\b`).exec(q))) {
    const mi = monthIndex(m[1]!.slice(0, 3));
    set(Date.UTC(Number(m[2]), mi, 1), Date.UTC(Number(m[2]), mi + 1, 1), m[0], m[1]!, m[2]!);
  } else if ((m = /\b(?:in|during|since)\s+(19\d{2}|20\d{2})\b/.exec(q))) {
    set(Date.UTC(Number(m[1]), 0, 1), Date.UTC(Number(m[1]) + 1, 0, 1), m[0], m[1]!);
  } else if (
    (m = new RegExp(
      `\\b(?:(?:in|during|last|for)\\s+(?:(?:early|mid|late)[\\s-]+)?|(?:early|mid|late)[\\s-]+)${monthRe}\\b`,
    ).exec(q)) &&
    (m[1] !== 'may' || mayIsMonth)
  ) {
    // A bare month ("in March", "plans for December", "in mid-October": the whole month, as people
    // round): its latest occurrence not after the reference time, or, in a sentence of what is to come
    // ("What am I doing in January?" asked in December), its next, as a day of the year said so is.
    const mi = monthIndex(m[1]!.slice(0, 3));
    const thisYear = ref.getUTCFullYear();
    const y = ahead
      ? mi >= ref.getUTCMonth()
        ? thisYear
        : thisYear + 1
      : mi <= ref.getUTCMonth()
        ? thisYear
        : thisYear - 1;
    // "mid" is a word of the time, not one to search the Records by.
    const part = /\b(early|mid|late)\b/.exec(m[0])?.[1];
    set(Date.UTC(y, mi, 1), Date.UTC(y, mi + 1, 1), m[0], m[1]!, ...(part ? [part] : []));
  }

  if ((m = /\bsince (?:last )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/.exec(q))) {
    // "since Monday": from the latest such day strictly before the reference day up to it, that day
    // included; said on a Monday, the Monday a week before.
    const back = (new Date(today).getUTCDay() - weekdays.indexOf(m[1]!) + 7) % 7 || 7;
    set(today - back * DAY, today + DAY, m[0], m[1]!);
  }
  if (/\byesterday\b/.test(q)) set(today - DAY, today, 'yesterday', 'yesterday');
  if ((m = /\blast night\b/.exec(q))) set(today - DAY, today + DAY, m[0], 'night');
  if ((m = /\b(today|tonight|this (morning|afternoon|evening))\b/.exec(q))) {
    // The part of today they name, its past and what is still to come: a 09:00 class is not "tonight".
    // Loose at the edges, as people are: evening from 17:00, and tonight into the small hours.
    const hours: Record<string, [number, number]> = {
      today: [0, 24],
      'this morning': [0, 12],
      'this afternoon': [12, 18],
      'this evening': [17, 24],
      tonight: [17, 28],
    };
    // Said in the small hours, "tonight" is the night under way, which began the evening before.
    const night = m[0] === 'tonight' && refMs - today < 4 * HOUR ? -DAY : 0;
    const [from, to] = hours[m[0]]!;
    set(today + night + from * HOUR, today + night + to * HOUR, m[0], ...m[0].split(' '));
  }
  if ((m = /\blast (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/.exec(q))) {
    // The latest such day strictly before the reference day, give or take a day (people round).
    const back = (new Date(today).getUTCDay() - weekdays.indexOf(m[1]!) + 7) % 7 || 7;
    set(today - (back + 1) * DAY, today - (back - 2) * DAY, m[0], m[1]!);
  }
  if ((m = /\blast weekend\b/.exec(q))) {
    // The Saturday and Sunday before the reference day (a Sunday or Monday looks back one day less).
    const sinceSat = (new Date(today).getUTCDay() + 1) % 7 || 7;
    set(today - (sinceSat + 1) * DAY, today - Math.max(0, sinceSat - 2) * DAY, m[0], 'weekend');
  }
  if ((m = /\b(a few|few|couple of|couple) days ago\b|\bthe other day\b/.exec(q)))
    set(today - 7 * DAY, today, m[0], 'days', 'ago', 'day');
  if ((m = /\b(earlier|later)\s+this\s+(week|month|year)\b/.exec(q))) {
    // Only the part of the calendar period gone by, or only the rest of it, from the reference time.
    const [first, end] = calendarPeriod(m[2]!, today);
    if (m[1] === 'earlier') set(first, refMs, m[0], m[2]!);
    else set(refMs, end, m[0], m[2]!);
  } else if ((m = /\bthis\s+(week|month|year)\b/.exec(q))) {
    // The calendar week, month or year holding today, what is still to come in it too: "When is yoga
    // this week?" asked on a Monday means the class on Tuesday, not last Tuesday's.
    const [first, end] = calendarPeriod(m[1]!, today);
    set(first, end, m[0], m[1]!);
  }
  if ((m = /\bthis weekend\b/.exec(q))) {
    // The Saturday and Sunday of this calendar week: the coming ones, or on them, the one under way;
    // said of the past before it comes ("What did I do this weekend?" on a Monday), the one gone by.
    const saturday = weekStart(today) + 5 * DAY;
    const at = saturday + saidShift(q, /\bthis weekend\b/, saturday, saturday + DAY, today);
    set(at, at + 2 * DAY, m[0], 'weekend');
  }
  if ((m = /\b(last|past)\s+(week|month|year)\b/.exec(q))) {
    // Loose on purpose: the calendar period before this one, and the days since (people round).
    const span = m[2] === 'week' ? 7 * DAY : m[2] === 'month' ? 31 * DAY : 366 * DAY;
    set(today - 2 * span, today + DAY, m[0], m[2]!);
  }
  if ((m = /\b(\d+|a|an|one|two|three|few|couple of)\s+(day|week|month|year)s?\s+ago\b/.exec(q))) {
    const n = /^\d+$/.test(m[1]!)
      ? Number(m[1])
      : m[1] === 'two' || m[1] === 'couple of'
        ? 2
        : m[1] === 'three' || m[1] === 'few'
          ? 3
          : 1;
    const unit = m[2] === 'day' ? DAY : m[2] === 'week' ? 7 * DAY : m[2] === 'month' ? 30 * DAY : 365 * DAY;
    // Loose on purpose: people round ("a few weeks ago").
    set(today - (n + 1) * unit, today - Math.max(0, n - 1) * unit + DAY, m[0], m[2]!, 'ago');
  }

  // Days to come, said before them ("tomorrow", "next Tuesday", "in two weeks"): the same counts
  // forward from the reference day, so a plan is found by a question about the day it names. After
  // the past ones: a text saying both tells of the past first, as it did before these were read.
  if ((m = /\bthe day after tomorrow\b/.exec(q))) set(today + 2 * DAY, today + 3 * DAY, m[0], 'tomorrow');
  if ((m = /\btomorrow\b/.exec(q))) set(today + DAY, today + 2 * DAY, m[0], 'tomorrow');
  if ((m = /\bnext (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/.exec(q))) {
    // The earliest such day strictly after the reference day, as "last" takes the latest before it:
    // "next Tuesday" said on a Monday is the next day. Exact: a plan names the day it means.
    const ahead = daysUntil(today, m[1]!);
    set(today + ahead * DAY, today + (ahead + 1) * DAY, m[0], m[1]!);
  }
  if ((m = /\bnext weekend\b/.exec(q))) {
    // The Saturday and Sunday after the reference day.
    const ahead = daysUntil(today, 'saturday');
    set(today + ahead * DAY, today + (ahead + 2) * DAY, m[0], 'weekend');
  }
  if ((m = /\bnext (week|month|year)\b/.exec(q))) {
    // The calendar period after the one holding today, as "this week" is the one holding it: "next
    // week" said on a Friday is Monday to Sunday after the weekend, not the weekend itself.
    const [first, end] = calendarPeriod(m[1]!, calendarPeriod(m[1]!, today)[1]);
    set(first, end, m[0], m[1]!);
  }
  if ((m = thisDay.exec(q))) {
    // "this Friday": the Friday of this calendar week, today included. Said of what is to come once it
    // has gone by, the next one ("What's on this Friday?" asked on a Saturday); said of the past before
    // it comes, the last one ("What did I do this Friday?" asked on a Wednesday).
    const d = weekStart(today) + ((weekdays.indexOf(m[1]!) + 6) % 7) * DAY;
    const at = d + saidShift(q, thisDay, d, d, today);
    set(at, at + DAY, m[0], m[1]!);
  }
  // "on Friday", "in two weeks" point forward only in a sentence about what is to come ("I'll see her
  // on Friday", "my exam is in two weeks"); "we met on Friday" and "I read it in two days" do not
  // point at a day.
  if (
    (m = aheadMatch(
      q,
      /\b(?:on|this coming|coming)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/,
    ))
  ) {
    const days = daysUntil(today, m[1]!);
    set(today + days * DAY, today + (days + 1) * DAY, m[0], m[1]!);
  }
  // "in two weeks" in a sentence about what is to come; "two weeks from now" in any.
  if (
    (m =
      aheadMatch(q, /\bin (\d+|a|an|one|two|three|four|a few|a couple of)\s+(day|week|month)s?\b/) ??
      /\b(\d+|a|an|one|two|three|four|a few|a couple of)\s+(day|week|month)s?\s+from now\b/.exec(q))
  ) {
    const n = countOf(m[1]!);
    const unit = m[2] === 'day' ? DAY : m[2] === 'week' ? 7 * DAY : 30 * DAY;
    // That day, give or take what the unit rounds: "in 3 days" is the third day on, "in two weeks"
    // 14 days on, three days either side, "in a month" a week either side.
    const slack = m[2] === 'day' ? 0 : m[2] === 'week' ? 3 * DAY : 7 * DAY;
    const at = today + n * unit;
    set(Math.max(today + DAY, at - slack), at + slack + DAY, m[0], m[2]!);
  }

  let order: TimeIntent['order'];
  if (/\b(latest|most recent(ly)?|recently|lately|currently|newest|last time|these days|nowadays)\b/.test(q))
    order = 'newest';
  else if (/\b(first time|earliest|originally|at first|oldest)\b/.test(q)) order = 'oldest';

  if (fromMs === undefined && order === undefined) return null;
  return {
    fromMs,
    toMs,
    order,
    timeWords: words,
    label: label || (order === 'newest' ? 'most recent first' : 'oldest first'),
  };
}

/**
 * Does the query ask when something happened (or for how long)? "When did ..." does; "what does she do
 * when she is stressed" does not (a clause, not the question). So does "Quando ...?" and the others
 * foreign-time.ts reads.
 */
export function asksWhen(asked: string): boolean {
  const query = inEnglishTime(asked).text;
  return (
    /^[\s¿¡]*when\b/i.test(query) ||
    /\b(when (did|does|do|is|was|were|will|has|have|had|are)|how long|(what|which) (date|day|week|month|year|time))\b(?!-)/i.test(
      query,
    )
  );
}

const timeStatement = new RegExp(
  [
    String.raw`\b(yesterday|today|tonight|tomorrow|recently|lately|ago|since|weekend|(last|next|this|past) (night|week|month|year|summer|winter|spring|fall|autumn|weekend|time)`,
    // "may" is mostly the verb: only "in May" or "May 8" count.
    `${months.filter((m) => m !== 'may').join('|')}|in may|may \\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday`,
    String.raw`(19|20)\d{2}|\d+ (days?|weeks?|months?|years?))\b`,
  ].join('|'),
  'i',
);

/**
 * Does the text say when something happened ("last week", "yesterday", "in May", "2019", "3 years")?
 * In the text's words: "semana passada" in Portuguese.
 */
export function statesTime(text: string): string | null {
  const read = inEnglishTime(text);
  const said = timeStatement.exec(read.text)?.[0];
  if (said === undefined) return null;
  const lower = said.toLowerCase();
  return read.phrases.find((p) => p.en.toLowerCase().includes(lower))?.said ?? said;
}
