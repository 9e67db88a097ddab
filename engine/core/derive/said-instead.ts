import { months } from '../retrieve/time-expressions.ts';
import type { Claim } from './deriver.ts';
import { normalizeStatement } from './record-text.ts';
import { slotKey } from './slot-key.ts';
import { chatEnd, emailShaped, nameParticles, phoneShaped } from './slot-sentences.ts';
import { valueStatement } from './slot-statement.ts';
import { namesValue, slotValueAsSaid } from './slot-value.ts';
import { whenShaped } from './statement-mend.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * A message that only gives a value in place of one said just before, without saying of what: "wait
 * no, it's march 14", "globex not globant lol", "*Braga", "sorry, I meant Braga". Which slot it is,
 * only the thread's message before it says (engine/derive/replies.ts).
 */
export interface SaidInstead {
  /** The value meant, as written. */
  value: string;
  /** The value it is said in place of, where named ("not globant"). */
  instead?: string;
  /**
   * How it says so: naming what it replaces ("globex not globant"), a typo's star ("*Braga"), "I meant"
   * (or "make that", "should be"): each says it mends; "wait no, it's Braga" (`pointed`) or "no, Braga"
   * (`bare`) say it only where nothing else could be meant.
   */
  form: 'named' | 'starred' | 'meant' | 'pointed' | 'bare';
  /** Its lead owns a slip ("wait", "oops", "sorry", "correction", "typo"), as "no, …" alone does not. */
  owned: boolean;
  /** Its lead says no ("no", "nope", "nah", "correction", "typo"), as "ah, …" or "wait, …" alone do not. */
  denies: boolean;
}

/** What a value is: a date is only ever said in place of a date, a name in place of a name. */
export type ValueKind = 'date' | 'phone' | 'email' | 'number' | 'when' | 'name';

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
  // "March 14 to March 22", "3pm", "10:45": a time or a span of days (statement-mend.ts).
  if (whenShaped(v)) return 'when';
  return 'name';
}

/** Words that open a taking-back: "wait no, …", "oops, …", "sorry, …", "correction: …". */
const lead = String.raw`(?:(?:wait|oops|oop|whoops|sorry|soz|ugh|argh|hmm|oh|ah|actually|correction|typo|my\s+bad|no|nope|nah|err|um)(?![\p{L}\p{N}])[\s,.!:—–-]*)`;
/** What points at the value meant: "it's", "I meant", "make that", "should be". */
const pointer = String.raw`(?:(?:it|that)(?:['’]?s|\s+is|\s+was)|its|thats|make\s+that|i\s+meant(?:\s+to\s+say)?|i\s+mean|meant|(?:it\s+)?should(?:\s+have)?\s+(?:be|been|say|said|read)|i\s+said)`;
/** Up to five words, each opening with a letter, a digit, "+" or "@"; a full stop only inside one. */
const word = String.raw`[\p{L}\p{N}+@](?:[^\s.!?,;:*()"“”]|[.:](?=\d)|\.(?=[^\s.\d]))*`;
const value = String.raw`${word}(?:\s+${word}){0,4}`;

const pointed = new RegExp(String.raw`^(${lead}*)(${pointer})\s+(?:actually\s+)?(${value})$`, 'iu');
const butNot = new RegExp(String.raw`^(${lead}*)(?:${pointer}\s+)?(${value}),?\s+not\s+(${value})$`, 'iu');
const notBut = new RegExp(
  String.raw`^(${lead}*)not\s+(${value}),\s*(?:but\s+|it['’]?s\s+|its\s+)?(${value})$`,
  'iu',
);
const starred = new RegExp(String.raw`^(${lead}*)(?:\*\s*(${value})|(${value})\s*\*)$`, 'iu');
const bare = new RegExp(String.raw`^(${lead}+)(${value})$`, 'iu');
/** "Braga, sorry": the lead said after. */
const bareAfter = /^([^,]{1,60}),\s*(sorry|my\s+bad|typo|oops)$/iu;
/** The leads that say "not that" ("no, Globex"): "sorry, Ana" says sorry to Ana. */
const saysNo = /(?:^|[\s,.!:—–-])(?:no|nope|nah|correction|typo)(?![\p{L}\p{N}])/iu;
/** The leads that own a slip. */
const ownsSlip =
  /(?:^|[\s,.!:—–-])(?:wait|oops|oop|whoops|sorry|soz|correction|typo|my\s+bad)(?![\p{L}\p{N}])/iu;
const trailing = new RegExp(chatEnd, 'u');

/** Words no value opens with: "it's fine", "i meant to say thanks", "no, the other one", "no, honestly". */
const notAValue = new Set(
  `a an the that this these those it its it's me you him her them us my your his our their to for of in on
   at with and or but so not no yes ok okay fine good great cool nice right wrong true false late early
   over done here there just only really very too all both either any some what which who how why when
   sure thanks thank problem worries way idea one other same kidding joking never always sorry maybe
   i im i'm we he she they monday tuesday wednesday thursday friday saturday sunday today tomorrow
   yesterday nothing none honestly seriously still brb nvm jk typo lol mom mum dad mama papa babe honey
   dude bro man guys girl sis everyone everybody nobody someone english later nearby near close around
   outside abroad downtown jesus god lord omg autocorrect`.split(/\s+/u),
);
/**
 * A word of the speaker's as a sentence writes it: "I'm", "I am", "we", "me", "my" (lower case but for
 * "I", and "I" only with a verb or its "'m"). Not a value's letters: "I-95", "Bangor ME", "Henry I".
 */
const speakerWord =
  /(?<![\p{L}\p{N}'’-])(?:[Ii]['’](?:m|ve|d|ll)|I\s+\p{Ll}+|i|im|we|we['’](?:re|ve)|me|my)(?![\p{L}\p{N}'’-])/u;
/** Small words of a place's or a firm's name, in lower case in a capitalised name ("São João da Madeira"). */
const particles = new Set(nameParticles);

/** Whether each word opens with a capital ("Braga", "Globex Corp"): a name as a cased message writes it. */
const capitalised = (v: string) =>
  v.split(/\s+/u).every((w, i) => /^\p{Lu}/u.test(w) || (i > 0 && particles.has(w)));

/**
 * The value a message gives in place of one said just before, or null. A name must be written as one
 * (capitalised) where the message only points at it ("wait no, it's Braga", "no, Braga"); in lower case
 * only where it names what it replaces ("globex not globant"), has a typo's star ("*braga") or follows
 * "I meant" / "make that" / "should be". "wait no, it's fine", "no, thanks", "no, honestly" give
 * nothing. A date, a number, a phone or an address is one as written.
 */
export function saidInstead(text: string): SaidInstead | null {
  // The length first: a long message is no such reply, and is never run through the patterns.
  if (text.length > 200) return null;
  const t = text.trim().replace(trailing, '').trim();
  if (t.length === 0 || t.length > 80 || /[\n?]/u.test(t)) return null;
  const take = (
    said: string,
    form: SaidInstead['form'],
    leadWords: string,
    instead?: string,
  ): SaidInstead | null => {
    const v = said.trim();
    // "we're fine": a word with its "'re", "'s" or "'m" is the word.
    const first = normalizeStatement((v.split(/\s+/u)[0] ?? '').split(/['’]/u)[0]!);
    // "the 14th of March" is a date, though "the" opens no name.
    if (first === '' || (notAValue.has(first) && !(first === 'the' && valueKind(v) === 'date'))) return null;
    // "Turns out I'm not vegan": words of the speaker's own are a sentence, no value said instead.
    if (speakerWord.test(v)) return null;
    if (instead !== undefined && normalizeStatement(instead) === normalizeStatement(v)) return null;
    const explicit = form === 'named' || form === 'starred' || form === 'meant';
    if (valueKind(v) === 'name' && !explicit && !capitalised(v)) return null;
    const [owned, denies] = [ownsSlip.test(leadWords), saysNo.test(leadWords)];
    return { value: v, ...(instead === undefined ? {} : { instead: instead.trim() }), form, owned, denies };
  };
  let m = butNot.exec(t);
  if (m) return take(m[2]!, 'named', m[1]!, m[3]!);
  m = notBut.exec(t);
  if (m) return take(m[3]!, 'named', m[1]!, m[2]!);
  m = starred.exec(t);
  // A star mends a typo of the word, never adds to it ("*Jake's").
  if (m) return /['’]/u.test(m[2] ?? m[3]!) ? null : take(m[2] ?? m[3]!, 'starred', m[1]!);
  m = pointed.exec(t);
  if (m) {
    const [, leadWords, point, said] = m as unknown as [string, string, string, string];
    const meant = /^(?:make|i\s+meant|should|it\s+should)/iu.test(point);
    // "it's Braga" said alone is no correction ("its amazing here"): only after a lead ("wait no, …").
    if (!meant && leadWords.trim() === '' && /^(?:it|that)/iu.test(point)) return null;
    return take(said, meant ? 'meant' : 'pointed', leadWords);
  }
  m = bare.exec(t);
  // "no, Globex": a bare value only after a lead that says no, and a mark after it.
  // "sorry, 912 345 678" mends; "Sorry, Ana" says sorry to Ana.
  if (
    m &&
    /[,.!:—–-]\s*$/u.test(m[1]!) &&
    (saysNo.test(m[1]!) || (ownsSlip.test(m[1]!) && valueKind(m[2]!) !== 'name'))
  )
    return take(m[2]!, 'bare', m[1]!);
  m = bareAfter.exec(t);
  if (m) return take(m[1]!, 'bare', m[2]!);
  return null;
}

/**
 * The value meant, cased as the one it replaces where the chat wrote it in lower case ("globex" as
 * "Globex", "sap" as "SAP" for "IBM"); a name's small words stay small ("Vila Nova de Gaia").
 */
function casedAs(meant: string, replaced: string): string {
  if (valueKind(meant) !== 'name' || /\p{Lu}/u.test(meant) || !/\p{Lu}/u.test(replaced)) return meant;
  if (replaced === replaced.toUpperCase() && meant.length <= 4) return meant.toUpperCase();
  return meant
    .split(/(\s+)/u)
    .map((w, i) =>
      i > 0 && particles.has(w)
        ? w
        : w.replace(/^\p{Ll}/u, (c) => (c.toUpperCase().length === 1 ? c.toUpperCase() : c)),
    )
    .join('');
}

/** Edits (a letter in, out, changed or two swapped) from a to b. */
function edits(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** A typo's mend: the same word with a letter or two otherwise ("Brage" for "Braga"). */
function typoOf(meant: string, replaced: string): boolean {
  const [a, b] = [normalizeStatement(meant), normalizeStatement(replaced)];
  return a !== b && edits(a, b) <= Math.max(2, Math.floor(Math.max(a.length, b.length) / 3));
}

const dateMention = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${monthWord}\s+${dayOfMonth}|${dayOfMonth}(?:\s+of)?\s+${monthWord})(?![\p{L}\p{N}])`,
  'giu',
);

/**
 * Whether the words before say another value of the kind beside the slot's, which the mend may be of
 * instead ("I work at Sonae with Maria." then "sorry, Marta"; "my birthday is March 4, the party is on
 * March 10." then "oops, March 11"): a second date, or a capitalised word past a sentence's first that
 * is no part of the slot's value nor the person's name.
 */
function otherOfKind(quote: string, value: string, kind: ValueKind, subject: string): boolean {
  if (kind === 'date') return (quote.match(dateMention)?.length ?? 0) > 1;
  if (kind !== 'name') return false;
  const own = new Set(
    `${value} ${subject}`
      .split(/\s+/u)
      .map((w) => normalizeStatement(w))
      .filter((w) => w !== ''),
  );
  for (const m of matchesOf(/(?<![\p{L}\p{N}'’])\p{Lu}[\p{L}\p{M}'’-]*/gu, quote)) {
    const before = quote.slice(0, m.index).trimEnd();
    if (before === '' || /[.!?:]$/u.test(before) || /^I(?:['’]\p{L}+)?$/u.test(m[0])) continue;
    if (!own.has(normalizeStatement(m[0].replace(/['’]s$/u, '')))) return true;
  }
  return false;
}

/**
 * Whether a message names a value of the kind (a date, a phone, an address): an agent's "I'll remind
 * you on March 3" or "What's your work number?" may be what a reply of that kind answers.
 */
export function namesKind(text: string, kind: ValueKind): boolean {
  if (text.length > 2000) return true;
  if (kind === 'date') return (text.match(dateMention)?.length ?? 0) > 0;
  if (kind === 'phone') return /(?:number|phone|mobile|cell)/iu.test(text) || /\d{3}[\s.-]?\d{3}/u.test(text);
  if (kind === 'email') return /e-?mail|@/iu.test(text);
  // "I'll set a reminder for 1pm." then "no, 12pm": the agent's own number or time is what is mended.
  if (kind === 'when' || kind === 'number') return /\d/u.test(text);
  return false;
}

/**
 * "Jordan Reyes, not Lee" of "Jordan Lee": the surname it names instead is the held name's last, and
 * the first name is the same.
 */
function surnameMended(held: string, meant: string, instead: string): boolean {
  const [h, m] = [normalizeStatement(held).split(' '), normalizeStatement(meant).split(' ')];
  return h.length >= 2 && m.length >= 2 && h.at(-1) === normalizeStatement(instead) && h[0] === m[0];
}

/** The message a mend may be of, as admission read it (engine/derive/replies.ts). */
export interface MendedMessage {
  id: string;
  /** Its claims, with its own replies read (a mend of a mend). */
  claims: readonly Claim[];
  /** Its speaker's: the mend's own, or an agent saying back the person's slot. */
  by: 'same' | 'agent';
  /** An agent's message that asks something: "no, Maria" answers it, as often as it mends. */
  asks: boolean;
}

/**
 * The claim a message said in place of another (`claim.saidInstead`) makes of the message before
 * (`prior`): the one slot there whose value it replaces (the one it names, else the one of the same
 * kind: a date for a date), given the new value, with the claim it mends; or null where no one slot is
 * meant, the value is the same, or the message may mean something else. Only a mend that says so
 * ("globex not globant", "*Braga", "I meant Braga", or a lead that owns a slip: "wait no, …") mends
 * a name in the speaker's own words or a value an agent's question follows; a mend of an agent's
 * read-back only of the person's own slot, by her.
 */
export function saidInsteadOf(claim: Claim, prior: MendedMessage): { claim: Claim; mends: Claim } | null {
  const said = claim.saidInstead;
  if (said === undefined) return null;
  const explicit = said.form === 'named' || said.form === 'starred' || said.form === 'meant';
  const kind = valueKind(said.value);
  // "no, Maria" after her own words may well speak to Maria; "no, march 15" speaks to no one.
  if (prior.by === 'same' && !explicit && !said.owned && kind === 'name') return null;
  if (prior.by === 'agent' && prior.asks && !explicit) return null;
  // "Ah, it's Tom" after "Got it, you work at Sonae." says no more than that it is Tom.
  if (prior.by === 'agent' && !explicit && !said.owned && !said.denies) return null;
  const held = prior.claims.flatMap((c) => {
    if (c.predicate === null || c.ends !== undefined || c.endsHeld || c.restoresHeld || c.callsOff) return [];
    // An agent's read-back is of the person, and only she mends it.
    if (prior.by === 'agent' && (c.owner.state !== 'self' || claim.owner.state !== 'self')) return [];
    const value = slotValueAsSaid(c);
    return value === null ? [] : [{ c, value, predicate: c.predicate }];
  });
  const meant = held.filter(({ value }) =>
    said.instead !== undefined
      ? namesValue(value, said.instead) || surnameMended(value, said.value, said.instead)
      : valueKind(value) === kind,
  );
  const slots = new Set(meant.map(({ c, predicate }) => slotKey(c.subject, predicate, c.owner)));
  const one = slots.size === 1 ? meant[0] : undefined;
  if (one === undefined || namesValue(one.value, said.value) || namesValue(said.value, one.c.subject))
    return null;
  const { c, value, predicate } = one;
  if (said.form === 'starred' && !typoOf(said.value, value)) return null;
  if (said.instead === undefined && said.form !== 'starred' && otherOfKind(c.quote, value, kind, c.subject))
    return null;
  return {
    mends: c,
    claim: {
      statement: valueStatement(c.subject, predicate, casedAs(said.value, value)),
      subject: c.subject,
      predicate,
      owner: c.owner,
      quote: claim.quote,
      ...(c.startsAt !== undefined ? { startsAt: c.startsAt } : {}),
      replaces: {
        recordId: prior.id,
        value,
        statements: meant.flatMap(({ c: m }) => [m.statement, ...(m.restated ? [m.restated.statement] : [])]),
      },
    },
  };
}
