import { matchesOf } from '../../contract/matches-of.ts';
/**
 * What a `redacted_summary` copy never carries: a Record that speaks of a person's health, sex life or
 * sexual orientation, religion, political opinions, trade union membership, or genetic data (the special
 * categories of the GDPR, Art. 9) is held back whole (redact.ts). Replacing the words ("[health]") was
 * the other choice, and the worse one: no list of drugs and conditions is complete, and what is left
 * ("Doctor [person] prescribed [health] 50 mg for [health]") still says a prescription. A person who
 * wants such a Record on the hub writes it `shareable`.
 *
 * Read by words, in English, Croatian, Portuguese, German and some Spanish, French and Italian: words
 * whose common meaning is the category, and phrases for words that have another ("went to church" but
 * not "Church Street", "had a stroke" but not "a stroke of luck", "voted for"). Over-read, on purpose,
 * where the word is mostly the category ("hospital", "therapy", "doctor"): a Record held back is counted
 * and named in the Sync panel with its reason, a Record sent is on the hub.
 */

export interface SpecialCategory {
  /** What the Record speaks of, as the Sync panel says it: "health", "religion", ... */
  category: string;
  /** The words that said it, as written. */
  word: string;
}

// Medicines by the endings of their international names (sertraline, amoxicillin, atorvastatin, ...),
// which ordinary words do not end with.
const drugEndings = `traline oxetine italopram faxine azepam azolam pramine triptyline tiapine zapine azepine
  idone trigine pentin gabalin cillin mycin cycline floxacin oxacin prazole conazole tidine sartan pril
  olol statin dipine formin gliptin glutide parin triptan setron lukast profen codone morphone caine
  thyroxine olone isone asone butamol terol tinib ximab zumab umab ovir avir uvir denafil dalafil`.split(
  /\s+/u,
);
const health = [
  String.raw`\d+(?:[.,]\d+)?[ \u00a0]?(?:mg|mcg|µg|μg|IU)`,
  // Medicines and what is done with them.
  String.raw`paracetamol|acetaminophen|aspirin|insulin|methadone|morphine|codeine|tramadol|fentanyl|xanax|valium|prozac|zoloft|lexapro|wellbutrin|bupropion|adderall|ritalin|concerta|methylphenidate|lithium|antidepressants?|antibiotics?|antihistamines?|antipsychotics?|sedatives?|painkillers?|sleeping pills?|birth control|contraceptives?|truvada|viagra|cialis|ozempic|wegovy|epi-?pens?|inhalers?|augmentin|ventolin|euthyrox`,
  String.raw`medications?|meds|pills?|prescri(?:be|bed|bes|bing|ption|ptions)|dos(?:e|es|age)|side[- ]effects?`,
  // Care and carers.
  String.raw`therap(?:y|ies|ist|ists)|psychotherap\p{L}*|psychiatr\p{L}*|psycholog(?:ist|ists|ical)|counsell?(?:ing|or)|doctors?|doctor['’]s|physicians?|gyn(?:a)?ecolog\p{L}*|dermatolog\p{L}*|cardiolog\p{L}*|oncolog\p{L}*|neurolog\p{L}*|urolog\p{L}*|dentists?|dental|orthodont\p{L}*|physio(?:therap\p{L}*)?|pharmac(?:y|ist|ies)|hospitals?|hospitali[sz]ed|clinics?|emergency room|ambulance|rehab|surgery|surgeon|operated on|biopsy|MRI|CT scan|x-?rays?|blood tests?|vaccin\p{L}*|sick (?:leave|note|day)|called in sick`,
  // Conditions and what they are.
  String.raw`diagnos(?:is|ed|e|es)|symptoms?|illness(?:es)?|diseases?|disorders?|syndromes?|chronic|anxiety|panic attacks?|depression|depressed|depressive|bipolar|ADHD|autis(?:m|tic)|OCD|PTSD|schizophreni\p{L}*|psychosis|eating disorder|anorexi\p{L}*|bulimi\p{L}*|insomnia|burn-?out|suicid\p{L}*|self-harm|overdos\p{L}*|addict(?:ed|ion)|alcoholi(?:c|sm)|sobriety|relapsed?|diabet(?:es|ic)|cancer|tumou?rs?|chemo(?:therapy)?|radiotherapy|HIV|hepatitis|asthma(?:tic)?|epilep(?:sy|tic)|seizures?|migraines?|hypertension|blood pressure|cholesterol|thyroid|arthritis|crohn['’]?s|colitis|c(?:o)?eliac|allerg(?:y|ies|ic)|anaphyla\p{L}*|(?:lactose|gluten) intoleran(?:t|ce)|pregnan(?:t|cy)|miscarriage|abortion|IVF|fertility|infertil\p{L}*|chlamydia|herpes|covid(?:-19)?|flu|fever|infections?|injur(?:y|ies|ed)|fractured?|concussion|sprained|broken (?:leg|arm|wrist|ankle|rib|ribs|bone|foot|hand)|had a stroke|heart attack|cardiac|disab(?:led|ility|ilities)|wheelchair|deaf|hearing aids?|mental health|health (?:issue|issues|problem|problems|condition|scare)`,
  // Croatian.
  String.raw`terapeut\p{L}*|terapij\p{L}*|psihijat\p{L}*|psiholog\p{L}*|liječni\p{L}*|doktor(?:ica|ice|ici|u|a)?|bolnic\p{L}*|dijagnoz\p{L}*|lijek(?:ovi|ove|ova|a|u)?|anksioznost\p{L}*|depresij\p{L}*|dijabetes\p{L}*|trudn(?:a|oća|oće|oću)|alergi\p{L}*|alergičn\p{L}*|bolest\p{L}*|bolesn\p{L}*|zubar\p{L}*|stomatolog\p{L}*|ginekolog\p{L}*|bolovanj\p{L}*`,
  // Portuguese, Spanish, French, Italian.
  String.raw`terapeuta|terapia|psiquiatra|psicólog[oa]s?|médic[oa]s?|diagnóstico|medicamentos?|remédios?|comprimidos?|ansiedade|depressão|câncer|cancro|grávida|gravidez|alergia|alérgic[oa]s?|cirurgia|doenças?|doente|ansiedad|depresión|embarazada|enfermedad|thérapie|thérapeute|médecin|anxiété|dépression|enceinte|maladie|ospedale|malattia|incinta`,
  // German.
  String.raw`Therapeut(?:in)?|Therapie|Psychiater(?:in)?|Psycholog(?:e|in)|Arzt|Ärztin|Zahnarzt|Krankenhaus|Klinik|Diagnose|Medikament(?:e)?|Tabletten|Angststörung|Depression(?:en)?|schwanger|Schwangerschaft|Allergie|allergisch|Krankheit|krank(?:geschrieben)?`,
];
const sexLife = [
  String.raw`gay|lesbian|bisexual|queer|homosexual(?:ity)?|heterosexual|asexual|pansexual|transgender|trans (?:woman|man|person|people|kid|girl|boy)|non-?binary|LGBT\p{L}*\+?|came out (?:to|as)|coming out (?:to|as)|sex life|sexual(?:ity|ly)?|had sex|grindr`,
  String.raw`gej|lezbijk\p{L}*|biseksual\p{L}*|homoseksual\p{L}*|transrod\p{L}*|seks\p{L}*|lésbica|bissexual|homossexual|transgénero|transgênero|sexo|schwul|lesbisch|bisexuell|homosexuell`,
];
const religion = [
  String.raw`religio(?:n|ns|us)|(?:go|goes|going|went|been) to (?:church|mass|mosque|synagogue|temple)|at (?:church|mass)|mosque|synagogue|pray(?:s|ed|ing)?|prayers?|catholic|protestant|evangelical|muslim|islam(?:ic)?|jewish|judaism|christianity|hindu(?:ism)?|buddhis[tm]|sikh|atheist|ramadan|yom kippur|bible|quran|koran|torah|rabbi|imam|priest|pastor|baptis(?:m|ed)|communion|confession|bar mitzvah|bat mitzvah`,
  String.raw`crkv\p{L}*|na mis(?:u|i)|molitv\p{L}*|vjer(?:a|u|e|nik|nica|ski|ska)|katoli\p{L}*|pravoslav\p{L}*|musliman\p{L}*|židov\p{L}*|ateist\p{L}*|igreja|missa|rezar|oração|religião|religios[oa]|católic[oa]|evangélic[oa]|muçulman[oa]|judeu|judia|ateu|ateia|Kirche|Gottesdienst|beten|Gebet|religiös|katholisch|evangelisch|muslimisch|jüdisch|Moschee|Synagoge`,
];
const politics = [
  String.raw`vot(?:e|ed|es|ing) for|political (?:views?|opinions?|beliefs?|party|affiliation|leanings?)|party member(?:ship)?|member of the [\p{L}-]+ party|(?:joined|left) the [\p{L}-]+ party|socialist|communist|fascist|anarchist|marxist|nationalist|left-wing|right-wing|far-left|far-right`,
  String.raw`glasa(?:o|la|t|ti|m|li) za|član(?:ica)? stranke|ljevičar\p{L}*|desničar\p{L}*|votei|votar em|votou em|Partei(?:mitglied)?`,
];
const union = [
  String.raw`trade union|labou?r union|union (?:member|membership|rep|dues|meeting)|sindikat\p{L}*|sindicato|sindicalizad[oa]|Gewerkschaft\p{L}*`,
];
const genetic = [String.raw`genetic (?:test|testing|results?|condition)|DNA test|genome|23andme|biometric`];

const pattern = (parts: string[]) =>
  new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${parts.join('|')})(?![\p{L}\p{N}])`, 'iu');
const categories: [string, RegExp][] = [
  ['health', pattern(health)],
  ['sex life or sexual orientation', pattern(sexLife)],
  ['religion', pattern(religion)],
  ['political opinions', pattern(politics)],
  ['trade union membership', pattern(union)],
  ['genetic data', pattern(genetic)],
];

/**
 * Whether a word is a medicine's name by its ending, with two letters before it at least (three before
 * "pril": "April" is none).
 */
function isMedicine(word: string): boolean {
  const w = word.toLowerCase();
  return drugEndings.some((e) => w.endsWith(e) && w.length >= e.length + (e === 'pril' ? 3 : 2));
}

/** The first special category `text` speaks of, with the words that said it, or null. */
export function specialCategoryOf(text: string): SpecialCategory | null {
  for (const [category, words] of categories) {
    const m = words.exec(text);
    if (m) return { category, word: m[0] };
    if (category === 'health')
      for (const [word] of matchesOf(/\p{L}{6,}/gu, text)) if (isMedicine(word)) return { category, word };
  }
  return null;
}
