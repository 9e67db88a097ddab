import { months, weekdays } from '../retrieve/time-expressions.ts';
import type { Claim } from './deriver.ts';
import type { SaidInstead } from './said-instead.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/*
 * A mend of a date, a time or a number in a statement of no slot: "My partner and I are going to Lisbon
 * from March 12 to March 20." then "wait no, it's March 14 to March 22". A slot's value is mended by
 * saidInsteadOf; a trip's dates, a meeting's hour or a count are in sentences that hold no slot, and
 * both versions stayed current. Only values whose every word is of a date, a time or a number, and only
 * where the message before says exactly one span of the same shape (so "March 14" finds "March 12", and
 * "3pm" finds "2pm"), since there is nothing else to tell which words are meant.
 */

const monthWords = new Set(months.flatMap((m) => [m, m.slice(0, 3)]).concat(['sept']));
const weekdayWords = new Set(weekdays.flatMap((d) => [d, d.slice(0, 3)]));
const joiners = new Set(['to', 'until', 'till', 'through', 'thru', 'and', '-', '–', '—']);

/** What a word is in a date, a time or a number; null for any other word. */
function classOf(word: string): string | null {
  const w = word.toLowerCase().replace(/[.,]$/u, '');
  if (monthWords.has(w)) return 'month';
  if (weekdayWords.has(w)) return 'weekday';
  if (joiners.has(w)) return 'joiner';
  if (/^\d{1,2}(?:st|nd|rd|th)?$/u.test(w)) return 'day';
  if (/^\d{4}$/u.test(w)) return 'year';
  if (/^\d{1,2}(?::\d{2})?(?:am|pm)$|^\d{1,2}:\d{2}$/u.test(w)) return 'time';
  if (/^\d{1,2}(?:st|nd|rd|th)?[-–]\d{1,2}(?:st|nd|rd|th)?$/u.test(w)) return 'days';
  if (/^\d+(?:[.,]\d+)?$/u.test(w)) return 'number';
  return null;
}

interface Word {
  text: string;
  start: number;
  end: number;
}

const wordsOf = (s: string): Word[] =>
  [...matchesOf(/(?:[^\s,;:!?()"“”]|:(?=\d))+/gu, s)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));

/** The shape of a value: its words' classes, or null where a word is no date's, time's or number's. */
function shapeOf(value: string): string[] | null {
  const classes = wordsOf(value).map((w) => classOf(w.text));
  if (classes.length === 0 || classes.some((c) => c === null)) return null;
  // A joiner alone says nothing; a value is a date, a time or a number at least once.
  return classes.every((c) => c === 'joiner') ? null : (classes as string[]);
}

/** Whether a value is a time, a span of days or a date said with more than a date's words. */
export const whenShaped = (value: string): boolean => shapeOf(value) !== null;

/** The spans of `text` whose words have `shape`, as [start, end). */
function spansOfShape(text: string, shape: readonly string[]): Array<[number, number]> {
  const words = wordsOf(text);
  const out: Array<[number, number]> = [];
  for (let i = 0; i + shape.length <= words.length; i += 1) {
    if (!shape.every((c, k) => classOf(words[i + k]!.text) === c)) continue;
    // A whole value: not a part of a longer one ("March 12" inside "March 12 2027").
    const before = i > 0 ? classOf(words[i - 1]!.text) : null;
    const after = i + shape.length < words.length ? classOf(words[i + shape.length]!.text) : null;
    if ((before !== null && before !== 'joiner') || (after !== null && after !== 'joiner')) continue;
    const last = words[i + shape.length - 1]!;
    out.push([words[i]!.start, last.end - (/[.,]$/u.test(last.text) ? 1 : 0)]);
  }
  return out;
}

/**
 * The claim a mend makes of the one statement of no slot in the message before that says a value of
 * its shape once (`prior`, the same speaker's claims): that statement with the value said in its place,
 * its subject and owner, quoting the mend, and replacing the slip. Null where the value is no date,
 * time or number, where none or several statements say one of its shape, or where it says the same.
 */
export function statementMended(
  mend: Claim & { saidInstead: SaidInstead },
  prior: { id: string; claims: readonly Claim[] },
): Claim | null {
  const said = mend.saidInstead;
  const shape = shapeOf(said.value);
  if (shape === null) return null;
  const found = prior.claims.flatMap((c) => {
    if (c.predicate !== null || c.callsOff || c.endsHeld || c.restoresHeld) return [];
    const spans = spansOfShape(c.statement, shape).filter(
      ([a, b]) =>
        said.instead === undefined || c.statement.slice(a, b).toLowerCase() === said.instead.toLowerCase(),
    );
    return spans.map((span) => ({ c, span }));
  });
  if (found.length !== 1) return null;
  const { c, span } = found[0]!;
  const old = c.statement.slice(...span);
  if (old.toLowerCase() === said.value.toLowerCase()) return null;
  return {
    statement: c.statement.slice(0, span[0]) + said.value + c.statement.slice(span[1]),
    subject: c.subject,
    predicate: null,
    owner: c.owner,
    quote: mend.quote,
    replaces: { recordId: prior.id, value: old, statements: [c.statement] },
    // A move mended ("moved my appointment to Friday at 10am", "sorry, 11am") still moves the plan.
    ...(c.changesPlan !== undefined ? { changesPlan: c.changesPlan } : {}),
  };
}
