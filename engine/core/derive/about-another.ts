import { months, weekdays } from '../retrieve/time-expressions.ts';
import { products } from './not-a-place.ts';
import { kinOf, monthsAsNames, nameParticles, namesAPerson, occupations } from './slot-sentences.ts';

/**
 * Who a sentence is about where it opens with another person as its subject: "Inês is vegetarian
 * though", "My sister Inês is a nurse", "Inês loves sushi". Said by Maya, each was a Memory of hers, in
 * her Profile ("is she vegetarian?" then cited Inês's diet as Maya's). The sentence stays as said; only
 * whose it is changes.
 */

/** Who someone is to the speaker, said before their name ("my sister Inês") or alone (rule-deriver.ts). */
export const relation = String.raw`(?:(?:best|oldest|old|little|big|younger|older|baby)\s+)?(?:sister|brother|sis|bro|mom|mum|mother|dad|father|son|daughter|kid|friend|bff|boss|manager|wife|husband|partner|girlfriend|boyfriend|gf|bf|fianc[ée]e?|cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|colleague|coworker|co-worker|roommate|flatmate|neighbou?r|dog|cat|puppy|kitten)`;
/** A name as written: one or two capitalised words ("Inês", "Tom Reyes"), a small word between. */
const word = String.raw`\p{Lu}[\p{Ll}\p{M}-]+(?:['’]\p{Lu}[\p{Ll}\p{M}-]+)?`;
/** "Dr. Patel", "Mr. Smith": a title with its dot is part of the name. */
const name = String.raw`(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s+)?${word}(?:\s+(?:(?:${nameParticles.join('|')})\s+)?${word})?`;
/** What such a sentence says next of its subject: a verb ("Carla's a nurse": its "'s" too). */
const verb = String.raw`(?:is|was|isn['’]t|wasn['’]t|has|had|hasn['’]t|lives|lived|works|worked|loves|loved|likes|liked|hates|hated|got|gets|went|goes|just|will|won['’]t|can|can['’]t|cannot|could|couldn['’]t|does|doesn['’]t|did|didn['’]t|said|says|thinks|wants|needs|moved|started|became|eats|drinks|plays|studies|teaches)`;
/** What one takes for one's health: "insulin", "her meds", "daily vitamins". */
const medicine = String.raw`(?:(?:her|his|their|a|an|the|daily|new|some|\p{Ll}+)\s+)?(?:insulin|pills?|meds|medications?|medicines?|tablets?|vitamins?|supplements?|antibiotics|antidepressants|inhalers?|injections?|shots?|painkillers|iron|melatonin|statins|steroids)(?![\p{L}\p{N}])`;
/** What one eats or drinks or not: "gluten", "dairy", "red meat", "caffeine". */
const food = String.raw`(?:(?:red|processed|all|most)\s+)?(?:gluten|dairy|lactose|sugar|meat|fish|pork|beef|alcohol|caffeine|coffee|carbs|nuts|peanuts|eggs|soy|shellfish|wheat|fried\s+food|junk\s+food|nightshades|salt|spicy\s+food)(?![\p{L}\p{N}])`;
/** Where a clause ends, or goes on with when: "…retired.", "…died in March", "…left last week". */
const thenEnds = String.raw`(?=\s*(?:$|[.!,;]|\s+(?:in|on|last|yesterday|today|this|early|recently|at\s+\d)(?![\p{L}\p{N}])))`;
/**
 * What a person does of their health, diet and life, said of them by name: "Marta takes insulin every
 * morning", "Lena left the company", "Rui quit smoking", "Inês avoids gluten". Said by Maya, each was
 * hers, Marta's insulin among her own health. Each with what only a person does it to, or said whole:
 * "Apple retired the iPod", "Uber avoids regulation", "Chrome died again" name no one.
 */
const lifeVerb = String.raw`(?:(?:takes|took)(?=\s+${medicine})|(?:avoids|avoided)(?=\s+${food})|left(?=\s+(?:the\s+(?:company|firm|team|band|job)|her\s|his\s|their\s|work(?![\p{L}\p{N}]))|${thenEnds})|(?:quit|quits)(?=\s+(?:smoking|drinking|vaping|her\s|his\s|their\s|the\s+(?:job|company|team|band))|${thenEnds})|retired${thenEnds}|retired(?=\s+from\s)|graduated|smokes|smoked|married|divorced|(?:passed\s+away|died)${thenEnds}|broke\s+up|got\s+(?:married|engaged|divorced|promoted|fired|hired|sick|pregnant|diagnosed))`;
/** A person's doing said as going on: "Marta is avoiding gluten", "Rui is taking antibiotics". */
const doingNow = String.raw`(?:avoiding(?=\s+${food})|taking(?=\s+${medicine})|expecting(?=\s+(?:a\s+baby|twins|a\s+(?:boy|girl)))|recovering(?=\s+from\s+(?:her|his|their|surgery|an?\s+(?:operation|injury|illness|infection|stroke|heart\s+attack|surgery)|covid|(?:the\s+)?flu|a\s+cold))|dating|cutting\s+out|off\s+(?:gluten|dairy|sugar|meat|alcohol|work))`;
/**
 * What only a person does or is, after a name alone: "Inês lives in Braga", "Tom said …", "Carla is a
 * nurse", "Inês is vegetarian". "Coffee is life" and "Porto was amazing" open with no one.
 */
const personVerb = String.raw`(?:lives|lived|works|worked|moved|said|says|thinks|thought|wants|wanted|needs|told|texted|called|studies|teaches|became|eats|drinks|loves|likes|hates|adores|prefers|${lifeVerb})`;
/** A state said of a person, whole: "Inês is vegetarian (now)", not "Porto is vegetarian friendly". */
const stateEnds = String.raw`(?=(?:\s+(?:now|too|though|tho|btw|again|also|lol|haha|as\s+well))*(?:,?\s+(?:and|but|so)\s.*)?[.!,]*$)`;
const personState = String.raw`(?:is|was|isn['’]t|wasn['’]t|['’]s)\s+(?:(?:now|still|also|not|finally|officially)\s+)?(?:(?:a|an)\s+(?:[\p{Ll}-]+\s+)?${occupations}|(?:vegetarian|vegan|pescatarian|pregnant|married|engaged|single|divorced|retired|allergic|sick|ill|in\s+hospital|in\s+the\s+hospital)${stateEnds}|(?:allergic|intolerant)(?=\s+to\s+[\p{L}\p{N}])|(?:lactose|gluten)\s+intolerant|afraid(?=\s+of\s+[\p{L}\p{N}])|${doingNow}(?=\s+[\p{L}\p{N}]))`;
const opensWithRelation = new RegExp(
  String.raw`^${kinOf}\s+${relation},?\s+(?<who>${name}),?(?:\s+(?:${verb}|\p{Ll}{2,}ed)|['’](?:s|ll|d))(?![\p{L}\p{N}])`,
  'u',
);
/** "Inês, my sister, is a nurse": the name, then who they are to the speaker. */
const opensWithApposition = new RegExp(
  String.raw`^(?<who>${name}),\s+(?:my|our)\s+${relation},\s+${verb}(?![\p{L}\p{N}])`,
  'u',
);
/** What only a person does or is, after a month that is a name: "May lives …", "June is a nurse". */
const monthAsPerson = new RegExp(String.raw`^(?:\s+(?:lives|lived|works|worked)\s|\s*${personState})`, 'u');
const opensWithName = new RegExp(
  String.raw`^(?<who>${name})(?:\s+${personVerb}|\s*${personState})(?![\p{L}\p{N}])`,
  'u',
);
/**
 * A name and what they did, any verb but "is" or "was" ("Inês cancelled her trip", "Tom booked his
 * flights", "Ana got her visa"): whether the name is a person's, the sentence must say itself
 * (`personally`). "Tom Reyes is his manager": after "is", "his" is someone else's.
 */
const opensWithNameActing = new RegExp(
  String.raw`^(?<who>${name})\s+(?:(?:just|already|finally|also|never)\s+)?(?:(?!(?:is|was|isn['’]t|wasn['’]t)(?![\p{L}\p{N}]))${verb}|\p{Ll}{2,}ed)(?![\p{L}\p{N}'’])`,
  'u',
);
/**
 * What says the name is a person's, after its verb: their "her" or "his" as what they did it to
 * ("cancelled her trip"). "Acme cancelled the order", "Lisbon changed a lot" say no one; nor does
 * a "she" after them ("Acme cancelled the order and she was furious": she may be anyone).
 */
const personally = /^\s+(?:her|his)\s+\p{L}/u;
/**
 * A next clause, right after the comma that ends the first, telling what "he" or "she" has, is or
 * must do: "Leo can't make it, he has a climbing competition." tells why of the one named. Not after
 * an "and" ("Acme cancelled the order, and she was furious": she may be anyone), nor a "he said" that
 * reports it, nor a "she was" that may be how anyone took it.
 */
const heOrSheGoesOn =
  /^[^,;.!?]*,\s+(?:he|she)(?:['’](?:s|ll|d)|\s+(?:has|had|is|isn['’]t|hasn['’]t|got|needs|must|will|won['’]t|can|can['’]t|cannot|doesn['’]t|does|feels|works|lives))(?![\p{L}\p{N}])/u;

const givenNames = new Set(['ruby', 'claude', 'jenkins', 'cassandra', 'miro', 'django', 'haskell']);
/**
 * What a note or a chat opens a sentence with, as a name would, that names no one: "Meeting moved to
 * Thursday.", "Client wants the report by Friday.", "Postgres needs a restart." (an agent's notes are
 * written so). Of the tools and services people move to (not-a-place.ts), those that are also given
 * names stay names. Only as a name's first word: "Tom House", "Anna Rust" are people.
 */
const thingsFirst = new Set(
  `meeting meetings deadline deadlines client clients customer customers team teams staff
  staging production prod server servers build release project budget company office app website site
  code deploy deployment database backend frontend design marketing sales finance support legal
  management leadership report plan trip flight train bus package delivery order invoice payment rent
  landlord car house kitchen party wedding appointment class course exam boss`
    .split(/\s+/u)
    .concat([...products].filter((p) => !givenNames.has(p))),
);

/** Whether a sentence opens with a thing said as a name would be: "Rent is high there.", "Meeting moved …". */
export const opensWithAThing = (sentence: string): boolean =>
  thingsFirst.has(/^\s*([\p{L}\p{M}'’-]+)/u.exec(sentence)?.[1]?.toLowerCase() ?? '');

/** Words a sentence opens with in capitals that name no one: "Today is …", "Work is crazy". */
const noOne = new Set(
  `it this that there here today tonight tomorrow yesterday work life everything nothing everyone
   everybody nobody someone somebody anyone anything something what which who why how when where
   the a an my our your his her their we i you he she they mine yours ours lunch dinner breakfast
   weather traffic school college uni home family dinnertime weekend morning evening night time money
   covid christmas easter halloween thanksgiving god thanks so oh yeah yes no btw honestly anyway lol
   ok okay well and but also then actually apparently basically literally seriously`
    .split(/\s+/u)
    .concat(months, weekdays),
);

/**
 * The person a stated sentence opens with as its subject ("Inês is vegetarian though": "Inês"; "My
 * sister Inês is a nurse": "Inês"), or null: where it opens with no name, with a word that names no one
 * ("Today is …", "Monday was …"), or with one in a sentence written all in capitals.
 */
export function aboutAnother(sentence: string): string | null {
  const s = sentence.trim();
  if (s.length > 400 || s === s.toUpperCase()) return null;
  const kin = opensWithRelation.exec(s) ?? opensWithApposition.exec(s);
  const m = kin ?? opensWithName.exec(s) ?? actingAsAPerson(s);
  const who = m?.groups?.['who'];
  const words = who?.toLowerCase().split(/\s+/u) ?? [];
  // "May lives in Porto", "June is a nurse": only a person does so, so the month is her name; "May is
  // a busy month", "May moved to Thursday" say neither, and "My sister May" is hers whatever follows.
  const named = (w: string, i: number) =>
    i === 0 && monthsAsNames.has(w) && (kin !== null || monthAsPerson.test(s.slice(who!.length)));
  if (
    who === undefined ||
    words.some((w, i) => noOne.has(w) && !named(w, i)) ||
    thingsFirst.has(words[0]!) ||
    !namesAPerson(who, true)
  )
    return null;
  const rest = s.slice(m!.index + m![0].length);
  // "Acme moved its HQ", "Lisbon wants its trams back": what is "its" is no one's.
  if (/^\s+its(?![\p{L}\p{N}])/u.test(rest)) return null;
  // "Tom said I should move to Berlin", "Inês is a nurse and I am a teacher": the speaker's too. What
  // follows a state of theirs as its consequence ("Leo is allergic to cats, so we cannot adopt the
  // kitten") is the speaker's only as the state's outcome: the state stays theirs.
  const stated = personStateAfter.test(s.slice(m!.index + m![0].indexOf(who) + who.length));
  return speaksOfSelf.test(stated ? beforeConsequence(rest) : rest) ? null : who;
}

/** A state said of a person right after their name: "is allergic to cats", "'s a nurse". */
const personStateAfter = new RegExp(String.raw`^,?\s*${personState}`, 'u');
/**
 * Where a clause of consequence opens ("…, so we cannot adopt the kitten", "… which means we stay in"),
 * not "so am I" or "so do we", which say the same of the speaker.
 */
const consequence =
  /(?<=[,\s])(?:(?:and\s+)?so|which\s+means|that['’]s\s+why|therefore|hence)(?!\s+(?:am|do|did|have|was|will|can|is|are)\s)(?![\p{L}\p{N}'’])/iu;
const beforeConsequence = (rest: string): string => {
  const at = rest.search(consequence);
  return at === -1 ? rest : rest.slice(0, at);
};

/**
 * A sentence that opens with a name and what it did to her or his own thing ("Inês cancelled her
 * trip, she will come in January instead."), or that goes on with what "he" or "she" has or is ("Leo
 * can't make it, he has a climbing competition."): it is Inês's, as "My sister Inês is visiting" is,
 * not the writer's. Only where the sentence itself makes the name a person's: "Lisbon changed a lot"
 * and "Acme cancelled the order" say no one.
 */
function actingAsAPerson(s: string): RegExpExecArray | null {
  const m = opensWithNameActing.exec(s);
  if (m === null) return null;
  const after = s.slice(m[0].length);
  return personally.test(after) || heOrSheGoesOn.test(after) ? m : null;
}

/** What a thing or a person does or is, after the name it opens with: "Acme Corp moved", "Ana has". */
const anyVerb = String.raw`(?:${verb}|${personVerb}|are|were|aren['’]t|weren['’]t|have|haven['’]t|would|should|might|must|may|also|still|never|raised|hired|announced|launched|opened|closed|acquired|bought|sold|released|owns|runs|plans|grew|live|work|love|like|want|need|prefer)`;
const opensWithAnyName = new RegExp(
  String.raw`^(?<who>${name}(?:\s+(?:and|&)\s+${name})?)\s+${anyVerb}(?![\p{L}\p{N}])`,
  'u',
);

/**
 * The name a sentence opens with as its subject, a person's or not: "Ana has two kids.", "Acme Corp
 * moved to Berlin.", "Leeds is rainy.", "Ana and Tom live in York." (aboutAnother gives only one
 * person's, said as only a person does). Null where it opens with a word that names no one ("It is …",
 * "May is …", "He has …").
 */
export function opensWithAName(sentence: string): string | null {
  const s = sentence.trim();
  if (s === s.toUpperCase()) return null;
  const who = opensWithAnyName.exec(s)?.groups?.['who'];
  // "Ana and Tom": each name's words, not the "and" between them.
  const words = (who?.split(/\s+/u) ?? [])
    .filter((w) => w !== 'and' && w !== '&')
    .map((w) => w.toLowerCase());
  return who === undefined || words.some((w) => noOne.has(w)) ? null : who;
}

/** A word of the speaker's own: "I", "me", "my", "we", "us", "our", a chat's "im". */
export const firstPerson = String.raw`(?:i|i['’](?:m|ve|d|ll)|im|ive|me|my|mine|myself|we|we['’](?:re|ve)|us|our|ours)(?![\p{L}\p{N}'’])`;
const speaksOfSelf = new RegExp(String.raw`(?<![\p{L}\p{N}'’])${firstPerson}`, 'iu');
