import { products } from '../../core/derive/not-a-place.ts';
import { englishWordNames, givenNames as givenNameList } from './given-names.ts';
import { afterPreposition, basesOf, casePrepositions } from '../../core/shared/name-forms.ts';
import { isCalendarWord } from './redact-places.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * Names of people the Brain does not know, found by how names are written (redact.ts runs this after
 * the known names are replaced): a title before a name ("Dr. Ivana Kovač", "Sra. Conceição Ferreira",
 * "Herr Müller"), a role or kin word before one ("landlord Goran Babić", "my brother Luka"), two
 * capitalised words or more in a row ("Goran Babić called", "with Priya Raghunathan"), a capitalised
 * word alone where a person stands: after "met", "told", "hi"..., before "said", "told", "'s
 * wife"..., or beside a person found ("Tomislav and Željka" after "with"); and a given name alone
 * wherever it stands ("Goran is back", "Lunch with the team, Goran paid", "Goranu sam rekao"), from a
 * list of the given names of many languages (given-names.ts). Each becomes the pseudonym of the name as
 * written (without its title), as a known name does: the same person is the same pseudonym in every
 * copy.
 *
 * A given name that is also an everyday word ("Will", "Mark", "Stan", "Nada", "Luz") is a person where
 * it is written capitalised inside a sentence, and at a sentence's start only with a cue ("Will said");
 * one that is also a place, a firm or a product ("Sydney", "Atlas", "Mercedes") only with a cue that
 * says a person ("met Sydney", "Atlas said"). After "with", "call", "meeting", "visited" and their kind,
 * which a firm or a place follows as often, a word that is no given name is a person only when words of
 * a person follow in the sentence ("a call with Infobip" stays; "with Xiomara and her kids" does not).
 *
 * Not found: a word alone that is no given name with none of those around it ("Zagreb", "Infobip", and
 * a name missing from the list); names written in lower case or all in capitals. Over-found, on
 * purpose: a run of capitalised words that is a place or a company ("Pod Gričkim Topom") becomes a
 * pseudonym unless a word of it is a known place head, a company's word or a product ("New York",
 * "Acme Ltd", "Croatia Airlines", "Google Docs").
 */

const letter = String.raw`[\p{L}\p{M}]`;

/**
 * Alternatives of words (`a|b|c`) as a group that takes each with its first letter in either case
 * ("With Ivana", "Vermieter"/"vermieter"): the names after them are matched case-sensitively.
 */
function anyFirstCase(words: string): string {
  const forms = words.split('|').map((w) => {
    const [first, rest] = [w[0]!, w.slice(1)];
    const up = first.toUpperCase();
    const low = first.toLowerCase();
    return up === low ? w : `[${up}${low}]${rest}`;
  });
  return `(?:${forms.join('|')})`;
}
// A capitalised word of a name: "Ivana", "Kovač", "O'Neill", "McDonald", "Mary-Jane", "Željka".
const nameWord = String.raw`\p{Lu}(?:['’]\p{Lu})?[\p{Ll}\p{M}][\p{Ll}\p{M}]{0,30}(?:\p{Lu}[\p{Ll}\p{M}]{1,30})?(?:-\p{Lu}[\p{Ll}\p{M}]{1,30})?`;
// Lower-case words inside a person's name: "João da Silva", "Ludwig van Beethoven", "Ibn al-Haytham".
const particle = String.raw`(?:de|da|do|dos|das|del|della|di|du|la|le|van|von|der|den|ten|ter|bin|ibn|al|el|y)`;
const space = String.raw`[ \u00a0]`;
const fullName = String.raw`${nameWord}(?:${space}(?:${particle}${space})?${nameWord}){0,3}`;

// Titles before a name, in the languages the product meets.
const title = String.raw`(?:Dr\.?|Dra\.?|Doctor|Doktor|Doktorica|Doutor|Doutora|Prof\.?|Professor|Profesor|Profesorica|Mr\.?|Mrs\.?|Ms\.?|Mx\.?|Miss|Sir|Dame|Lord|Lady|Sr\.?|Sra\.?|Srta\.?|Dom|Dona|Don|Doña|Señor|Señora|Señorita|Senhor|Senhora|Herr|Herrn|Frau|Fr\.|Hr\.|Mme\.?|Mlle\.?|Monsieur|Madame|Signor|Signora|Sig\.(?:ra)?|Gospodin|Gospodina|Gospodinu|Gospodinom|Gospođa|Gospođe|Gospođi|Gospođu|Gospođom|Gospođica|gospodin|gospodina|gospodinu|gospodinom|gospođa|gospođe|gospođi|gospođu|gospođom|gospođica|gđa\.?|gđica\.?|dr\.|prof\.|mr\.|mrs\.)`;
// Words of a person's role or kin before their name ("landlord Goran Babić", "moja sestra Ana").
const role = anyFirstCase(
  String.raw`landlord|landlady|tenant|neighbou?r|boss|manager|colleague|co-?worker|friend|boyfriend|girlfriend|partner|husband|wife|fianc[ée]e?|ex|brother|sister|mother|father|mom|mum|dad|son|daughter|uncle|aunt|cousin|grandma|grandpa|grandmother|grandfather|nephew|niece|teacher|professor|coach|tutor|lawyer|attorney|accountant|agent|client|customer|doctor|dentist|therapist|psychiatrist|psychologist|nurse|vet|plumber|electrician|nanny|babysitter|roommate|flatmate|housemate|mentor|student|intern|recruiter|director|landlady|stanodavac|stanodavka|susjed|susjeda|šef|šefica|kolega|kolegica|prijatelj|prijateljica|dečko|cura|brat|sestra|mama|tata|majka|otac|sin|kći|kćer|ujak|stric|teta|bratić|sestrična|baka|djed|zubar|odvjetnik|odvjetnica|senhorio|senhoria|vizinho|vizinha|chefe|colega|amigo|amiga|namorado|namorada|marido|mulher|irmão|irmã|mãe|pai|filho|filha|tio|tia|primo|prima|avó|avô|médico|médica|dentista|advogado|advogada|Vermieter|Vermieterin|Nachbar|Nachbarin|Chef|Chefin|Kollege|Kollegin|Freund|Freundin|Bruder|Schwester|Mutter|Vater|Sohn|Tochter|Onkel|Tante|Arzt|Ärztin|Anwalt|Anwältin`,
);
// Words before a person's name alone ("met Goran", "with Ivana", "told Luka").
// Not "to", "for", "from" or "by", which a place or a company follows as often.
const before = anyFirstCase(
  'met|meet|meeting|call|called|calling|phoned|rang|texted|messaged|emailed|told|tell|asked|ask|saw|visited|visit|hugged|kissed|dated|dating|married|marry|divorced|with|thank|thanks|dear|hi|hello|hey|dragi|draga|bok|olá|querido|querida|liebe|lieber|com|mit',
);
/**
 * Of those, the ones a firm, a service or a place follows as often as a person ("a call with Infobip",
 * "meeting with Atlas", "visited Lisbon", "thanks Slack"): after one, a word that is no given name is
 * a person only when words of a person follow it (`personAfter`).
 */
const sharedCues = new Set(
  'meeting call called calling phoned rang messaged emailed visited visit with thank thanks com mit'.split(
    ' ',
  ),
);
// Words of a person, in the rest of the sentence after a name: a pronoun of a third person, "who",
// kin ("with Xiomara and her kids", "called Xiomara, who said", "com a Xiomara e o marido dela").
const personAfter = new RegExp(
  String.raw`^[^.!?;\n]{0,60}?(?<!${letter})(?:she|he|her|his|him|herself|himself|who|whose|ona|on|njoj|njemu|njezin|njezina|njegov|njegova|ela|ele|dela|dele|sie|er|ihr|ihm|ihn|seine|seiner|husband|wife|kids|children|boyfriend|girlfriend|muž|žena|djeca|marido|mulher|filhos|Mann|Frau|Kinder)(?!${letter})`,
  'u',
);
// Words after a person's name alone ("Goran said", "Ivana's wife").
const after = String.raw`(?:said|says|told|tells|asked|asks|called|calls|texted|wrote|writes|replied|answered|mentioned|suggested|invited|promised|thinks|thought|wants|wanted|likes|loves|hates|agreed|laughed|cried|smiled|feels|felt|and I|and me|rekao|rekla|kaže|pitao|pitala|disse|diz|perguntou|sagte|sagt|fragte)`;
const kinAfterPossessive = String.raw`(?:wife|husband|partner|boyfriend|girlfriend|mother|father|mom|mum|dad|son|daughter|brother|sister|birthday|family|kids|children|phone|number|address|flat|house|apartment|place|car|dog|cat|wedding|funeral)`;

const titled = new RegExp(String.raw`(?<!${letter})${title}${space}(${fullName})(?![\p{L}\p{M}])`, 'gu');
const roled = new RegExp(
  String.raw`(?<!${letter})(${role}(?:,)?${space})(${fullName})(?![\p{L}\p{M}])`,
  'gu',
);
const capitalisedRun = new RegExp(
  String.raw`(?<![\p{L}\p{M}\p{N}_'’-])${nameWord}(?:${space}(?:${particle}${space})?${nameWord}){1,5}(?![\p{L}\p{M}\p{N}_-])`,
  'gu',
);
const single = String.raw`(?<![\p{L}\p{M}\p{N}_'’-])(${nameWord})(?![\p{L}\p{M}\p{N}_-])`;
const singleAfterCue = new RegExp(String.raw`(?<!${letter})(${before}${space})${single}`, 'gu');
const singleBeforeCue = new RegExp(String.raw`${single}(?=${space}${after}(?!${letter}))`, 'gu');
const singlePossessive = new RegExp(
  String.raw`${single}(?=['’]s?${space}(?:(?:new|old|ex-?|late|little|big|younger|older)${space})?${kinAfterPossessive}(?!${letter}))`,
  'gu',
);
// A person found, then "and", "&", "or" or a comma and a capitalised word: another person.
const coordinated = new RegExp(
  String.raw`(\[(?:self|person-[0-9A-Z]{4})\]\uE001?(?:${space}?,)?${space}(?:and|&|or|i|e|und|y)${space})${single}`,
  'gu',
);
const coordinatedBefore = new RegExp(
  String.raw`${single}(?=${space}(?:and|&|or|i|e|und|y)${space}\[(?:self|person-[0-9A-Z]{4})\])`,
  'gu',
);

/**
 * Capitalised words that are no one's name: words that open a sentence or a note, and the first words
 * of places. A run of capitalised words loses these at its start ("Last Friday Goran Babić called":
 * "Goran Babić"), and a single word that is one is never a person.
 */
const notNames = new Set(
  `i a an the my our your his her their its this that these those there here then when while after before
   since until if and but or so yet also just today tonight yesterday tomorrow last next this every each
   some any all no not dear hi hello hey thanks thank please ok okay yes sorry note notes todo re fwd fw
   in on at for with from to of by about into over under between during without within per via as like
   we you he she they it me him us them who what where which why how mine yours new old good great big
   none nothing nobody everyone everybody someone somebody anyone anybody
   small first second third other another one two three four five six seven eight nine ten
   called met saw told asked said picked booked moved visited went came got had did made took bought paid
   sent found left started finished talked spoke wrote read watched played worked lunch dinner breakfast
   meeting call session appointment trip flight visit party birthday wedding christmas easter
   ja ti on ona mi vi oni moj moja moje naš naša danas jučer sutra eu tu ele ela nós hoje ontem amanhã
   ich du er sie wir ihr heute gestern morgen der die das ein eine mein meine
   ${[...casePrepositions].join(' ')}`.split(/\s+/u),
);
/** Titles, which go with the name after them (`titled`) and are never one alone. */
const titles = new Set(
  `dr dra doctor doktor doktorica doutor doutora prof professor profesor profesorica mr mrs ms mx miss sir
   dame lord lady madam sr sra srta dom dona don doña señor señora señorita senhor senhora herr herrn
   frau fr hr mme mlle monsieur madame signor signora sig gospodin gospodina gospodinu gospodinom gospođa
   gospođe gospođi gospođu gospođom gospođica gđa gđica`.split(/\s+/u),
);
/** First words of places' names: a run that opens with one is a place ("New York", "São Paulo"). */
const placeHeads = new Set(
  `new san santa santo são los las el la le saint st sankt port porto rio buenos hong costa sri south north
   east west central upper lower great greater little mount mt lake cape bay isle isla ilha fort gran grand
   united republic kingdom city old novi nova stari stara gornji donji veliki velika mali mala sveti sveta`.split(
    /\s+/u,
  ),
);
/** Words of companies, bodies and places: a run that holds one is no person ("Acme Ltd", "Hotel Esplanade"). */
const notPersonWords = new Set(
  `inc ltd llc plc gmbh ag sa srl bv oy ab corp corporation company co group holding holdings bank
   university univerzitet sveučilište universidade universität college school institute academy
   foundation association society club union ministry agency office department council committee
   hospital clinic bolnica klinika hotel hostel cafe café restaurant bar pub museum gallery theatre theater
   cinema park garden gardens street road avenue square station airport airlines airways railway
   church cathedral centre center mall market store shop tower bridge river lake mountain island beach
   coast valley hills hill forest city town village county state province region district capital
   federal national international global european american british croatian portuguese german team
   project program programme conference summit festival week day month year january february march april
   may june july august september october november december monday tuesday wednesday thursday friday
   saturday sunday kickoff review retro standup sprint release launch`.split(/\s+/u),
);

/** Given names of many languages (given-names.ts), lower case. */
const givenNames = new Set(givenNameList.split(/\s+/u));
/**
 * Given names that are also everyday words (English ones from its dictionary, given-names.ts; of the
 * other languages, these), which a sentence may open with ("Will you come?", "Mark my
 * words", "Stan je u Ilici", "Ali nije došao", "Nada mudou", "Luz del día"): a person inside a sentence
 * when written capitalised there (the word is not), at a sentence's start only with a cue ("Will said").
 */
const commonWordNames = new Set(
  `${englishWordNames}
   will may mark grace hope faith joy rose bill art frank sunny summer dawn guy jack pat ray amber ruby jade
   ivy holly lily iris violet daisy olive pearl crystal honor honey river sky rain storm hunter chase mason
   baker cooper taylor gene earl rich drew reed lane dean don long young son van sage page miles penny bob
   cliff rob sue robin heather max angel wolf fox star bear sandy rusty dusty happy lucky else per can ali
   tea line fine lone tine signe mille mate patience prudence fleur blanche felice allegra bianca serena
   dolores stan dan tim luka nada zora vjera mir mila jasna vid rok niko marina roman ruža slava nova
   luz paz rosa glória gloria dores graça natal pilar mira una amparo consuelo soledad socorro dulce amor
   sol mar neve esperança esperanza alegria ernst heide linde kai uma una ela sem sim esta tal mas era
   ima ona oni mala malo evo nur lui elle bon belle beau prima chi bella linda bonito bonita vida lua flor
   alma tia`.split(/\s+/u),
);
/**
 * Given names that are also the names of places, firms, products or gods, capitalised wherever they
 * stand ("Sydney", "Florence", "Atlas", "Mercedes", "Alexa", "Julia"): a person only with a cue that
 * says one, as a word that is no given name.
 */
const namesOfThings = new Set(
  `fátima fatima lourdes siena verona roma milan milano adria asia america israel kenya brooklyn london
   dallas austin houston lincoln phoenix aurora dakota sierra carolina virginia florida georgia jordan
   chelsea madison savannah vienna adelaide charlotte eugene orlando alexandria regina helena santiago
   salvador sydney florence paris victoria sofia nancy lorraine rio vitória atlas mercedes zara alexa
   ford dell chanel dior tiffany lexus clio fabia octavia julia ada pascal crystal jesus christ buddha
   luna gaia apollo athena nike`.split(/\s+/u),
);
// Endings of a Croatian (South Slavic) name's cases and of the adjectives made of it: "Goranu",
// "Goranom", "Ivani", "Željkom", "Ivanin", "Markov". A word is a given name when one of these off it
// leaves one, or leaves one but its final "a" ("Luki", "Željki": Luka, Željka).
const caseEndings = [
  'inom',
  'inoj',
  'ovom',
  'ovoj',
  'evom',
  'om',
  'em',
  'oj',
  'in',
  'ina',
  'inu',
  'ov',
  'ova',
  'ovu',
  'ev',
  'eva',
  'u',
  'i',
  'e',
  'a',
];

/**
 * The given name `word` (lower case) is written as, or null: itself, or itself in a case of its own
 * ("goranom" is "goran"), at least three letters left.
 */
function givenNameOf(word: string): string | null {
  if (givenNames.has(word)) return word;
  for (const ending of caseEndings) {
    if (!word.endsWith(ending) || word.length - ending.length < 3) continue;
    const stem = word.slice(0, -ending.length);
    if (givenNames.has(stem)) return stem;
    if (givenNames.has(`${stem}a`)) return `${stem}a`;
  }
  return null;
}

const lower = (w: string) => w.toLowerCase();
const isNoName = (word: string) => {
  const w = lower(word).replace(/\.$/u, '');
  return notNames.has(w) || titles.has(w) || isCalendarWord(w) || notPersonWords.has(w) || products.has(w);
};

/**
 * The names of people the Brain does not know replaced by `pseudonym` of each (see above). `text` has
 * the known names replaced already: their pseudonyms count as people for the words beside them.
 * `known` says whether a name (as written, or a word of a case of it) is one the Brain knows as a
 * home, an employer or a school: no person where only its name or a cue a firm or a place follows as
 * often says one ("with Julia" where Julia is a firm, "visited Florence"), nor, unless it is a given
 * name, beside a word of a person ("Infobip called us back", "[self] and Infobip agreed"). A kin or
 * role word makes one always ("my daughter Charlotte"), and a person's word a given name ("met
 * Charlotte", "Sofia said", "Jordan's wife"), though Charlotte is a city the Brain knows: a name let
 * through is the leak, a firm hidden the lesser harm. A name alone in a case of a given name is that name's pseudonym
 * ("Goranu", "Goranom": Goran's; baseName).
 */
export function replaceUnknownNames(
  text: string,
  pseudonym: (name: string) => string,
  known?: (name: string) => boolean,
): string {
  const tag = (name: string) => pseudonym(name.replace(/[ \u00a0]+/gu, ' '));
  const tagWord = (word: string, whole: string, at: number) =>
    tag(baseName(word, whole, at, isListedName) ?? word);
  const thing = known ? (word: string) => known(word) || basesOf(word).some(known) : () => false;
  // The title goes with the name: "Mrs." says a gender, "Dr." mostly a doctor.
  let out = text.replace(titled, (found: string, name: string) =>
    trimRun(name) === null ? found : tag(name),
  );
  out = out.replace(roled, (found: string, head: string, name: string) => {
    const words = name.split(/[ \u00a0]+/u);
    if (isNoName(words[0]!) || words.some((w) => notPersonWords.has(lower(w)))) return found;
    return `${head}${tag(name)}`;
  });
  out = out.replace(capitalisedRun, (found: string) => {
    const name = trimRun(found);
    if (name === null || known?.(name) || known?.(found)) return found;
    return found.slice(0, found.length - name.length) + tag(name);
  });
  const thingNoName = (word: string) => thing(word) && givenNameOf(lower(word)) === null;
  const alone = (t: string, re: RegExp, person?: PersonTest) => replaceAlone(t, re, tagWord, person);
  out = alone(out, singleAfterCue, (word, head, whole, at) =>
    cuedPerson(word, head, whole, at, thing, thingNoName),
  );
  for (const re of [singleBeforeCue, singlePossessive]) out = alone(out, re, (word) => !thingNoName(word));
  out = alone(
    out,
    singleAnywhere,
    (word, head, whole, at) => !thing(word) && givenNameAlone(word, head, whole, at),
  );
  // Out from each person found: "with Tomislav and Željka and Ivo" takes three rounds at most here.
  for (let round = 0; round < 3; round += 1) {
    const person = (word: string) => !thingNoName(word);
    const next = alone(alone(out, coordinated, person), coordinatedBefore, person);
    if (next === out) break;
    out = next;
  }
  return out;
}

const isListedName = (base: string) => givenNames.has(lower(base));
/** Given names that are English words ("mark", "bill"): the lesser reading of a name in a Slavic case. */
const englishWords = new Set(englishWordNames.split(/\s+/u));
/** A word's letters without their accents, lower case: names in a text compared as written loosely. */
const plain = (word: string) => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const capitalisedWord = /(?<![\p{L}\p{M}])\p{Lu}[\p{L}\p{M}]+/gu;

/**
 * The name `word` (capitalised, standing alone at `at` of `text`) is a regular case of (name-forms.ts),
 * among the names `isName` says are names, or null: it is no case of one, or it is a given name of
 * its own ("Gorana", "Ivana", "Željka") and no preposition before it says it stands in a case ("kod
 * Gorana" is at Goran's; "Gorana je došla" is Gorana). A case of two names ("Goranu": Goran's dative,
 * Gorana's accusative; "Marku": Mark's or Marko's) is of the one `named` says the text names (by
 * default: written as it is in `text`), else of the first basesOf gives, unless that one is an
 * English word ("Mark" beside Marko; but "Luka" is the name, though a port in Croatian).
 */
export function baseName(
  word: string,
  text: string,
  at: number,
  isName: (base: string) => boolean,
  named?: (base: string) => boolean,
): string | null {
  if (isListedName(word) && !afterPreposition(text, at)) return null;
  const bases = basesOf(word).filter(isName);
  if (bases.length <= 1) return bases[0] ?? null;
  let inText: Set<string> | undefined;
  const written =
    named ??
    ((base: string) =>
      (inText ??= new Set([...matchesOf(capitalisedWord, text)].map((m) => plain(m[0])))).has(plain(base)));
  const said = bases.filter(written);
  if (said.length === 1) return said[0]!;
  return bases.find((b) => !englishWords.has(lower(b))) ?? bases[0]!;
}

type PersonTest = (word: string, head: string, whole: string, at: number) => boolean;

/**
 * Replaces the name a match of `re` holds (its last group; a first group is the words before it) where
 * it stands alone, by `tag` of it: a capitalised word beside it makes it part of a run, which
 * capitalisedRun judged ("with Croatia Airlines", "New York said"), unless that word opens a sentence
 * or is a weekday or a month ("Yesterday Goran said", "met Goran Monday"), or `person` says it is none.
 */
function replaceAlone(
  text: string,
  re: RegExp,
  tag: (word: string, whole: string, at: number) => string,
  person: PersonTest = () => true,
): string {
  return text.replace(re, (...args: unknown[]) => {
    const [found, ...rest] = args as [string, ...unknown[]];
    const whole = rest.pop() as string;
    const offset = rest.pop() as number;
    const groups = rest as string[];
    const word = groups.at(-1)!;
    const head = groups.length > 1 ? groups[0]! : '';
    const at = offset + head.length;
    if (isNoName(word) || inRun(whole, at, at + word.length) || !person(word, head, whole, at)) return found;
    return head + tag(word, whole, at) + found.slice(head.length + word.length);
  });
}

const singleAnywhere = new RegExp(single, 'gu');

/**
 * Whether a word after a cue (`head`: "met ", "with ") is a person: always after a cue only a person
 * follows ("met", "told", "hi"); after one a firm or a place follows as often ("with", "call",
 * "visited"), when words of a person follow it, or it is a given name and no place or product, nor
 * one the Brain knows as no person (`known`); after the first, unless the Brain knows it as no person
 * and it is no given name (`knownNoName`).
 */
function cuedPerson(
  word: string,
  head: string,
  whole: string,
  at: number,
  known: (word: string) => boolean,
  knownNoName: (word: string) => boolean,
): boolean {
  if (!sharedCues.has(lower(head.trim()))) return !knownNoName(word);
  if (personAfter.test(whole.slice(at + word.length, at + word.length + 80))) return true;
  if (known(word)) return false;
  const name = givenNameOf(lower(word));
  return name !== null && !namesOfThings.has(name);
}

/**
 * Whether a capitalised word with no cue around it is a person by its name alone: a given name that is
 * no place or product, written as one ("Don't" is no "Don"), and, when it is also an everyday word, not
 * where a sentence opens ("Will you come?", "Stan je u Ilici").
 */
function givenNameAlone(word: string, _head: string, whole: string, at: number): boolean {
  // A double name ("Snježana-Marija", "Jean-Luc") is a person by its first part.
  const first = word.split('-')[0]!;
  if (givenNameOf(lower(first)) === null) return false;
  // "Marku" is Marko's dative, though "Mark" is a word too.
  const name = lower(baseName(first, whole, at, isListedName) ?? givenNameOf(lower(first))!);
  if (namesOfThings.has(name)) return false;
  if (/^['’](?!s(?![\p{L}\p{M}]))[\p{L}\p{M}]/u.test(whole.slice(at + word.length, at + word.length + 3)))
    return false;
  return !commonWordNames.has(name) || !opensSentence(whole, at);
}

/**
 * Whether `at` is where a sentence, a line or an item opens: nothing before it but quotes, brackets, a
 * bullet or a dash since the text's start or the last ".", "!", "?", ":", ";" or line break.
 */
const opening = /[ \t\u00a0"'“”‘’«»([\-–—*•>]/u;
function opensSentence(text: string, at: number): boolean {
  let k = at;
  while (k > 0 && at - k < 24 && opening.test(text[k - 1]!)) k -= 1;
  return k === 0 || /[.!?:;…\n]/u.test(text[k - 1]!);
}

/** The capitalised word right before one space at the end of `s`, or null. */
function capitalisedBefore(s: string): string | null {
  if (!/[ \u00a0]$/u.test(s)) return null;
  const word = s
    .slice(0, -1)
    .split(/[^\p{L}\p{M}'’-]/u)
    .at(-1)!;
  // A capital alone ("O João", "A Ana": an article) opens no run of a name.
  return /^\p{Lu}[\p{Ll}\p{M}]/u.test(word) ? word : null;
}
const wordAfter = /^[ \u00a0](\p{Lu}[\p{Ll}\p{M}][\p{L}\p{M}'’-]*)/u;
const joinsRun = (word: string) => {
  const w = lower(word);
  return placeHeads.has(w) || !(notNames.has(w) || titles.has(w) || isCalendarWord(w));
};
function inRun(text: string, start: number, end: number): boolean {
  const before = capitalisedBefore(text.slice(Math.max(0, start - 42), start));
  const after = wordAfter.exec(text.slice(end, end + 42));
  return (before !== null && joinsRun(before)) || (after !== null && joinsRun(after[1]!));
}

/**
 * A run of capitalised words as a person's name: without the words that open it and are no name
 * ("Last Friday Goran Babić" is "Goran Babić"), or null when two words are not left, or when a word of
 * it says a place, a company or a product.
 */
function trimRun(run: string): string | null {
  const words = run.split(/[ \u00a0]+/u);
  let k = 0;
  while (k < words.length && (isNoName(words[k]!) || /^\p{Ll}/u.test(words[k]!))) k += 1;
  const rest = words.slice(k);
  if (rest.length === 0) return null;
  if (placeHeads.has(lower(rest[0]!))) return null;
  if (rest.some((w) => notPersonWords.has(lower(w)) || products.has(lower(w)) || isCalendarWord(w)))
    return null;
  // A single word is a name only after a title (trimRun of a titled name); a run needs two.
  if (rest.length < 2 && words.length > 1) return null;
  return rest.join(' ');
}

/**
 * The mark redact.ts writes right after a known person's pseudonym where it stands for a later part of
 * the name, a surname ("Horvat" of Lea Horvat, "Kovačević" of Lea Horvat-Kovačević), and takes off
 * before the copy goes: a pseudonym beside it may be of one name with it (`tagsAsOneName`).
 */
export const surnameMark = '\uE001';
const knownTag = String.raw`\[(?:self|person-[0-9A-Z]{4})\]\uE001?`;
// A hyphen that joins the parts of one name ("Horvat-Kovačević", "Ana-Marija"); not a dash, which
// says "to" or "and" between two ("Lea–Marko").
const hyphen = String.raw`[\u002D\u2010\u2011]`;
const afterKnown = new RegExp(
  String.raw`${knownTag}(?:${space}|${hyphen})(${nameWord})(?![\p{L}\p{M}\p{N}_-])`,
  'gu',
);
// Before one, a word that does not open a sentence (a capitalised verb does: "Drove [person-7KQ2] home");
// joined to it by a hyphen, one wherever it stands ("Kovačević-[self]": no verb is written so).
const beforeKnown = new RegExp(
  String.raw`(?<=[\p{Ll}\p{M},;:(]${space})(${nameWord})${space}${knownTag}|(?<![\p{L}\p{M}\p{N}_'’-])(${nameWord})${hyphen}${knownTag}`,
  'gu',
);
// A word right before a known surname ("snježana [self]" of "snježana horvat", where the self is Lea
// Horvat; "snjezana [self]", "SNJEŽANA [self]", "Tihana [self]'s wife" where a sentence opens): a given
// name so written is perhaps one name of someone else (`givenBeforeSurname`).
const wordBeforeSurname = new RegExp(
  String.raw`(?<![\p{L}\p{M}\p{N}_'’-])(\p{L}[\p{L}\p{M}]{2,30})${space}\[(?:self|person-[0-9A-Z]{4})\]\uE001`,
  'gu',
);
/** Given names without their accents ("snjezana"), as a text may write them. */
let plainGivenNames: Set<string> | undefined;
const isGivenNameLoosely = (word: string) =>
  givenNames.has(word) || (plainGivenNames ??= new Set([...givenNames].map(plain))).has(plain(word));
/** Words of a sentence, in lower case, that are given names too ("rekao sam Horvatu"). */
const lowerWordsNamed = new Set(
  'sam si smo ste su bio bila mu ju ga ne da to ta te li ali ili kad pa'.split(' '),
);
const knownBesideKnown = new RegExp(String.raw`(${knownTag})(?:${space}|${hyphen})(?=(${knownTag}))`, 'gu');

/**
 * A word right beside a known person's pseudonym that makes it part of another name, or null: a
 * capitalised word beside it, or joined to it by a hyphen ("[person-7KQ2] Horvat" of "Ivo Horvat" where
 * the Brain knows an Ivo Babić; "Goran [self]" of "Goran Horvat" and "[self]-Kovačević" of
 * "Horvat-Kovačević" where the self is Lea Horvat); a given name in lower case before a known surname
 * ("snježana [self]"). The part's replacement made such a name half a pseudonym and half a name, and
 * perhaps the wrong person's. Two pseudonyms so are `tagsAsOneName`'s.
 */
export function nameBesideKnown(text: string): string | null {
  for (const re of [afterKnown, beforeKnown])
    for (const m of matchesOf(re, text)) {
      const word = m[1] ?? m[2]!;
      if (!isNoName(word)) return word;
    }
  for (const m of matchesOf(wordBeforeSurname, text)) if (givenBeforeSurname(m[1]!)) return m[1]!;
  return null;
}

/**
 * Whether a word right before a known surname's pseudonym reads as another's given name: in lower case
 * or all in capitals, a given name of the list with or without its accents that is no everyday word;
 * capitalised (where a sentence opens: beforeKnown takes it elsewhere), any word that is not one of no
 * name ("Yesterday", "Dear", "Mrs") or an everyday word's name ("Will").
 */
function givenBeforeSurname(word: string): boolean {
  const w = lower(word);
  if (commonWordNames.has(w) || namesOfThings.has(w) || englishWords.has(w) || lowerWordsNamed.has(w))
    return false;
  if (isNoName(w)) return false;
  if (word === w || word === word.toUpperCase()) return isGivenNameLoosely(w);
  return /^\p{Lu}\p{Ll}/u.test(word);
}

/**
 * Whether two people's pseudonyms stand side by side, or joined by a hyphen, as the parts of one name:
 * one of them for a surname (`surnameMark`: "[person-33SH] [self]" of "Snježana Horvat" where the Brain
 * knows a Snježana, or the rules for an unknown name found her, and the self is Lea Horvat). Two given
 * names so are two people ("I told Marko Ana would come", "Hi Marko Lea here"); one person's twice is
 * one name ("Goranom Babićem").
 */
export function tagsAsOneName(text: string): boolean {
  for (const m of matchesOf(knownBesideKnown, text)) {
    const [first, second] = [m[1]!, m[2]!];
    if (first.replace(surnameMark, '') === second.replace(surnameMark, '')) continue;
    if (first.endsWith(surnameMark) || second.endsWith(surnameMark)) return true;
  }
  return false;
}

/** A slot's value written as a person's name ("Babić", "Ana da Silva"), its titles taken off first. */
const valueName = new RegExp(String.raw`^(${fullName})$`, 'u');
/**
 * A title opening a slot's value, in any case ("DR. Babić"), and those that come in a run of them
 * before a name ("prim. dr. Babić", "Dr. med. Babić", "doc. dr. sc. Babić", "mr. sc.", "mag. pharm."):
 * a value keeps each as its writer wrote it, and one title left before the name made it no name.
 */
const valueTitle = new RegExp(
  String.raw`^(?:${title}(?:${space}+|(?<=\.))|(?:prim|doc|sc|med|dent|mag|pharm|dipl|ing|univ|spec|ph\.d)\.${space}*)`,
  'iu',
);

/**
 * The parts of a slot's value that may each name one person: a list ("Ana, Marko", "Zvjezdana i
 * Ljerka", "Ana / Marko", "Ana + Marko"), and the words beside a name ("Zvjezdana, +385 91 555 0101",
 * "Zvjezdana (sister)"). The word for "and" of the languages the product meets splits only between
 * spaces, in lower case, as a list writes it.
 */
export function valueParts(value: string): string[] {
  return value
    .split(/[,;&/+()|:]|\s[-–—]\s|\s(?:and|i|e|und|y|et)\s/u)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/**
 * The name a slot's value of a person gives (a partner, a parent, a dentist: "Ivana", "Dr. Babić",
 * "Ana da Silva"), as the rules above read that person in text: without its title ("Dr. Babić" is
 * Babić, as a title before a name is tagged). Null for a value that is no name of a person: one with a
 * word of a firm, a body or a place ("Klinika Babić", "Dental Studio Ltd"), a place's head opening it
 * ("Novi Zagreb"), a product, a month or a weekday, digits, or words not written as a name ("my old
 * friend from school"): such a value made a person of it would make a pseudonym of each word of it.
 */
export function personNameOf(value: string): string | null {
  let name = value.trim().replace(/\s+/gu, ' ');
  for (let t = valueTitle.exec(name); t !== null && t[0].length < name.length; t = valueTitle.exec(name))
    name = name.slice(t[0].length);
  // A kin word before a name is no part of it: "Aunt Marta" is Marta.
  const kin = kinBefore.exec(name);
  if (kin !== null && kin[0].length < name.length) name = name.slice(kin[0].length);
  const m = valueName.exec(name) ?? valueName.exec(capitalisedName(name) ?? '');
  if (!m) return null;
  const words = m[1]!.split(' ');
  if (words.length > 1 && placeHeads.has(lower(words[0]!))) return null;
  // One word a value says instead of a name ("Dad", "Mom", "Unknown", "None", "Single", "deceased" in
  // "Dad (deceased)"), made a person, would be hidden in every copy. Only alone: "Paul Nurse", "Ratan
  // Tata" are names; and never a given name ("Tia", "Primo").
  if (
    words.length === 1 &&
    !givenNames.has(lower(words[0]!)) &&
    (roleWord.test(words[0]!) || notValueNames.has(lower(words[0]!)))
  )
    return null;
  return words.some(isNoName) ? null : m[1]!;
}

const particleWord = new RegExp(String.raw`^${particle}$`, 'u');
/**
 * A value written all in lower case, as a fact is often typed (`mother: snježana horvat`), as the name
 * it is when it opens with a given name of the list that is no everyday word and no place's or firm's
 * ("Snježana Horvat"): each word capitalised but a particle's ("ana da silva"), so that it is known,
 * by its parts too, as one written so. Null for anything else ("my old friend from school", "mark").
 */
function capitalisedName(value: string): string | null {
  if (/\p{Lu}/u.test(value)) return null;
  const words = value.split(' ');
  const first = words[0]!.split('-')[0]!;
  if (words.length > 4 || !givenNames.has(first) || commonWordNames.has(first) || namesOfThings.has(first))
    return null;
  return words
    .map((w) => (particleWord.test(w) ? w : w.replace(/(?<![\p{L}\p{M}])\p{Ll}/gu, (c) => c.toUpperCase())))
    .join(' ');
}

/** Whether a word is a given name of the list (in a case of its own too: "Goranu"). */
export const isGivenName = (word: string): boolean => givenNameOf(lower(word)) !== null;

/**
 * Everyday words a value typed in lower case carries after its given name ("ivan work", "marta sick",
 * "nina yoga teacher") that the redactor's other lists do not hold: what a slot says of a day, a state
 * or a place.
 */
const everydayAfterName = new Set(
  `work works working job office home house school college uni gym yoga sick ill tired busy late early
   away off out back sleep sleeping asleep party lunch dinner breakfast coffee shopping holiday vacation
   trip travel travelling traveling doctor hospital church class lesson training practice football
   tennis running walk today tonight tomorrow yesterday again also too now later soon here there
   posao kuća kući doma škola bolestan bolesna umoran umorna trabalho casa escola doente arbeit haus
   schule krank müde`.split(/\s+/u),
);

/**
 * Whether a word of a value typed in lower case, after its first, is an everyday word rather than a
 * part of the name (a surname): a word of the redactor's lists (no name, a title, a month or weekday,
 * a firm's, a role or kin word, a given name that is an English word, a word of prose) or of
 * `everydayAfterName`. "jurić" and "horvat" are none, and stay the person's parts; "work", "sick",
 * "teacher" and "yoga" are.
 */
export function isEverydayWord(word: string): boolean {
  const w = lower(word);
  return (
    isNoName(w) ||
    roleWord.test(w) ||
    englishWords.has(w) ||
    commonWordNames.has(w) ||
    namesOfThings.has(w) ||
    notValueNames.has(w) ||
    particleWord.test(w) ||
    everydayAfterName.has(w)
  );
}

/** A kin or role word alone ("Dad", "Mom", "Sister", "Dentist"): what a value says of whom, not who. */
const roleWord = new RegExp(String.raw`^(?:${role})$`, 'iu');
/** Kin words said before a name as a title is ("Aunt Marta", "Teta Ana"), none of them a given name. */
const kinBefore = new RegExp(
  String.raw`^(?:${'aunt auntie uncle grandma grandpa granny grandmother grandfather teta ujak stric baka djed tante onkel oma opa tio'
    .split(' ')
    .filter((w) => !givenNames.has(w))
    .join('|')})${space}+`,
  'iu',
);
/** Words a person slot's value says in place of a name: a state, an unknown, a placeholder. */
const notValueNames = new Set(
  `none unknown n/a na single married divorced widowed widow widower deceased dead alive late both many
  several nobody noone someone somebody anonymous private secret same true false null tbd tba
  various other others myself himself herself yes no`.split(/\s+/u),
);
