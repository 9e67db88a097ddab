import { isQuestion } from './unmarked-question.ts';
import { foldName } from './resolve-owner.ts';

/**
 * A speaker saying the name people call them by: "most people call me Tom", "call me Tom", "I go by
 * Tom", "I'm known as Tom", "my nickname is Tom", "I'm Tomislav (Tom)", "Tomislav, Tom for short",
 * "Tom here." It holds the speaker's `nickname` slot ("Tomislav Kovačević's nickname is Tom"), which
 * retrieval reads as another name of the Brain's own person (retrieve/self-names.ts): "Where does Tom
 * live?" asks about her as "Where does Tomislav live?" does.
 *
 * Narrow, as a wrong name would make a stranger her: the name capitalised, with a small letter ("call
 * me ASAP", "call me tomorrow", "call me Monday" hold none), at most two words; nothing that denies it,
 * puts it in the past or asks it ("nobody calls me Tom", "they used to call me Tommy", "why do people
 * call me Tom?"); not her own name or a word of it ("call me Tomislav" says nothing new); not another's
 * words she reports ("Mia said: call me Tom.", a quotation); not a title ("Call Me By Your Name is a
 * great film", "Call me Ishmael is the best opening line"). "I'm Tomislav (Tom)" and "Tomislav, Tom for
 * short" only after her own name ("I am in Zagreb (Croatia)", "My sister Kristina, Kiki for short" hold
 * none), "I go by Tom" not before where or how often one goes ("I go by Uber to work", "I go by
 * Zagreb twice a week") nor of a place by its kind ("I go by Maksimir Park", "I go by Victoria
 * Station" of Victoria Hughes; "I go by Jo Park" of Joanna Park is her full name), no role or relation word
 * ("Everyone calls me Boss.": a question about her boss is none about her), and "Tom here." only after a
 * greeting or where the name is no everyday word ("Same here.", "Right here.").
 */
export interface NicknameSaid {
  value: string;
  /** Where the words that say it stand in the sentence, [start, end): "most people call me Tom". */
  clause: [number, number];
  /**
   * The sentence says more than the name and a greeting or an introduction by her own name ("Hi, I'm
   * Tomislav, most people call me Tom." says nothing more): it is a Memory of its own too.
   */
  more: boolean;
}

/** One word of a name: capitalised, then small letters ("Tom", "Jo", "McKay", "Anne-Marie"). */
const nameWord = String.raw`\p{Lu}[\p{L}\p{M}'’-]*`;
/** The name said: a word or two, read as written (each checked by asName). */
const value = String.raw`(?<value>${nameWord}(?:\s+${nameWord})?)`;
/** Where a clause starts: the sentence's start, a comma or a dash, or a joining word. */
const opens = String.raw`(?:^|[,;:(—–]\s*|\s-\s*|\s(?:but|and|so)\s+)`;
/** Or any word before it, where the clause's own words say whose it is ("Hi I'm Tomislav I go by Tom"). */
const anyOpens = String.raw`(?:^|[\s,;:(—–])`;
const people = String.raw`(?:(?:most|all|some|many)\s+(?:of\s+)?)?(?:my\s+)?(?:people|everyone|everybody|friends|folks|family|colleagues|coworkers|co-workers|they)`;

/** "I'm", "my name is", "this is", "it's": an introduction of the speaker by a name. */
const introduces = String.raw`(?:I['’]?m|I\s+am|my\s+name\s+is|this\s+is|it['’]s)`;

/**
 * How a pattern says it. `own`: the words in its `own` group must be the speaker's own name ("I'm
 * Tomislav (Tom)"; not "I am in Zagreb (Croatia)", "My sister Kristina, Kiki for short"). `alone`: the
 * whole sentence is the name and "here", which an everyday word says too ("Same here.").
 */
interface Pattern {
  re: RegExp;
  own?: true;
  alone?: true;
}

// Each `iu` for the words that lead to the name; under `i`, \p{Lu} matches a small letter too, so each
// name word matched (the value, `own`) is checked to be capitalised as written (asName, ownName).
const patterns: readonly Pattern[] = [
  // "most people call me Tom", "everyone calls me Tom", "my friends just call me Tom".
  {
    re: new RegExp(
      String.raw`${anyOpens}(?<lead>${people}\s+(?:usually\s+|just\s+|mostly\s+|all\s+|always\s+|tend\s+to\s+)*calls?\s+me\s+)${value}`,
      'iu',
    ),
  },
  // "call me Tom", "you can call me Tom", "please, just call me Tom".
  {
    re: new RegExp(
      String.raw`${opens}(?<lead>(?:(?:you\s+can|you\s+may|feel\s+free\s+to|please,?|just|pls|go\s+ahead\s+and)\s+)*call\s+me\s+)${value}`,
      'iu',
    ),
  },
  // "I go by Tom", "I'm known as Tom", "I'm called Tom", "I usually go by Tom".
  {
    re: new RegExp(
      String.raw`${anyOpens}(?<lead>I\s+(?:usually\s+|mostly\s+|just\s+|also\s+|now\s+)?go\s+by\s+|I(?:['’]m|\s+am)\s+(?:usually\s+|mostly\s+|also\s+|better\s+)?(?:known\s+as|called)\s+)${value}`,
      'iu',
    ),
  },
  // "my nickname is Tom", "my preferred name is Tom".
  {
    re: new RegExp(
      String.raw`${opens}(?<lead>my\s+(?:nickname|nick\s+name|preferred\s+name|short\s+name)\s+is\s+)${value}`,
      'iu',
    ),
  },
  // "I'm Tomislav (Tom)", "my name is Tomislav (Tom) Kovačević".
  {
    re: new RegExp(
      String.raw`${opens}(?<lead>${introduces}\s+(?<own>${nameWord}(?:\s+${nameWord}){0,2})\s*\(\s*)${value}(?=\s*\))`,
      'iu',
    ),
    own: true,
  },
  // "I'm Tomislav, Tom for short", "Tomislav, or Tom for short".
  {
    re: new RegExp(
      String.raw`${opens}(?:(?:hi|hey|hello)(?:\s+there)?[,!.]?\s+)?(?<lead>(?:${introduces}\s+)?(?<own>${nameWord}(?:\s+${nameWord}){0,2}),\s*(?:or\s+|but\s+)?(?:just\s+)?)${value}(?=\s+for\s+short)`,
      'iu',
    ),
    own: true,
  },
  // "Tom here.", "Hi, Tom here!": the whole sentence.
  {
    re: new RegExp(
      String.raw`^\s*(?<greeting>(?:hi|hey|hello)(?:\s+there)?[,!.]?\s+)?(?<lead>)${value}(?=\s+here[.!]*\s*$)`,
      'iu',
    ),
    alone: true,
  },
];

/** Words before it in its clause that deny it or put it in the past: "nobody calls me Tom". */
const denied =
  /(?<![\p{L}\p{N}])(?:not|never|nobody|no\s+one|don['’]t|doesn['’]t|didn['’]t|won['’]t|stop|used\s+to|would|if)(?![\p{L}\p{N}])[^,;]*$/iu;

/**
 * Capitalised words that are no name: days, months, a chat's acronyms, "Mr", a title's small words
 * ("Call Me By Your Name"), what says "here" with no name ("Same here.", "Right here.") and rides one
 * goes by ("I go by Uber").
 */
const notNames = new Set(
  `monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight january february march
   april may june july august september october november december mr mrs ms dr sir madam maybe please
   back later anytime asap lol crazy by your my his her their our the a an of in on at to for with and or
   but same ditto right over out up down there here now still also too me you him them us everyone
   everybody nobody someone anyone all both none nothing everything thanks thank sorry yes no not ok
   okay uber lyft bolt taxi metro tram bus train bike bicycle car foot boat ferry plane scooter cab`.split(
    /\s+/u,
  ),
);

/**
 * Words of a relation, which people call one by as a word, not a name ("Everyone calls me Boss.",
 * "… Mama"), and which a question says of someone else in her life ("Where does my boss
 * work?", "my coach", "my mum"): read as her name, each question about her boss was a question about
 * her. Only the word alone: "Coach K" or "Mama Bear" is a name. A word one is called by as a title and
 * says of nobody else ("Doc", "Skipper", "Chef", "Captain") is a nickname, matched in a question only
 * written as a name (everydayNames): "my doc" is not "Doc".
 */
const roleWords = new Set(
  `boss doctor coach teacher professor nurse manager director mom mum mama mommy mummy dad papa daddy
   pops grandma grandpa granny gran nana auntie aunt uncle sis bro brother sister babe baby bae sweetie
   sweetheart darling dear love hun kiddo kid boy girl lady partner neighbour neighbor landlord`.split(
    /\s+/u,
  ),
);

/**
 * Words that make a name a place's: "Maksimir Park", "Jelačić Square", "Lake Bled". One passes by a
 * place as one goes by a name ("I go by Maksimir Park twice a week."), and no nickname is one.
 */
const placeWords = new Set(
  `park square street st road avenue lane boulevard bridge station lake river beach bay hill mount
   market mall centre center plaza piazza trg cesta ulica church cathedral museum hospital school
   university campus library stadium arena airport harbour harbor port castle tower gate garden gardens
   cafe café bar pub restaurant bakery gym office zoo palace island`.split(/\s+/u),
);

/**
 * Names that are everyday words too ("Where will Luka work?", "Mark my words", "Same here"): said
 * alone before "here" they are no introduction, and a question names her by one only where it writes
 * it capitalised, not opening a sentence (retrieve/self-names.ts `nicknamesNamed`).
 */
export const everydayNames: ReadonlySet<string> = new Set(
  `will mark max rob sunny may bill pat grace hope joy faith rose june april august art bob jack frank
   sue drew guy ray gene dawn amber ruby summer rusty buddy chip bud sandy penny holly ivy jade iris lily
   daisy dot nick don dean rich chuck chase hunter jay kit cliff sky river angel hazel pearl violet
   heath glen lance miles norm wade dash ace buck duke king prince sly sage rocky brook carol robin
   crystal destiny harmony honey misty storm cash chance doc skipper chief chef captain cap sarge
   sergeant officer detective judge prof president prez mayor sheriff champ pal mate dude gentleman
   madam miss mister master teach`.split(/\s+/u),
);

/** The name's words that are one: capitalised with a small letter, no day or month; null if none is. */
function asName(said: string): string | null {
  const words = said.split(/\s+/u);
  const kept: string[] = [];
  for (const w of words) {
    // "Coach K": an initial after a name's word ("I" and "A" are words).
    if (kept.length > 0 && /^(?![IA]\b)\p{Lu}\.?$/u.test(w)) {
      kept.push(w.replace(/\.$/u, ''));
      continue;
    }
    if (!/^\p{Lu}/u.test(w) || !/\p{Ll}/u.test(w) || notNames.has(w.toLowerCase()) || /['’]s$/u.test(w))
      break;
    kept.push(w);
  }
  return kept.length > 0 ? kept.join(' ') : null;
}

/** Words as written that are all of her own name, each capitalised: "Tomislav", "Tomislav Kovačević". */
const ownName = (said: string, own: ReadonlySet<string>): boolean =>
  said
    .trim()
    .split(/\s+/u)
    .every((w) => /^\p{Lu}/u.test(w) && own.has(foldName(w)));

/**
 * Someone else's words the sentence reports: "Mia said: call me Tom.", "He told me to call me Tom", or
 * a quotation open before the name. "I said: call me Tom" is her own.
 */
const reports =
  /(?:^|[^\p{L}\p{N}'’])(?<who>[\p{L}'’]+)\s+(?:said|says|told|tells|asked|asks|wrote|writes|texted|replied|replies|goes|went|yelled|shouted)(?![\p{L}\p{N}])/iu;
function reported(before: string): boolean {
  const r = reports.exec(before);
  if (r !== null && r.groups!['who']!.toLowerCase() !== 'i') return true;
  const straight = (before.match(/"/gu) ?? []).length;
  const opened = (before.match(/[“«„]/gu) ?? []).length;
  const closed = (before.match(/[”»]/gu) ?? []).length;
  return straight % 2 === 1 || opened > closed;
}

/**
 * What follows the name that makes it no name said of her: a verb whose subject it is ("Call me
 * Ishmael is the best opening line"), a close quote, or where one goes by it ("I go by Uber to work").
 */
const goesOn =
  /^(?:['’]s(?![\p{L}])|\s*[”"»]|\s+(?:is|was|are|were|has|had|does|did|will|would|can|could|should|might|must)(?![\p{L}\p{N}]))/iu;
/**
 * Where or how many times one goes by it ("I go by Zagreb twice a week", "… on my way to Split"): a
 * place passed. Not how often one is called so ("I go by Tom a lot these days", "… almost everywhere",
 * "… often"): said of a name as often as of a place.
 */
const goesWhere =
  /^\s+(?:to|from|into|every|each|most|when|whenever|because|on\s+(?:weekdays|weekends|(?:the|my|our)\s+way)|twice|once|(?:\d+|two|three|four|five|several|many)\s+times|daily|weekly)(?![\p{L}\p{N}])/iu;

/** What is left of a sentence that says nothing more than a greeting and her name. */
const onlyGreeting = (subject: string) => {
  const names = [...new Set([foldName(subject), ...foldName(subject).split(' ')])];
  return (rest: string): boolean => {
    const folded = foldName(rest)
      .replace(/[^\p{L}\p{N}'’\s]+/gu, ' ')
      .replace(/\s+/gu, ' ')
      .trim();
    // One space between words now: each step strips a whole word or words.
    const said = folded
      .replace(/^(?:hi|hey|hello)(?: there)?(?: |$)/u, '')
      .replace(/(?:^| )(?:but|and|so|or)$/u, '');
    if (said === '') return true;
    const intro = /^(?:i['’]?m|i am|my name is|it['’]s|this is) /u.exec(said);
    return intro !== null && names.includes(said.slice(intro[0].length));
  };
};

/**
 * Whether a name's words (folded) are a full name of her own: a place's kind in it is a word of her own
 * name ("Jo Park" of Joanna Park: "park" is her surname), and another word of it is of her name or her
 * first name cut short ("jo" of Joanna). A place's name is none, whatever of hers it shares: "Maksimir
 * Park" (though she is a Park), "Victoria Station" of Victoria Hughes, "Christ Church" of Christina Lee,
 * "Hyde Park" of Hyde Miller: places one passes. So is "Nina Park" of Nina Babić, married: said with
 * "go by", a place's kind that is no name of hers is read as the place.
 */
function ownFullName(words: readonly string[], subject: string): boolean {
  const own = foldName(subject).split(' ');
  const first = own[0] ?? '';
  if (words.some((w) => placeWords.has(w) && !own.includes(w))) return false;
  return words.some(
    (w) =>
      !placeWords.has(w) &&
      (own.includes(w) || (w.length >= 2 && first.length > w.length && first.startsWith(w))),
  );
}

/** The nickname `subject` (the speaker, as the Brain names them) says in `sentence`, or null. */
export function nicknameSaid(sentence: string, subject: string): NicknameSaid | null {
  if (isQuestion(sentence)) return null;
  const own = new Set([foldName(subject), ...foldName(subject).split(' ')]);
  for (const { re, own: mustBeOwn, alone } of patterns) {
    const m = re.exec(sentence);
    if (m === null) continue;
    const lead = m.groups!['lead']!;
    const start = m.index + m[0].length - m.groups!['value']!.length - lead.length;
    const before = sentence.slice(0, start + lead.length);
    if (denied.test(before) || reported(before)) continue;
    // "Call Me By Your Name": a title's capitals, not her words.
    if (/(?<![\p{L}])Me(?![\p{L}])/u.test(lead)) continue;
    if (mustBeOwn && !ownName(m.groups!['own']!, own)) continue;
    const name = asName(m.groups!['value']!);
    if (name === null || own.has(foldName(name))) continue;
    // "Everyone calls me Boss.": a relation's word alone, no name ("Coach K" is one).
    const words = foldName(name).split(' ');
    if (words.every((w) => roleWords.has(w))) continue;
    // "I go by Maksimir Park": a place one passes, by its kind; only there, as "Park" is a surname too.
    // "I go by Jo Park.", of Joanna Park: a full name that shares her own is hers (ownFullName).
    const goesBy = /\bgo\s+by\s+$/iu.test(lead);
    if (goesBy && words.length > 1 && words.some((w) => placeWords.has(w)) && !ownFullName(words, subject))
      continue;
    // "Same here." alone, "Will here.": an everyday word; "Hi, Will here." is a name.
    if (alone && m.groups!['greeting'] === undefined && everydayNames.has(foldName(name))) continue;
    const after = sentence.slice(start + lead.length + name.length);
    // "I go by Tom's place": a possessive, no name said; nor "Call me Ishmael is …".
    if (goesOn.test(after)) continue;
    if (goesBy && goesWhere.test(after)) continue;
    const end = start + lead.length + name.length;
    // "I'm Tomislav (Tom)", "I'm Tomislav, Tom for short": the clause is the introduction whole.
    const short = /^\s+for\s+short/iu.exec(after)?.[0].length ?? 0;
    const clause: [number, number] = lead.includes('(')
      ? [start, sentence.indexOf(')', end) + 1]
      : [start, end + short];
    const rest =
      sentence.slice(0, clause[0]) + ' ' + sentence.slice(clause[1]).replace(/^\s*here(?![\p{L}])/iu, '');
    return { value: name, clause, more: !onlyGreeting(subject)(rest) };
  }
  return null;
}
