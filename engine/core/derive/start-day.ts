import { countOf, months, weekdays } from '../retrieve/time-expressions.ts';

const DAY = 86_400_000;
const weekday = String.raw`(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day)?`;
const month = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const ordinal = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
const count = String.raw`(?:\d{1,2}|a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+of|a\s+couple)`;

/**
 * When a value said to come starts, as a chat tells it: "today", "tomorrow", "on Monday", "this
 * Friday", "next week", "next month", "in two weeks", "on the 5th", "on March 3rd", "3 March", "the 3rd
 * of March", "in January", "from May". Open-ended words ("soon", "later", "someday") say no day.
 */
export const startWhen = String.raw`(?:today|tonight|tomorrow|the\s+day\s+after\s+tomorrow|(?:on\s+|this\s+(?:coming\s+)?|next\s+|from\s+)?${weekday}|next\s+(?:week|month|year)|in\s+${count}\s+(?:days?|weeks?|months?)|(?:on\s+|from\s+)?the\s+${ordinal}(?:\s+of\s+${month})?|(?:on\s+|from\s+)?${month}\s+${ordinal}|(?:on\s+|from\s+)?${ordinal}\s+(?:of\s+)?${month}|(?:in|from)\s+${month})(?:,?\s+(?:19|20)\d\d)?`;

const words = new RegExp(String.raw`^(?:${startWhen})$`, 'iu');

/**
 * How long ago a move was: "2 weeks ago", "a few months ago", "three years ago", and "yesterday", "last
 * week", "last month", "last year", counted as "a day ago" … "a year ago" are: "I moved to Porto last
 * month", said on December 5, holds from November 5, so "Where did I live in November?" finds it.
 */
export const agoWhen = String.raw`(?:${count}\s+(?:days?|weeks?|months?|years?)\s+ago|yesterday|last\s+(?:week|month|year))`;
/** The year a move was made: "in 2023". */
export const yearWhen = String.raw`in\s+(?:19|20)\d\d`;
const yearWords = /^in ((?:19|20)\d\d)$/u;
const agoWords = new RegExp(String.raw`^(${count})\s+(day|week|month|year)s?\s+ago$`, 'iu');

const monthOf = (w: string) => months.findIndex((m) => m.startsWith(w.slice(0, 3)));
const weekdayOf = (w: string) => weekdays.findIndex((d) => d.startsWith(w.slice(0, 3)));

/** The UTC offset, in minutes, an RFC 3339 time is written in ("…+01:00": 60; "…Z": 0). */
function offsetOf(iso: string): number {
  const m = /([+-])(\d\d):?(\d\d)$/u.exec(iso);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** A calendar date's midnight as UTC arithmetic reads it, or null for one no calendar has (30 February). */
function dateOf(year: number, mi: number, day: number): number | null {
  const d = Date.UTC(year, mi, day);
  return new Date(d).getUTCMonth() === ((mi % 12) + 12) % 12 ? d : null;
}

/**
 * The day a value said to come starts (`when`, matching startWhen in full), counted from the day the
 * Record was said (`occurredAt`, in the offset it is written in): its midnight there, as an RFC 3339
 * UTC time. A weekday is the next one after that day ("on Monday" said on a Monday is a week on), a
 * date without a year the next one on or after it, a month without a day its first day ("in January":
 * the next January; this month's is that day itself), "next week" the Monday after it; "2 weeks ago"
 * (agoWhen) the day that long before it, "in 2023" (yearWhen) that year's first day. Null where the words name no day this reads, or a day to come
 * that is before the Record's (a date with its year in the past).
 */
export function startDay(when: string, occurredAt: string): string | null {
  const said = when
    .trim()
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .replace(/^yesterday$/u, 'a day ago')
    .replace(/^last (week|month|year)$/u, 'a $1 ago');
  const ago = agoWords.exec(said);
  if (!ago && !yearWords.test(said) && !words.test(said)) return null;
  const offset = offsetOf(occurredAt) * 60_000;
  const wall = Date.parse(occurredAt) + offset;
  if (!Number.isFinite(wall)) return null;
  const today = wall - (((wall % DAY) + DAY) % DAY);
  const now = new Date(today);
  const [y, mo, d] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  const year = yearWords.exec(said);
  if (year) {
    // "moved to York in 2023": since that year's first day; this year's, since it was said (no day
    // this year is surer than that); a year to come names no day gone.
    const n = Number(year[1]);
    if (n > y) return null;
    return new Date((n === y ? today : Date.UTC(n, 0, 1)) - offset).toISOString();
  }
  if (ago) {
    // A day gone, counted back as a day to come is counted on.
    const n = countOf(ago[1]!);
    const back =
      ago[2] === 'day'
        ? today - n * DAY
        : ago[2] === 'week'
          ? today - 7 * n * DAY
          : ago[2] === 'month'
            ? Math.min(Date.UTC(y, mo - n, d), Date.UTC(y, mo - n + 1, 0))
            : Math.min(Date.UTC(y - n, mo, d), Date.UTC(y - n, mo + 1, 0));
    return new Date(back - offset).toISOString();
  }
  const yearSaid = /(?:19|20)\d\d$/u.exec(said);
  const text = said.replace(/,? (?:19|20)\d\d$/u, '');
  const day = (() => {
    let m: RegExpExecArray | null;
    if (text === 'today' || text === 'tonight') return today;
    if (text === 'tomorrow') return today + DAY;
    if (text === 'the day after tomorrow') return today + 2 * DAY;
    if (text === 'next week') return today + ((8 - now.getUTCDay()) % 7 || 7) * DAY;
    if (text === 'next month') return Date.UTC(y, mo + 1, 1);
    if (text === 'next year') return Date.UTC(y + 1, 0, 1);
    if ((m = /^in (.+) (day|week|month)s?$/u.exec(text))) {
      const n = countOf(m[1]!);
      if (m[2] === 'day') return today + n * DAY;
      if (m[2] === 'week') return today + 7 * n * DAY;
      // The same day of the month n months on, or that month's last where it has fewer days.
      return Math.min(Date.UTC(y, mo + n, d), Date.UTC(y, mo + n + 1, 0));
    }
    if ((m = /^(?:on |this |this coming |next |from )?([a-z]+)$/u.exec(text)) && weekdayOf(m[1]!) >= 0)
      return today + ((weekdayOf(m[1]!) - now.getUTCDay() + 7) % 7 || 7) * DAY;
    if ((m = /^(?:in|from) ([a-z]+)$/u.exec(text)) && monthOf(m[1]!) >= 0) {
      const mi = monthOf(m[1]!);
      if (yearSaid) return Date.UTC(Number(yearSaid[0]), mi, 1);
      return mi === mo ? today : Date.UTC(mi > mo ? y : y + 1, mi, 1);
    }
    // A day of a month: "the 5th", "march 3rd", "3 march", "the 3rd of march".
    const dm =
      /^(?:on |from )?the (\d{1,2})(?:st|nd|rd|th)?(?: of ([a-z]+))?$/u.exec(text) ??
      /^(?:on |from )?(\d{1,2})(?:st|nd|rd|th)? (?:of )?([a-z]+)$/u.exec(text);
    const md = /^(?:on |from )?([a-z]+) (\d{1,2})(?:st|nd|rd|th)?$/u.exec(text);
    const dayNo = Number(dm?.[1] ?? md?.[2]);
    const monthWord = dm ? dm[2] : md?.[1];
    if (!Number.isInteger(dayNo) || dayNo < 1 || dayNo > 31) return null;
    if (monthWord === undefined) {
      // "on the 5th": this month's, or next month's where this month's has gone.
      return dayNo >= d ? dateOf(y, mo, dayNo) : dateOf(y, mo + 1, dayNo);
    }
    const mi = monthOf(monthWord);
    if (mi < 0) return null;
    if (yearSaid) return dateOf(Number(yearSaid[0]), mi, dayNo);
    const thisYear = dateOf(y, mi, dayNo);
    return thisYear !== null && thisYear >= today ? thisYear : dateOf(y + 1, mi, dayNo);
  })();
  if (day === null || day < today) return null;
  return new Date(day - offset).toISOString();
}
