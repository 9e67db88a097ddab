import { months } from '../retrieve/time-expressions.ts';
import type { Claim } from './deriver.ts';
import { normalizeStatement } from './record-text.ts';
import { slotKey } from './slot-key.ts';
import { chatEnd, emailShaped, phoneShaped } from './slot-sentences.ts';
import { valueStatement } from './slot-statement.ts';
import { slotValueAsSaid } from './slot-value.ts';

/**
 * A message that only gives a value in place of one said just before, without saying of what: "wait
 * no, it's march 14", "globex not globant lol", "*Braga", "sorry, I meant Braga". Which slot it is,
 * only the thread's message before it says (engine/derive/said-instead.ts).
 */
export interface SaidInstead {
  /** The value meant, as written. */
  value: string;
  /** The value it is said in place of, where named ("not globant"). */
  instead?: string;
}

/** What a value is: a date is only ever said in place of a date, a name in place of a name. */
export type ValueKind = 'date' | 'phone' | 'email' | 'number' | 'name';

const monthWord = String.raw`(?:${months.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})\.?`;
const dayOfMonth = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
const dateShaped = new RegExp(
  String.raw`^(?:${monthWord}\s+${dayOfMonth}(?:,?\s+\d{4})?|(?:the\s+)?${dayOfMonth}(?:\s+of)?\s+${monthWord}(?:,?\s+\d{4})?|\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?)$`,
  'iu',
);

export function valueKind(value: string): ValueKind {
  const v = value.trim();
  if (dateShaped.test(v)) return 'date';
  if (emailShaped(v)) return 'email';
  if (phoneShaped(v)) return 'phone';
  if (/^\d+$/u.test(v)) return 'number';
  return 'name';
}

/** Words that open a taking-back: "wait no, …", "oops, …", "sorry, …", "correction: …". */
const lead = String.raw`(?:(?:wait|oops|oop|whoops|sorry|soz|ugh|argh|hmm|oh|ah|actually|correction|typo|my\s+bad|no|nope|nah|err|um)(?![\p{L}\p{N}])[\s,.!:—–-]*)`;
/** What points at the value meant: "it's", "I meant", "make that", "should be". */
const pointer = String.raw`(?:(?:it|that)(?:['’]?s|\s+is|\s+was)|its|thats|make\s+(?:that|it)|i\s+meant(?:\s+to\s+say)?|i\s+mean|meant|(?:it\s+)?should(?:\s+have)?\s+(?:be|been|say|said|read)|i\s+said)`;
/** Up to five words, each opening with a letter, a digit, "+" or "@"; a full stop only inside one. */
const word = String.raw`[\p{L}\p{N}+@](?:[^\s.!?,;:*()"“”]|\.(?=[^\s.]))*`;
const value = String.raw`${word}(?:\s+${word}){0,4}`;

const pointed = new RegExp(String.raw`^(${lead}*)${pointer}\s+(?:actually\s+)?(${value})$`, 'iu');
const butNot = new RegExp(String.raw`^${lead}*(${value}),?\s+not\s+(${value})$`, 'iu');
const notBut = new RegExp(
  String.raw`^${lead}*not\s+(${value}),\s*(?:but\s+|it['’]?s\s+|its\s+)?(${value})$`,
  'iu',
);
const starred = new RegExp(String.raw`^${lead}*(?:\*\s*(${value})|(${value})\s*\*)$`, 'iu');
const bare = new RegExp(String.raw`^(${lead}+)(${value})$`, 'iu');
const trailing = new RegExp(chatEnd, 'u');
const takingBack =
  /(?:^|[\s,.!:—–-])(?:no|nope|nah|wait|sorry|oops|whoops|correction|typo|my\s+bad)(?![\p{L}\p{N}])/iu;

/** Words no value opens with: "it's fine", "i meant to say thanks", "no, the other one". */
const notAValue = new Set(
  `a an the that this these those it its it's me you him her them us my your his our their to for of in on
   at with and or but so not no yes ok okay fine good great cool nice right wrong true false late early
   over done here there just only really very too all both either any some what which who how why when
   sure thanks thank problem worries way idea one other same kidding joking never always sorry maybe
   i im i'm we he she they monday tuesday wednesday thursday friday saturday sunday today tomorrow
   yesterday`.split(/\s+/u),
);

/** Whether each word opens with a capital ("Braga", "Globex Corp"): a name as a cased message writes it. */
const capitalised = (v: string) => v.split(/\s+/u).every((w) => /^\p{Lu}/u.test(w));

/**
 * The value a message gives in place of one said just before, or null. A name must be written as one
 * (capitalised), or come with what it replaces ("globex not globant") or a typo's star ("*braga"), or
 * after "I meant" / "make that" / "should be": "wait no, it's fine" and "no, thanks" give nothing. A
 * date, a number, a phone or an address is one as written.
 */
export function saidInstead(text: string): SaidInstead | null {
  const t = text.trim().replace(trailing, '').trim();
  if (t.length === 0 || t.length > 80 || /[\n?]/u.test(t)) return null;
  const take = (said: string, strong: boolean, instead?: string): SaidInstead | null => {
    const v = said.trim();
    // "we're fine": a word with its "'re", "'s" or "'m" is the word.
    const first = normalizeStatement((v.split(/\s+/u)[0] ?? '').split(/['’]/u)[0]!);
    // "the 14th of March" is a date, though "the" opens no name.
    if (first === '' || (notAValue.has(first) && !(first === 'the' && valueKind(v) === 'date'))) return null;
    if (instead !== undefined && normalizeStatement(instead) === normalizeStatement(v)) return null;
    // In a chat without capitals a name is as the chat writes it ("wait no its braga").
    if (valueKind(v) === 'name' && !strong && !capitalised(v) && /\p{Lu}/u.test(t)) return null;
    return instead === undefined ? { value: v } : { value: v, instead: instead.trim() };
  };
  let m = butNot.exec(t);
  if (m) return take(m[1]!, true, m[2]!);
  m = notBut.exec(t);
  if (m) return take(m[2]!, true, m[1]!);
  m = starred.exec(t);
  if (m) return take(m[1] ?? m[2]!, true);
  m = pointed.exec(t);
  if (m) {
    // "it's Braga" said alone is no correction ("its amazing here"): only after a lead ("wait no, …").
    const taking = m[1]!.trim() !== '' || !/^(?:it|that)/iu.test(t.slice(m[1]!.length));
    if (!taking) return null;
    return take(m[2]!, /^(?:make|i\s+meant|should|it\s+should)/iu.test(t.slice(m[1]!.length)));
  }
  m = bare.exec(t);
  // "no, Globex", "sorry, March 14": a bare value only after a lead that takes something back, and a
  // mark after it ("Sorry Tom" says sorry to Tom).
  if (m && takingBack.test(m[1]!) && /[,.!:—–-]\s*$/u.test(m[1]!)) return take(m[2]!, false);
  return null;
}

/** The value meant, cased as the one it replaces was where the chat wrote it in lower case ("globex"). */
function casedAs(meant: string, replaced: string): string {
  if (valueKind(meant) !== 'name' || /\p{Lu}/u.test(meant) || !/\p{Lu}/u.test(replaced)) return meant;
  return meant.replace(/(?<![\p{L}\p{N}'’])\p{Ll}/gu, (c) =>
    c.toUpperCase().length === 1 ? c.toUpperCase() : c,
  );
}

/** Whether `value` is the one named ("Globant" for "globant", "Tom Reyes" for "Tom"). */
const namedAs = (value: string, name: string) => {
  const [v, n] = [normalizeStatement(value), normalizeStatement(name)];
  return v === n || v.startsWith(`${n} `);
};

/**
 * The claim a message said in place of another (`claim.saidInstead`) makes of the claims of the thread's
 * message just before it (`prior`, Record `priorId`): the one slot there whose value it replaces (the one
 * it names, else the one of the same kind: a date for a date), given the new value, or null where no one
 * slot is meant or the value is the same.
 */
export function saidInsteadOf(claim: Claim, prior: readonly Claim[], priorId: string): Claim | null {
  const said = claim.saidInstead;
  if (said === undefined) return null;
  const held = prior.flatMap((c) => {
    if (c.predicate === null || c.ends !== undefined || c.endsHeld || c.restoresHeld || c.callsOff) return [];
    const value = slotValueAsSaid(c);
    return value === null ? [] : [{ c, value, predicate: c.predicate }];
  });
  const meant = held.filter(({ value }) =>
    said.instead !== undefined ? namedAs(value, said.instead) : valueKind(value) === valueKind(said.value),
  );
  const slots = new Set(meant.map(({ c, predicate }) => slotKey(c.subject, predicate, c.owner)));
  const one = slots.size === 1 ? meant[0] : undefined;
  if (one === undefined || namedAs(one.value, said.value)) return null;
  const { c, value, predicate } = one;
  return {
    statement: valueStatement(c.subject, predicate, casedAs(said.value, value)),
    subject: c.subject,
    predicate,
    owner: c.owner,
    quote: claim.quote,
    ...(c.startsAt !== undefined ? { startsAt: c.startsAt } : {}),
    replaces: {
      recordId: priorId,
      value,
      statements: meant.flatMap(({ c: m }) => [m.statement, ...(m.restated ? [m.restated.statement] : [])]),
    },
  };
}
