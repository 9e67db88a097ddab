import { escapeRegExp } from '../shared/escape-reg-exp.ts';
import { notAPlace } from './not-a-place.ts';
import { normalizeStatement } from './record-text.ts';
import { months, weekdays } from '../retrieve/time-expressions.ts';
import { agoWhen, startWhen, yearWhen } from './start-day.ts';
import { isQuestion, opensAsQuestion } from './unmarked-question.ts';
import {
  cityAfterAddress,
  homeParts,
  homeValue,
  saidStreetAddress,
  streetAddress,
  streetAddressOpening,
  streetAddressShaped,
} from './street-address.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * First-person sentences that state a value the speaker can hold only one of at a time: where they live
 * ("I live in …", "I moved (back) to …", and "we live in …", which counts the speaker in) and where they
 * work. Said again with another value, the new one replaces the old (as a `fact` on the
 * same slot would), so "I moved to Porto" after "I live in Lisbon" is not two current homes.
 * Deliberately narrow, since a wrong match replaces a true home: present tense or a move ("I lived in
 * Paris" is history), a capitalised name after it ("I live in fear", "I work at night" hold nothing;
 * a chat written without capitals, or with only "I" and its first letter's, is read as if cased:
 * chatCased), "I'm based in Berlin" a home too,
 * and nothing that makes it hypothetical, reported, dated or temporary ("If I moved to Berlin", "My mum
 * thinks I live in Paris", "When I moved to Berlin in 2015", "I moved to Porto for a week"), and a home
 * that is a place: "We moved to Slack" holds none (not-a-place.ts).
 */
export interface SlotSentence {
  predicate: 'lives in' | 'works at';
  value: string;
  /** Where the clause that states it stands in the sentence, [start, end): "I live in Porto". */
  clause: [number, number];
  /**
   * When a value said to come starts, in the sentence's words ("I'm starting at Revolut on Monday": "on
   * Monday"; start-day.ts reads the day); absent, it holds from when it was said.
   */
  when?: string;
  /**
   * The sentence says more of the value than that it holds, and its Memory is the sentence in its own
   * words: "I'm moving out of my flat on Ilica 42 next Saturday" holds Ilica 42 until a new home does,
   * but "Ana lives at Ilica 42" would not say she is leaving it.
   */
  own?: true;
}

/**
 * Capitalised words that go on no name before them: the next clause's "I" ("I live in Lisbon I love
 * it"), a chat's acronyms ("I work at Google LOL") and the days of the week ("at Google Monday to Friday").
 */
const endsAName = String.raw`(?:I(?:['’](?:m|ll|ve|d))?|LOL|LMAO|ROFL|BTW|OMG|TBH|IMO|IMHO|FYI|IDK|NGL|ASAP|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?)(?![\p{L}\p{M}'’.&-])`;
/** The small words inside a place's or a firm's name: "Rio de Janeiro", "Banco do Brasil". */
export const nameParticles = [
  'de',
  'da',
  'do',
  'dos',
  'das',
  'del',
  'della',
  'di',
  'du',
  'van',
  'von',
  'der',
  'den',
];
const particle = String.raw`(?:${nameParticles.join('|')})`;
/**
 * Up to four capitalised words ("Porto", "New York", "Globex Corporation"), a small word of a name
 * between two of them ("Vila Nova de Gaia").
 */
const capitalised = String.raw`\p{Lu}[\p{L}\p{M}'’.&-]*(?:\s+(?:${particle}\s+(?=\p{Lu}))?(?!${endsAName})\p{Lu}[\p{L}\p{M}'’.&-]*){0,3}`;
/** A name: the value a slot holds. */
const name = String.raw`(?<value>${capitalised})`;
/**
 * A home's name, which may open with "the": "the UK", "the Bay Area", "the Netherlands"; or a street
 * address whose words say it is one, whole ("I moved to Savska cesta 41": not "Savska").
 */
const placeName = String.raw`(?<value>${saidStreetAddress}|(?:the\s+)?${capitalised})`;
const adverb = String.raw`(?:(?:just|recently|finally|now|currently|still|actually|also)\s+){0,2}`;
/** "I", "I've", "I'm", and as a chat spells them, "Ive", "Im". */
const lead = String.raw`(?:^|[\s,;:(])I(?:['’]?ve| have| am|['’]?m)?\s+${adverb}`;
/**
 * "We moved to Lisbon": the speaker is one of "we", so it is their home as much as "I moved to Lisbon"
 * is. Only for a home: "we work for Globex" is as often a team's client or a firm speaking as the
 * speaker's employer.
 */
const weLead = String.raw`(?:^|[\s,;:(])[Ww]e(?:['’]ve| have| are|['’]re)?\s+${adverb}`;
/**
 * "Just moved to Porto!", "Currently living in Porto.": a chat leaves its "I" out at the start of a
 * sentence, and a move, or living somewhere now, is the speaker's. Only those: "Living in Porto is …"
 * has its own subject.
 */
const elidedLead = String.raw`^\s*(?:(?:[Jj]ust\s+|[Rr]ecently\s+|[Ff]inally\s+)?(?=[Mm]oved|[Rr]elocated|[Ss]ettled\s+in\s)|(?=[Ll]iving\s+in\s+\S+(?:\s\S+){0,2}\s+(?:now|these\s+days|nowadays)(?![\p{L}\p{N}]))|(?:[Cc]urrently|[Nn]ow|[Ss]till)\s+(?=living\s)|(?=[Bb]ack\s+in\s))`;

/**
 * "Just started at Globex!", "Got a job at Globex!": a chat leaves its "I" out before a job's start as
 * before a move. Only a start: "Working at Globex is …" has its own subject.
 */
const elidedJobLead = String.raw`^\s*(?:[Jj]ust\s+|[Rr]ecently\s+|[Ff]inally\s+|[Oo]fficially\s+)?(?=(?:[Ss]tarted|[Gg]ot|[Tt]ook|[Ll]anded|[Aa]ccepted|[Jj]oined|(?:(?:[Mm]y|[Aa])\s+)?[Nn]ew\s+(?:job|position|role))\s)`;

/** A role's words, up to four: "nurse", "senior data engineer". */
const roleWords = String.raw`\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,3}`;

/**
 * What people say they are at an employer, by the role's last word: "I'm a nurse at Santa Maria", "I'm a
 * senior software engineer at Google", "I'm the CTO at Globex". Only occupations: "I'm a regular at
 * Joe's", "a member at Equinox", "a student at MIT" or "a guest at the Ritz" say no job.
 */
const occupationWords =
  `engineer developer programmer designer architect nurse doctor physician surgeon dentist pharmacist therapist paramedic vet veterinarian teacher lecturer professor tutor instructor coach trainer researcher scientist economist analyst consultant lawyer attorney paralegal accountant banker trader manager director executive officer administrator coordinator specialist supervisor assistant secretary receptionist clerk cashier barista waiter waitress chef cook baker technician mechanic electrician plumber pilot driver editor writer journalist reporter producer photographer illustrator marketer recruiter librarian intern employee dev eng SRE sre CTO CEO CFO COO VP SWE swe SDE sde PM pm RN rn`.split(
    ' ',
  );
export const occupations = `(?:${occupationWords.join('|')})`;
/**
 * The same as a job title is written without an article, in capitals: "I'm Lead Data Scientist at
 * Brightwave", "I'm now Senior Engineer at Globex". Only in capitals, and the last word an occupation's:
 * "I'm new at Globex" or "I'm Ana at the desk" say no job.
 */
export const titledOccupation = String.raw`(?:\p{Lu}[\p{L}-]*\s+){0,3}(?:${[
  ...new Set(occupationWords.map((w) => w[0]!.toUpperCase() + w.slice(1))),
].join('|')})`;
const atWork = String.raw`(?:(?:a|an|the)\s+(?:[\p{L}-]+\s+){0,3}${occupations}|${titledOccupation})(?=\s)`;

/** What one lives in, by the home's kind: "flat", "apartment", "place". */
const homeNouns = String.raw`(?:place|flat|apartment|apt|house|home)`;
/** A home by its kind, "the new flat", "our place": what one moves into at an address. */
const homeNoun = String.raw`(?:(?:the|a|our|my)\s+)?(?:new\s+)?${homeNouns}`;

/** Whom one lives with, before where: "I live with my parents in Braga", "living with my bf in Porto". */
const withWhom = String.raw`(?:\s+with\s+(?:my|our)\s+[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?)?`;

/** "I'm back in Lisbon for good": a home returned to, said as lasting (not "back in Lisbon for a week"). */
const backForGood = String.raw`[Bb]ack\s+in(?=\s+\S+(?:\s+\S+){0,2}\s+for\s+good(?:\s+now|\s+this\s+time)?(?![\p{L}\p{N}])(?!\s*[\p{L}\p{N}]))`;

/** "joined Stripe as a staff engineer": an employer joined, said so by the occupation after it. */
const joinedAs = String.raw`[Jj]oined(?=\s+\p{Lu}\S*(?:\s+\p{Lu}\S*){0,3}\s+as\s+(?:a|an|the|their)\s+(?:[\p{L}-]+\s+){0,3}${occupations}(?![\p{L}\p{N}]))`;

/**
 * The word a chat puts before an employer's name and no name holds: "I work at company ZetaCorp", "I
 * work for the firm Baker & Co".
 */
const companyWord = String.raw`(?:(?:the\s+)?(?:company|firm|startup|agency)\s+(?=\p{Lu}))?`;

/** A job taken: "got a job", "took a new position as a nurse", "landed the role", "got hired". */
const newJob = String.raw`(?:(?:(?:[Gg]ot|[Tt]ook|[Ll]anded|[Aa]ccepted|[Ss]tarted)\s+(?:a\s+|the\s+|my\s+)?(?:new\s+)?|(?:[Hh]ave|[Hh]as)\s+a\s+new\s+)(?:job|position|role)(?:\s+as\s+(?:a|an)\s+${roleWords})?|(?:[Gg]ot|was|been)\s+hired)(?=\s)`;

/**
 * A present perfect's participle, after "I've" or "I have": "I've lived in Berlin for 10 years". Said
 * with how long (readClause), it lasts until now; without, it is history ("I've lived in Paris").
 */
const perfect = (participle: string) =>
  String.raw`(?<=(?:['’]?ve|\shave)\s+${adverb})(?<perfect>${participle})`;

/**
 * "in" after "and now I'm", ", now I'm", a sentence's "Now I'm", or "I'm now", before a place's name;
 * readClause keeps it only as the end of a story of moves.
 */
const nowIn = String.raw`(?:(?<=(?:^|[,;]\s*|[\s(]and\s+)[Nn]ow,?\s+I(?:['’]?m|\s+am)\s+)|(?<=(?:^|[\s,;:(])I(?:['’]?m|\s+am)\s+now\s+))(?<nowIn>in)(?=\s+\p{Lu})`;

/** What a clause says after its subject: "live in Porto", "moved back to Lisbon", "work at Globex". */
const verbs: ReadonlyArray<{ predicate: SlotSentence['predicate']; verb: string }> = [
  {
    predicate: 'lives in',
    // "I moved from Lisbon to Porto", "… out of Lisbon to Porto": the home is where the move went.
    // "I'm based in Berlin", "I'm based out of Berlin": where one lives and works from.
    // "I moved to Boston after college, and now I'm in Denver": where one is now, told as the end of a
    // story of moves (readClause); not "Right now I'm in Denver" (a trip) nor "I'm in Denver" alone.
    // "We finally moved into the new place in Porto", "Finally settled in Porto": a home too.
    verb: String.raw`(?:live${withWhom}\s+in|(?<been>been\s+)?living${withWhom}\s+in|${perfect('lived')}\s+in|based\s+(?:in|out\s+of)|${nowIn}|(?<moved>[Mm]oved|[Rr]elocated)(?:\s+back|\s+in\s+together)?(?:\s+(?:from|out\s+of|away\s+from)\s+(?<from>${capitalised}))?(?:\s+into\s+(?:(?:the|a|our|my)\s+)?(?:new\s+)?(?:place|flat|apartment|apt|house|home))?\s+(?:in|to)|[Ss]ettled\s+in|${backForGood})\s+${placeName}`,
  },
  {
    predicate: 'lives in',
    // A home given by its street address (street-address.ts), whose shape tells it from "I live at the
    // gym these days": "I now live at Vlaška 17", "I've lived at 12 Baker Street for years", "We moved
    // into Vlaška 17", "… into the new flat at Vlaška 17". "Moved to" only before an address that says
    // it is a street ("12 Baker Street") or its city ("Vlaška 17 in Zagreb"): "We moved to Java 17" is
    // as often a version as a home. The city said after an address is the home's too. And a
    // home said as being left ("I'm moving out of my flat on Ilica 42 next Saturday"): where one lives
    // until then, in the sentence's words, which a new home replaces.
    verb: String.raw`(?:(?:live|living)${withWhom}\s+at|${perfect('lived')}\s+at|(?<moved>[Mm]oved|[Rr]elocated)\s+(?:into(?:\s+${homeNoun}\s+(?:at|on))?|to(?:\s+${homeNoun}\s+(?:at|on)|(?=\s+${saidStreetAddress})|(?<toStreet>(?=\s+${streetAddress}\s+in\s+\p{Lu}))))|(?<leaving>(?:moving|about\s+to\s+move)\s+out\s+of)\s+(?:my|our)\s+(?:current\s+|old\s+)?${homeNouns}\s+(?:on|at|in))\s+(?<value>${streetAddress})`,
  },
  {
    predicate: 'works at',
    // "Joined" only with an occupation after the name ("I joined Stripe as a staff engineer"): one joins
    // Reddit or a choir as often as an employer.
    // A role before the employer is part of the clause, as one after it is ("I work as a nurse at …").
    // How one works is part of it ("I work remotely for Globex", "I'm working part-time at Sonae").
    // A new job is one too: "I got a job at Globex", "I took a position with Initech", "I got hired
    // by Acme" ("with" and "by" only after those words: "I work with Tom" names a colleague).
    verb: String.raw`(?:(?:work|teach|(?<been>been\s+)?(?:working|teaching)|${perfect('(?:worked|taught)')})(?:\s+(?:remotely|part-time|full-time|part\s+time|full\s+time))?(?:\s+as\s+(?:a|an)\s+${roleWords})?|[Ss]tarted(?:\s+a\s+new\s+job|\s+working)?(?=\s)|${newJob}|${atWork}|employed(?=\s)|(?<=^\s*(?:(?:[Mm]y|[Aa])\s+)?)[Nn]ew\s+(?:job|position|role)(?=\s)|[Aa]ccepted\s+(?:the|an|their|a)\s+(?:job\s+)?offer(?=\s)|${joinedAs})\s*(?:at|(?<![Nn]ew\s+(?:job|position|role)\s)for|(?<=(?:job|position|role|hired|employed)\s)(?:with|by)|(?<=offer\s)from|(?<=[Jj]oined))\s+${companyWord}${name}`,
  },
  {
    predicate: 'works at',
    // "I got the Rimac job!", "Landed the Infobip offer": the employer named before the job's word
    // (jobAfter: the clause reaches over it).
    verb: String.raw`(?<jobAfter>[Gg]ot|[Ll]anded|[Aa]ccepted|[Tt]ook)\s+the\s+${name}(?=\s+(?:job|position|role|offer)(?![\p{L}\p{N}]))`,
  },
];

const patterns = verbs.map(({ predicate, verb }) => ({
  predicate,
  // "we work for Globex" is no one's job (weLead), and "we're based in Berlin" as often a firm's seat.
  re: new RegExp(
    `${predicate === 'lives in' ? `(?:${lead}|${weLead}(?!based)|${elidedLead})` : `(?:${lead}|${elidedJobLead})`}${verb}`,
    'gu',
  ),
}));

/**
 * A value said to come, with the day it starts (comingClause): "I'm starting at Revolut on Monday", "I
 * start my new job at Globex next week", "We're moving to Porto in March", "I'll be working at Acme
 * from the 1st", "moving to Berlin next month" (a chat's "I" left out), "my first day at Stripe is
 * tomorrow", "My new job at Google starts Monday". Without a day it holds nothing ("I'm moving to Berlin" is as often a plan for some day).
 */
/** "I'm moving", "I'll be starting", and with someone "Jordan and I are moving". */
const comingLead = String.raw`(?:^|[\s,;:(])I(?:['’]?m|\s+am|['’]ll|\s+will|(?<=\band\sI)\s+are)?\s+(?:going\s+to\s+|gonna\s+)?${adverb}`;
const comingWeLead = String.raw`(?:^|[\s,;:(])[Ww]e(?:['’]re|\s+are|['’]ll|\s+will)?\s+(?:going\s+to\s+|gonna\s+)?${adverb}`;
const comingElided = String.raw`^\s*(?:[Jj]ust\s+|[Ss]o\s+)?(?=(?:[Ss]tarting|[Mm]oving|[Rr]elocating)\s)`;
/** What says a job named before it starts: "(my new job at Google) starts Monday". */
const startsVerb = String.raw`(?:starts|begins|will\s+(?:start|begin)|is\s+starting)`;
const firstDayLead = String.raw`(?:^\s*(?:[Mm]y\s+)?|(?<=[\s,;:(])[Mm]y\s+)`;
const comingVerbs: ReadonlyArray<{ predicate: SlotSentence['predicate']; verb: string }> = [
  {
    predicate: 'lives in',
    verb: String.raw`(?:(?:be\s+)?(?:[Mm]oving|[Rr]elocating)|move|relocate)(?:\s+back)?\s+to\s+${placeName}`,
  },
  {
    predicate: 'works at',
    verb: String.raw`(?:(?:(?:be\s+)?(?:[Ss]tarting|beginning)|start|begin)(?:\s+(?:(?:a|my|the)\s+)?new\s+(?:job|position|role)|\s+work(?:ing)?)?|(?<working>be\s+working))\s+(?:at|for|(?<=(?:job|position|role)\s)with)\s+${name}`,
  },
];
const comingPatterns = [
  ...comingVerbs.map(({ predicate, verb }) => ({
    predicate,
    re: new RegExp(
      `${predicate === 'lives in' ? `(?:${comingLead}|${comingWeLead}|${comingElided})` : `(?:${comingLead}|${comingElided})`}${verb}`,
      'gu',
    ),
  })),
  {
    predicate: 'works at' as const,
    re: new RegExp(String.raw`${firstDayLead}[Ff]irst\s+day\s+(?:at|with)\s+${name}`, 'gu'),
  },
  // "My new job at Google starts Monday": the job, from the day it starts.
  {
    predicate: 'works at' as const,
    re: new RegExp(
      String.raw`${firstDayLead}[Nn]ew\s+(?:job|position|role)\s+(?:at|with)\s+${name}(?=\s+${startsVerb}\s)`,
      'gu',
    ),
  },
];
/** Words every coming clause holds one of: the patterns run only where one is. */
const comingWords = /(?:start|begin|moving|move|relocat|first\s+day|working)/iu;
/**
 * The day after a coming value: "… at Revolut on Monday", "… to Berlin, next month", "… is tomorrow",
 * "(my new job at Google) starts Monday".
 */
const whenAfter = new RegExp(
  String.raw`^\s*(?:,\s*)?(?:(?:is|was|will\s+be|${startsVerb})\s+)?(?<when>${startWhen})(?![\p{L}\p{N}])`,
  'iu',
);
/** The day before it, opening the sentence: "Next month I'm moving to Berlin", "tomorrow is my first day at …". */
const whenBefore = new RegExp(
  String.raw`^\s*(?<when>${startWhen})(?:\s*,\s*|\s+(?:is|was|will\s+be)\s+|\s+)$`,
  'iu',
);

/**
 * The day a value held now starts, said after it: "I'm a nurse at Hospital Santa Maria, starting January
 * 1", "I got a new job at Revolut, starting next month", "… as of the 1st". Not a bare "from" ("I work
 * at Acme from Monday to Friday" tells the days of the week one works).
 */
const startingAfter = new RegExp(
  String.raw`^\s*,?\s+(?:starting|beginning|effective|as\s+of)\s+(?<when>${startWhen})(?![\p{L}\p{N}])(?!\s+(?:to|until|till|through)\s)`,
  'iu',
);

/** The day a clause ends with: "…, starting January 1" (startingAfter), "… on January 11" (comingClause). */
const startingTail = new RegExp(
  String.raw`\s*,?\s+(?:(?:starting|beginning|effective|as\s+of|is|was|will\s+be|${startsVerb})\s+)?(?:${startWhen})$`,
  'iu',
);

/**
 * A slot's clause without the day it starts said after it (startingAfter, or a value said to come), for
 * what reads the clause's words.
 */
export function clauseBeforeItsStart(
  sentence: string,
  [from, to]: readonly [number, number],
): [number, number] {
  const tail = startingTail.exec(sentence.slice(from, to));
  return tail === null ? [from, to] : [from, from + tail.index];
}

/**
 * A second clause of the speaker's own, its "I" left out, right after the first: "I live in Porto and
 * work at Sonae", "I work at Globex but live in Braga", "i live in porto, work at Acme". Only after
 * "I": "we ... and work at" is a team's.
 */
const andJoin = /^(?:,?\s+(?:and|but)\s+|,\s*)/u;
const coordinated = verbs.map(({ predicate, verb }) => ({
  predicate,
  // "... and have been working at Sonae": the "have" of an ongoing clause, its "I" left out.
  re: new RegExp(`${andJoin.source}(?:have\\s+(?=been\\s))?${adverb}${verb}`, 'u'),
}));
/**
 * Where the speaker is from, which holds no slot ("from" is as often a birthplace as a home) but opens a
 * sentence whose next clause, its "I" left out, does: "I'm from Lisbon but live in Porto".
 */
const origin = new RegExp(
  String.raw`(?:^|(?<=[\s,;:(]))I(?:['’]?m|\s+am)\s+(?:originally\s+)?from\s+${name}(?:\s+originally)?`,
  'u',
);

/** A role after an employer, up to four words, ending where the clause does: " as a data engineer". */
const role =
  /^\s+as\s+(?:a|an)\s+\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,3}(?=\s*(?:$|[.!,;]|\s(?:and|but)\s))/u;
/** A role after an employer, before the day it starts: " as a senior data engineer" of "… on January 11". */
const roleBeforeDay = new RegExp(
  String.raw`^\s+as\s+(?:a|an)\s+\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,3}?(?=\s*,?\s+(?:${startWhen})(?![\p{L}\p{N}]))`,
  'iu',
);

/**
 * Where in the place, after a home, to the clause's end: ", in Kreuzberg, near the canal", " by the sea",
 * up to three phrases of up to four words. Like a role, part of the home's clause: kept beside the slot
 * as a Memory of its own, "I live in Berlin, in Kreuzberg, near the canal." would stay current after a
 * move to Lisbon superseded "Ana lives in Berlin". A year is no place ("in 2019": history, below).
 */
const placeDetail =
  /^(?:,?\s+(?:in|near|by|on|off|at|outside|close to|next to|not far from|right by)\s+\p{L}[\p{L}\p{M}'’-]*(?:\s+\p{L}[\p{L}\p{M}'’-]*){0,3}){1,3}(?=\s*(?:$|[.!,;]|\s(?:and|but)\s))/u;

/**
 * Hypothetical, negated, reported or quoted, or told of one's childhood: the sentence does not say
 * where the speaker is now ("Imagine I live in Tokyo", "a cover letter saying I work at Google",
 * "Growing up, we moved to Ohio", "I moved to Lisbon as a kid").
 */
const notNowAnywhere =
  /\?\s*$|["“”]|\b(?:no longer|any ?more|any longer|wish|hope|hoping|plan|planning|maybe|perhaps|thinks?|thought|says|said|saying|told|dream(?:ed|t)?|used to|pretend(?:ing)?|imagine|imagining|assume|assuming|suppose|supposing|hypothetical(?:ly)?|let['’]?s say|let us say|what if|for (?:example|instance)|role-?play(?:ing)?|translate|(?:a|the) (?:short )?story|growing up|as (?:a )?(?:kids?|child|children|teen|teenager|toddler|baby|boy|girl)|back in the day|back then|in (?:high|middle|elementary|primary|grade) school|in the ['’]?(?:19|20)?\d0s)\b/iu;
/**
 * A negation or a condition, which holds a slot's clause back only where it stands before the clause
 * or within it, up to the next comma or "and" ("If I moved to Berlin, …", "When I moved to Berlin in
 * 2015"): after that it is another clause's ("I just moved to Porto and I don't know anyone yet", "I
 * live in Toronto, if that matters").
 */
const notNowHere = /\b(?:not|never|don['’]t|didn['’]t|if|when|whenever|once|would|could|might|should)\b/iu;
const notNow = new RegExp(`${notNowAnywhere.source}|${notNowHere.source}`, 'iu');
/** Where a clause's own words end after its value: the next comma, semicolon, "and" or "but". */
const clauseBreak = /[,;]|\s(?:and|but)\s/u;
/** Whether what stands before a slot's clause or within it (to `valueEnd` and on to clauseBreak) holds it back. */
const heldBack = (sentence: string, valueEnd: number): boolean => {
  const rest = sentence.slice(valueEnd);
  const at = rest.search(clauseBreak);
  return notNowHere.test(sentence.slice(0, valueEnd + (at === -1 ? rest.length : at)));
};
/**
 * A sentence that says, after it, whom it was of when that is not the speaker: "got the job at revolut
 * (my sister, not me)", "new job at revolut for carla!", "started at revolut last week, my sister that
 * is", "starting at revolut on monday — my sister i mean", "first day at revolut tomorrow (for carla)".
 * The job went to the speaker, who had only passed the news on.
 */
function saysWhoElse(sentence: string): boolean {
  // Read for every sentence: most have none of the marks and words below.
  if (!whoElseHint.test(sentence)) return false;
  const s = sentence.toLowerCase();
  if (/(?<![\p{L}\p{N}])not\s+me(?![\p{L}\p{N}])/u.test(s)) return true;
  if (/(?<![\p{L}\p{N}])(?:i\s+mean|i\s+meant|that\s+is)[\s!.)]*$/u.test(s) && /[,—–(-]/u.test(s))
    return true;
  if (kinAfter.test(s)) return true;
  // "new job at revolut for carla!": a job's news, for someone; "I work for Acme", "I moved to Berlin
  // for Tom" are the speaker's own.
  const forWhom = /(?<![\p{L}\p{N}])for\s+(\p{L}+)[\s!.)]*$/u.exec(s)?.[1];
  if (forWhom !== undefined && jobNews.test(s) && /\sat\s/u.test(s) && !notWhom.has(forWhom)) return true;
  const inParens = /\(\s*for\s+\p{L}+\s*\)/u.test(s);
  return inParens;
}
const whoElseHint = /[(—–-]|not\s+me|mean|that\s+is|for\s/iu;
const jobNews = /(?<![\p{L}\p{N}])(?:job|position|role|offer|first\s+day|start(?:ed|ing)?)(?![\p{L}\p{N}])/u;
const kinWord = String.raw`(?:sister|brother|sis|bro|mom|mum|mother|dad|father|friend|bestie|bff|wife|husband|gf|bf|girlfriend|boyfriend|partner|boss|colleague|coworker|cousin|son|daughter|aunt|uncle|niece|nephew|roommate|flatmate)`;
/** A kin word in parentheses or after a dash, closing the sentence: "(my sister, not me)", "— my sister". */
const kinAfter = new RegExp(
  String.raw`[(—–-]\s*(?:for\s+)?(?:my\s+)?${kinWord}(?![\p{L}\p{N}])[^()]{0,40}\)?[\s!.]*$`,
  'u',
);
/** Words after a closing "for" that name no one: "for real", "for good", "for now". */
const notWhom = new Set(
  `real good now once sure free fun life ever me myself us a an the it work years months weeks days
   today tonight tomorrow`.split(/\s+/u),
);

/**
 * Words before a colon that someone else's words, or text to work on, follow: "Tom: I work at Google",
 * "Help me reply to this email: Hi, I moved to Denver". Not the speaker's own lead-ins ("Update: I moved
 * to Porto", "Big news: ..."), nor an agent's ("Noted: Ana lives in Braga"), nor a changed number's
 * label ("new phone: +49 151 1234567").
 */
const beforeColon = /^\s*([^:\n]{1,80}?):\s+\S/u;
const ownLeadIn =
  /^(?:(?:quick|small|big|good|great|bad|sad|exciting|some|life|personal|an?|the|another|latest|little|my)\s+)*(?:update|news|correction|fyi|btw|ps|p\.s\.|note|noted|edit|reminder|context|background|fact|ok|okay|so|also|actually|oh|well|anyway|yes|yeah|yep|no|nope|true|answer|status|confession|fun fact|(?:i(?:['’]ve|\s+have)\s+)?decided|(?:i\s+|i['’]ve\s+)?(?:just\s+|finally\s+)?(?:got|have|landed|started)\s+a\s+new\s+(?:job|role|position)|tl;?dr|got it|understood|done|saved|remembered|sure|great|perfect|thanks|thank you|alright|right|correct|sorry|oops|(?:my\s+)?new\s+(?:(?:mobile|cell|phone)\s+)?(?:phone|number|mobile|cell|e-?mail(?:\s+address)?))s?$/iu;
/**
 * The sentence with the speaker's own lead-in turned to spaces ("Update: moved to Lisbon", "news: got the
 * job at Stripe"), so a clause whose "I" a chat leaves out opens after it as it would open the sentence.
 */
function withoutOwnLeadIn(sentence: string): string {
  if (!sentence.includes(':')) return sentence;
  const m = beforeColon.exec(sentence);
  if (m === null || !ownLeadIn.test(m[1]!.trim())) return sentence;
  return blank(sentence, 0, m[0].indexOf(':') + 1);
}
/** Whether a sentence's words come after a lead-in that makes them another's or a text's (beforeColon). */
const afterOthersColon = (sentence: string): boolean => {
  const m = beforeColon.exec(sentence);
  return m !== null && !ownLeadIn.test(m[1]!.trim());
};
/**
 * A question without its mark, as a chat asks: "do i live in porto", "Am I still working at Acme"
 * (unmarked-question.ts), and for a slot also one opening with what it asks: "where i live now" or
 * "had I moved to Porto" say no home.
 */
const askedUnmarked = (s: string): boolean =>
  opensAsQuestion(s) || /^\W*(?:had|where|what|why|how|which|who)\s+(?:I|we)(?![\p{L}\p{N}])/iu.test(s);
/**
 * A stay that ends, or a move told as history. "Since 2019" is neither: "I live in Lisbon since 2019"
 * says a home that holds.
 */
const notLasting =
  /\bfor\s+(?:a|an|the|one|two|three|few|couple|some|\d+)\b[^.!;]*?\b(?:days?|nights?|weeks?|weekends?|months?|summers?|winters?|semesters?|terms?|years?)\b|\bin\s+(?:19|20)\d\d\b|\bago\b/iu;
/**
 * A move told with how long ago it was is where one lives since ("we moved to porto 2 weeks ago"), as
 * "I moved to Porto last year" is, and so is one told with its year ("Sam moved to York in 2023",
 * since that year); a stay that ends is still history.
 */
const movedAgo = new RegExp(String.raw`(?<![\p{L}\p{N}])(${agoWhen}|${yearWhen})(?![\p{L}\p{N}])`, 'iu');
const movedOnSince =
  /(?<![\p{L}\p{N}])(?:then|later|since\s+then|after\s+that|moved|left|back|until)(?![\p{L}\p{N}])/iu;
const notLastingMove =
  /\bfor\s+(?:a|an|the|one|two|three|few|couple|some|\d+)\b[^.!;]*?\b(?:days?|nights?|weeks?|weekends?|months?|summers?|winters?|semesters?|terms?|years?)\b/iu;
/** A move's year after its place: "… to York in 2023". */
const yearIn = new RegExp(String.raw`(?<![\p{L}\p{N}])(${yearWhen})(?![\p{L}\p{N}])`, 'iu');
/** A time since which something holds, by its year: history for an ending, until now for a home. */
const sinceYear = /\bsince\s+(?:19|20)\d\d\b/iu;
/**
 * A clause with a subject of its own: "..., I worked at Sonae in 2019", "... and I've been here since
 * May". Its time is its own, not the value's before it.
 */
const ownSubject = /(?:[,;]|\s(?:and|but))\s+(?:I|we)(?=['’]|\s)/iu;
/** What follows a value up to the next clause with a subject of its own. */
const ownWords = (after: string) => {
  const at = after.search(ownSubject);
  return at === -1 ? after : after.slice(0, at);
};
/** Capitalised words that are times, not places or employers ("working at Christmas", "on Easter Sunday"). */
const notNames = new Set(
  `christmas easter halloween thanksgiving weekends weekend monday tuesday wednesday thursday friday
   saturday sunday january february march april may june july august september october november
   december home`.split(/\s+/u),
);
const notName = (value: string) =>
  notNames.has(value.split(/\s+/u)[0]!.toLowerCase()) || /^new year/iu.test(value);

const words = (s: string) => s.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * Words that lean on the clause before them: a statement opening with one ("... and so does my sister",
 * "... and it is lovely") or pointing back with "there" or "it" ("... but I hate the weather there", "... and I love it") says nothing
 * without the home it would be cut from; nor does a courtesy ("... and thanks for asking!").
 */
export const leansBack =
  /^(?:so|too|also|then|it|its|it['’]s|that|this|they|which|there|thanks|thank|cheers|hope|lol|haha|bye)(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(?:there|here|it)(?![\p{L}\p{N}])/iu;
/** What follows the last slot clause as a statement of its own: ", and my dentist is Carla Silva." */
const afterClause = /^(?:\s*,)?\s*(?:and|but|;)\s+(?=\S)/u;

export interface SlotReading {
  slots: SlotSentence[];
  /**
   * A home or an employer the speaker says they no longer have ("I no longer work at Acme", "I don't
   * live in Lisbon anymore"): it ends that value where it holds the slot, and asserts none.
   */
  ended: SlotSentence | null;
  /** How many words the sentence says beyond its slot clauses ("... and opened a bakery"). */
  rest: number;
  /**
   * Where what the sentence says after its last slot clause stands, [start, end), when it is a statement
   * of its own joined by "and", "but" or ";" ("I live in Porto and my dentist is Carla Silva."): a Memory
   * of its own that does not restate the home, so a move does not leave the old home in a current one.
   */
  after: [number, number] | null;
}

/** What an ended clause says after its negation: "live in Lisbon", "working as a nurse at Santa Maria". */
const endedVerbs: ReadonlyArray<{ predicate: SlotSentence['predicate']; verb: string }> = [
  { predicate: 'lives in', verb: String.raw`(?:(?:live|living)\s+in|based\s+(?:in|out\s+of))\s+${name}` },
  {
    predicate: 'works at',
    verb: String.raw`(?:work|working)(?:\s+as\s+(?:a|an)\s+${roleWords})?\s+(?:at|for)\s+${name}`,
  },
];
/**
 * A job the speaker says they left, with no negation: "I quit my job at Acme", "I left my position as a
 * nurse at Santa Maria", "I stopped working for Globex", "I was laid off from Initech", "I resigned (or
 * retired) from Acme", and as a chat opens a sentence without its "I", "Lost my job at Google", "Got laid
 * off from Meta". Not "I left Acme" alone: one leaves Lisbon or a party in the same words.
 */
const leftJob = String.raw`(?:I(?:['’]ve|\s+have)?\s+|^\s*)${adverb}(?:(?:quit|left|lost)\s+my\s+(?:job|position|role)(?:\s+as\s+(?:a|an)\s+${roleWords})?\s+(?:at|with)|(?:quit|left|stopped)\s+working\s+(?:at|for)|(?:resigned|retired)\s+from|(?:was|got|been)\s+(?:just\s+)?(?:laid\s+off|fired|let\s+go)\s+(?:from|by|at))\s+${name}`;
/**
 * A home the speaker says they left, with no negation: "I moved out of Porto", "I've moved away from
 * Lisbon", "Moved out of Berlin last year". Not "I left Porto" alone: one leaves a city for a weekend
 * in the same words. Nor where it goes on to say where to ("… out of Porto to Lisbon"): that is a move,
 * whose new home ends the old one.
 */
const leftHome = String.raw`(?:I(?:['’]ve|\s+have)?\s+|^\s*)${adverb}moved\s+(?:out\s+of|away\s+from)\s+${name}`;
/** A job left by its last day, once that day has come: "Today was my last day at Google". */
const lastDay = String.raw`(?:^|(?<=[\s,;:(]))(?:today\s+(?:was|is)|yesterday\s+was|(?:it|that)\s+was)\s+my\s+last\s+day\s+(?:at|with)\s+${name}`;
/** "I no longer …", "I'm no longer …": the negation says the value ended, with no "anymore" needed. */
const noLonger = String.raw`I(?:\s+am|['’]m)?\s+no\s+longer\s+`;
/** "I don't …", "I'm not …": ended only with "anymore", "any more" or "any longer" after the value. */
const notNowLead = String.raw`I(?:\s+(?:don['’]t|do\s+not|am\s+not)|['’]m\s+not)\s+`;
const anymore = /^(?:\s+(?:any\s?more|any\s+longer))(?![\p{L}\p{N}])/iu;
const endedPatterns = [
  ...endedVerbs.flatMap(({ predicate, verb }) =>
    [
      { lead: noLonger, needsAnymore: false },
      { lead: notNowLead, needsAnymore: true },
    ].map(({ lead, needsAnymore }) => ({
      predicate,
      needsAnymore,
      re: new RegExp(String.raw`(?:^|(?<=[\s,;:(]))${lead}${verb}`, 'u'),
    })),
  ),
  {
    predicate: 'works at' as const,
    needsAnymore: false,
    re: new RegExp(String.raw`(?:^|(?<=[\s,;:(]))(?:${leftJob})`, 'u'),
  },
  { predicate: 'works at' as const, needsAnymore: false, re: new RegExp(lastDay, 'u') },
  {
    predicate: 'lives in' as const,
    needsAnymore: false,
    re: new RegExp(String.raw`(?:^|(?<=[\s,;:(]))(?:${leftHome})`, 'u'),
    saysNoWhereTo: true,
  },
];
/** "… to Lisbon" after the place moved out of, in the same sentence: where the move went. */
const toWhere = /^[^.!?;]*?\sto\s+\p{Lu}/u;

/**
 * The home or employer a sentence says the speaker no longer has, with the clause that says so ("I
 * don't live in Lisbon anymore"), or null. As narrow as a slot: the first person, a capitalised name,
 * nothing else negated, hypothetical, reported, quoted or asked in the sentence ("If I no longer work at
 * Acme …", "Mum thinks I don't live in Lisbon anymore", "Do I no longer work at Acme?"), and no stay or
 * date after it.
 */
function endedClause(said: string): SlotSentence | null {
  // A chat leaves the "I" out of a job it left ("Lost my job at Google yesterday", "Got laid off from
  // Meta"): its first word is read in lower case, as the patterns spell it ("I" aside), in place.
  const sentence = said.replace(
    /^([^\p{L}]*)(?!I(?:m|ve)?(?![\p{L}\p{N}]))(\p{Lu})/u,
    (_, lead: string, c: string) => lead + c.toLowerCase(),
  );
  for (const { predicate, needsAnymore, re, ...more } of endedPatterns) {
    const m = re.exec(sentence);
    if (!m) continue;
    const { value, valueEnd, end: clauseEnd } = clauseValue(sentence, predicate, m, m.index);
    if ('saysNoWhereTo' in more && toWhere.test(sentence.slice(valueEnd))) continue;
    const after = anymore.exec(sentence.slice(clauseEnd));
    if (needsAnymore && !after) continue;
    const end = clauseEnd + (after?.[0].length ?? 0);
    const rest = sentence.slice(0, m.index) + ' ' + sentence.slice(end);
    if (notNow.test(rest) || askedUnmarked(sentence)) continue;
    // An ending dated "since 2019" is history too: when it ended is not now.
    const told = sentence.slice(valueEnd);
    if (notLasting.test(told) || sinceYear.test(told) || notName(value)) continue;
    if (predicate === 'lives in' && notAPlace(sentence, value, valueEnd, false, undefined)) continue;
    return { predicate, value, clause: [m.index, end] };
  }
  return null;
}

/**
 * `ongoing`: said as lasting until now ("I've been living in Porto for two years"), which no stay or
 * date after it makes history.
 */
type Found = SlotSentence & { valueEnd: number; ongoing: boolean; moved?: boolean };

/**
 * Where one is working for now, not employed: "I'm working at Starbucks today", "working at Costa this
 * afternoon" (a café as a desk). A start on the day is a job ("I started at Globex today").
 */
const forNowAt = /^\s*(?:today|tonight|this\s+(?:morning|afternoon|evening))(?![\p{L}\p{N}])/iu;

const storyOfMoves = /(?<![\p{L}\p{N}])(?:moved|relocated|lived|grew\s+up)(?![\p{L}\p{N}])/iu;
const nothingAfter = /^[\s.!]*(?:\p{Extended_Pictographic}(?:\u{FE0F})?[\s.!]*)*$/u;

/**
 * The slot a clause matched by `m` (found at `at` in the sentence, the clause starting at `start`)
 * holds, or null when its value is no place or no name.
 */
function readClause(
  sentence: string,
  predicate: SlotSentence['predicate'],
  m: RegExpExecArray | RegExpMatchArray,
  at: number,
  start: number,
): Found | null {
  const { value, valueEnd, end } = clauseValue(sentence, predicate, m, at);
  // "..., and now I'm in Denver": only as the end of a story of moves told before it, and with nothing
  // after the place ("I was in Paris and now I'm in Berlin", "Now I'm in Berlin, visiting friends").
  if (
    m.groups!['nowIn'] !== undefined &&
    (!storyOfMoves.test(sentence.slice(0, start)) || !nothingAfter.test(sentence.slice(end)))
  )
    return null;
  // "We moved to Slack": a home is a place, and a tool is none (not-a-place.ts).
  const moved = m.groups!['moved'] !== undefined;
  const from = m.groups!['from'];
  if (predicate === 'lives in' && notAPlace(sentence, value, valueEnd, moved, from)) return null;
  // "I started at NYU this fall": a start at a school is a student's, not a job.
  // "Tomorrow is my first day at Harvard" too.
  if (
    predicate === 'works at' &&
    /(?:[Ss]tart(?:ed|ing)?|[Ff]irst\s+day)\s+(?:at|for)\s/u.test(m[0]) &&
    schoolNamed(value)
  )
    return null;
  // "Today is my first day at Web Summit!": a conference's, or a visit's.
  if (predicate === 'works at' && /[Ff]irst\s+day\s/u.test(m[0]) && eventOrPlace(value)) return null;
  // "I've lived in Berlin for 10 years", "… since 2015": until now; "I've lived in Paris": history.
  const perfectFor =
    m.groups!['perfect'] !== undefined &&
    (/^(?:\s*,)?\s+since\s/iu.test(sentence.slice(end)) || notLasting.test(ownWords(sentence.slice(end))));
  if (m.groups!['perfect'] !== undefined && !perfectFor) return null;
  const ongoing = m.groups!['been'] !== undefined || perfectFor;
  if (/(?<![\p{L}\p{N}])working\s/u.test(m[0]) && !ongoing && forNowAt.test(sentence.slice(end))) return null;
  if (notName(value)) return null;
  // A number beside a home's name is a street's house ("Vlaška 17"), not a stage ("We moved into Phase 2").
  if (predicate === 'lives in' && /\d/u.test(value) && !streetAddressShaped(value)) return null;
  const own = m.groups!['leaving'] !== undefined ? { own: true as const } : {};
  // "I live at Vlaška 17 in Zagreb": the address in its city, one home (street-address.ts).
  const city =
    predicate === 'lives in' && /\d/u.test(value) ? cityAfterAddress(sentence.slice(valueEnd)) : null;
  if (m.groups!['toStreet'] !== undefined && city === null) return null;
  if (city === null) return { predicate, value, clause: [start, end], valueEnd, ongoing, moved, ...own };
  const home = homeValue({ street: value, city: city.city });
  const through = Math.max(end, valueEnd + city.length);
  return {
    predicate,
    value: home,
    clause: [start, through],
    valueEnd: valueEnd + city.length,
    ongoing,
    moved,
    ...own,
  };
}

/**
 * Whether a first day at a job is the whole sentence, a closing mark or an emoji aside ("First day at
 * Infobip!", "My first day at Span 🎉", "First day at Rimac done!"): said on that day. Not with more after it ("My
 * first day at Span was in 2019").
 */
function firstDayAlone(sentence: string, start: number, end: number): boolean {
  return (
    /^(?:[Mm]y\s+)?[Ff]irst\s+day\s/u.test(sentence.slice(start)) &&
    sentence.slice(0, start).trim() === '' &&
    firstDayOver.test(sentence.slice(end))
  );
}
/** After a first day, what says it was that day's: a mark or an emoji, or that it is done ("… done!", "… survived"). */
const firstDayOver =
  /^(?:\s+(?:is\s+|was\s+)?(?:done|over|survived|complete|completed|finished|(?:in\s+the\s+)?books)(?![\p{L}\p{N}]))?[\s.!…\p{Extended_Pictographic}\u{FE0F}\u{200D}]*$/u;

/**
 * Words of a name that make it an event's or a place one visits, not an employer's: "Web Summit",
 * "Lake Bled", "Disneyland", "Sziget Festival", and the festivals best known by their name alone
 * ("Coachella"). A first day at any other name starts the job, whatever was held: a festival's first
 * day must not block the real one ("I work at Span." then "First day at Infobip!" moves the job).
 */
const eventOrPlaceWord =
  /^(?:coachella|glastonbury|lollapalooza|primavera|burning|summit|conference|conf|con|expo|fair|festival|fest|week|weekend|camp|bootcamp|hackathon|meetup|forum|congress|symposium|convention|show|games|cup|olympics|marathon|race|tour|lake|mount|mt|beach|park|island|islands|bay|falls|valley|resort|museum|zoo|world|disney|holiday|vacation|trip|retreat|spa)$/iu;
const eventOrPlace = (name: string): boolean =>
  name.split(/\s+/u).some((w) => eventOrPlaceWord.test(w)) || /land$/iu.test(name);

/**
 * A value said to come (comingPatterns), with its day said right after it or opening the sentence: the
 * clause reaches over the day ("I'm starting at Revolut on Monday"). Null without a day.
 */
function comingClause(
  sentence: string,
  predicate: SlotSentence['predicate'],
  m: RegExpExecArray | RegExpMatchArray,
  at: number,
  start: number,
): Found | null {
  const found = readClause(sentence, predicate, m, at, start);
  if (found === null) return null;
  // "Today is my first day at Coachella!", "First day at Web Summit!": an event's or a place's.
  if (/[Ff]irst\s+day/u.test(m[0]) && eventOrPlace(found.value)) return null;
  // "I'll be working at Starbucks tomorrow" is a desk for a day; "… from the 1st", "… next month" a job.
  const aDay = (when: string) => !/^(?:from|next\s+(?:week|month|year)|in\s)/iu.test(when);
  // After the clause, or after the value where the clause took the day for where in the place ("to
  // Porto in March").
  // "I'm starting at Sonae as a senior data engineer on January 11": the role before the day.
  const roleFirst = predicate === 'works at' ? roleBeforeDay.exec(sentence.slice(found.clause[1])) : null;
  const afterRole = roleFirst === null ? [] : [found.clause[1] + roleFirst[0].length];
  for (const from of [found.clause[1], found.valueEnd, ...afterRole]) {
    const after = whenAfter.exec(sentence.slice(from));
    if (after !== null) {
      if (m.groups!['working'] !== undefined && aDay(after.groups!['when']!)) return null;
      const end = Math.max(found.clause[1], from + after[0].length);
      // "I start at Sonae on 11 January as a senior data engineer": the role after the day is the job's.
      const more = predicate === 'works at' && roleFirst === null ? role.exec(sentence.slice(end)) : null;
      return { ...found, clause: [start, end + (more?.[0].length ?? 0)], when: after.groups!['when']! };
    }
  }
  const before = whenBefore.exec(sentence.slice(0, start));
  // "First day at Infobip!": the day's own news, said alone, is today.
  if (before === null && firstDayAlone(sentence, start, found.clause[1])) {
    return { ...found, when: 'today' };
  }
  if (before === null || (m.groups!['working'] !== undefined && aDay(before.groups!['when']!))) return null;
  return { ...found, clause: [sentence.search(/\S/u), found.clause[1]], when: before.groups!['when']! };
}

/**
 * The value a clause matched by `m` (at `at`) names, a closing mark aside, where it ends, and where the
 * clause ends: the role is part of the job ("I work at Zalando as a data engineer") and where in the
 * place part of the home ("I live in Berlin, near the canal"): one clause, so the sentence says nothing
 * beyond its slots, and no current Memory keeps the old job or home once it changes.
 */
function clauseValue(
  sentence: string,
  predicate: SlotSentence['predicate'],
  m: RegExpExecArray | RegExpMatchArray,
  at: number,
): { value: string; valueEnd: number; end: number } {
  const named = m.groups!['value']!;
  const value = named.replace(/(?<![.’'])[.’']+$/u, '');
  const valueEnd = at + m[0].length - (named.length - value.length);
  const more = predicate === 'works at' ? role : placeDetail;
  // "I got the Rimac job as a data analyst": the job's word after the name is the clause's too.
  const job = m.groups!['jobAfter'] !== undefined ? jobWordAfter.exec(sentence.slice(valueEnd)) : null;
  const from = valueEnd + (job?.[0].length ?? 0);
  return { value, valueEnd, end: from + (more.exec(sentence.slice(from))?.[0].length ?? 0) };
}

/**
 * Lower-case words after a slot's verb that open no name in a chat written all in lower case: what
 * "i work for myself" or "i moved to a new flat" say, a common noun one works at or lives in ("i work
 * at school"), the times of "I work at night", an idiom's word ("a designer at heart") and how one
 * settled in ("i settled in quickly"). A name never
 * opens with one of them ("new york city" ends with one).
 */
const notALowerName = new Set(
  `a an the my our your his her their its this that these those some one any another every no
   quickly nicely slowly easily fine well ok okay alright great good fast together right
   me myself you yourself him himself her herself us ourselves them themselves it there here
   night nights day days dawn dusk noon midnight lunch weekends weekend times moment
   home work school uni university college church hospital office bank restaurant cafe store shop
   factory hotel bar gym startup company place job town city country countryside suburbs village
   apt apartment flat unit room building house dorm
   free fun money food hire cash tips peanuts minimum living heart mind best worst large scale risk ease least
   shape therapy rehab treatment business action style fashion love trouble debt touch charge control
   most first last all once will fault random
   making doing being getting having trying helping keeping taking giving playing watching eating
   sleeping living working thinking feeling looking saving selling fixing changing creating finding
   solving teaching learning winning losing pretending staying surviving procrastinating`.split(/\s+/u),
);
/**
 * What one lives in that is no place but a state of mind or of life ("i live in fear", "i live in
 * constant fear", "we live in perpetual anxiety"): no word of a name is one. English gives most such
 * words a form of their own, an abstract noun's or an adjective's ending ("anxiety", "isolation",
 * "loneliness", "contentment", "denialism", "anxious", "hopeful", "hopeless"), which no place's name
 * has (abstractForm); the rest, short old words, are listed. A home read from "i live in constant fear"
 * replaced the true one.
 */
const states = new Set(
  `fear hope peace denial sin luxury poverty comfort harmony misery squalor dread terror shame bliss
   pain hell paradise silence seclusion style sync debt hiding exile limbo love hate guilt panic chaos
   doubt grief sorrow worry awe wonder despair agony ignorance innocence dreams fantasy
   past present future`.split(/\s+/u),
);
/**
 * The endings English gives abstract nouns and adjectives, on a word of six letters or more: "-ness"
 * (not after "r", "h", "g" or "e": Inverness, Caithness, Skegness, Dungeness), "-ity", "-ety",
 * "-ment", "-tion", "-sion", "-ism", "-ous", "-ful", "-less".
 */
const abstractForm = /^(?=\p{Ll}{6})\p{Ll}+(?:(?<![rhge])ness|ity|ety|ment|tion|sion|ism|ous|ful|less)$/u;
const isState = (w: string) => states.has(w) || abstractForm.test(w);
/** The job's word after its employer's name: " job" of "I got the Rimac job". */
const jobWordAfter = /^\s+(?:job|position|role|offer)(?![\p{L}\p{N}])/u;

/**
 * Words that end a lower-case name: "i live in porto now", "i work at sonae with my sister", a chat's
 * "i live in london rn"; and a verb after the place ("the city i live in is porto", "the company i work
 * for just got acquired", "my new job at google starts monday"), which none opens.
 */
const endsALowerName = new Set(
  `now too also again already still anymore any longer lol haha tbh btw and but or with for since near
   by in on at to of
   from as so because though while when where which who that this these days last next ago after before until till
   rn atm tho ngl idk imo lmao omg w during like basically mostly part full
   is isn't was wasn't are were has had have just got gets closes opens sucks pays starts begins
   today tonight tomorrow monday tuesday wednesday thursday friday saturday sunday
   job position role offer`.split(/\s+/u),
);
/**
 * Where a home or an employer follows in a chat: "live in ", "moved from ", "based out of ", "work at ";
 * "Moved to " too, a move that opens the sentence with its "I" left out (its first letter a capital);
 * a job taken or held ("hired by ", "position with ", "nurse at ", "joined … as "); where one is from
 * ("im from "), whose next clause may hold the home ("im from porto but live in braga"); a home returned
 * to for good ("back in … for good").
 */
const lowerTrigger = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?:live|living|[Mm]oved|[Rr]elocated|[Mm]oving|[Rr]elocating|move|based|work|working|job|[Ss]tarting|start|[Ss]tarted|first\s+day|settled|place|flat|apartment|house|offer)(?:\s+back)?\s+(?:in|to|at|for|from|out\s+of)|(?:job|position|role|hired)\s+(?:with|by|at)|${occupations}\s+(?:at|for)|I(?:['’]?m|\sam)\s(?:originally\s)?from|[Jj]oined(?=\s+\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,2}\s+as\s)|[Bb]ack\s+in(?=\s+\S+(?:\s+\S+){0,2}\s+for\s+good(?:\s+now|\s+this\s+time)?(?![\p{L}\p{N}])(?!\s*[\p{L}\p{N}]))|(?:live|living)${withWhom}\s+in)\s+`,
  'gu',
);
/**
 * "I GOT THE RIMAC JOB!": the employer before the job's word, read as a name only in a sentence shouted
 * (unshouted), whose capitals were there; "i got the teaching job" names no employer. Not the words
 * that say which job ("the new job", "the summer job").
 */
const shoutedJobBefore =
  /(?<![\p{L}\p{N}])(?:got|landed|accepted|took)\s+the\s+(?!(?:new|old|first|last|next|other|same|big|dream|perfect|summer|part-time|full-time|temp|remote)\s)(?=\p{Ll}[\p{Ll}\p{M}'’-]*(?:\s+\p{Ll}[\p{Ll}\p{M}'’-]*)?\s+(?:job|position|role|offer)(?![\p{L}\p{N}]))/gu;

/** Words after "de", "do" … that are no name's: "de facto", "de novo", "do you". */
const notAfterParticle = new Set(
  'facto novo vez nada todo toda you u it the a i they we he she people even not so that this'.split(' '),
);

/** "porto" as "Porto", in place: a first letter whose capital is two letters ("ß") is kept as it is. */
const upperFirst = (w: string) => {
  const up = w[0]!.toUpperCase();
  return up.length === 1 ? up + w.slice(1) : w;
};
/** Up to three lower-case words, after a saint's or a mountain's "st." or "mt." ("st. louis"). */
const lowerWords = new RegExp(
  String.raw`(?:(?:st|mt|ft)\.\s*)?\p{Ll}[\p{Ll}\p{M}'’-]*(?:\s+(?:${particle}\s+(?=\p{Ll}))?\p{Ll}[\p{Ll}\p{M}'’-]*){0,2}`,
  'uy',
);
const toAt = /\s+to\s+/uy;

/**
 * The name at `from` in a lower-case chat, cased ("porto" as "Porto", "new york city" as "New York
 * City"), with where it ends; null where the words there are no name (notALowerName).
 */
function lowerName(text: string, from: number): { named: string; end: number } | null {
  lowerWords.lastIndex = from;
  const found = lowerWords.exec(text);
  if (!found) return null;
  const ws = found[0].split(/\s+/u);
  const stop = ws.findIndex((w) => endsALowerName.has(w));
  const kept = stop < 0 ? ws : ws.slice(0, stop);
  // A name's small word is inside it, never its end ("vila nova de" cut short is "Vila Nova"), and
  // only before a word of the name: "porto do you know it", "google de facto", "lisbon de novo" end
  // before it.
  const small = kept.findIndex(
    (w, i) => i > 0 && nameParticles.includes(w) && notAfterParticle.has(kept[i + 1]!),
  );
  if (small > 0) kept.splice(small);
  while (kept.length > 1 && nameParticles.includes(kept.at(-1)!)) kept.pop();
  if (kept.length === 0 || notALowerName.has(kept[0]!) || kept.some(isState)) return null;
  const span = found[0]
    .split(/(?<=\s)(?=\S)/u)
    .slice(0, kept.length)
    .join('')
    .trimEnd();
  const named = span.replace(/\S+/gu, (w: string, at: number) =>
    at > 0 && nameParticles.includes(w) ? w : upperFirst(w),
  );
  return { named, end: from + span.length };
}

/**
 * Whether a sentence is a chat's, written without capitals: none at all ("i live in porto"), or only
 * the pronoun "I" and the sentence's first letter, as a phone's keyboard capitalises them on its own
 * ("I live in porto", "Just moved to braga"), or a pronoun "i" anywhere. Any other capital ("I live in
 * porto, Portugal", "I work at IBM") means the sentence capitalises its names, and a lower-case word in
 * it is no name.
 */
function writtenUncased(sentence: string): boolean {
  // One who writes "i" and "im" leaves names uncased too, whatever else they capitalise ("i live in
  // porto, work at Acme Corp").
  if (/(?<![\p{L}\p{N}'’])i(?:m|ve)?(?![\p{L}\p{N}'’])/u.test(sentence)) return true;
  const rest = sentence.replace(/(?<![\p{L}\p{N}])I(?![\p{L}\p{N}])/gu, '').replace(/^[^\p{L}]*\p{Lu}/u, '');
  return !/\p{Lu}/u.test(rest);
}

/**
 * A sentence shouted ("GOT THE JOB AT REVOLUT!!!") or in Title Case ("Got The Job At Revolut") read in
 * lower case, as a chat without capitals is (chatCased): its capitals say nothing of which words are
 * names. Only where every word that opens with a letter is so (three words at least, and in Title Case
 * a small word capitalised past the first: "Ana Silva Lives In Porto" is not a list of names), and
 * where lower case keeps every character where it was.
 */
function unshouted(sentence: string): string {
  // Most sentences have fewer than three capitals: nothing to read again.
  let capitals = 0;
  for (const m = /\p{Lu}/gu; capitals < 3 && m.test(sentence);) capitals += 1;
  if (capitals < 3) return sentence;
  const ws = sentence.match(/\p{L}[\p{L}\p{M}'’]*/gu) ?? [];
  if (ws.length < 3) return sentence;
  const shouted = ws.every((w) => w === w.toUpperCase()) && ws.some((w) => w.length > 1);
  const titled =
    ws.every((w) => /^\p{Lu}/u.test(w) && w.slice(1) === w.slice(1).toLowerCase()) &&
    ws.slice(1).some((w) => smallWords.has(w.toLowerCase()));
  if (!shouted && !titled) return sentence;
  const lower = sentence.toLowerCase();
  return lower.length === sentence.length ? lower : sentence;
}
const smallWords = new Set(['at', 'in', 'to', 'the', 'for', 'of', 'on', 'and', 'a', 'my', 'from', 'with']);

/**
 * A chat written without capitals (writtenUncased: "i live in porto", "I live in porto"), read as if
 * cased: its "i" as "I", and up to three words after a slot's verb as a name, unless they are no name
 * (notALowerName, states: "I live in fear", "i live in constant fear" stay no home); after "moved from lisbon", the name after its "to"
 * too. Every character stays where it was, so a clause found in it is the same clause of the sentence.
 * A sentence with another capital letter is read as written.
 */
function chatCased(sentence: string, shouted = false): string {
  if (!writtenUncased(sentence)) return sentence;
  // "im" and "ive" too, as a chat spells "I'm" and "I've" ("im living in porto").
  const text = sentence.replace(/(?<![\p{L}\p{N}'’])i(?=(?:m|ve)?(?![\p{L}\p{N}]))/gu, 'I');
  // Each name once, in order: the sentence is put together once, however many it names.
  const names: { at: number; named: string; end: number }[] = [];
  const take = (at: number) => {
    const name = at >= (names.at(-1)?.end ?? 0) ? lowerName(text, at) : null;
    if (name) names.push({ at, ...name });
    return name;
  };
  const triggers = [...matchesOf(lowerTrigger, text)];
  if (shouted) triggers.push(...matchesOf(shoutedJobBefore, text));
  triggers.sort((a, b) => a.index - b.index);
  for (const m of triggers) {
    const name = take(m.index + m[0].length);
    // "moved from lisbon to porto": the home is the name after "to".
    if (!name || !/from\s+$/u.test(m[0])) continue;
    toAt.lastIndex = name.end;
    const to = toAt.exec(text);
    if (to) take(name.end + to[0].length);
  }
  let cased = '';
  let from = 0;
  for (const n of names) {
    cased += text.slice(from, n.at) + n.named;
    from = n.end;
  }
  return cased + text.slice(from);
}

/** The text with [start, end) turned to spaces: what is read as not there keeps every other position. */
const blank = (text: string, start: number, end: number) =>
  text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);

/** The denial at the end, from its "not": "not Porto.", "not in New Jersey!". */
const deniedAfter = new RegExp(String.raw`^not\s+(?:in\s+|at\s+|for\s+)?${capitalised}[!\s]*$`, 'u');
const deniedBefore = new RegExp(
  String.raw`^(?:(?:[Nn]o|[Nn]ope|[Aa]ctually|[Ss]orry|[Oo]h)[,!]?\s+)*I\s+(?:don['’]t|do\s+not)\s+(?:live\s+in|work\s+(?:at|for))\s+${capitalised}\s*[,;:]\s*(?=I\s)`,
  'u',
);
/** How far from the sentence's end (or start) a denial is looked for: a denied name is four words at most. */
const denialReach = 160;
/**
 * A correction's denial beside the value it gives: "I live in Braga, not Porto", "I work at Globex, not
 * Acme", "I don't live in Porto, I live in Braga". Its "not" would hold the clause back, and the value
 * given is what the sentence says: read without the denial, the clause holds its slot and replaces the
 * denied value where that held it. Only these shapes: the denied value a name alone, at the sentence's
 * end or in a clause of its own before the one that corrects it ("I don't live in Porto" alone says no
 * home; in "I live in Braga, not far from Porto" the "not" is a later clause's, heldBack).
 */
function withoutDenial(sentence: string): string {
  let read = sentence;
  // After a comma, "and" or a space: ", not Porto", " and not in Porto".
  const at = read.lastIndexOf('not');
  if (
    at > 0 &&
    at >= read.length - denialReach &&
    /\s/u.test(read[at - 1]!) &&
    deniedAfter.test(read.slice(at))
  ) {
    const head = read.slice(0, at).trimEnd();
    const from = head.endsWith(',') ? head.length - 1 : / and$/u.test(head) ? head.length - 4 : head.length;
    read = blank(read, from, read.length);
  }
  const before = deniedBefore.exec(read.slice(0, denialReach));
  if (before) read = blank(read, 0, before[0].length);
  return read;
}

/** A noun's words before a clause that qualifies it: "the city ", "I love the small town ". */
const nounBefore =
  /(?:^|[^\p{L}\p{N}'’])(?:(?<word>\p{L}+)\s+)?(?:the|a|an|this|that|every|each|my|our|his|her|their)\s+(?:[\p{L}\p{M}'’-]+\s+)?(?<noun>[\p{L}\p{M}'’-]+)\s+$/iu;
/** What opens a time or a place before a clause, not a noun it qualifies: "In the summer I live in …". */
const notQualified = new Set(
  `in on at since after before during for with from by until till over throughout across into within
   around about is was are were and or but nor so then because
   year years month months week weeks weekend weekends summer winter spring fall autumn time times
   moment day days morning mornings evening evenings night nights semester term season`.split(/\s+/u),
);
/**
 * Whether a slot's clause, after `before`, qualifies a noun ("the city I live in is lovely", "I love the
 * neighbourhood we live in", "the guy i work for is a jerk"): what it names is that noun, and a word
 * after its verb is none ("Is Lovely" in a chat read as cased). Not after a preposition or a time: "In
 * the summer I live in Porto", "This year I work at Sonae".
 */
function qualifiesANoun(before: string): boolean {
  const m = nounBefore.exec(before);
  if (!m) return false;
  const { word, noun } = m.groups!;
  return (
    !notQualified.has(noun!.toLowerCase()) && !(word !== undefined && notQualified.has(word.toLowerCase()))
  );
}

/** The clause patterns with what reads a match of each (readClause, comingClause), built once. */
const nowReaders = patterns.map((p) => ({ ...p, clause: readClause }));
const allReaders = [...nowReaders, ...comingPatterns.map((p) => ({ ...p, clause: comingClause }))];

/**
 * The slots a sentence states for its speaker, at most one per predicate (the last, when it states one
 * twice: "I moved to Porto in 2019 and now I live in Braga"), and what the sentence says beyond them.
 */
export function slotSentences(said: string): SlotReading {
  // A chat all in lower case is read as if cased, every character where it was ("i live in porto").
  const calm = unshouted(said);
  const text = chatCased(withoutOwnLeadIn(calm), calm !== said);
  // An ended clause is read on its own; the rest of the sentence is read as if it were not there (its
  // negation would hold every other clause back), its letters kept in place for the clauses' positions.
  const ended = endedClause(text);
  const sentence = withoutDenial(ended ? blank(text, ended.clause[0], ended.clause[1]) : text);
  const none = { slots: [], ended, rest: ended ? words(sentence) : 0, after: null };
  if (
    notNowAnywhere.test(sentence) ||
    askedUnmarked(sentence) ||
    afterOthersColon(sentence) ||
    saysWhoElse(sentence)
  )
    return none;
  const clauses: Found[] = [];
  // Each pattern's last clause: values held now, then values said to come where a word says one may be.
  const read = comingWords.test(sentence) ? allReaders : nowReaders;
  for (const { predicate, re, clause } of read) {
    let last: Found | null = null;
    for (const m of matchesOf(re, sentence)) {
      // From the lead's "I" or "we" (after the separator the pattern takes) to the end of the value.
      const start = m.index + m[0].search(/\p{L}/u);
      if (qualifiesANoun(sentence.slice(0, start))) continue;
      last = clause(sentence, predicate, m, m.index, start) ?? last;
    }
    // A home by its place and one by its street address are one slot: an address said alone is in the
    // city said beside it ("I live in Zagreb, at Vlaška 17"), else the later clause is the one said.
    const other =
      last?.predicate === 'lives in' && last.when === undefined
        ? clauses.findIndex((c) => c.predicate === predicate && c.when === undefined)
        : -1;
    if (last && other >= 0) {
      const [a, b] = [clauses[other]!, last].sort((x, y) => x.clause[0] - y.clause[0]) as [Found, Found];
      const home = oneHomeOf(a.value, b.value);
      if (home !== null) {
        const clause: [number, number] = [a.clause[0], Math.max(a.clause[1], b.clause[1])];
        clauses[other] = { ...b, value: home, clause, valueEnd: Math.max(a.valueEnd, b.valueEnd) };
      } else if (a === clauses[other]) clauses[other] = last;
    } else if (last) clauses.push(last);
  }
  // "New job at Google starts next week": one job said to come, not also the job held now inside it.
  const inComing = (c: Found) =>
    c.when === undefined &&
    clauses.some(
      (o) =>
        o.when !== undefined &&
        o.predicate === c.predicate &&
        o.clause[0] <= c.clause[0] &&
        c.clause[1] <= o.clause[1],
    );
  clauses.splice(0, clauses.length, ...clauses.filter((c) => !inComing(c)));
  // "I live in Porto and work at Sonae": the job is the speaker's as much as in "... and I work at".
  // "I'm from Lisbon but live in Porto": where one is from opens such a clause as a slot's does.
  const bornIn = origin.exec(sentence);
  // A value said to come opens no such clause: "I'm moving to Berlin next month and work at …" is muddled.
  const firsts = clauses.filter((c) => c.when === undefined).map((c) => c.clause);
  if (bornIn) firsts.push([bornIn.index, bornIn.index + bornIn[0].length]);
  for (const [start, end] of firsts) {
    if (!/^Im?(?!\p{L})/u.test(sentence.slice(start))) continue;
    for (const { predicate, re } of coordinated) {
      if (clauses.some((f) => f.predicate === predicate)) continue;
      const m = re.exec(sentence.slice(end));
      if (m) {
        const c = readClause(sentence, predicate, m, end, end + andJoin.exec(m[0])![0].length);
        if (c) clauses.push(c);
      }
    }
  }
  // What follows a value up to the next clause, the role or place too, may make it a stay that ends
  // ("for a week"); a later clause's "for a year" is that clause's.
  const found: SlotSentence[] = clauses.flatMap((c) => {
    const next = Math.min(...clauses.map((o) => o.clause[0]).filter((at) => at > c.clause[0]));
    const after = sentence.slice(c.valueEnd, Number.isFinite(next) ? next : undefined);
    if (heldBack(sentence, c.valueEnd)) return [];
    // A move told with how long ago it was holds since then, unless a later move follows it ("... 3
    // years ago and then to Lisbon", "... but moved back"): then it is history.
    const sinceAgo = c.moved === true && !movedOnSince.test(sentence.slice(c.valueEnd));
    if (!c.ongoing && (sinceAgo ? notLastingMove : notLasting).test(ownWords(after))) return [];
    const ago = sinceAgo && c.when === undefined ? movedAgo.exec(ownWords(after)) : null;
    const starting =
      c.when === undefined && !c.ongoing ? startingAfter.exec(sentence.slice(c.clause[1])) : null;
    const when = c.when ?? ago?.[1] ?? starting?.groups!['when'];
    const clause: [number, number] = starting ? [c.clause[0], c.clause[1] + starting[0].length] : c.clause;
    const own = c.own ? { own: c.own } : {};
    return [{ predicate: c.predicate, value: c.value, clause, ...(when ? { when } : {}), ...own }];
  });
  let rest = sentence;
  for (const { clause } of [...found].sort((a, b) => b.clause[0] - a.clause[0]))
    rest = rest.slice(0, clause[0]) + ' ' + rest.slice(clause[1]);
  const lastEnd = Math.max(...found.map((f) => f.clause[1]));
  const joined = found.length > 0 ? afterClause.exec(sentence.slice(lastEnd)) : null;
  const from = joined ? lastEnd + joined[0].length : -1;
  const afterWords = joined ? words(sentence.slice(from)) : 0;
  // Only where the clauses and that statement are the whole sentence, but for the words joining them
  // ("and"): "Since last month I live in Porto and ..." keeps the sentence whole.
  const after: [number, number] | null =
    afterWords >= 3 && words(rest) - afterWords <= found.length && !leansBack.test(sentence.slice(from))
      ? [from, sentence.trimEnd().length]
      : null;
  // "I don't live in Lisbon anymore, I moved to Porto": the new home ends the old one.
  const still = ended && !found.some((f) => f.predicate === ended.predicate) ? ended : null;
  return { slots: found, ended: still, rest: words(rest), after };
}

/** Where a named person lives or works, said of them: "Ana lives in Madrid", "My sister Ana moved to Paris". */
export interface OtherSlotSentence extends SlotSentence {
  /** The person, as named: "Ana", "Tom Reyes". */
  who: string;
}

/**
 * Whose kin a sentence names: the speaker's ("My sister Ana", "our friend Tom"), or the user's, as an
 * agent's note says it ("User's sister Ana", "The user's boss Rita").
 */
export const kinOf = String.raw`(?:[Mm]y|[Oo]ur|(?:[Tt]he\s+)?[Uu]ser['’]s)`;
/** Family and friends named before a person's name: "My sister Ana", "our friend Tom". */
const kin = String.raw`${kinOf}\s+(?:(?:little|big|older|younger|best|old|elder)\s+)?(?:sister|brother|mum|mom|mother|dad|father|son|daughter|aunt|uncle|cousin|niece|nephew|grandma|grandmother|grandpa|grandfather|friend|colleague|neighbou?r|partner|wife|husband|girlfriend|boyfriend|fianc[ée]e?|boss|manager)`;
/** What a sentence opens with before the person that says nothing of them: "Btw, …", "Oh, …". */
export const otherLead = String.raw`^(?:(?:[Bb]tw|[Aa]lso|[Oo]h|[Ss]o|[Aa]nd|[Ff]yi|[Gg]uess what)[,!:]?\s+)*(?:${kin}\s+)?`;
/** A first name and a surname at most, a title with its dot before them: "Ana", "Tom Reyes", "Dr. Patel". */
export const person = String.raw`(?<who>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.\s+)?\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?)`;
const otherVerbs: ReadonlyArray<{ predicate: SlotSentence['predicate']; verb: string }> = [
  {
    predicate: 'lives in',
    verb: String.raw`(?:lives\s+in|is\s+(?:now\s+)?living\s+in|(?<moved>moved|relocated)(?:\s+back)?(?:\s+from\s+(?<from>${capitalised}))?\s+to)\s+${name}`,
  },
  // "Klara lives at Sporgasse 12": her home by its street address (street-address.ts).
  {
    predicate: 'lives in',
    verb: String.raw`(?:lives|is\s+(?:now\s+)?living)\s+at\s+(?<value>${streetAddress})`,
  },
  {
    predicate: 'works at',
    verb: String.raw`(?:(?:works|is\s+(?:now\s+)?working)(?:\s+as\s+(?:a|an)\s+${roleWords})?\s+(?:at|for)|is\s+(?:now\s+)?${atWork}\s+(?:at|for)|(?:(?:got|landed|started)\s+a\s+(?:new\s+)?|has\s+a\s+new\s+)job(?:\s+as\s+(?:a|an)\s+${roleWords})?\s+at|started\s+working\s+at|got\s+hired\s+(?:at|by))\s+${name}`,
  },
];
const otherPatterns = otherVerbs.map(({ predicate, verb }) => ({
  predicate,
  re: new RegExp(
    String.raw`${otherLead}${person}\s+(?:just\s+|recently\s+|finally\s+|now\s+|still\s+)?${verb}`,
    'u',
  ),
}));
/** Words that open a sentence as a name would and are none: pronouns, determiners, times. */
const notAPerson = new Set(
  `i we you he she they it this that these those there here then now today yesterday tomorrow everyone
   everybody someone somebody nobody no one who what where when why how which the a an my our your his
   her their its also so and but or if maybe apparently`
    .split(/\s+/u)
    // A sentence that drops its "I" opens with its adverb: "Just moved to Berlin!", "Still lives in Leeds".
    .concat(
      `just still really totally sometimes usually always never often finally recently lately
       definitely probably hopefully luckily sadly unfortunately fortunately obviously clearly currently
       already again even only kinda sorta absolutely certainly surely suddenly soon later eventually
       mostly almost nearly barely rarely occasionally generally typically normally supposedly somehow
       anyways besides meanwhile otherwise instead literally seriously actually basically honestly`.split(
        /\s+/u,
      ),
    ),
);

/** The last word of an organisation's name: "Acme Corp", "Globex Inc", "Porto City Council". */
const organisationLast = new Set(
  `corp corporation inc incorporated ltd llc plc gmbh co company group labs lab bank university college
   school hospital clinic airlines airways council ministry studio studios foundation institute agency
   partners holdings systems technologies software media capital ventures`.split(/\s+/u),
);

/** Months that are also given names: "May is a nurse", "June works at Acme". */
export const monthsAsNames = new Set(['april', 'may', 'june', 'august']);

/**
 * Whether a sentence's opening words, read as a person's name, are one ("Ana", not "Today", "May" or
 * "Acme Corp"). `personOnly`: what the sentence says next only a person does or is ("lives in", "works
 * at", "is a nurse"), so a month that is also a given name is that person ("May lives in Porto").
 */
export function namesAPerson(who: string, personOnly = false): boolean {
  const words = who.toLowerCase().split(/\s+/u);
  if (words.length > 1 && organisationLast.has(words.at(-1)!)) return false;
  if (notAPerson.has(words[0]!)) return false;
  return !notName(who) || (personOnly && monthsAsNames.has(words[0]!));
}

/**
 * Where a named person other than the speaker lives or works, said of them in a sentence that opens
 * with them: "Ana lives in Madrid", "My sister Ana moved to Paris", "Tom got a new job at Globex". Said
 * again with another value, the new one replaces the old, as the speaker's own home does. As narrow as
 * the speaker's own: a capitalised name of at most two words at the sentence's start, a capitalised
 * value, nothing hypothetical, reported, negated, asked, dated or temporary, and a home that is a place.
 */
export function otherPersonSlot(said: string): OtherSlotSentence | null {
  const sentence = said.trim();
  if (askedUnmarked(sentence)) return null;
  for (const { predicate, re } of otherPatterns) {
    const m = re.exec(sentence);
    if (!m) continue;
    const who = m.groups!['who']!;
    const at = m.index + m[0].indexOf(who);
    // "Hope lives in Lisbon": a name that is also a hedge ("hope", "said") holds nothing back; the
    // words around it still do.
    if (notNow.test(sentence.slice(0, at) + ' ' + sentence.slice(at + who.length))) return null;
    if (!namesAPerson(who, true)) return null;
    const c = readClause(sentence, predicate, m, 0, at);
    if (c === null) return null;
    const after = sentence.slice(c.valueEnd);
    // "Sam moved to York in 2023": his home since that year, as the speaker's own move would be.
    const since = c.moved === true && !movedOnSince.test(after) ? yearIn.exec(after) : null;
    if (since === null && notLasting.test(after)) return null;
    if (since !== null && notLasting.test(after.replace(since[0], ' '))) return null;
    // "Ana has a new job at Infobip, starting in January": hers from then, as the speaker's would be.
    const starting = since === null ? startingAfter.exec(sentence.slice(c.clause[1])) : null;
    const when = since?.[1] ?? starting?.groups!['when'];
    const clause: [number, number] = starting ? [c.clause[0], c.clause[1] + starting[0].length] : c.clause;
    return { who, predicate, value: c.value, clause, ...(when ? { when } : {}) };
  }
  return null;
}

/**
 * A value the speaker holds one of at a time, said of themselves in a sentence that says nothing else:
 * "My favourite colour is green.", "Actually my favourite colour is blue now.", "My phone number is +351
 * 912 345 679.", "My email is ana@example.com". Said again with another value, the new one replaces the
 * old, as a home does: before, both stayed current, and Context quoted the old colour first with no
 * conflict shown. Deliberately narrow: only these attributes (a favourite is one thing by its meaning; a
 * sister, a friend or a car can be several), only "is" (not "are", "was", "used to be"), only a sentence
 * that is the clause alone, with a filler word or two before it ("actually", "so", "btw"), "new" or
 * "current" before the attribute ("My new number is …": the very sentence that tells of a change), "has
 * changed to" for "is" ("My number changed to …") and a time word after it ("now", "these days"), and a value of at most six words with no comma, "and", "but", "or",
 * "also" or "too" in it ("My favourite band is Muse, they are amazing" keeps the sentence whole). A
 * correction's admission after the value (", I had a typo", "(typo)", ", sorry") says nothing more, so
 * "Sorry, my number is 555-0199, I had a typo" replaces the number said before. The same for a person
 * one has one of at a time, named ("My new manager is Rita Gomes" replaces "My manager is Tom Reyes"),
 * one's age said in years ("I'm 34 years old", then "I just turned 35"), a diet ("I'm vegan now") and
 * where one stands in love ("I got engaged!").
 */
export interface AttributeSentence {
  /**
   * As people read it, one spelling per attribute: "favourite colour", "phone number", "email address",
   * "manager", "age", "diet", "relationship status", "studies at".
   */
  predicate: string;
  value: string;
  /** The value is one the speaker says they have no more ("I'm not vegan anymore"): it ends it. */
  ends?: true;
  /**
   * The sentence says more than the value ("I'm married to Tom", "I'm vegan, so no cheese"): its Memory
   * is the sentence in its own words, holding the slot.
   */
  own?: true;
}

/** Words before an attribute that say nothing of it: "Actually, …", "Btw …". */
export const fillers = String.raw`(?:(?:actually|so|ok|okay|oh|oops|well|btw|also|and|update|correction|sorry|typo|fyi|just so you know)[,:!—–-]?\s+(?:[—–-]\s+)?|(?:I(?:['’]ve|\s+have)\s+)?decided\s*:\s+)*`;
/**
 * People one has one of at a time, by their role to the speaker: "My manager is Tom Reyes", "My new
 * boss is Rita Gomes", "My wife's name is Joana". Not a sister, a friend or a colleague: one has several.
 */
export const relationRoles: readonly string[] = [
  'line manager',
  'manager',
  'boss',
  'supervisor',
  'partner',
  'wife',
  'husband',
  'girlfriend',
  'boyfriend',
  'gf',
  'bf',
  'fiancée',
  'fiancé',
  'fiancee',
  'fiance',
  'landlord',
  'landlady',
  'family doctor',
  'doctor',
  'GP',
  'dentist',
  'therapist',
];
// The longer of two that begin alike first ("line manager", "fiancée"), as a regex tries them.
const relations = relationRoles.map((r) => r.replaceAll(' ', String.raw`\s+`)).join('|');
/**
 * A time word between an attribute and its "is" ("My favourite coffee now is a cortado", "my favorite
 * tea these days is sencha"): it says the value holds now, as after the value it does (`trailingTime`).
 * Read as a second word of the attribute, it would make a slot "favourite coffee now" of its own, which
 * would never replace the favourite coffee said before.
 */
const timeBeforeIs = String.raw`(?:now|nowadays|currently|these\s+days|right\s+now|at\s+the\s+moment)`;
const attributeLead = new RegExp(
  String.raw`^${fillers}(?:my|our(?=\s+(?:(?:new|current)\s+)?(?:(?:home|street|postal|mailing)\s+)?address\s+is\s))\s+(?:(?:new|current)\s+)?(favou?rite\s+[\p{L}-]+(?:\s+(?!has\s|${timeBeforeIs}(?![\p{L}\p{N}]))[\p{L}-]+)?|(?:(?:mobile|cell|cellphone|phone|telephone)\s+)?(?:phone\s+)?number|(?:mobile|cell|cellphone|phone)(?=\s+is\s+\+?[\d(])|e-?mail(?:\s+address)?|(?:(?:home|street|postal|mailing)\s+)?address(?=\s+is\s)|(?:birth\s?day|b-?day)(?=\s+is\s)|(?:(?:monthly|annual|yearly|net|gross|base)\s+)?(?:salary|pay)(?=\s+is\s)|(?:${relations})(?=(?:['’]s\s+name)?\s+(?:is|(?:has\s+)?changed\s+to)\s)(?:['’]s\s+name)?)(?:\s+${timeBeforeIs})?(?:\s+is(?:\s+(?:called|named)(?=\s))?|['’]s|(?:\s+has)?\s+changed\s+to|(?:\s+has)?\s+changed,\s+it(?:['’]?s|\s+is))\s+(?:now\s+)?`,
  'iu',
);
/** "My manager at Kobo Design is Haruki Sato": the relation, where it is, then the one who holds it. */
const relationAt = new RegExp(
  String.raw`^(${fillers}my\s+(?:(?:new|current)\s+)?(?:${relations}))\s+at\s+(?<place>[^\s,;:]+(?:\s+[^\s,;:]+){0,3}?)(?=\s+is\s)`,
  'iu',
);
/**
 * The sentence without the workplace named after a relation ("My manager at Kobo Design is Haruki
 * Sato" as "My manager is Haruki Sato"): one has one manager, wherever. Only a place written as a name
 * (capitalised words): "my partner at work is Tom" is no partner of hers to hold.
 */
function withoutWorkplace(s: string): string {
  const m = relationAt.exec(s);
  if (!m || !/^\p{Lu}[\p{L}\p{M}&.'’-]*(?:\s+\p{Lu}[\p{L}\p{M}&.'’-]*)*$/u.test(m.groups!['place']!))
    return s;
  return m[1]! + s.slice(m[0].length);
}
/**
 * A person's name as a relation's value: up to four capitalised words, a title before them ("Dr.
 * Almeida"). What describes the person instead ("My wife is Brazilian", "My boss is OK") is no name.
 */
const personName =
  /^(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’.-]*){0,3}$/u;
const describesAPerson = new Set(
  `ok okay american british english scottish irish welsh french german spanish portuguese italian dutch
   belgian swiss austrian swedish norwegian danish finnish polish russian ukrainian greek turkish
   brazilian mexican argentinian canadian australian chinese japanese korean indian pakistani african
   catholic protestant christian jewish muslim hindu buddhist atheist
   colombian chilean peruvian venezuelan cuban dominican jamaican haitian latina latino
   latinx hispanic asian european arab persian nigerian ghanaian kenyan ethiopian egyptian moroccan
   filipino filipina vietnamese thai indonesian malaysian israeli iranian iraqi lebanese syrian
   bangladeshi nepali romanian hungarian czech bulgarian serbian croatian icelandic
   trans gay straight bi lesbian queer evil satan millennial boomer`.split(/\s+/u),
);
/** What describes a person rather than names them ("My wife is Colombian", "My boss is Gen Z"). */
const describes = (value: string) =>
  describesAPerson.has(value.toLowerCase()) ||
  /^(?:gen\s*[xyz]|gen\s+alpha|puerto\s+rican|sri\s+lankan)$/iu.test(value);
/** Role words of one relation: a boss is one's manager. */
export const relationNames: Readonly<Record<string, string>> = {
  boss: 'manager',
  'line manager': 'manager',
  gp: 'doctor',
  'family doctor': 'doctor',
  fiancée: 'fiancé',
  gf: 'girlfriend',
  bf: 'boyfriend',
  fiancee: 'fiancé',
  fiance: 'fiancé',
};
const relationWords = new RegExp(`^(?:${relations})(?:['’]s\\s+name)?$`, 'iu');
/** A relation's lead that says a name follows ("My wife's name is", "My boss is called"). */
const namingLead = /(?:['’]s\s+name\s+is|\sis\s+(?:called|named))\s+$/iu;
/** What "…'s name is" says of a name rather than gives one ("My boss's name is weird"). */
const saysOfAName = new Set(
  `a an the not so very too really kind sort quite pretty hard easy long short weird funny odd strange
   unusual common rare same different beautiful lovely nice cute cool secret private unknown
   complicated difficult impossible unpronounceable`.split(/\s+/u),
);
/**
 * Words after "is" that say where or how a person is, not who ("My boss is called out", "My partner is
 * Away, visiting family", "My therapist is Monday, Wednesday and Friday"): no name opens with one.
 */
const notAName = new Set(
  `out in away back also up off on over down sick late early again now today tomorrow home here there
   great good fine bad busy amazing awesome nice ok okay terrible horrible lovely happy sad tired
   monday tuesday wednesday thursday friday saturday sunday`.split(/\s+/u),
);
/**
 * A name a chat writes in lower case after a lead that says a name follows ("my wife's name is maria"):
 * one or two words of letters, capitalised as a name; null for what describes the name instead.
 */
function lowerCaseName(value: string): string | null {
  const words = value.split(/\s+/u);
  if (words.length > 2 || !words.every((w) => /^\p{Ll}[\p{Ll}\p{M}'’-]*$/u.test(w))) return null;
  if (words.some((w) => saysOfAName.has(w) || describes(w) || notAName.has(w))) return null;
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}

/**
 * A relation named where it is mentioned: "went hiking with my wife Sarah", "My boss, Tom Reyes, wants it
 * by Friday". Only a name as written: in lower case the words after "my boss" are as often what the boss
 * did ("my boss left early").
 */
const relationBeside = new RegExp(
  String.raw`(?<![\p{L}\p{N}'’-])[Mm]y\s+(?:(?:new|current)\s+)?(?<relation>${relations}),?\s+(?<value>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})`,
  'u',
);
/**
 * Capitalised words after "my husband" that are no name: a chat's "Im", holidays, and the services one
 * jokes are a doctor or a partner ("thanks to my doctor Google", "my husband Netflix binged").
 */
const notANameBeside = new Set(
  `im ive id ill christmas xmas easter thanksgiving halloween hanukkah ramadan eid diwali nye
   google slack netflix zoom whatsapp facebook instagram spotify amazon apple uber chatgpt siri alexa
   teams outlook gmail youtube tiktok twitter reddit discord`.split(/\s+/u),
);
/** A word of a name as written: "Sarah", "O'Neill"; not "I", "OK", a day, a month or a nationality. */
const nameWord = (w: string) =>
  /^\p{Lu}\p{Ll}/u.test(w) &&
  !notAName.has(w.toLowerCase()) &&
  !notANameBeside.has(w.toLowerCase()) &&
  !notWho.test(w) &&
  !describes(w) &&
  !months.includes(w.toLowerCase());
/**
 * Words that put a relation named in someone else's mouth or in play (a quotation: Tom said "my wife
 * Sarah…"; "Pretend you are my girlfriend Emma", "Example sentence: my partner Alex…"): not the
 * speaker's own. Reported speech without quotes keeps the speaker's "my" ("my GP Dr. Almeida said…").
 */
const notOwnWords =
  /["“”«»]|(?<![\p{L}\p{N}])(?:pretend|roleplay|role-play|role\s+play|act\s+as|acting\s+as|play\s+as|imagine|example|sentence|reply|draft|template|translate)(?![\p{L}\p{N}])|:\s/iu;

/**
 * What says a relation is over, or may be ("I broke up with my boyfriend Tom", "my boss Tom got fired",
 * "my wife Sarah was…"): a name beside its role there is no sign the person holds it now.
 */
const relationMayBeOver =
  /(?<![\p{L}'’])(?:dump\p{L}*|left|leav\p{L}*|passed|pass(?:ing)?\s+away|died|dies|dead|death|funeral|fired|sack\p{L}*|laid|quit\p{L}*|retir\p{L}*|resign\p{L}*|broke|break\p{L}*|divorc\p{L}*|split\p{L}*|separat\p{L}*|miss\p{L}*|used|before|former|ex|late|lost|cheat\p{L}*|widow\p{L}*|replac\p{L}*|was|were|had|then|back\s+then|anymore|no\s+longer|until)(?![\p{L}'’])/iu;

/**
 * The relation a sentence names beside its role ("my wife Sarah"), in a sentence cased as written, with
 * where those words are (`said`): the rest of the sentence may stop holding while the relation holds.
 */
export function relationNamedBeside(
  sentence: string,
): (AttributeSentence & { said: [number, number] }) | null {
  const m = /[Mm]y\s/u.test(sentence) ? relationBeside.exec(sentence) : null;
  if (!m || isQuestion(sentence) || unshouted(sentence) !== sentence) return null;
  if (relationMayBeOver.test(sentence) || notOwnWords.test(sentence)) return null;
  const title = /^(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+/u.exec(m.groups!['value']!)?.[0] ?? '';
  const kept: string[] = [];
  for (const word of m.groups!['value']!.slice(title.length).split(/\s+/u)) {
    // "my boss Tom's car": the name ends at its possessive.
    const bare = word.replace(/['’]s$/u, '');
    if (!nameWord(bare)) break;
    kept.push(bare);
    if (bare !== word) break;
  }
  if (kept.length === 0) return null;
  const value = title + kept.join(' ');
  const predicate = attributeName(m.groups!['relation']!, value);
  if (predicate === null) return null;
  const from = m.index + m[0].length - m.groups!['value']!.length + title.length;
  const named = new RegExp(`^${kept.map(escapeRegExp).join(String.raw`\s+`)}`, 'u').exec(
    sentence.slice(from),
  );
  return { predicate, value, said: [m.index, from + (named?.[0].length ?? 0)] };
}

/**
 * Family and friends one has several of, by their role to the speaker: "my sister", "my best friend".
 * No slot (a sister does not replace a sister), unlike `relations`; "-in-law" is part of the role.
 */
export const kinWords = String.raw`(?:(?:little|big|older|younger|elder|eldest|oldest|youngest|baby|twin|best|old|close)\s+)?(?:sister|brother|mum|mom|mother|dad|father|son|daughter|aunt|uncle|cousin|niece|nephew|grandma|grandmother|grandpa|grandfather|grandson|granddaughter|stepmom|stepmother|stepdad|stepfather|stepson|stepdaughter|stepsister|stepbrother|friend|colleague|coworker|co-worker|neighbou?r|roommate|flatmate)(?:-in-law)?`;
/** Kin that is family: one's sister stays one's sister whatever the sentence says happened. */
const family =
  /(?:sister|brother|mum|mom|mother|dad|father|son|daughter|aunt|uncle|cousin|niece|nephew|grand\p{L}+|step\p{L}+)(?:-in-law)?$/u;
/** "my sister Marta", "my best friend, Tom Reyes": the role, then the name as written. */
const kinBeside = new RegExp(
  String.raw`(?<![\p{L}\p{N}'’-])[Mm]y\s+(?<kin>${kinWords}),?\s+(?<value>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})`,
  'u',
);
/** Words after "Caroline, my friend," that speak to her, not of her: "…, thanks!", "…, you rock". */
const addressed = String.raw`(?:thanks|thank|thx|ty|please|pls|you|your|you['’]\p{L}+|i|i['’]\p{L}+|im|ive|how|what|why|where|when|who|hope|glad|so|and|but|welcome|congrats|congratulations|good|great|nice|happy|love|cheers|hey|hi|hello|oh|wow|haha|lol|that|this|it|it['’]s|its|let['’]?s|see|take|have|enjoy|keep|stay|don['’]t|do)`;
/**
 * "Marta, my sister, started at Siemens": the name, then the role set off by commas, then a clause of
 * what she did ("Caroline, my friend, thanks!" speaks to her).
 */
const kinAfterName = new RegExp(
  String.raw`^(?<value>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?),\s+my\s+(?<kin>${kinWords})(?=,\s+(?!${addressed}(?![\p{L}\p{N}]))\p{Ll})`,
  'u',
);
/**
 * "Luka is my brother-in-law.", "Luka is my colleague from Span.", "Luka is my brother-in-law, Ana's
 * husband.": the name, then who they are to the speaker, the sentence's own subject and what it says
 * of them; not "Luka is my brother's friend" (someone else's) nor a question.
 */
const kinIsName = new RegExp(
  String.raw`^(?<value>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?)\s+is\s+(?:also\s+)?my\s+(?<kin>${kinWords})(?=[\s.!…]*$|,\s|\s+(?:from|at)\s+\p{Lu})`,
  'u',
);

/**
 * Who a person the speaker names is to them, where the role is one they may have several of ("My sister
 * Marta started a new job at Siemens", "Marta, my sister, started at Siemens"): the role as said
 * ("sister", "best friend"), the name, and where those words are (`said`). Null where
 * the words may be someone else's (a quotation, a role-play) or asked, and, for a friend, a colleague or
 * a neighbour, where the sentence may say that is over ("my friend Tom and I fell out", "my old
 * colleague Ana, before she left"): family stays family. "my friend's sister Ana" names no sister of
 * the speaker's, nor "my sister-in-law Ana" a sister.
 */
export function kinNamedBeside(
  sentence: string,
): { kin: string; who: string; said: [number, number] } | null {
  if (!/[Mm]y\s/u.test(sentence) || isQuestion(sentence) || unshouted(sentence) !== sentence) return null;
  if (notOwnWords.test(sentence)) return null;
  const s = sentence.trimEnd();
  const whole = kinAfterName.exec(s) ?? kinIsName.exec(s);
  const m = whole ?? kinBeside.exec(s);
  if (!m) return null;
  // "my brother-in-law, Ana's husband": whose he is, said beside the role, names no one as him.
  if (whole === null && /^[^,]*,\s*\S+['’]s\s/u.test(m[0].slice(m[0].indexOf(m.groups!['kin']!)) + ' '))
    return null;
  const kin = m.groups!['kin']!.replace(/\s+/gu, ' ');
  if (!family.test(kin) && relationMayBeOver.test(sentence)) return null;
  const written = m.groups!['value']!.split(/\s+/u);
  const kept: string[] = [];
  for (const word of written) {
    // "my brother Tiago's wife": the name ends at its possessive.
    const bare = word.replace(/['’]s$/u, '');
    if (!nameWord(bare)) break;
    kept.push(bare);
    if (bare !== word) break;
  }
  // Before the role, every word is the name ("Today, my sister, …" names no one); after it, as many
  // words as are a name ("my sister Marta Monday" is Marta).
  if (kept.length === 0 || (whole !== null && kept.length !== written.length)) return null;
  const who = kept.join(' ');
  const from = m.index + m[0].indexOf(m.groups!['value']!);
  // "Marta, my sister" or "my sister Marta": the name and the role, not what the sentence says of her.
  const said: [number, number] = whole !== null ? [0, m[0].length] : [m.index, from + who.length];
  return { kin, who, said };
}

/** "Maya's phone number is …": whose attribute a sentence opens with, up to three capitalised words. */
const possessor = new RegExp(
  String.raw`^(?:${kin}\s+)?(?<who>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})['’]s\s+(?=\S)`,
  'u',
);
const leadIn = new RegExp(`^${fillers}`, 'iu');
/** Words before "'s" that name no one ("It's", "Today's special", "Everyone's favourite"). */
const possessesNothing =
  /^(?:it|that|this|here|there|let|what|who|where|when|how|today|tomorrow|yesterday|tonight|everyone|everybody|someone|somebody|nobody|no\s+one|one|he|she|god|life)$/iu;

/**
 * An attribute said of a named person, as one says one's own ("Maya's phone number is +351 900 000
 * 000", "Tom's birthday is March 4", "Carla's wife is Sarah"): whose it is, and the attribute as
 * attributeSentence reads "my …". Null for any other sentence, and for an attribute said to be over.
 */
export function possessedAttribute(sentence: string): { who: string; attribute: AttributeSentence } | null {
  // "Actually Tom's birthday is …", "Btw, Tom's …": the lead-in is no part of the name.
  const trimmed = sentence.trim();
  const s = trimmed.slice(leadIn.exec(trimmed)?.[0].length ?? 0);
  const m = possessor.exec(s) ?? hasNewNumber.exec(s);
  if (!m || possessesNothing.test(m.groups!['who']!)) return null;
  const said = m.groups!['number'] === undefined ? '' : `new ${m.groups!['number']} is `;
  const attribute = attributeSentence(`my ${said}${s.slice(m[0].length)}`);
  return attribute === null || attribute.ends ? null : { who: m.groups!['who']!, attribute };
}

/**
 * "Marko has a new number: +385 …", "Ana has a new phone number, …": a person's number given as news,
 * read as "Marko's new number is …". It was the speaker's Memory of no slot, and the number it replaced
 * stayed Marko's (and came back first once an agent's fact of the new one was forgotten).
 */
const hasNewNumber = new RegExp(
  String.raw`^(?<who>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})\s+has\s+a\s+new\s+(?<number>(?:(?:phone|mobile|cell)\s+)?number)(?:[:,]\s*|\s+)(?=[+(\d])`,
  'u',
);

/** A chat's laughs, in lower case, and its "btw" ("I'm vegan btw"), which says nothing more either. */
const laughs = ['lol', 'haha', 'hehe', 'xd', ':)', ':d', 'btw'];
/** An emoji's characters: the picture, its skin tone, a flag's letters, the joiner and the selector. */
const emojiClass = String.raw`[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u{FE0F}\u{200D}]`;
const emojiPart = new RegExp(`^${emojiClass}$`, 'u');
/**
 * How a sentence said alone may end: its marks, and in a chat a laugh or an emoji ("I got engaged!! 💍",
 * "im single again lol"), which say nothing more.
 */
export const chatEnd = String.raw`(?:[.!\s]|${laughs.map(escapeRegExp).join('|')}|${emojiClass})*$`;
/** One's parents, named by their role alone ("Dad", "my mum"): one has one of each. */
const parents: Readonly<Record<string, 'mother' | 'father'>> = {
  mum: 'mother',
  mom: 'mother',
  mother: 'mother',
  dad: 'father',
  father: 'father',
};
/**
 * "Ana turns 30 on 12 March", "My dad turns 70 on March 12", "Dad is turning 70 on the 12th of March":
 * who, a parent ("my dad", or "Dad" as a name) or a person by name (after their role: "my sister Ana"),
 * and the day, which is a day of the year only as a birthday is given ("on Friday" is none).
 */
const turnsOn = new RegExp(
  String.raw`^(?:(?:[Mm]y\s+(?<parent>mum|mom|mother|dad|father))|(?<called>Mum|Mom|Mother|Dad|Father)|(?:[Mm]y\s+${kinWords},?\s+)?(?<who>\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?))\s+(?:turns|turned|is\s+turning|will\s+turn|will\s+be|['’]ll\s+be)\s+\d{1,3}(?:\s+years?\s+old)?\s+on\s+(?<day>[^,;:!?]+?)${chatEnd}`,
  'u',
);

/**
 * A birthday said by the age a person turns on it ("Ana turns 30 on 12 March", "My dad turns 70 on
 * March 12"): the person, named (`who`) or a parent by role (`parent`: "mother", "father"), and the
 * day as "Tom's birthday is March 4" gives it. Null where the day is no day of the year ("on Friday",
 * "on Saturday the 12th": this year's day, not the birthday's), and for anything doubted or asked.
 */
export function birthdayTurning(
  sentence: string,
): { who: string; value: string } | { parent: 'mother' | 'father'; value: string } | null {
  const trimmed = sentence.trim();
  const s = trimmed.slice(leadIn.exec(trimmed)?.[0].length ?? 0);
  const m = turnsOn.exec(s);
  if (m === null || notNow.test(s) || isQuestion(s)) return null;
  const day = m.groups!['day']!.trim();
  if (!dayOfYear.test(day)) return null;
  const value = day.replace(/^(?:the\s+)/iu, '');
  const parent = m.groups!['parent'] ?? m.groups!['called'];
  if (parent !== undefined) return { parent: parents[parent.toLowerCase()]!, value };
  const who = m.groups!['who']!;
  return namesAPerson(who) && who.split(/\s+/u).every(nameWord) ? { who, value } : null;
}
/**
 * A value without a chat's laugh or emoji after it, which is none of it ("My new boss is Rita Gomes 🙄",
 * "my favourite colour is blue lol"). Read back from the end, a character or a laugh at a time, so a
 * long run of them costs one pass; a laugh only after a space ("My favourite word is lol" keeps it), and
 * a value that is nothing else kept whole.
 */
function withoutChatEnd(value: string): string {
  let end = value.length;
  let kept = end;
  while (end > 0) {
    const low = value.charCodeAt(end - 1);
    const ch = value.slice(low >= 0xdc00 && low <= 0xdfff && end >= 2 ? end - 2 : end - 1, end);
    if (/^[.!\s]$/u.test(ch)) end -= ch.length;
    else if (emojiPart.test(ch)) kept = end -= ch.length;
    else {
      const tail = value.slice(Math.max(0, end - 4), end).toLowerCase();
      const laugh = laughs.find((l) => tail.endsWith(l) && /\s/u.test(value[end - l.length - 1] ?? ''));
      if (laugh === undefined) break;
      kept = end -= laugh.length;
    }
  }
  return value.slice(0, kept).trim() === '' ? value : value.slice(0, kept);
}
/** "new phone: +49 151 1234567", "New email: ana@sonae.pt": a changed number or address, as a label. */
const newValueLead = new RegExp(
  String.raw`^${fillers}(?:(?:my\s+)?new\s+((?:(?:mobile|cell|cellphone|phone|telephone)\s+)?(?:phone\s+)?number|mobile|cell|phone|e-?mail(?:\s+address)?)(?:\s+again)?(?:\s*:\s*|,\s*(?:it['’]?s|it\s+is)\s+)|(?:I\s+)?changed\s+my\s+((?:(?:mobile|cell|cellphone|phone|telephone)\s+)?(?:phone\s+)?number|e-?mail(?:\s+address)?)\s+to\s+)`,
  'iu',
);
/** The day one was born on, to the sentence's end: "I was born on March 4, 1992", "i was born 4 march". */
const bornOn = new RegExp(
  String.raw`^${fillers}I\s+was\s+born\s+(?:on\s+)?(?<day>[\p{L}\p{N}][\p{L}\p{N}./, -]{2,40}?)${chatEnd}`,
  'iu',
);
/** Words before "is my boss" that are no one's name: a pronoun, a pointer, a question's word. */
const notWho =
  /^(?:he|she|they|it|this|that|these|those|who|what|which|whoever|someone|somebody|nobody|everyone|there|here|mine|yours|the|a|an|my|apparently|now|today|yes|so|well|and|but|also|guess|work|life|music|coffee|god)$/iu;
/**
 * A relation said the other way round: "carla is my girlfriend now", "Tom Reyes is my new boss", as "my
 * girlfriend is Carla" says it.
 */
const relationAfter = new RegExp(
  String.raw`^${fillers}(?<value>[\p{L}\p{M}'’.-]+(?:\s+[\p{L}\p{M}'’.-]+)?)\s+is\s+(?:(?<now>now)\s+)?my\s+(?:(?<new>new)\s+)?(?<relation>${relations})(?:\s+(?<later>now))?(?:(?<more>,\s+[\p{L}\p{N}][^]*)|[!.\s]*)$`,
  'iu',
);
/** One's job said as where it is: "My new job is at Stripe", "my job's with Globex now". */
const jobIsAt = new RegExp(
  String.raw`^${fillers}my\s+(?:(?:new|current|day|first|full-time|part-time)\s+)?job(?:\s+is|['’]s)\s+(?:now\s+)?(?:at|with)\s+${name}(?:\s+now)?${chatEnd}`,
  'iu',
);
/** The employer jobIsAt read, in the case it was written: its "i" flag lets \p{Lu} match "a startup". */
const employerName = new RegExp(`^${capitalised}$`, 'u');
/** After "I": "I'm", "I am", and a chat's "im" with its apostrophe left out ("im vegan now"). */
const am = String.raw`(?:['’]?m|\s+am)`;
/**
 * One's age, said of oneself: "I'm 34 years old", "I just turned 35", "I turned 40 today". A bare
 * number ("I'm 34") is no age: it answers as many other questions.
 */
const ageSentence = new RegExp(
  String.raw`^${fillers}I(?:${am}\s+(?:now\s+)?(?<is>\d{1,3})\s+(?:years?\s+old|years?\s+of\s+age|y\.?\s?o\.?)|\s+(?:just\s+|finally\s+|have\s+just\s+|['’]ve\s+just\s+)?turned\s+(?<turned>\d{1,3}))(?:\s+(?:now|today|yesterday|this\s+week|last\s+week|this\s+month|last\s+month))?${chatEnd}`,
  'iu',
);
/**
 * A diet one keeps, said of oneself: "I'm vegetarian", "I'm a vegan now", "I went vegan", "I've become
 * a pescatarian", "I'm going vegetarian from today" (not "I'm going vegan": some day). One at a time, so "I'm vegan now" replaces "I'm vegetarian". Only the sentence whole,
 * with nothing after the diet but when it holds: "I'm a vegan chef", "I'm vegetarian on weekdays" or
 * "I went vegan for a month" say something else.
 */
export const diets = String.raw`(vegetarian|vegan|pescatarian|pescetarian|flexitarian)`;
/** "fully vegetarian", "strictly vegan": the diet all the same. Not "mostly" or "basically": almost. */
const wholly = String.raw`(?:(?:fully|strictly|completely|totally|officially|100%)\s+)?`;
const dietTail = String.raw`(?:\s+(?:now|again|too|as\s+well|these\s+days|nowadays|recently|(?:starting|from)\s+(?:today|now|this\s+week)|(?:last|this)\s+(?:week|month|year)|(?:a|an|one|two|three|four|five|six|\d{1,2}|a\s+few|a\s+couple(?:\s+of)?)\s+(?:days?|weeks?|months?|years?)\s+ago))?(?:\s+(?:too|as\s+well))?(?:\s+btw)?(?:,\s*(?:a|an|one|two|three|four|five|six|\d{1,2}|a\s+few|a\s+couple(?:\s+of)?)\s+(?:days?|weeks?|months?|years?)\s+in)?${chatEnd}`;
/** How long a state has lasted until now: " for 10 years", " since 2015", " for a while now". */
const lastingTail = String.raw`(?:\s+(?:for|since)\s+(?:[\p{L}\p{N}]+\s+){0,3}[\p{L}\p{N}]+)?(?:\s+now)?`;
/** How long, said after a comma: "i'm vegetarian, have been for like 5 yrs". */
const lastingAfter = String.raw`(?:,\s*(?:and\s+)?(?:I(?:['’]?ve|\s+have)\s+|have\s+)?been\s+(?:for|since)\s+(?:[\p{L}\p{N}]+\s+){0,3}[\p{L}\p{N}]+)?`;
const dietSentence = new RegExp(
  String.raw`^${fillers}(?:I(?:${am}\s+(?:now\s+|also\s+)?(?:going\s+(?=${wholly}(?:an?\s+)?${diets}\s+(?:starting|from|as\s+of)\s+(?:today|now)(?![\p{L}\p{N}])))?${wholly}(?:an?\s+)?|(?:['’]ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:(?:went|gone|turned|became|become)\s+|decided\s+to\s+go\s+)${wholly}(?:an?\s+)?)|(?:just\s+|finally\s+)?(?:went|turned|became)\s+${wholly}(?:an?\s+)?|(?:an?\s+)?(?=${diets}\s+now(?![\p{L}\p{N}])))${diets}${lastingAfter}${dietTail}`,
  'iu',
);
/** A diet said as one: "I'm on a vegan diet now", "I've started a pescatarian diet", "I switched to a vegetarian diet". */
const dietOn = new RegExp(
  String.raw`^${fillers}I(?:${am}\s+(?:now\s+)?on\s+an?\s+|(?:['’]ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:started|begun|began|switched\s+to|gone\s+on|went\s+on)\s+(?:an?\s+)?)${wholly}${diets}\s+diet${dietTail}`,
  'iu',
);
/** A diet kept until now, and for how long: "I've been vegetarian for 10 years", "Been vegan for 3 years now". */
const dietLasting = new RegExp(
  String.raw`^${fillers}(?:I(?:['’]?ve|\s+have)\s+|(?=been\s))been\s+(?:an?\s+)?${diets}${lastingTail}${chatEnd}`,
  'iu',
);
/**
 * A diet one says one keeps no more: "I'm not vegetarian anymore", "I'm no longer vegan", "I stopped
 * being a vegetarian", "vegetarian era over lol". It ends that diet where it holds, and says no new
 * one. Not "I'm not vegan" alone: it says what one never was as often as what one stopped.
 */
const dietEnded = new RegExp(
  String.raw`^${fillers}(?:(?=not\s)|(?=no\s+longer\s)|I${am}\s+)(?:not\s+(?:an?\s+)?${diets}\s+(?:any\s?more|any\s+longer)|no\s+longer\s+(?:an?\s+)?${diets})(?:\s+now)?${chatEnd}|^${fillers}(?:(?:it\s+)?turns\s+out\s+(?:that\s+)?|apparently\s+)I${am}\s+not\s+(?:really\s+|actually\s+)?(?:an?\s+)?${diets}(?:\s+after\s+all)?${chatEnd}|^${fillers}I(?:(?:['’]ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:stopped|quit)\s+being\s+(?:an?\s+)?${diets})(?:\s+now)?${chatEnd}|^${fillers}(?:my\s+)?${diets}\s+(?:era|phase|days|streak|experiment)\s+(?:is\s+|are\s+)?(?:over|done|ended)${chatEnd}`,
  'iu',
);
const dietNames: Readonly<Record<string, string>> = { pescetarian: 'pescatarian' };
/**
 * What a match names: its one capture that took part (an ending's alternatives each hold one), in lower
 * case and single-spaced ("in a relationship").
 */
const captured = (m: RegExpExecArray): string =>
  m
    .slice(1)
    .find((x) => x !== undefined)!
    .toLowerCase()
    .replace(/\s+/gu, ' ');
/** The diet a match names, one spelling for each ("pescetarian" as "pescatarian"). */
const dietOf = (m: RegExpExecArray): string => dietNames[captured(m)] ?? captured(m);

/**
 * Where one stands in love, said of oneself: "I'm single again", "I got engaged!", "We got married
 * yesterday", "I'm divorced now", "I'm married to Tom". One at a time, so "I got married" replaces
 * "I'm engaged". Only the sentence whole, with nothing after the status but when it holds and, for a
 * marriage or an engagement, to whom (a name: "I'm married to my job" is no status); "I got married in
 * 2015" may be history.
 */
const statuses = String.raw`(single|engaged|married|separated|divorced|widowed|in\s+a\s+relationship)`;
const statusWhen = String.raw`(?:\s+(?:now|again|too|today|yesterday|recently|(?:last|this)\s+(?:week|month|weekend|year)))?${chatEnd}`;
/** Whom one lives with in it, which says more than the status: "I'm married with two kids". */
const withFamily = String.raw`(?<family>\s+with\s+(?:a|an|one|two|three|four|five|\d)\s+(?:(?:little|young|grown|wonderful|beautiful)\s+)?(?:kids?|children|child|sons?|daughters?|boys|girls|dogs?|cats?))?`;
const statusSentence = new RegExp(
  String.raw`^${fillers}(?:I${am}\s+(?:now\s+|officially\s+)?(?:(?:happily|newly|recently|just)\s+)?|(?:I|we)(?:['’]?ve|\s+have)\s+been\s+(?:happily\s+)?(?=married|single|divorced|separated|engaged|widowed|in\s)|(?:I|we)(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?got(?:ten)?\s+(?=engaged|married|divorced|separated))${statuses}(?:\s+to\s+(?<partner>[\p{L}\p{M}'’.-]+(?:\s+[\p{L}\p{M}'’.-]+){0,3}?))?${withFamily}${lastingTail}${statusWhen}`,
  'iu',
);
/**
 * A status one says one is in no more: "I'm not single anymore!", "I'm no longer married". It ends that
 * status where it holds. Not "I'm not married" alone: one may never have been.
 */
const statusEnded = new RegExp(
  String.raw`^${fillers}I${am}\s+(?:not\s+${statuses}\s+(?:any\s?more|any\s+longer)|no\s+longer\s+${statuses})(?:\s+now)?${chatEnd}`,
  'iu',
);

/** A diet or a relationship status the sentence says whole, or null. */
function stateSaid(s: string): AttributeSentence | null {
  const diet = dietSentence.exec(s) ?? dietLasting.exec(s) ?? dietOn.exec(s);
  if (diet) return { predicate: 'diet', value: dietOf(diet) };
  const status = statusSentence.exec(s);
  if (!status) return null;
  const value = captured(status);
  // "I'm married to Jordan.": the sentence's full stop is no part of his name ("Dr." keeps its own).
  const partner = status.groups!['partner']?.replace(/(?<=\p{L}{3})\.$/u, '');
  // "I'm married with two kids": the status, and the sentence as its Memory.
  const more = status.groups!['family'] !== undefined;
  if (partner === undefined)
    return { predicate: 'relationship status', value, ...(more ? { own: true } : {}) };
  // "I'm married to Tom": the status, and the sentence as its Memory, which names him. The name's case
  // is read apart: under the pattern's "i" flag \p{Lu} takes any letter.
  return (value === 'married' || value === 'engaged') && partnerNamed(partner, s)
    ? { predicate: 'relationship status', value, own: true }
    : null;
}

/**
 * Whether a status's "to ..." names a person: a name as written ("Tom", "Dr. Silva"), or in a chat
 * written without capitals the words a name would be ("i'm married to tom"), read as lowerName reads a
 * place, so "married to my job" or "to him" still name no one.
 */
export function partnerNamed(partner: string, sentence: string): boolean {
  if (personName.test(partner)) return true;
  if (!writtenUncased(sentence) || !/^\p{Ll}/u.test(partner)) return false;
  const name = lowerName(partner, 0);
  return name !== null && name.end === partner.length && !describes(partner);
}

/**
 * What a diet or a status leads to, after it: "I'm vegan, so no cheese", "im single so im free on
 * friday", or what one eats beside a diet: "I'm pescatarian now, I eat fish again". It leaves the
 * value as said; its own "not" or "don't" is not the value's. Tried only from the first character of a
 * run of spaces (the lookbehind), so a long run costs one pass, not one each.
 */
const consequence =
  /(?<![\s,]),?\s+so\s+(?=[\p{L}\p{N}])|,\s+(?=i\s+(?:eat|(?:don['’]t|do\s+not|no\s+longer|still|can['’]t|cannot)\s+eat|avoid)\s)/iu;

/**
 * Where one studies, said of oneself: "I study at MIT", "I'm a PhD student at the University of Porto",
 * "I started uni at King's College London", "I transferred to UCL". One at a time, so a transfer
 * replaces the school before it; "I graduated from MIT", "I dropped out of NYU" end it. Only a name that
 * says it is a school (a word such as University, College or Institute, an acronym such as MIT, or one
 * of the few known by a bare name): one studies at Starbucks or at the Library of Congress too.
 */
const schoolName = String.raw`(?<school>(?:[Tt]he\s+)?\p{Lu}[\p{L}\p{M}'’.&-]*(?:\s+(?:of|for|and|de|do|da|di|du|der|\p{Lu}[\p{L}\p{M}'’.&-]*)){0,6})`;
/** Degrees and years of study a student names: "a PhD student", "a second-year undergrad". */
const student = String.raw`(?:an?\s+)?(?:[\p{L}'’-]+\s+){0,3}(?:student|undergrad|undergraduate|postgrad|grad|PhD|doctoral|masters?|master['’]s)(?:\s+student)?`;
/** What one starts or finishes: "uni", "college", "my PhD", "my degree". */
const higherEd = String.raw`(?:uni|university|college)`;
const ownStudies = String.raw`my\s+(?:PhD|masters?|master['’]s|degree|studies)`;
const studyVerb = String.raw`(?:\s+(?:just\s+|recently\s+|now\s+|currently\s+|still\s+)?(?:study|go\s+to\s+(?:school|${higherEd})|started\s+(?:${higherEd}|grad\s+school|${ownStudies})|transferred)|${am}\s+(?:now\s+|currently\s+|still\s+)?(?:studying|${student}))\s+(?:at|to)\s+`;
const leftSchool = String.raw`(?:['’]ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+)?(?:graduated\s+from|dropped\s+out\s+of|finished\s+(?:${higherEd}|${ownStudies})\s+at)\s+`;
/** The words before the school, in any case ("im a phd student at"); the school's own are read apart. */
const schoolLead = new RegExp(String.raw`^${fillers}I${studyVerb}`, 'iu');
const schoolLeftLead = new RegExp(String.raw`^${fillers}I${leftSchool}`, 'iu');
/** The school and the sentence's end, case kept: under the "i" flag \p{Lu} would take any letter. */
const schoolRest = new RegExp(String.raw`^${schoolName}(?:\s+(?:now|again))?${chatEnd}`, 'u');
const schoolWords =
  /(?<![\p{L}\p{N}])(?:university|college|school|institute|academy|polytechnic|conservatory|conservatoire|seminary|universidade|universidad|université|universität|universiteit|università|uni)(?![\p{L}\p{N}])/iu;
const schoolsByName = new Set(
  `harvard stanford yale princeton oxford cambridge caltech berkeley cornell columbia duke brown penn
   georgetown sorbonne imperial`.split(/\s+/u),
);
/** Whether a name says it is a school: a school's word, one known by its bare name, or "NYU", "UCLA". */
function schoolNamed(name: string): boolean {
  const bare = name.replace(/^[Tt]he\s+/u, '');
  return knownSchool(bare) || (/^\p{Lu}{2,6}$/u.test(bare) && bare.includes('U'));
}

/** A name (without its "The") with a school's word in it, or one of the schools known by it alone. */
const knownSchool = (bare: string): boolean =>
  schoolWords.test(bare) || schoolsByName.has(bare.toLowerCase());

/** The school a sentence opening with `lead` names, or null where it names none. */
function schoolAfter(lead: RegExp, s: string): string | null {
  const m = lead.exec(s);
  const named = m ? schoolRest.exec(s.slice(m[0].length))?.groups!['school'] : undefined;
  if (named === undefined) return null;
  // A closing mark is the sentence's, as after a home ("I study at MIT.").
  const name = named.replace(/(?<![.’'])[.’']+$/u, '');
  const bare = name.replace(/^[Tt]he\s+/u, '');
  // Said to be studied at, any acronym is a school's ("I study at MIT").
  return knownSchool(bare) || /^\p{Lu}{2,5}$/u.test(bare) ? name : null;
}

/** Words a value of one thing does not hold: it lists, adds or explains. */
const notOneValue =
  /[,;:()]|(?<![\p{L}\p{N}])(?:and|but|or|also|too|as well|because|since|though|although|which|who|one of|not|no longer)(?![\p{L}\p{N}])/iu;
/**
 * An admission, after the value, that the one said before was wrong: ", I had a typo", " (typo)",
 * ", sorry", "- the last one was wrong". It tells why the value is said again, and no more of it.
 */
const ownedMistake =
  /(?<!\s)\s*(?:[,;(]|[-–—](?=\s))\s*(?:sorry|oops|my bad|typo|(?:the|my|his|her|their|that|this)\s+(?:[\p{L}\p{M}'’-]+\s+){0,3}(?:had|has|contained|was|is)\s+(?:a\s+)?(?:typo|mistake|misprint|wrong|incorrect)|(?:I|I['’]ve|I have) (?:had|made) a typo|(?:I|I['’]ve) mistyped(?: it| that)?|(?:that|it|the (?:last|other|old|previous|first) one|the (?:one|number|address) I (?:gave|sent|wrote|said|told)(?: you)?(?: before| earlier)?) (?:was|is) (?:a typo|wrong|incorrect))[.!)]*$/iu;
const trailingTime =
  /(?<!\s)\s+(?:now|nowadays|these days|at the moment|right now|currently|by the way|btw|from now on|going forward)$/iu;
/** A courtesy after a number or an address: "my number is 912 345 678 if u need it". */
const courtesyAfter =
  /(?<!\s)\s+(?:(?:just\s+)?in\s+case\s+(?:you|u)\s+need\s+(?:it|me)|if\s+(?:you|u|ya)\s+(?:ever\s+)?need\s+(?:it|me|to)(?:\s+[\p{L}'’]+){0,8}|for\s+(?:whatsapp|signal|texts?|emergencies))[.!]*$/iu;
/** A sentence without its courtesy after a number or an address; read only where one could be. */
const withoutCourtesy = (s: string): string =>
  /need|whatsapp|signal|text|emergenc/iu.test(s) ? s.replace(courtesyAfter, '') : s;
/** Written as an e-mail address is: one word with an @ and a dot after it. */
export const emailShaped = (value: string) => /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/u.test(value);
/** A number or an address a chat gives without "my": "email is ana@x.com", "use ana@x.com from now on". */
const contactElided = new RegExp(
  String.raw`^${fillers}(?:(?:new\s+)?(?:e-?mail(?:\s+address)?|(?:phone\s+)?number|phone|mobile|cell)\s+is\s+(?:now\s+)?|(?:pls\s+|please\s+)?(?:use|text\s+me\s+(?:at|on)|email\s+me\s+at|reach\s+me\s+(?:at|on))\s+(?=\S+(?:\s+\S+){0,4}\s+(?:from\s+now\s+on|going\s+forward)(?![\p{L}\p{N}])))`,
  'iu',
);
/** "new number btw since i switched carriers: ", "my new number, finally: ": a new number's lead to its colon. */
const newNumberColon =
  /^(?:my\s+)?new\s+(?:phone\s+|mobile\s+|cell\s+)?(?:number|phone|mobile|cell)(?![\p{L}\p{N}])[^:\d\n]{0,80}:\s*/iu;
/**
 * The number or address a chat gives without "my" ("email is ana@x.com", "pls use ana@x.com from now
 * on"): the slot it holds by the value's shape, else null.
 */
/** "new number btw since i switched carriers: 933 222 111": the number after the colon, else null. */
function newNumberSaid(s: string): AttributeSentence | null {
  const colon = newNumberColon.exec(s);
  if (!colon || isQuestion(s)) return null;
  const value = withoutChatEnd(s.slice(colon[0].length)).replace(/(?<![.!\s])[.!\s]+$/u, '');
  return phoneShaped(value) ? { predicate: 'phone number', value } : null;
}

function contactSaid(s: string): AttributeSentence | null {
  const m = contactElided.exec(s);
  if (!m || isQuestion(s)) return null;
  let value = withoutChatEnd(withoutWorkplace(s).slice(m[0].length)).replace(/(?<![.!\s])[.!\s]+$/u, '');
  value = value.replace(trailingTime, '');
  if (emailShaped(value)) return { predicate: 'email address', value };
  return phoneShaped(value) ? { predicate: 'phone number', value } : null;
}
/** US and UK spellings of an attribute are one attribute. */
const spellings: Readonly<Record<string, string>> = {
  favorite: 'favourite',
  color: 'colour',
  colors: 'colours',
  flavor: 'flavour',
};

/** Written as a phone number is: six digits or more, with spaces, dots, dashes, brackets, a leading +. */
export const phoneShaped = (value: string) =>
  /^\+?[\d\s()./-]+$/u.test(value) && (value.match(/\d/gu)?.length ?? 0) >= 6;

/** A day of a month, 1 to 31. */
const dayNumber = String.raw`(?:0?[1-9]|[12]\d|3[01])`;
const month = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/**
 * A day of the year, as a birthday is given: "March 14", "14th of March", "14 March 1990", "1990-03-14",
 * "14/03". "Tomorrow" or "next week" is a day of this year only: no birthday's value.
 */
const dayOfYear = new RegExp(
  String.raw`^(?:on\s+)?(?:(?:the\s+)?${dayNumber}(?:st|nd|rd|th)?\s+(?:of\s+)?${month}|${month}\s+${dayNumber}(?:st|nd|rd|th)?)(?:,?\s+\d{4})?$|^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])$|^${dayNumber}[./](?:0?[1-9]|1[0-2])(?:[./](?:\d{2}|\d{4}))?$`,
  'iu',
);

function attributeName(raw: string, value: string): string | null {
  const w = raw
    .toLowerCase()
    .replace(/['’]s\s+name$/u, '')
    .split(/\s+/u)
    .map((x) => spellings[x] ?? x);
  if (w[0] === 'favourite') return w.join(' ');
  if (/^(?:birth\s?day|b-?day)$/u.test(w.join(' '))) return dayOfYear.test(value) ? 'birthday' : null;
  // "My new address is Vlaška 71": where one lives, given by its street address (street-address.ts);
  // "my address is ana@x.com" is the e-mail's, and an address of neither shape no slot.
  if (w.at(-1) === 'address' && w[0] !== 'email' && w[0] !== 'e-mail') {
    if (streetAddressOpening(value) !== null) return 'lives in';
    // Its first word must be written as one (attributeSentence reads it so).
    return value.includes('@') ? 'email address' : null;
  }
  // "My salary is 3,400 EUR net", "my monthly pay is €2,100": one salary at a time, keyed as a
  // `salary` fact is (slot-key.ts), so the fact and the sentence replace each other; only an amount.
  if (w.at(-1) === 'salary' || w.at(-1) === 'pay') return /\d/u.test(value) ? 'salary' : null;
  const relation = w.join(' ');
  if (relationWords.test(raw)) return relationNames[relation] ?? relation;
  // "my number" alone could be any number ("my number is 7"): with a phone word, or written as a phone
  // number is ("my number is 555-0198"), it is the phone's; an e-mail is one of a kind.
  if (w.at(-1) === 'number') return w.length > 1 || phoneShaped(value) ? 'phone number' : null;
  // "my cell is …", "my phone is …": the phone's number only where the value is written as one.
  if (['mobile', 'cell', 'cellphone', 'phone'].includes(w.at(-1)!))
    return phoneShaped(value) ? 'phone number' : null;
  return 'email address';
}

/** Whom one has one of at a time and may switch to another: "switch dentists", "changed my GP". */
const switchable = String.raw`(?<role>family\s+doctor|dentist|doctor|GP|therapist)`;
/**
 * "I've decided to switch dentists", "I changed my dentist", "Switching therapists", up to its role:
 * the one the speaker goes to after it (goneTo) holds that slot, in the sentence or the one after it.
 * Not a switch only wished or planned ("I want to switch dentists: I will be seeing Dr. Babić", "I'm
 * going to switch"): nothing has moved.
 */
const roleSwitched = new RegExp(
  String.raw`^${fillers}(?:I(?:['’]ve|\s+have|['’]m|\s+am)?\s+(?:just\s+|finally\s+)?(?:(?:decided|had)\s+to\s+)?|(?:just\s+|finally\s+)?)(?:switch(?:ed|ing)?|chang(?:e|ed|ing))\s+(?:my\s+)?${switchable}s?(?![\p{L}\p{N}])`,
  'iu',
);
/**
 * Whom the speaker goes to from now on: "from now on I go to Dr. Kristina Babić", "now I see Dr. Babić",
 * "I'll be seeing Dr. Babić", after the switch (`joined`: its ":", ",", "and" or "to" first) or opening a
 * sentence of its own.
 */
const goesTo = new RegExp(
  String.raw`^${fillers}(?:(?:from\s+now\s+on|now|going\s+forward|from\s+today|starting\s+(?:today|now))\s*,?\s+)?I(?:['’]ll|\s+will)?\s+(?:be\s+)?(?:go(?:ing)?\s+to|see(?:ing)?|(?:['’]m|\s+am)\s+(?:going\s+to|seeing))\s+(?<who>[^,;:!?]+?)${chatEnd}`,
  'iu',
);
const switchJoin = /^(?:\s*[:;,—–-]\s*|\s+(?:and|so)\s+)/u;

/**
 * The person the speaker goes to, as a slot's value: what goesTo names, where it is a person's name
 * ("Dr. Kristina Babić", "Dr. Ante Perić at Vlaška 44": the name). `joined`: the words after a switch in
 * its sentence, which open with what joins them to it or say " to Dr. Babić" right after the role.
 */
function goneTo(words: string, joined: boolean): string | null {
  let rest = words;
  if (joined) {
    const to = /^\s+to\s/u.exec(rest);
    if (to !== null) {
      const who = rest.slice(to[0].length).replace(/(?<![.!\s])[.!\s]+$/u, '');
      return /[,;:!?]/u.test(who) ? null : personOf(who);
    }
    const join = switchJoin.exec(rest);
    if (join === null) return null;
    rest = rest.slice(join[0].length);
  }
  const who = goesTo.exec(rest.trim())?.groups!['who'];
  return who === undefined ? null : personOf(who.replace(/(?<![.’'])[.’']+$/u, ''));
}

/** A month's or a weekday's name after "in": when, not where ("… in January"). */
const inTime = new RegExp(String.raw`\sin\s+(?:${[...months, ...weekdays].join('|')})(?![\p{L}])`, 'iu');

/**
 * A person's name as a value ("Dr. Ante Perić"), where they are after it left out ("… at Vlaška 44",
 * "Dr. Kristina Babić in Trešnjevka": a place's name after "at" or "in", capitalised; not a time, "in
 * January").
 */
function personOf(value: string): string | null {
  const v = value.trim();
  if (personName.test(v) && !describes(v) && !notAName.has(v.toLowerCase())) return v;
  if (inTime.test(v)) return null;
  const at = /\s(?:at|in)\s+(?=\p{Lu})/u.exec(v);
  const where = at === null ? undefined : v.slice(0, at.index).trim();
  return where !== undefined &&
    personName.test(where) &&
    !describes(where) &&
    !notAName.has(where.toLowerCase())
    ? where
    : null;
}

/** The slot of a role as a switch names it: "GP" and "family doctor" are the doctor's. */
const relationOf = (role: string): string => {
  const r = role.toLowerCase().replace(/\s+/gu, ' ');
  return relationNames[r] ?? r;
};

/**
 * The slot a sentence fills after a switch the sentence before it named ("I've decided to switch
 * dentists." then "From now on I go to Dr. Kristina Babić."): the role switched (`switchedIn` of the
 * sentence before) and whom one goes to now. Null for any other pair.
 */
export function goneToAfterSwitch(sentence: string, before: string): AttributeSentence | null {
  const switched = roleSwitched.exec(before.trim());
  if (switched === null || !/^[\s.!]*$/u.test(before.trim().slice(switched[0].length))) return null;
  if (isQuestion(sentence) || notNow.test(sentence)) return null;
  const who = goneTo(sentence, false);
  return who === null ? null : { predicate: relationOf(switched.groups!['role']!), value: who };
}

/**
 * A salary's amount and up to six words of its currency and its period, nothing else: "3,400 EUR
 * net", "€2,100 a month", "$85k a year", "85 000 kn". Not "2 weeks late again" nor "3 times what Petra
 * earns": words after a number that are no currency or period say something else of the pay.
 */
const payWord = String.raw`(?:[€$£]|eur|euros?|usd|dollars?|gbp|pounds?|kn|kuna|hrk|chf|francs?|sek|nok|dkk|pln|czk|jpy|yen|inr|rupees?|net|gross|neto|netto|bruto|brutto|a|an|per|each|every|month|year|week|hour|annum|monthly|yearly|annually|weekly|hourly|after|before|tax|pre-tax|p\.a\.|/(?:month|mo|year|yr|week|wk|hour|hr))`;
const salaryAmount = new RegExp(
  String.raw`^(?:[€$£]\s?)?(?:\d{1,3}(?:[,.\s]\d{3})+|\d+)(?:[.,]\d{1,2})?\s?[kK]?(?:\s*${payWord}(?![\p{L}\p{N}])){0,6}?(?=\s*(?:,(?!\d)|$))`,
  'iu',
);

/**
 * The value a sentence denies after a comma, at its end: "My favourite food is sushi now, not bacalhau",
 * "My number is 555-0199, not 555-0198". Its "not" would hold the sentence back, and the value given is
 * what it says, as "I live in Braga, not Porto" says Braga (withoutDenial). Only a short value after
 * ", not": "My favourite colour is not green" denies its own. So do ", no longer …", "… instead of
 * Radiohead" and "… rather than tea"; not ", sorry …", which corrects as often as it apologises ("blue,
 * sorry green").
 */
const valueDenied =
  /(?:,\s*(?:not|instead\s+of|rather\s+than|no\s+longer)|(?<=\d)\s+not|(?<=[\p{L}\p{N}])\s+(?:instead\s+of|rather\s+than))\s+(?:the\s+|a\s+|an\s+)?[\p{L}\p{N}+()'’-]+(?:\s+[\p{L}\p{N}+()'’-]+){0,3}[.!]*$/u;
/**
 * "My number is actually …", "my birthday is actually July 3, not July 2": how a value is said to be
 * another, its "actually" no part of it. The sentence held no slot ("actually" stood before the
 * number or the day), or held "actually sushi" as the favourite.
 */
const isActually = /(\bis)\s+actually(?=\s)/iu;
const withoutValueDenial = (s: string): string => {
  const m = valueDenied.exec(s);
  return m && m.index > 0 ? s.slice(0, m.index) : s;
};

/**
 * "i'm dating carla", "been seeing Carla for 3 months": the partner named. Seeing someone only said as
 * lasting ("I'm seeing Tom tomorrow" is a meeting, "I'm seeing Coldplay now" a concert).
 */
const datingLead = new RegExp(
  String.raw`^${fillers}(?:(?:i['’]?m|im|i\s+am|we['’]re|i['’]ve\s+been|i\s+have\s+been|been|i)\s+)?(?:(?:officially|also|now|just)\s+)?(?:(?:started|start)\s+)?(?:(?<dating>dating)|(?<seeing>seeing))\s+`,
  'iu',
);
const datingAfter =
  /^(?:\s+(?<now>now|officially)|\s+(?<since>for\s+(?:a\s+(?:few|couple\s+of)\s+|\d+\s+|a\s+|an\s+|like\s+\d+\s+|(?:two|three|four|five|six)\s+)(?:weeks?|months?|years?|yrs?)|since\s+\p{L}+))*(?:\s*[,;—–-].*|\s+(?:and|so|but)\s.*)?$/iu;
function datingSaid(s: string): AttributeSentence | null {
  const m = datingLead.exec(s);
  if (!m || isQuestion(s) || notNow.test(s)) return null;
  const rest = withoutChatEnd(s.slice(m[0].length)).replace(/(?<![.!\s])[.!\s]+$/u, '');
  // One is seeing a doctor, not dating one: a title before the name is no partner.
  if (/^(?:dr|mr|mrs|ms|prof|doctor)(?![\p{L}\p{N}])/iu.test(rest)) return null;
  const cased = /^\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*)?/u.exec(rest)?.[0];
  const who = cased ?? (writtenUncased(s) ? lowerName(rest, 0)?.named.split(/\s+/u)[0] : undefined);
  if (
    who === undefined ||
    notWho.test(who) ||
    describes(who) ||
    /^(?:dr|doctor|someone|somebody|a|the|my)$/iu.test(who)
  )
    return null;
  const after = datingAfter.exec(rest.slice(who.length));
  if (!after) return null;
  // Seeing someone is a partner only said as lasting ("been seeing carla for 3 months"): one is seeing a
  // band, a show or red "now", and a friend tomorrow. A dating is one either way.
  if (m.groups!['seeing'] !== undefined && after.groups!['since'] === undefined) return null;
  return { predicate: 'partner', value: who };
}

/**
 * Things of one's own that run to a day: a membership, a lease, a visa. One has one end at a time, so
 * "My gym membership runs until the end of February." is the slot "gym membership ends", as an agent's
 * fact `gym membership ends: January 31, 2027` holds it, and the later word replaces the earlier.
 */
const runningThings = String.raw`membership|subscription|contract|lease|tenancy|visa|passport|insurance|warranty|licen[cs]e|permit|probation`;
const endDate = new RegExp(
  String.raw`^${fillers}my\s+(?:(?:new|current)\s+)?(?<thing>(?:[\p{L}-]+\s+){0,2}?(?:${runningThings}))\s+(?:(?:ends|expires)(?:\s+(?:on|in))?|runs\s+out(?:\s+(?:on|in))?|(?:runs|lasts|goes|is\s+valid|is\s+good)\s+(?:until|till|through))\s+(?<value>[^\s,;:!?](?:[^,;:!?]|,(?=\s?\d{4}))*)$`,
  'iu',
);
/** A day, a month or a year: "January 31, 2027", "the end of February", "31.1.2027", "March". */
const aDay =
  /\d|(?<![\p{L}])(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![\p{L}])/iu;

/** "My gym membership runs until the end of February.": the thing's end, its day the value, her words its Memory. */
export function endDateSaid(s: string): AttributeSentence | null {
  const m = endDate.exec(s);
  if (m === null) return null;
  const value = m.groups!['value']!.replace(/(?<![.!\s])[.!\s]+$/u, '');
  if (!aDay.test(value) || value.split(/\s+/u).length > 6) return null;
  return { predicate: `${m.groups!['thing']!.toLowerCase()} ends`, value, own: true };
}

/** "(I'm) moving out of my flat on Ilica 42": a home by its street address, said as being left. */
const movingOut = new RegExp(
  String.raw`(?:moving|about\s+to\s+move)\s+out\s+of\s+(?:my|our)\s+(?:current\s+|old\s+)?${homeNouns}\s+(?:on|at|in)\s+${streetAddress}`,
  'u',
);
/**
 * Whether a sentence says the speaker is moving out of a home given by its address, and the day said
 * after it ("I'm moving out of my flat on Ilica 42 next Saturday": "next Saturday"; undefined for none).
 */
export function movingOutOf(sentence: string): { when?: string } | null {
  const m = movingOut.exec(sentence);
  if (m === null) return null;
  const when = whenAfter.exec(sentence.slice(m.index + m[0].length))?.groups!['when'];
  return when === undefined ? {} : { when };
}

/**
 * A new home given by its street address, the speaker's: "My new flat is at Vlaška 17", "Our new place
 * is on 12 Baker Street". With `the`, also "The new flat is at Vlaška 17 in Zagreb.", which is the
 * speaker's only beside her move (rule-deriver.ts reads it after "I'm moving out of my flat on …").
 */
const newHomeLead = new RegExp(
  String.raw`^${fillers}(?<whose>my|our|the)\s+new\s+${homeNouns}\s+(?:is|will\s+be)\s+(?:at|on)\s+`,
  'iu',
);
export function newHomeSaid(sentence: string, the = false): AttributeSentence | null {
  const s = sentence.trim();
  const m = newHomeLead.exec(s);
  if (m === null || (!the && m.groups!['whose']!.toLowerCase() === 'the') || isQuestion(s)) return null;
  return homeAt(withoutChatEnd(s.slice(m[0].length)).replace(/(?<![.!\s])[.!\s]+$/u, ''));
}

/** The home a value opens with, as its street address, and whether the value says more ("in Zagreb"). */
function homeAt(value: string): AttributeSentence | null {
  const street = streetAddressOpening(value);
  if (street === null) return null;
  // "Vlaška 17, 10000 Zagreb", "Vlaška 17 in Zagreb": the address in its city (street-address.ts).
  const city = cityAfterAddress(value.slice(street.length));
  const home = city === null ? street : homeValue({ street, city: city.city });
  return /[\p{L}\p{N}]/u.test(value.slice(street.length + (city?.length ?? 0)))
    ? { predicate: 'lives in', value: home, own: true }
    : { predicate: 'lives in', value: home };
}

/**
 * One home of a city and a street address said together ("Zagreb" and "Vlaška 17": "Vlaška 17,
 * Zagreb"), in either order; null where they are not one (two cities, an address in another city).
 */
export function oneHomeOf(a: string, b: string): string | null {
  const [x, y] = [homeParts(a), homeParts(b)];
  const street = x.street ?? y.street;
  if (street === null || (x.street !== null && y.street !== null)) return null;
  const cities = [x.city, y.city].filter((c): c is string => c !== null);
  if (cities.length === 0) return null;
  if (cities.length === 2 && normalizeStatement(cities[0]!) !== normalizeStatement(cities[1]!)) return null;
  return homeValue({ street, city: cities[0]! });
}

export function attributeSentence(sentence: string): AttributeSentence | null {
  const s = withoutCourtesy(
    withoutValueDenial(sentence.trim().replace(ownedMistake, '').replace(isActually, '$1')),
  );
  // The diet's ending says its own "not" or "no longer", so it is read before they rule a sentence out.
  // Each pattern below spans the sentence from its "I" or "we" to its end: a question has no room in it.
  const ended = dietEnded.exec(s);
  if (ended) return { predicate: 'diet', value: dietOf(ended), ends: true };
  const over = statusEnded.exec(s);
  if (over) return { predicate: 'relationship status', value: captured(over), ends: true };
  const led = consequence.exec(s);
  if (led && !isQuestion(s)) {
    const head = s.slice(0, led.index);
    const state = notNow.test(head) ? null : stateSaid(head);
    if (state) return { ...state, own: true };
  }
  // "I've decided to switch dentists: from now on I go to Dr. Kristina Babić": its colon is the
  // speaker's own, and the one gone to holds the slot the switch names.
  const switched = roleSwitched.exec(s);
  if (switched) {
    const who = goneTo(s.slice(switched[0].length), true);
    if (who !== null && !isQuestion(s))
      return { predicate: relationOf(switched.groups!['role']!), value: who };
  }
  // Its colon is the number's, not another speaker's ("new number btw: 933 222 111").
  const colonNumber = /\d/u.test(s) ? newNumberSaid(s) : null;
  if (colonNumber) return colonNumber;
  if (notNow.test(s) || afterOthersColon(s)) return null;
  const until = endDateSaid(s);
  if (until !== null) return until;
  const left = schoolAfter(schoolLeftLead, s);
  if (left !== null) return { predicate: 'studies at', value: left, ends: true };
  const school = schoolAfter(schoolLead, s);
  if (school !== null) return { predicate: 'studies at', value: school };
  const state = stateSaid(s);
  if (state) return state;
  const age = ageSentence.exec(s);
  if (age) {
    const years = Number(age.groups!['is'] ?? age.groups!['turned']);
    return years >= 1 && years <= 120 ? { predicate: 'age', value: String(years) } : null;
  }
  const job = jobIsAt
    .exec(s)
    ?.groups!['value']?.replace(/(?<![.!])[.!]+$/u, '')
    .replace(/(?<!\s)\s+now$/iu, '');
  if (job !== undefined && employerName.test(job)) return { predicate: 'works at', value: job };
  // "i was born on march 4 1992": one's birthday, as "my birthday is March 4" says it.
  const born = s.includes('born') ? bornOn.exec(s)?.groups!['day']?.trim() : undefined;
  if (born !== undefined && dayOfYear.test(born)) return { predicate: 'birthday', value: born };
  const after = / my /iu.test(s) ? relationAfter.exec(s) : null;
  // Only said as a change ("now", "new"), of a name: "Work is my partner", "The CEO is my boss" name no one.
  const changed =
    after && (after.groups!['now'] ?? after.groups!['new'] ?? after.groups!['later']) !== undefined;
  if (after && changed && !isQuestion(s) && !notWho.test(after.groups!['value']!.split(/\s+/u)[0]!)) {
    const who = after.groups!['value']!;
    const named =
      partnerNamed(who, s) && !describes(who)
        ? personName.test(who)
          ? who
          : lowerName(who, 0)?.named
        : null;
    const predicate = named ? attributeName(after.groups!['relation']!, named) : null;
    // "tom is my partner now, we met at work": the partner, and the sentence as its Memory.
    const more = after.groups!['more'] !== undefined;
    if (named && predicate) return { predicate, value: named, ...(more ? { own: true as const } : {}) };
  }
  const home = newHomeSaid(s);
  if (home !== null) return home;
  const plain = withoutWorkplace(s);
  const m = attributeLead.exec(plain) ?? newValueLead.exec(s);
  // A number or an address is written with digits or an @; most sentences have neither.
  if (!m)
    return (/[\d@]/u.test(s) ? contactSaid(s) : null) ?? (/dating|seeing/iu.test(s) ? datingSaid(s) : null);
  let value = withoutChatEnd(plain.slice(m[0].length)).replace(/(?<![.!\s])[.!\s]+$/u, '');
  value = value.replace(trailingTime, '');
  // "My new number is 913 000 111, the old one is dead", "My partner is Jordan, we've been together 4
  // years": a number or a name, then a clause of its own. The slot's value; the sentence its Memory.
  const comma = value.indexOf(',');
  const head = comma > 0 ? value.slice(0, comma).trim() : null;
  // "912 345 678 if u ever need to put it in a form": the number, then why it is given.
  const words = value.split(/\s+/u);
  const why = words.findIndex((w) => /^(?:if|in|for|so|when|whenever|just)$/iu.test(w));
  const number = why > 0 && phoneShaped(words.slice(0, why).join(' ')) ? words.slice(0, why).join(' ') : null;
  const predicate = attributeName(
    m[1] ?? m[2]!,
    head !== null && (phoneShaped(head) || (!dayOfYear.test(value) && dayOfYear.test(head)))
      ? head
      : (number ?? value),
  );
  if (predicate === null) return null;
  // The value's own statement, as for the value alone: a sentence of the slot holds one readable value
  // (slot-value.ts), which a parting or another source's same value must find. The quote keeps the rest.
  const sayingMore = (v: string): AttributeSentence => ({ predicate, value: v });
  if (predicate === 'birthday') {
    // "my birthday is on the 9th of May, don't forget": the day, before the clause after it.
    const day = dayOfYear.test(value) ? value : head;
    return { predicate, value: day!.replace(/^on\s+(?:the\s+)?/iu, '') };
  }
  // "3,400 EUR net", "€2,100 a month": an amount, its thousands' commas no clause's; what a sentence
  // says after the amount's words ("…, which is fine") is its quote's.
  if (predicate === 'salary') {
    const amount = salaryAmount.exec(value)?.[0];
    return amount === undefined ? null : amount === value ? { predicate, value } : sayingMore(amount);
  }
  // A street address, and what the sentence says after it ("Vlaška 17 in Zagreb, third floor"): the
  // home, the sentence its Memory.
  if (predicate === 'lives in') return homeAt(value);
  // An address is its one word: "ana3@x.com. see u tmrw" is no address, nor "in my bio".
  if (predicate === 'email address') {
    let first = value.split(/\s+/u)[0]!;
    while (/[.,;:!]$/u.test(first)) first = first.slice(0, -1);
    return emailShaped(first) ? { predicate, value: first } : null;
  }
  // A phone number's brackets ("(555) 010-0199") are part of it, not an aside.
  if (predicate === 'phone number') {
    if (phoneShaped(value)) return { predicate, value };
    if (head !== null && phoneShaped(head)) return sayingMore(head);
    if (number !== null) return sayingMore(number);
  }
  if (relationWords.test(m[1] ?? '')) {
    if (personName.test(value) && !describes(value)) return { predicate, value };
    if (head !== null && personName.test(head) && !describes(head) && !notAName.has(head.toLowerCase()))
      return sayingMore(head);
    // "My dentist is Dr. Ante Perić at Vlaška 44": the person, then where they see one. The slot's
    // value; the sentence its quote.
    const who = personOf(value);
    if (who !== null) return sayingMore(who);
    const named = namingLead.test(m[0]) ? lowerCaseName(value) : null;
    return named === null ? null : { predicate, value: named };
  }
  const n = value.split(/\s+/u).filter((w) => w !== '').length;
  if (n > 0 && n <= 6 && !notOneValue.test(value)) return { predicate, value };
  // "My favorite tea is hojicha now, I am tired of genmaicha": the value, then only how the speaker
  // feels of it or of the one it replaces. The slot's value; the sentence its quote.
  const feeling =
    head !== null && predicate.startsWith('favourite ') ? feelingAfter.exec(value.slice(comma)) : null;
  const felt = feeling ? head!.replace(trailingTime, '') : null;
  // "hojicha, I'm tired of hojicha" is no favourite: what one is tired of is the value it replaced.
  const tiredOf = feeling?.groups!['old']?.toLowerCase();
  if (felt === null || tiredOf === felt.toLowerCase()) return null;
  return felt.split(/\s+/u).length <= 6 && !notOneValue.test(felt) ? sayingMore(felt) : null;
}

/**
 * A clause after a value that tells how the speaker feels, of it or of the value it replaces, and says
 * no value of its own: ", I am tired of genmaicha" (not "tired of it", which is the value), ", I'm bored of lattes", ", it's so good", ", love
 * it". "…, they are amazing live" or "…, my sister loves pizza" say more, and the sentence holds no slot.
 */
const feelingAfter =
  /^,\s*(?:(?:I\s+am|I['’]?m|I\s+got|I['’]?ve\s+(?:got|gotten|grown)|getting|got)\s+(?:(?:so|really|a\s+bit|kinda|kind\s+of|just|totally)\s+)?(?:tired|bored|sick)\s+of\s+(?!(?:it|this|that|them|its)(?![\p{L}\p{N}]))(?<old>[\p{L}\p{N}'’-]+(?:\s+[\p{L}\p{N}'’-]+){0,3})|(?:it['’]?s|it\s+is)\s+(?:(?:so|really|just|very|soo+)\s+)?(?:good|great|amazing|delicious|tasty|lovely|yummy|the\s+best)|(?:I\s+)?(?:love|adore)\s+it(?:\s+so\s+much)?)(?:\s+(?:now|tbh|honestly|lol|haha))?[.!\s]*$/iu;
