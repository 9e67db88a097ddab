/** Facts' predicates are slugs; people read "favourite colour", not "favourite_colour". */
export function humanizePredicate(predicate: string): string {
  return predicate.replaceAll('_', ' ').trim();
}

/**
 * A fact Record's citable line, "Ana favourite colour: green": what the engine indexes and quotes as its
 * evidence, so a display of the fact that reads the same is what a citation quotes.
 */
export function factLine(f: { subject: string; predicate: string; value: unknown }): string {
  return factLineHead(f.subject, f.predicate) + String(f.value);
}

/** A fact's line up to its value: "Ana favourite colour: ". */
export const factLineHead = (subject: string, predicate: string): string =>
  `${subject} ${humanizePredicate(predicate)}: `;

const verbSlots = new Set(['lives in', 'works at', 'studies at']);
/** A slot said with a verb of its subject ("Ana lives in Porto"), not as an attribute ("Ana's diet is …"). */
export const saidAsVerb = (predicate: string): boolean => verbSlots.has(predicate);

/**
 * A slot version's words up to the value it ends: "Ana no longer lives in ", "Ana's diet is no longer ".
 * The engine writes an ending so ("I don't live in Lisbon anymore", "I'm not vegan anymore"), and the
 * UI tells an ending from a value by it.
 */
export const endedHead = (subject: string, predicate: string): string =>
  saidAsVerb(predicate) ? `${subject} no longer ${predicate} ` : `${subject}'s ${predicate} is no longer `;

/**
 * A fact as a person would write it, for display only: "Marko's birthday is March 13", "Lea lives in
 * Zagreb". A fact's Record stays its line (factLine): that line is what is indexed, what a citation
 * quotes word for word and what a Context block holds, so only where a fact is shown to be read is it
 * said so. The engine (a Context header's change) and the UI word facts with these, written once.
 */

/** Words a predicate may open with that make it a verb phrase said of its subject ("lives in", "is allergic to"). */
const verbsOfThird: Readonly<Record<string, string>> = {
  is: 'are',
  am: 'are',
  was: 'were',
  has: 'have',
  does: 'do',
  had: 'had',
  did: 'did',
};
const regularVerbs = new Set(
  (
    'lives works likes loves prefers owns speaks knows wants needs uses drives plays hates enjoys reads ' +
    'eats drinks supports follows studies attends teaches manages runs rides visits watches writes ' +
    'dislikes believes collects'
  ).split(' '),
);
/** A predicate's last word that is its verb: "gym membership ends" is said "… ends March 3". */
const closingVerbs = new Set([
  'ends',
  'starts',
  'begins',
  'expires',
  'opens',
  'closes',
  'falls',
  'is',
  'was',
]);
/** A predicate ending so names a relation its subject is in: "married to" is said "Lea is married to Ivan". */
const closingPrepositions = new Set(['to', 'in', 'at', 'of', 'with', 'for', 'from', 'by', 'on', 'about']);

/** How a fact's subject is named: as written, or (`you`) as the Brain's own person, to them. */
export interface SubjectWords {
  /**
   * The subject is the Brain's own person and the reader is that person: named `selfName` where known,
   * else addressed as "you" ("Your favourite colour is green", "You live in Porto").
   */
  you?: { selfName?: string | undefined } | undefined;
}

const words = (predicate: string) => humanizePredicate(predicate).split(/\s+/u).filter(Boolean);

/** The verb a predicate opens with, as said of "you" ("lives in": "live"), or null when it opens with none. */
function verbOfYou(first: string): string | null {
  const word = first.toLowerCase();
  const irregular = verbsOfThird[word];
  if (irregular !== undefined) return irregular;
  if (!regularVerbs.has(word)) return null;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return /(?:ches|shes|sses|xes)$/u.test(word) ? word.slice(0, -2) : word.slice(0, -1);
}

/** A predicate's words said as a clause of its subject, or null where it names an attribute. */
function clauseOf(predicate: string[]): { verb: 'opens' | 'is' } | null {
  const [first = '', ...rest] = predicate;
  if (verbOfYou(first) !== null) return { verb: 'opens' };
  const last = rest.at(-1)?.toLowerCase();
  if (last !== undefined && closingPrepositions.has(last)) return { verb: 'is' };
  return null;
}

/**
 * What a fact is of and what joins it to its value: "Marko's birthday" + " is ", "Lea lives in" + " ",
 * "Lea is married to" + " ", "Lea's gym membership ends" + " ", "Your favourite colour" + " is ".
 */
function factParts(subject: string, predicate: string, how: SubjectWords): { topic: string; join: string } {
  const said = words(predicate);
  const name = how.you ? how.you.selfName?.trim() || null : subject.trim();
  const clause = clauseOf(said);
  if (clause?.verb === 'opens') {
    const verb = name === null ? [verbOfYou(said[0]!)!, ...said.slice(1)] : said;
    return { topic: `${name ?? 'You'} ${verb.join(' ')}`, join: ' ' };
  }
  if (clause?.verb === 'is') {
    // "born in" is said of a birth, which was: "Lea was born in Split".
    const born = said[0]!.toLowerCase() === 'born';
    const be = name === null ? (born ? 'were' : 'are') : born ? 'was' : 'is';
    return { topic: `${name ?? 'You'} ${be} ${said.join(' ')}`, join: ' ' };
  }
  // A predicate of no words ("_"): the subject and its value.
  if (said.length === 0) return { topic: name ?? 'You', join: ': ' };
  const topic = `${name === null ? 'Your' : `${name}'s`} ${said.join(' ')}`;
  return { topic, join: said.length > 1 && closingVerbs.has(said.at(-1)!.toLowerCase()) ? ' ' : ' is ' };
}

/** A value that only says yes or no: a sentence cannot end in it ("Lea is vegetarian true"). */
const yesOrNo = (value: unknown): boolean =>
  value === true || value === false || value === 'true' || value === 'false';

/**
 * A fact said up to its value: "Marko's birthday is ", "Lea lives in ", "Lea is married to ", "Lea's
 * gym membership ends ", "Your favourite colour is "; before a value that says yes or no (`value`,
 * where given), what it is said of and ": " ("Lea is vegetarian: ").
 */
export function factSentenceHead(
  subject: string,
  predicate: string,
  how: SubjectWords = {},
  value?: unknown,
): string {
  const { topic, join } = factParts(subject, predicate, how);
  return topic + (yesOrNo(value) && join !== ': ' ? ': ' : join);
}

const monthNames = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * A fact's value as a sentence says it: a calendar date ("1990-05-04") as "May 4, 1990", the same on
 * every device (a date names a day, not an instant, so no zone moves it); true or false as yes or no;
 * anything else as written.
 */
export function factValueWords(value: unknown): string {
  if (yesOrNo(value)) return String(value) === 'true' ? 'yes' : 'no';
  const said = String(value);
  const date = /^(\d{4})-(\d\d)-(\d\d)$/u.exec(said.trim());
  if (date === null) return said;
  const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const t = new Date(Date.UTC(y, m - 1, d));
  // "2026-02-30" names no day: said as written.
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return said;
  return `${monthNames[m - 1]} ${d}, ${y}`;
}

/** A fact as a sentence: "Marko's birthday is March 13", "Lea lives in Zagreb". Display only. */
export function factSentence(
  f: { subject: string; predicate: string; value: unknown },
  how: SubjectWords = {},
): string {
  return factSentenceHead(f.subject, f.predicate, how, f.value) + factValueWords(f.value);
}

/** What a fact is of, without its value: "Marko's birthday", "Lea lives in", "Lea is married to". */
export const factTopic = (subject: string, predicate: string, how: SubjectWords = {}): string =>
  factParts(subject, predicate, how).topic;
