import { stemPrefix } from './query-terms.ts';

/**
 * How a query asks about where someone lives or works, read from its words alone (the slot lane then
 * looks the people up). Kept apart from the lane so that every reading is tested without a store.
 */
export interface SlotQuestion {
  /** The slot predicates asked about ("lives in", "works at"); empty: not such a question. */
  predicates: string[];
  /** Capitalised words that may name the person asked about ("Carol" of "where does Carol live?"). */
  names: string[];
  /**
   * One of them stands where the question's subject stands ("where does Rita live?", "Rita's job?",
   * "who is Rita working for?"): if nobody of that name holds the slot, nobody else's is the answer.
   */
  namesSubject: boolean;
  /** The question is about the Brain's own person: "where do I live?", "what's my job?". */
  aboutSelf: boolean;
  /** About someone it does not name: "where does my sister live?", "where does she work?". */
  aboutOther: boolean;
  /** With nobody named, it asks about people in general: "who lives where?", "where does everyone work?". */
  aboutAnyone: boolean;
}

/**
 * The slots whose Memories restate what was said in other words ("I moved to Braga." holds the slot
 * "Ana lives in Braga"; "nurse", answering "what do you do?", holds "Ana's occupation is nurse"), with
 * the query words that ask about them:
 * - `strong` words are about the slot whatever else the question says ("live", "employer", "birthday");
 * - `weak` words are about much else as often ("work", "moved", "based"): only in a question asking
 *   where, who or which;
 * - `nouns` too ("home", "job", "city"): in a question asking where, who or which, or closing a
 *   possessive ("what's my job?", "Marta's home town?"), not "did I finish the job?", "when do I get
 *   home?" or "my home wifi password".
 * A word may ask about several slots ("job": the employer and the occupation; "partner": whoever one's
 * partner is, as a wife or a boyfriend holds the slot).
 */
const slotWords: ReadonlyArray<{ predicates: string[]; strong: string[]; weak: string[]; nouns: string[] }> =
  [
    {
      predicates: ['lives in'],
      strong: 'live lives living lived reside resides residence'.split(' '),
      weak: 'based moved move relocated'.split(' '),
      nouns: 'home city town neighbourhood neighborhood address hometown'.split(' '),
    },
    {
      predicates: ['works at', 'occupation'],
      strong: 'employer employed employs workplace occupation profession career'.split(' '),
      weak: 'work works working worked'.split(' '),
      nouns: 'job occupation profession career'.split(' '),
    },
    // A birthday and a diet only where the question asks them (askedWhen, askedDiet): "what did I get
    // for my birthday?", "where was I born?" and "what vegetarian recipe did I save?" do not.
    { predicates: ['birthday'], strong: [], weak: [], nouns: [] },
    { predicates: ['diet'], strong: [], weak: [], nouns: [] },
    {
      predicates: ['partner', 'wife', 'husband', 'girlfriend', 'boyfriend'],
      strong: 'partner wife husband girlfriend boyfriend spouse'.split(' '),
      weak: [],
      nouns: 'partner wife husband girlfriend boyfriend spouse'.split(' '),
    },
  ];
const stems = slotWords.map((s) => ({
  predicates: s.predicates,
  strong: new Set(s.strong.map(stemPrefix)),
  weak: new Set([...s.weak, ...s.nouns].map(stemPrefix)),
  nouns: new Set(s.nouns),
}));
/**
 * "What do I do (for a living / for work)?", "what does Ana do?": the occupation and the employer; not
 * "what do I do for fun?", "what do I usually do on weekends?" or "what does this button do?".
 */
const whatOneDoes =
  /^(?:so\s+)?what\s+(?:do|does)\s+(?:i|you|u|he|she|they|we|the\s+user|\p{Lu}[\p{L}'’-]*)\s+do(?:\s+for\s+(?:a\s+living|work)|\s+now|\s+these\s+days|\s+exactly)?\s*\??$/iu;
/** "When is my birthday?", "when's Ana's bday?", "when was I born?", "what's the user's birthday?". */
const askedWhen =
  /^(?:so\s+)?(?:when(?:['’]s|\s+is|\s+was)\s+(?:\S+\s+){0,2}(?:birthday|bday|b-day)|when\s+was\s+\S+(?:\s+\S+)?\s+born|what(?:['’]s|\s+is)\s+(?:\S+\s+){0,2}(?:birthday|bday|date\s+of\s+birth))\s*\??$/iu;
/** "Is the user vegetarian?", "am I still vegan?", "does Ana eat meat?": the diet. */
const askedDiet =
  /^(?:(?:is|am|are)\s+(?:\S+\s+){1,2}(?:still\s+)?(?:an?\s+)?(?:vegetarian|vegan|pescatarian)|(?:does|do)\s+(?:\S+\s+){1,2}eat\s+meat)\s*\??$/iu;

const word = (alternatives: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{N}])`, 'iu');
const whereWho = word('where|who');
const which = word('which');
/** The person asked about is the one asking, or the one asked ("you", "the user"). */
const selfSubject = word("i|myself|you|yourself|the user|user['’]s");
/** "Which company employs me?": the one asking, unless the query is about someone of theirs ("remind me where my sister lives"). */
const selfObject = word('me');
const possessives = new Set(['my', 'your', 'his', 'her', 'their', 'our']);
const selfPossessives = new Set(['my', 'your']);
/** Someone not named: a pronoun, or a relation ("my sister"; "my home" is a slot of one's own). */
const otherPronoun = word('he|she|they|him|them|his|hers|their|theirs');
/** Words a question opens with, capitalised only for that, and pronouns: not names. */
const notNames = new Set(
  'where who which what when how why whose whom do does did is are was were has have had can could will would should tell show find list please my your his her their our me he she they we it the a an this that these those there'.split(
    ' ',
  ),
);
/** Words that ask what one does, in a question that also asks where or who ("which job do I have?"). */
const jobNouns = new Set('job jobs occupation profession career role title position'.split(' '));
/** "Where does Rui work and what does he do?": what one does asked beside where. */
const alsoWhatOneDoes = /(?<![\p{L}\p{N}])what\s+(?:do|does)\s+\S+\s+do(?![\p{L}\p{N}])/iu;
/** A capitalised word after one of these is a place or a company, not the person asked about. */
const prepositions = new Set('in at to from near for with by on of into'.split(' '));
/** A name after one of these is the subject of the question: "where does Rita live?". */
const auxiliaries = new Set('does did do is was has had will would can could'.split(' '));

/**
 * The query's words, lower-cased, with any possessive 's kept apart as its own word; a "job title" read
 * as the job it names ("What is Lena's job title?"), not "title" alone ("my book's title").
 */
function wordsOf(query: string): string[] {
  return (query.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [])
    .flatMap((w) => (/['’]s$/u.test(w) ? [w.slice(0, -2), "'s"] : [w]))
    .filter((w, i, all) => !(w === 'title' && all[i - 1] === 'job'));
}

/** The slot nouns that close a possessive: "my home city?", "Marta's job", "your home town". */
function closesPossessive(words: string[], nouns: ReadonlySet<string>): boolean {
  let i = words.length - 1;
  let n = 0;
  while (i >= 0 && nouns.has(words[i]!) && n < 2) {
    i -= 1;
    n += 1;
  }
  if (n === 0 || i < 0) return false;
  // "Lena's old job", "my current home": which of its values, not another noun.
  if (i > 0 && whichValue.has(words[i]!)) i -= 1;
  return possessives.has(words[i]!) || words[i] === "'s";
}
const whichValue = new Set(['old', 'previous', 'former', 'prior', 'current', 'new']);

/**
 * The query's capitalised words that may be names (not "I", not an opening question word, not a place
 * after a preposition), and whether one stands as the question's subject: after an auxiliary, with a
 * possessive 's, or before a word of the slot.
 */
function namesOf(query: string): { names: string[]; subject: boolean } {
  const names: string[] = [];
  let subject = false;
  const tokens = query.match(/[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu) ?? [];
  tokens.forEach((t, i) => {
    if (!/^\p{Lu}/u.test(t)) return;
    const bare = t.replace(/['’]s$/u, '');
    if (bare === 'I' || /^I['’]/u.test(bare) || notNames.has(bare.toLowerCase())) return;
    const before = tokens[i - 1]?.toLowerCase();
    if (before !== undefined && prepositions.has(before)) return;
    names.push(bare);
    const after = stemPrefix(tokens[i + 1]?.toLowerCase() ?? '');
    subject ||=
      (before !== undefined && auxiliaries.has(before)) ||
      bare !== t ||
      stems.some((s) => s.strong.has(after) || s.weak.has(after));
  });
  return { names: [...new Set(names)], subject };
}

export function readSlotQuestion(query: string, terms: readonly string[]): SlotQuestion {
  const termStems = new Set(terms.map(stemPrefix));
  const words = wordsOf(query);
  const asks = whereWho.test(query) || which.test(query);
  const q = query.trim();
  const [doing, when, diet] = [whatOneDoes.test(q), askedWhen.test(q), askedDiet.test(q)];
  // "for a living" asks what one does, not where one lives.
  if (/(?<![\p{L}\p{N}])for\s+a\s+living(?![\p{L}\p{N}])/iu.test(query))
    termStems.delete(stemPrefix('living'));
  const asked = stems.filter(
    (s) =>
      [...termStems].some((t) => s.strong.has(t) || (asks && s.weak.has(t))) ||
      closesPossessive(words, s.nouns) ||
      (doing && s.predicates.includes('occupation')) ||
      (when && s.predicates.includes('birthday')) ||
      (diet && s.predicates.includes('diet')),
  );
  // "my boyfriend's birthday", "is my boyfriend vegetarian?": a question about the partner, someone
  // of one's own, not about who the partner is ("what's my partner's name?").
  const partner = stems.find((s) => s.predicates.includes('partner'))!;
  const ofPartner =
    asked.includes(partner) &&
    (asked.some((s) => s !== partner) ||
      words.some((w, i) => partner.nouns.has(w) && words[i + 1] === "'s" && words[i + 2] !== 'name'));
  if (ofPartner) asked.splice(asked.indexOf(partner), 1);
  const strong = doing || asked.some((s) => [...termStems].some((t) => s.strong.has(t)));
  // "my home", "my employer", "your workplace": a slot of one's own; "my sister": someone of one's own.
  const slotWord = (w: string | undefined) =>
    w !== undefined &&
    !(ofPartner && partner.nouns.has(w)) &&
    stems.some((s) => s.nouns.has(w) || s.strong.has(stemPrefix(w)) || s.weak.has(stemPrefix(w)));
  // "my home", "my old job": the noun after the possessive, past a word saying which of its values.
  const nounAfter = (i: number) => (whichValue.has(words[i + 1] ?? '') ? words[i + 2] : words[i + 1]);
  const ownSlot = words.some((w, i) => selfPossessives.has(w) && slotWord(nounAfter(i)));
  const relation = words.some(
    (w, i) => possessives.has(w) && nounAfter(i) !== undefined && !slotWord(nounAfter(i)),
  );
  const { names, subject } = namesOf(query);
  // "Where do I work?", "who does Rui work for?": the employer, not what one does there.
  const employerOnly = asks && !doing && !words.some((w) => jobNouns.has(w)) && !alsoWhatOneDoes.test(query);
  return {
    predicates: asked.flatMap((s) => s.predicates).filter((p) => !(employerOnly && p === 'occupation')),
    names,
    namesSubject: subject,
    aboutSelf: selfSubject.test(query) || ownSlot || (selfObject.test(query) && !relation),
    aboutOther: otherPronoun.test(query) || relation,
    aboutAnyone: whereWho.test(query) || (strong && which.test(query)),
  };
}

/**
 * Words of what a slot is about, beyond the words that ask for it: a Record saying one may change the
 * value in words no rule reads ("Finally settled into the flat on Vlaška" of where one lives; "Handed in
 * my resignation" of the job). Stems, met at a word's start (matchedTerms).
 */
const slotTopics: ReadonlyArray<{ predicates: readonly string[]; words: readonly string[] }> = [
  {
    predicates: ['lives in'],
    words: `live living lived moved moving move settled flat apartment house home address street
      neighbourhood neighborhood rent landlord stan ulica preselio preselila`.split(/\s+/u),
  },
  {
    predicates: ['works at', 'occupation'],
    // Not "work" ("workout") nor "started" (anything): the job's nouns and its changes.
    words: `job office boss colleague colleagues hired quit resigned position role company team
      contract employer posao firma`.split(/\s+/u),
  },
  {
    predicates: ['partner', 'wife', 'husband', 'girlfriend', 'boyfriend'],
    words: `partner wife husband girlfriend boyfriend dating together broke married wedding engaged
      divorce`.split(/\s+/u),
  },
  { predicates: ['birthday'], words: ['birthday', 'born'] },
  { predicates: ['diet'], words: ['vegan', 'vegetarian', 'pescatarian', 'meat', 'diet'] },
];

/** The words of the topic of any of these slot predicates (slotTopics); none for another predicate. */
export function slotTopicWords(predicates: readonly string[]): string[] {
  return [
    ...new Set(
      slotTopics.filter((t) => t.predicates.some((p) => predicates.includes(p))).flatMap((t) => t.words),
    ),
  ];
}
