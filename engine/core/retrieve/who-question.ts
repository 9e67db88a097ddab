import { foldText } from '../shared/fold-text.ts';
import { escapeRegExp } from '../shared/escape-reg-exp.ts';
import { englishFunctionWords, languages } from './languages.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** Words a question may open with before it asks ("So who is Luka?", "remind me, who's Luka?"). */
const openers = new Set('so and ok okay hey wait remind tell me'.split(' '));
/**
 * The words that ask who someone is, folded: "who is", "who's", "tko je", "quem é", "wer ist", ... ("who
 * was" too: a person of one's past is asked of so).
 */
const frames = [
  "who's",
  'who is',
  'who was',
  'tko je',
  'ko je',
  'quem e',
  'quem era',
  'quien es',
  'qui est',
  'wer ist',
  'wer war',
  'chi e',
].map((f) => f.split(' '));
/** A word between the frame and the name that asks nothing more ("who is this Luka", "quem é a Rita"). */
const beforeName = new Set('this that exactly again uopce o a el la'.split(' '));
/** Words after the name that ask nothing more ("Who is Luka again?", "who is Luka to me?"). */
const afterName = ['again', 'exactly', 'anyway', 'to me', 'uopce', 'meni', 'para mim'].map((f) =>
  f.split(' '),
);

/** Words that, standing where the name would, make the question ask about something else. */
const notAName = new Set([
  ...englishFunctionWords,
  ...languages.flatMap((l) => [...l.functionWords]),
  ...'coming going calling here there speaking everyone anyone someone somebody nobody'.split(' '),
]);

const startsWith = (words: readonly string[], start: readonly string[]) =>
  start.every((w, i) => words[i] === w);

/**
 * The name a question asks who someone is of ("luka" of "Who is Luka?", "Tko je Luka?" and "who's
 * luka"; "ana sousa" of "Who's Ana Sousa?"), folded, so a name written in lower case or without its
 * accents is read as written with them; null for any other question. Not "Who is my dentist?" (what the
 * self holds: the slot and kin words answer it), "Who is Luka's wife?" (someone else), "Who is coming?"
 * or a name of more than three words.
 */
export function askedWho(query: string): string | null {
  let words: string[] =
    foldText(query)
      .replace(/’/gu, "'")
      .match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  while (words.length > 0 && openers.has(words[0]!)) words = words.slice(1);
  const frame = frames.find((f) => startsWith(words, f));
  if (frame === undefined) return null;
  words = words.slice(frame.length);
  if (words.length > 1 && beforeName.has(words[0]!)) words = words.slice(1);
  const after = afterName.find((f) => words.length > f.length && startsWith(words.slice(-f.length), f));
  if (after !== undefined) words = words.slice(0, -after.length);
  if (words.length === 0 || words.length > 3) return null;
  if (words.some((w) => !/^\p{L}[\p{L}-]*$/u.test(w) || notAName.has(w))) return null;
  return words.join(' ');
}

/** How a Record's text says who the named person is: to the self (1), what they are (2), or not (0). */
export type Defines = 0 | 1 | 2;

/** Words that name whose the person is: the self's, in the languages queries are read in. */
const mine =
  '(?:my|our|moj|moja|moje|mog|nas|nasa|nase|meu|minha|nosso|nossa|mi|nuestro|nuestra|mon|ma|notre|mein|meine|meinem|unser|unsere|(?:il\\s+|la\\s+)?(?:mio|mia|nostro|nostra)|(?:o\\s+|a\\s+)?(?:meu|minha))';
/** "is" in those languages, folded ("é", "è" and "je" alike). */
const copula = "(?:'s|\\s+(?:is|was|je|e|es|est|ist|war|era|bio|bila))";
/** After "is a", words that say how the person is, not what: "Luka is a bit stressed". */
const notWhat =
  '(?!(?:bit|little|lot|mess|wreck|same|best|worst|one\\s+who|hour|minute|day|week|month|year|half)\\b)';
/** A word of a name in a possessive: "Ana's husband". */
const possessor = "\\p{L}[\\p{L}-]*'s";
/** A word between "my" and the name ("my brother-in-law Luka", "my old friend Luka"), read by nounsOnly. */
const between = '(?:\\p{L}[\\p{L}-]*\\s+)';
/** A verb that passes something to someone: "I told my mum Luka is coming" names no mum Luka. */
const toSomeone =
  /(?:told|tell|tells|asked|ask|asks|texted|text|called|call|showed|show|gave|give|sent|send|wrote|write)\s+$/u;
/** The words before the name are nouns and their words, not "my keys to Luka" or "my brother is with Luka". */
const nounsOnly = (words: string) =>
  words
    .trim()
    .split(/\s+/u)
    .every((w) => !notAName.has(w));

/** The patterns of one name, built once per question. */
export function definitionsOf(name: string): (text: string) => Defines {
  // "dr babic" of "Who is Dr. Babić?": a title's dot stays in the text.
  const n = `(?<![\\p{L}\\p{N}])${name.split(' ').map(escapeRegExp).join('\\.?\\s+')}(?![\\p{L}\\p{N}])`;
  // Surnames after a first name: "Luka Perić is my brother-in-law".
  const full = `${n}(?:\\s+\\p{L}[\\p{L}-]*)?`;
  const toSelf = [
    // "Luka is my brother-in-law", "Luka je moj šogor", "Rita é a minha irmã", "Luka's also my boss".
    new RegExp(`${full}${copula}\\s+(?:(?:also|actually|now|still|basically|like)\\s+)?${mine}\\s`, 'u'),
  ];
  // "Luka, my colleague from Span, ...", "Luka (my neighbour)", "Luka - my boss.": what follows "my" is
  // a noun and its words up to the apposition's end: a comma closes it, or a parenthesis, or (after a
  // dash) the sentence. Not a clause ("Luka, my car will not start"), nor a vocative before one's own
  // news ("Luka, my phone died.", "Luka, my mum says hi.").
  const noun = `${mine}\\s+((?:\\p{L}[\\p{L}-]*\\s+){0,3}?\\p{L}[\\p{L}-]*)(?:\\s+(?:from|at|in|of|na|iz|u|de|da|do|aus|bei)\\s+[^,.;:!?()]{1,40})?\\s*`;
  const appositions = [
    new RegExp(`${full}\\s*,\\s*${noun},`, 'gu'),
    new RegExp(`${full}\\s*\\(\\s*${noun}\\)`, 'gu'),
    new RegExp(`${full}\\s*[-–—]\\s*${noun}(?:[,.;:!?]|$)`, 'gu'),
  ];
  // "my brother-in-law Luka", "my old friend Luka", "moj šogor Luka".
  const mineBefore = new RegExp(`(?<![\\p{L}\\p{N}])${mine}\\s+(${between}{1,2})${n}`, 'gu');
  const what = [
    // "Luka is a carpenter", "Luka is Ana's husband", "Luka is the owner of ...".
    new RegExp(`${full}${copula}\\s+(?:(?:a|an|the)\\s+${notWhat}|${possessor}\\s)`, 'u'),
    // "Luka, a carpenter from Split, ...", "Luka, Ana's husband, ...".
    new RegExp(`${full}\\s*(?:,|\\()\\s*(?:(?:a|an)\\s+${notWhat}|${possessor}\\s)`, 'u'),
    // "Luka works as a nurse", "Luka works at Infobip", "Luka radi u Infobipu".
    new RegExp(
      `${full}\\s+(?:works|worked|radi|trabalha|trabaja|travaille|arbeitet|lavora)\\s+(?:as|at|for|in|u|kao|za|como|em|en|na|comme|als|bei|come|da)\\s`,
      'u',
    ),
  ];
  // "Ana's husband Luka".
  const othersBefore = new RegExp(`${possessor}\\s+(${between})${n}`, 'gu');
  // "I told my mum Luka is coming": the name opens what was told, and names no mum Luka; "I called my
  // brother Luka yesterday" names him.
  const opensClause =
    /^(?:\s+\p{L}[\p{L}-]*)?\s+(?:is|was|will|would|has|had|can|could|says|said)(?![\p{L}\p{N}])/u;
  const nounsBefore = (p: RegExp, folded: string) =>
    [...matchesOf(p, folded)].some(
      (m) =>
        nounsOnly(m[1]!) &&
        !(toSomeone.test(folded.slice(0, m.index)) && opensClause.test(folded.slice(m.index + m[0].length))),
    );
  const nounAfter = (folded: string) =>
    appositions.some((p) => [...matchesOf(p, folded)].some((m) => nounsOnly(m[1]!)));
  return (text) => {
    const folded = foldText(text).replace(/’/gu, "'");
    if (!new RegExp(n, 'u').test(folded)) return 0;
    if (toSelf.some((p) => p.test(folded)) || nounAfter(folded) || nounsBefore(mineBefore, folded)) return 1;
    return what.some((p) => p.test(folded)) || nounsBefore(othersBefore, folded) ? 2 : 0;
  };
}
