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
/** Verbs a yes or no is said of with nothing after them: "Lea smokes", "Lea does not drive". */
const verbsAlone = new Set(
  (
    'smokes vapes drinks drives works cooks swims travels exercises dances sings runs reads writes ' +
    'cycles hikes knits meditates votes snores studies teaches skis surfs climbs gardens sails'
  ).split(' '),
);
/**
 * Those of verbsAlone that are as often a plural noun: a predicate of that word alone is a verb only of
 * a yes or no ("Lea cycles"); with another value it names a thing ("Lea's cycles: 28 days", not "Lea
 * cycles 28 days"). With more words it is a verb: "cycles to work".
 */
const nounLikeVerbs = new Set('cycles gardens votes sails hikes dances climbs skis'.split(' '));
/** Verbs a predicate may open with, said of its subject: with a value ("Lea smokes 5 a day") or alone. */
const regularVerbs = new Set([
  ...(
    'lives works likes loves prefers owns speaks knows wants needs uses drives plays hates enjoys reads ' +
    'eats drinks supports follows studies attends teaches manages runs rides visits watches writes ' +
    'dislikes believes collects'
  ).split(' '),
  ...verbsAlone,
]);
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
  return regularVerbs.has(word) ? baseOfThird(word) : null;
}

/** A regular verb said of one other than its subject's "he" or "she": "studies" as "study". */
function baseOfThird(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return /(?:ches|shes|sses|xes)$/u.test(word) ? word.slice(0, -2) : word.slice(0, -1);
}

/** A predicate's words said as a clause of its subject, or null where it names an attribute. */
function clauseOf(predicate: string[]): { verb: 'opens' | 'is' } | null {
  const [first = '', ...rest] = predicate;
  if (rest.length === 0 && nounLikeVerbs.has(first.toLowerCase())) return null;
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
  // A plural, which "is" would not agree with ("Lea's cycles is 28 days").
  if (said.length === 1 && nounLikeVerbs.has(said[0]!.toLowerCase())) return { topic, join: ': ' };
  return { topic, join: said.length > 1 && closingVerbs.has(said.at(-1)!.toLowerCase()) ? ' ' : ' is ' };
}

/** Words that say yes or no as a fact's whole value, in the languages facts are written in. */
const yesWords = new Set(['true', 'yes', 'da', 'sim', 'ja']);
const noWords = new Set(['false', 'no', 'ne', 'não', 'nein']);

/**
 * What a value that only says yes or no says (true, "no", "Da", "não"), or null for any other value:
 * a sentence cannot end in it ("Lea is vegetarian true"), it says whether the predicate holds.
 * Of these only true, false, yes and no say nothing else: "ja" is also Japanese, "da" Danish, "ne"
 * north-east, so the others are a yes or no only of a predicate that asks one (yesOrNoOf).
 */
function yesOrNo(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const word = value.normalize('NFC').trim().toLowerCase();
  return yesWords.has(word) ? true : noWords.has(word) ? false : null;
}

/**
 * True or false, as a boolean or written so, and English's yes or no: a yes or no whatever its
 * predicate ("Lea's newsletter: yes" reads better than "Lea's newsletter is yes"; a band named "Yes"
 * is the rarer value).
 */
function trueOrFalse(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const said = typeof value === 'string' ? value.trim() : '';
  const word = said.toLowerCase();
  if (word === 'true' || word === 'yes') return true;
  // "NO" in capitals is as likely Norway's code.
  return word === 'false' || (word === 'no' && said !== 'NO') ? false : null;
}

/** Verbs said with "not" after them, not with "does not" before them. */
const modals = new Set(['can', 'could', 'will', 'would', 'should', 'must', 'may', 'might']);
/** A fact's "is" and "was", as said of a named subject and of "you". */
const beOfYou: Readonly<Record<string, readonly [named: string, you: string]>> = {
  is: ['is', 'are'],
  am: ['is', 'are'],
  are: ['is', 'are'],
  was: ['was', 'were'],
  were: ['was', 'were'],
};
/** The regular past of each of verbsAlone, to its plain form: "smoked" is "smoke", "studied" "study". */
const pastsAlone: ReadonlyMap<string, string> = new Map(
  [...verbsAlone].map((third) => {
    const plain = baseOfThird(third);
    if (plain.endsWith('e')) return [`${plain}d`, plain];
    return [/[^aeiou]y$/u.test(plain) ? `${plain.slice(0, -1)}ied` : `${plain}ed`, plain];
  }),
);
/** Words that already say no: a predicate holding one is not said again with "not". */
const negations = new Set(['not', 'no', 'never', 'non', "isn't", "doesn't", "don't", 'cannot', "can't"]);
/** Words that join a phrase to what it is of: "allergic to nuts", "a member of the club". */
const prepositions = new Set([
  ...closingPrepositions,
  'against',
  'into',
  'over',
  'under',
  'without',
  'towards',
  'than',
]);

/**
 * Words a person is named by, after "is a": "Lea is a smoker", "Lea is not a blood donor". Listed,
 * not guessed from "-er": "Lea is a newsletter" is what a guess says of a `newsletter: yes`.
 */
const roleNouns = new Set(
  (
    'smoker drinker vaper driver rider biker cyclist runner swimmer hiker climber skier surfer golfer ' +
    'dancer singer musician reader writer gamer gardener cook chef baker eater sleeper riser owl person ' +
    'student pupil parent grandparent mother father grandmother grandfather twin child adult minor senior ' +
    'member subscriber customer client user admin administrator owner homeowner landlord tenant renter ' +
    'partner donor volunteer veteran citizen resident retiree pensioner freelancer contractor employee ' +
    'intern trainee apprentice worker manager founder investor shareholder sponsor mentor fan lover ' +
    'believer introvert extrovert immigrant expat refugee speaker learner beginner expert teacher nurse ' +
    'doctor mechanic engineer developer programmer designer photographer artist author blogger ' +
    'commuter traveller traveler collector executive detective relative representative carer caregiver ' +
    'guardian patient atheist agnostic'
  ).split(' '),
);
/**
 * Words said after "is" as they are: "Lea is vegetarian", "Lea is not pregnant". The participles among
 * them are listed, not guessed from "-ed": a guess says "Lea is smoked" of a `smoked: yes`.
 */
const adjectives = new Set(
  (
    'vegan vegetarian pescatarian kosher halal single free alive dead sick ill well blind deaf gay straight ' +
    'trans online offline awake asleep afraid aware pregnant fluent intolerant tolerant independent ' +
    'dependent absent present sober drunk busy happy healthy ready shy lucky rich poor young colourblind ' +
    'colorblind married unmarried divorced engaged separated widowed partnered retired employed ' +
    'unemployed vaccinated unvaccinated adopted disabled qualified licensed certified registered insured ' +
    'uninsured tired interested involved committed educated experienced skilled baptized baptised ' +
    'confirmed neutered spayed closeted bored excited worried scared stressed depressed relaxed ' +
    'satisfied motivated organised organized'
  ).split(' '),
);
/**
 * Words with an adjective's ending that are none: nouns ("-able" says "Lea is vegetable" of a
 * `vegetable: yes`) and verbs ("Lea is drive" of a `drive: yes`).
 */
const notAdjectives = new Set(
  (
    'music clinic topic traffic logic panic picnic table cable vegetable timetable constable syllable ' +
    'bible archive olive motive incentive initiative objective hundred drive arrive survive thrive ' +
    'strive revive derive deprive receive perceive deceive conceive forgive'
  ).split(' '),
);
/** Endings of words that name a state: "allergic", "homeless", "religious", "active". */
const adjectiveEnding = /(?:ic|ful|less|ous|ive|able|ible|ical|ual|ional)$/u;
const isAdjective = (word: string): boolean =>
  adjectives.has(word) || (word.length >= 5 && adjectiveEnding.test(word) && !notAdjectives.has(word));

/** "a" or "an" before a word, by how it starts to be said: "eu" and "one" start as "you" and "won". */
const article = (word: string): string =>
  /^(?:(?!eu|one(?![a-z])|once)[aeio]|u(?!ni|s|t|r)|hour|honou?r|heir)/iu.test(word) ? 'an' : 'a';

/**
 * A predicate's words said after "is", or null where they name no state or kind of person:
 * "vegetarian", "lactose intolerant", "allergic to nuts" as they are; "smoker", "blood donor", "member
 * of the club" after "a". The word before any preposition ("allergic" in "allergic to nuts") decides.
 */
function complementOf(said: readonly string[]): string | null {
  const lower = said.map((w) => w.toLowerCase());
  if (lower[0] === 'a' || lower[0] === 'an' || lower[0] === 'the')
    return said.length > 1 ? said.join(' ') : null;
  const joined = lower.findIndex((w, i) => i > 0 && prepositions.has(w));
  const head = joined < 0 ? lower : lower.slice(0, joined);
  const last = head.at(-1) ?? '';
  // "with partner" is said as it is: "Lea is not with partner", not "a with partner".
  if (roleNouns.has(last))
    return prepositions.has(lower[0]!) ? said.join(' ') : `${article(said[0]!)} ${said.join(' ')}`;
  if (isAdjective(last)) return said.join(' ');
  return null;
}

/**
 * Participles said after "has": the irregular ones, and the regular ones too short to tell from a word
 * that only ends so ("red", "bed").
 */
const participles = new Set(
  (
    'been done gone seen had got gotten known taken given written eaten driven flown worn won lost met ' +
    'made bought paid sold told found heard kept spent sent built taught thought brought caught fought ' +
    'swum sung begun broken chosen spoken stolen forgotten fallen grown drawn shown read ' +
    'used owed died lied tied'
  ).split(' '),
);
/**
 * Things "read" and "used" before them name, not what was read or used: "has read receipts" is a
 * having ("does not have read receipts"), where "has used drugs" and "has read the book" are the perfect.
 */
const qualifiedByParticiple: Readonly<Record<string, ReadonlySet<string>>> = {
  read: new Set('receipt receipts access permission permissions rights right only mode status'.split(' ')),
  used: new Set('car cars bike bikes clothes furniture books phone'.split(' ')),
};
/**
 * A verb after "has", "had" that makes it the perfect ("has been", "has visited", "has had covid"), not
 * a having ("has red hair"): an "-ed" word only of 5 letters or more, not "-eed" ("seed") nor a noun.
 */
function perfect(word: string | undefined, next: string | undefined): boolean {
  if (word === undefined) return false;
  if (next !== undefined && qualifiedByParticiple[word]?.has(next)) return false;
  return (
    participles.has(word) ||
    (word.length >= 5 && word.endsWith('ed') && !word.endsWith('eed') && !notAdjectives.has(word))
  );
}

/**
 * A predicate opening with a verb said of its subject with a yes or no: "smokes" as "smokes" or "does
 * not smoke", "has a car" as "does not have a car", "can swim" as "cannot swim", "is vegetarian" as "is
 * not vegetarian"; `you` agrees with "you". Null where it opens with no verb, or with one that wants
 * what the value would have said ("likes": likes what?).
 */
function verbSaid(said: readonly string[], you: boolean, yes: boolean): string[] | null {
  const [first = '', ...rest] = said;
  const verb = first.toLowerCase();
  if (modals.has(verb)) {
    if (rest.length === 0) return null;
    return yes ? [verb, ...rest] : verb === 'can' ? ['cannot', ...rest] : [verb, 'not', ...rest];
  }
  const be = beOfYou[verb];
  if (be !== undefined) {
    if (rest.length === 0) return null;
    const complement = complementOf(rest) ?? rest.join(' ');
    return [be[you ? 1 : 0], ...(yes ? [] : ['not']), complement];
  }
  // "smoked": "Lea smoked", "Lea did not smoke"; "never smoked" only as it is ("not" is not added to it).
  const done = pastsAlone.get(verb);
  if (done !== undefined) return yes ? [first, ...rest] : ['did', 'not', done, ...rest];
  if (verb === 'never' && pastsAlone.has(rest[0]?.toLowerCase() ?? '')) return yes ? [...said] : null;
  const past = verb === 'had' || verb === 'did';
  if ((verb === 'has' || verb === 'had') && perfect(rest[0]?.toLowerCase(), rest[1]?.toLowerCase())) {
    const have = you && verb === 'has' ? 'have' : verb;
    return [have, ...(yes ? [] : ['not']), ...rest];
  }
  const base = past ? (verb === 'had' ? 'have' : 'do') : verbOfYou(first);
  if (base === null && !verbsAlone.has(verb)) return null;
  if (rest.length === 0 && !verbsAlone.has(verb)) return null;
  const plain = base ?? baseOfThird(verb);
  if (yes) return [past || !you ? first : plain, ...rest];
  return [past ? 'did' : you ? 'do' : 'does', 'not', plain, ...rest];
}

/**
 * A fact whose value says yes or no, as a sentence that says whether it holds: "Lea is vegetarian",
 * "Lea is not vegetarian", "Lea does not smoke", "Lea is not a smoker", "You do not have a car"; null
 * where its predicate cannot be turned so (an attribute such as "newsletter", a relation that wants its
 * other end such as "married to").
 */
function yesOrNoSentence(subject: string, predicate: string, how: SubjectWords, yes: boolean): string | null {
  const said = words(predicate);
  const lower = said.map((w) => w.toLowerCase());
  if (said.length === 0 || prepositions.has(lower.at(-1)!)) return null;
  // "is_not_vegetarian: no" would be a double negative.
  if (!yes && lower.some((w) => negations.has(w))) return null;
  const name = how.you ? how.you.selfName?.trim() || null : subject.trim();
  const verb = verbSaid(said, name === null, yes);
  if (verb !== null) return `${name ?? 'You'} ${verb.join(' ')}`;
  if (verbOfYou(said[0]!) !== null) return null;
  const complement = complementOf(said);
  if (complement === null) return null;
  return `${name ?? 'You'} ${name === null ? 'are' : 'is'}${yes ? '' : ' not'} ${complement}`;
}

/**
 * What a fact's value says of whether its predicate holds, or null where it says something else: true
 * or false of any predicate, another word that says yes or no ("ja", "no") only where the predicate
 * can be said to hold ("Lea is vegetarian"), not of `language: ja` or `country: NO`.
 */
function yesOrNoOf(subject: string, predicate: string, how: SubjectWords, value: unknown): boolean | null {
  const yes = yesOrNo(value);
  if (yes === null || trueOrFalse(value) !== null) return yes;
  return yesOrNoSentence(subject, predicate, how, true) === null ? null : yes;
}

/**
 * A fact said up to its value: "Marko's birthday is ", "Lea lives in ", "Lea is married to ", "Lea's
 * gym membership ends ", "Your favourite colour is "; before a value that says yes or no (`value`,
 * where given), what is said to hold or not and ": " ("Lea is vegetarian: ", "Lea smokes: ", "Lea's
 * newsletter: "), so the Correct form can start from the value as stored.
 */
export function factSentenceHead(
  subject: string,
  predicate: string,
  how: SubjectWords = {},
  value?: unknown,
): string {
  const { topic, join } = factParts(subject, predicate, how);
  // A predicate of no words says no more of a yes or no: "Ana: " (yesOrNoSentence's null).
  if (yesOrNoOf(subject, predicate, how, value) === null) return topic + join;
  return `${yesOrNoSentence(subject, predicate, how, true) ?? topic}: `;
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
 * anything else as written ("ja" may be Japanese: factSentence says it as a yes where it is one).
 */
export function factValueWords(value: unknown): string {
  const yes = trueOrFalse(value);
  if (yes !== null) return yes ? 'yes' : 'no';
  const said = String(value);
  const date = /^(\d{4})-(\d\d)-(\d\d)$/u.exec(said.trim());
  if (date === null) return said;
  const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
  const t = new Date(Date.UTC(y, m - 1, d));
  // "2026-02-30" names no day: said as written.
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return said;
  return `${monthNames[m - 1]} ${d}, ${y}`;
}

/**
 * A fact as a sentence: "Marko's birthday is March 13", "Lea lives in Zagreb", and one whose value says
 * yes or no as whether it holds, "Lea is not vegetarian" (else "Lea's newsletter: yes"). Display only.
 */
export function factSentence(
  f: { subject: string; predicate: string; value: unknown },
  how: SubjectWords = {},
): string {
  const yes = yesOrNoOf(f.subject, f.predicate, how, f.value);
  if (yes === null) return factSentenceHead(f.subject, f.predicate, how) + factValueWords(f.value);
  const said = yesOrNoSentence(f.subject, f.predicate, how, yes);
  return said ?? factSentenceHead(f.subject, f.predicate, how, f.value) + (yes ? 'yes' : 'no');
}

/** What a fact is of, without its value: "Marko's birthday", "Lea lives in", "Lea is married to". */
export const factTopic = (subject: string, predicate: string, how: SubjectWords = {}): string =>
  factParts(subject, predicate, how).topic;
