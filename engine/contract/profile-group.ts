import { matchesOf } from './matches-of.ts';
/**
 * The Profile's groups, in its order: what an agent must know before it acts for the person (health),
 * then what holds a slot (home, job, partner, diet, ...), then everything else, each group newest
 * first. An agent reading the first page of a long Profile met a penicillin allergy only on its fourth
 * page, after 150 everyday statements: the allergy held no slot (a person has many allergies, a slot
 * holds one value), so it was among them by its date.
 */
export const profileGroups = ['health', 'slot', 'other'] as const;
export type ProfileGroup = (typeof profileGroups)[number];

/**
 * The version of the words saysHealth reads. Each store keeps beside its Memories the version their
 * health marks were made with (each adapter's health-lines.ts) and marks them all again when it opens
 * under another: raise it with any change to what saysHealth returns (profile-group.test.ts pins it).
 */
export const healthWordsVersion = 1;

// Words whose one common meaning is the person's health: allergies and intolerances, conditions,
// medication, disabilities. Not "doctor", "hospital" or "therapy" (an appointment, a workplace, a
// visit: no standing fact), "medicine" (a degree) nor "blind" alone (a blind date). The retrieval's
// topic words (core/retrieve/topic-words.ts) are broader: there a word only widens a search, here it
// puts a line before every slot.
const healthWords = [
  // Allergies and intolerances.
  String.raw`allerg(?:y|ies|ic)`,
  String.raw`anaphyla(?:xis|ctic)`,
  String.raw`epi-?pens?`,
  String.raw`intoleran(?:t|ces?)`,
  String.raw`c(?:o)?eliac`,
  'hives',
  String.raw`can(?:no|['’]?)t (?:eat|digest|tolerate|have) (?:any )?(?:gluten|dairy|lactose|nuts|peanuts|shellfish|eggs|wheat|soy)`,
  // Conditions.
  String.raw`diagnos(?:ed|is)`,
  String.raw`asthma(?:tic)?`,
  String.raw`diabet(?:es|ic)`,
  String.raw`epilep(?:sy|tic)`,
  String.raw`seizures?`,
  String.raw`migraines?`,
  'hypertension',
  'high blood pressure',
  'arthritis',
  'cancer',
  String.raw`chemo(?:therapy)?`,
  'adhd',
  String.raw`autis(?:m|tic)`,
  String.raw`dyslexi(?:a|c)`,
  'bipolar',
  'ptsd',
  'depression',
  'disease',
  'disorder',
  'syndrome',
  'illness',
  String.raw`pregnan(?:t|cy)`,
  'insulin',
  String.raw`inhalers?`,
  'pacemaker',
  'thyroid',
  'surgery',
  String.raw`heart condition`,
  String.raw`(?:medical|health) (?:condition|conditions|history|issue|issues|problem|problems|alert)`,
  // Medication.
  String.raw`medications?`,
  'meds',
  String.raw`prescri(?:bed|ption|ptions)`,
  'antibiotics',
  String.raw`antidepressants?`,
  String.raw`blood thinners?`,
  String.raw`painkillers?`,
  'pills',
  String.raw`\d+ ?mg`,
  // Disabilities.
  'deaf',
  'hard of hearing',
  String.raw`hearing aids?`,
  'wheelchair',
  String.raw`disab(?:led|ility|ilities)`,
  String.raw`(?:am|is|i['’]m|legally|went|going|gone) blind`,
  String.raw`colou?r[- ]?blind`,
  'visually impaired',
  'amputee',
  'prosthetic',
];
const health = new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${healthWords.join('|')})(?![\p{L}\p{N}])`, 'iu');

/**
 * Whether a statement speaks of its owner's health: "I'm allergic to penicillin.", "Ana allergies:
 * penicillin", "I take 50mg of sertraline every morning.", "I use a wheelchair.". By its words, as
 * said or as derived: the deriver gives no predicate to a statement of no slot, and a slot holds one
 * value where a person has several allergies.
 */
export function saysHealth(statement: string): boolean {
  return health.test(statement);
}

/** The group a current Memory of the self's is in on the Profile. */
export function profileGroupOf(m: { statement: string; slot: string | null }): ProfileGroup {
  return saysHealth(m.statement) ? 'health' : m.slot !== null ? 'slot' : 'other';
}

// A line's words that say nothing of the person: acknowledgements and thanks (in the languages a
// person's mail is often in), and the words around them ("that is fine with me, thank you.").
const courtesyWords = new Set(
  `ok okay k kk sure yes yeah yep yup no nope nah fine perfect great good cool nice lovely super excellent
   wonderful awesome brilliant alright right exactly agreed indeed noted understood thanks thank thx ty
   cheers please pls sorry welcome course np obrigada obrigado danke dankeschön merci gracias grazie tak
   takk tack bitte ja nein oui sí si claro perfeito perfecto genial prima toll
   told tell asked replied answered reminded informed pinged thanked`.split(/\s+/u),
);
const functionWords = new Set(
  `i me my you your yours we us our it its it's that that's this these those there here is am are was were
   i'm i've i'll we're we've you're they're
   be been do does did will would can could should shall the a an and or but so then also too very just
   really quite otherwise anyway anyways well oh ah hm hmm with for to of at in on by from as all both
   again still now`.split(/\s+/u),
);
const wordOf = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
// When a parting says they will meet: "see you soon", "… tomorrow at 10", "… on Monday". A place or
// anything else after it says something ("See you in Berlin, my new home.").
const partingWords = new Set(
  `soon later then there tomorrow tonight today morning afternoon evening night weekend week month time
   next this on at in around after before monday tuesday wednesday thursday friday saturday sunday
   guys everyone all both`.split(/\s+/u),
);

/**
 * Whether a line of the Profile's `other` group says nothing of the person: an acknowledgement or a
 * thanks, with names and the words around them ("Perfect, obrigada!", "Jonas, ok.", "Otherwise fine.",
 * "Told Inês.", "that is fine with me, thank you."), a parting's "see you" with when ("See you
 * tomorrow."), or the person's own name alone (a mail's signature: "Maya Lindqvist"). A line from the
 * person's mail was a Memory of hers, and her Profile was filled with them. A name is a capitalised
 * word the Brain knows as a person's (`known`: first names, lower case, of its speakers and of the people
 * it holds; profile-census.ts knownNames), or one right after such a word ("Told Jonas Weber."); any
 * other word ("No Peanuts!", "Ja, Vegetarierin.", "See you in Berlin, my new home.", "Yoga is
 * enough.") says something, as German writes every noun capitalised, and a line with no
 * acknowledgement in it ("Ana Petrović") is left as it is.
 */
export function saysNothingOfSelf(
  statement: string,
  selfName: string | null,
  known: ReadonlySet<string> = new Set(),
): boolean {
  return smallTalk(statement, selfName, (w) => known.has(w));
}

/**
 * The words (lower case, as saysNothingOfSelf's `known` holds them) a line needs to be names for saysNothingOfSelf to leave
 * it out: none where it says something whatever they are, or nothing of her without them. What the
 * Profile's reader asks the Brain of, few and only for the lines that may be small talk.
 */
export function namesAsked(statement: string, selfName: string | null): string[] {
  const asked: string[] = [];
  const dropped = smallTalk(statement, selfName, (w) => {
    asked.push(w);
    return true;
  });
  return dropped ? [...new Set(asked)] : [];
}

function smallTalk(statement: string, selfName: string | null, isName: (folded: string) => boolean): boolean {
  const words = [...matchesOf(wordOf, statement)];
  if (words.length === 0 || words.length > 12) return false;
  const own = new Set(
    (selfName ?? '')
      .normalize('NFC')
      .toLowerCase()
      .split(/\s+/u)
      .filter((w) => w !== ''),
  );
  const lower = words.map((w) => w[0].normalize('NFC').toLowerCase().replace('’', "'"));
  if (lower.every((w) => own.has(w))) return true;
  const see = lower.findIndex((w, i) => w === 'see' && ['you', 'ya'].includes(lower[i + 1] ?? ''));
  let acknowledged = false;
  let afterName = false;
  for (const [i, w] of lower.entries()) {
    const name = afterName;
    afterName = false;
    if (see !== -1 && (i === see || i === see + 1)) {
      acknowledged = true;
      continue;
    }
    if (courtesyWords.has(w)) {
      acknowledged = true;
      continue;
    }
    if (functionWords.has(w) || own.has(w)) continue;
    if (see !== -1 && i > see && (partingWords.has(w) || /^\d/u.test(w))) continue;
    const m = words[i]!;
    if (!/^\p{Lu}/u.test(m[0])) return false;
    // A surname after a known first name: only a space between them.
    const joined =
      name && /^\s+$/u.test(statement.slice(words[i - 1]!.index + words[i - 1]![0].length, m.index));
    if (!joined && !isName(w)) return false;
    afterName = true;
  }
  return acknowledged;
}
