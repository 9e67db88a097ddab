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
