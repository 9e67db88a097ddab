import { normalizeStatement } from './record-text.ts';

/*
 * What makes two statements one Memory: their key. A person says the same thing again in other words
 * ("I love hiking.", then "I really love hiking!" or "I love to hike."): keyed by their words alone
 * (case, spacing, trailing punctuation), those were three current Memories saying the same. The key
 * leaves out only what does not change what is said, and keeps everything that does: a negation
 * ("not", "never", "n't" read as "not"), every other word, the tense of every verb, digits and what
 * joins them ("1.5" is not "15").
 */

/**
 * The version of the keys statementKey gives, which a store records beside the keys its Memories hold
 * (each adapter's statement-keys.ts): a claim looks a statement up by its key alone, so a store whose
 * keys are another version's keys every Memory again when it opens, before anything is looked up.
 * Raise it with any change to what statementKey returns (statement-key.test.ts pins them).
 */
export const statementKeysVersion = 1;

/** Fewer words than this left, and a statement is keyed by its words as they are. */
const minWords = 3;

/** Words that only stress what is said: "I really love hiking" says "I love hiking". */
const intensifiers = new Set([
  'really',
  'very',
  'truly',
  'totally',
  'absolutely',
  'definitely',
  'honestly',
  'literally',
  'genuinely',
  'seriously',
  'actually',
]);

/** A reply's opening that only agrees or marvels: "Yeah, I love hiking" says "I love hiking". */
const openers = new Set(['oh', 'wow', 'yeah', 'yes', 'yep']);

/**
 * Verbs of liking, in any tense (the verb itself is kept, so its tense is too): after them, "to hike"
 * and "hiking" say the same.
 */
const liking = new Set(
  ['love', 'like', 'enjoy', 'hate', 'adore', 'prefer'].flatMap((v) => [
    v,
    `${v}s`,
    v.endsWith('e') ? `${v}d` : `${v}ed`,
  ]),
);
liking.add('preferred');

/** Contractions read out, so "don't" and "do not" are one, and the negation stays a word of its own. */
const contractions: ReadonlyArray<[RegExp, string]> = [
  [/\bcan't\b/gu, 'can not'],
  [/\bcannot\b/gu, 'can not'],
  [/\bwon't\b/gu, 'will not'],
  [/\bshan't\b/gu, 'shall not'],
  [/n't\b/gu, ' not'],
  [/'m\b/gu, ' am'],
  [/'re\b/gu, ' are'],
  [/'ve\b/gu, ' have'],
  [/'ll\b/gu, ' will'],
];

/**
 * A verb after a verb of liking, to its crudest stem, the same for "hike" and "hiking", "swim" and
 * "swimming", "dance" and "dancing": no "-ing", no final "e", no doubled last letter. Only there: a
 * stem elsewhere would make "I was hiking" of "I hike".
 */
function stem(word: string): string {
  let w = word;
  if (w.length >= 5 && w.endsWith('ing')) w = w.slice(0, -3);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && w.at(-1) === w.at(-2) && !/[aeiou]/u.test(w.at(-1)!)) w = w.slice(0, -1);
  return w;
}

/** A word without the apostrophes around it ('tis, quoted 'words'). */
function withoutQuotes(w: string): string {
  let from = 0;
  let to = w.length;
  while (from < to && w[from] === "'") from += 1;
  while (to > from && w[to - 1] === "'") to -= 1;
  return w.slice(from, to);
}

/**
 * The key of a statement: lower case; contractions read out; every mark that is not a letter, a digit
 * or an apostrophe inside a word is a space, except between two digits; intensifiers left out, and an
 * opening "oh", "wow", "yeah", "yes" or "yep"; after a verb of liking, "to" left out and the next
 * word stemmed. Unless fewer than three words are left: then its words as normalised, as before. "I love hiking.", "I really love hiking!" and "I love to hike" are "i love hik";
 * "I don't love hiking", "I loved hiking" and "I'd love to hike" are each another key.
 */
export function statementKey(statement: string): string {
  let s = statement.normalize('NFKC').toLowerCase().replace(/[’‘]/gu, "'");
  for (const [re, out] of contractions) s = s.replace(re, out);
  // Marks between digits are part of the number; any other is a space.
  s = s.replace(/[^\p{L}\p{N}\p{M}']/gu, (c, at: number) =>
    /\p{N}/u.test(s[at - 1] ?? '') && /\p{N}/u.test(s[at + 1] ?? '') ? c : ' ',
  );
  const words = s
    .split(/\s+/u)
    .map(withoutQuotes)
    .filter((w) => w !== '' && !intensifiers.has(w));
  while (words.length > 1 && openers.has(words[0]!)) words.shift();
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    out.push(w);
    if (!liking.has(w)) continue;
    const to = words[i + 1] === 'to' && i + 2 < words.length;
    const next = words[to ? i + 2 : i + 1];
    if (next === undefined || (!to && !next.endsWith('ing'))) continue;
    out.push(stem(next));
    i += to ? 2 : 1;
  }
  // In a short reply what was left out is most of what it says: "Wow, Caroline!" is not "Yep,
  // Caroline.", nor "You seriously rock." "You rock!". It keeps its words (record-text.ts).
  return out.length < minWords ? normalizeStatement(statement) : out.join(' ');
}
