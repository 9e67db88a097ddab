import { saysHowAPersonIs } from './how-a-person-is.ts';
import {
  chatEnd,
  clauseBeforeItsStart,
  fillers,
  namesAPerson,
  occupations,
  otherLead,
  person,
  titledOccupation,
  type AttributeSentence,
} from './slot-sentences.ts';

/**
 * What one does for a living, said alone: "I work as a nurse", "I'm a software engineer", "i'm a
 * barista now", "I got promoted to senior engineer". One at a time, so a new one replaces the old;
 * "I'm no longer a nurse" ends it. Only an occupation's word last (slot-sentences.ts `occupations`):
 * "I'm a regular", "I'm a student" or "I'm a mess" say no job. Where one works as well ("I'm a nurse at
 * Santa Maria") is the employer's clause, read by slotSentences.
 */
const role = (n = '') => String.raw`(?<role${n}>(?:[\p{L}-]+\s+){0,3}?${occupations})`;
const plainArticle = String.raw`(?:an?|the)\s+`;
/**
 * "a", "the", and "the new" of one who just started: "I'm the new nurse at Santa Maria". Only where
 * one is what one says: "I'm not the new nurse anymore" is a nurse still.
 */
const article = String.raw`${plainArticle}(?:new\s+)?`;
const until = String.raw`(?:\s+(?:now|these\s+days|nowadays|by\s+trade|by\s+profession|full[-\s]time|part[-\s]time|today|yesterday|this\s+week|last\s+week|at\s+last|finally|for\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|many)\s+(?:years?|yrs?|months?|weeks?)(?:\s+now)?))?`;
/** "got a new job as a nurse", "started my new role as a data analyst". */
const newJobAs = String.raw`(?:I\s+)?(?:just\s+|finally\s+)?(?:got|landed|took|accepted|started)\s+(?:a|the|my)\s+(?:(?:new\s+)?(?:job|position)|new\s+role)\s+as\s+${article}`;
/** The same said of another: "Rui got a new job as a nurse", "Ana just started her new role as …". */
const newJobAsOf = String.raw`\s+(?:just\s+|finally\s+)?(?:got|landed|took|accepted|started)\s+(?:a|the|his|her|their)\s+(?:(?:new\s+)?(?:job|position)|new\s+role)\s+as\s+${article}`;
const said = new RegExp(
  String.raw`^${fillers}(?:I(?:['’]?m|\s+am)\s+(?:now\s+)?${article}|I(?:['’]m|\s+am|['’]ve|\s+have)?\s+(?:now\s+)?(?:still\s+)?(?:work(?:ing)?|been\s+working)\s+as\s+${article}|(?:I\s+)?(?:just\s+|finally\s+|officially\s+)?got\s+promoted\s+to\s+(?:${article})?|${newJobAs})${role()}${until}${chatEnd}`,
  'iu',
);
/** "I'm Lead Data Scientist", "I'm now CTO": a title in capitals, with no article (titledOccupation). */
const saidTitled = new RegExp(
  String.raw`^${fillers}I(?:['’]?m|\s+am)\s+(?:now\s+)?(?<role>${titledOccupation})${until}${chatEnd}`,
  'u',
);
/** An event the "employer" is one's part at: "at Marta's wedding", "at the Globex party". */
const eventAfter =
  /^\s*(?:wedding|party|birthday|funeral|reunion|conference|festival|gig|concert|event|game|match)(?![\p{L}\p{N}])/iu;
/** A role said after an employer: "… at Zalando as a data engineer". */
const asRole = new RegExp(String.raw`\s+as\s+${article}${role()}$`, 'iu');
/**
 * Where a person does their job, said after it as a place's name ("… a nurse in Lisbon"): no part of
 * the occupation, and no home (one may work in a city one does not live in).
 */
const inPlace = String.raw`(?<where>\s+in\s+\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})?`;
/**
 * "Rui is a nurse", "My brother Rui works as an electrician now", "Rui is no longer a nurse", "My brother
 * Tiago is a nurse in Lisbon".
 */
const saidOf = new RegExp(
  String.raw`${otherLead}${person}(?:(?:\s+is|['’]s)\s+(?:now\s+|still\s+)?${article}|\s+(?:works|is\s+working|has\s+been\s+working)\s+as\s+${article}|${newJobAsOf}|(?<over>\s+is\s+no\s+longer\s+${plainArticle}))${role()}${inPlace}${until}${chatEnd}`,
  'u',
);
/** "Rui isn't a nurse anymore", "Ana is not a teacher any longer". */
const endedOf = new RegExp(
  String.raw`${otherLead}${person}\s+(?:isn['’]t|is\s+not)\s+${plainArticle}${role()}\s+(?:any\s?more|any\s+longer)${chatEnd}`,
  'u',
);
const ended = new RegExp(
  String.raw`^${fillers}I(?:['’]?m|\s+am)\s+(?:no\s+longer\s+${plainArticle}${role()}|not\s+${plainArticle}${role('2')}\s+(?:any\s?more|any\s+longer))${chatEnd}`,
  'iu',
);

/**
 * Words before an occupation that say how one does it or whether one is one at all ("a terrible cook",
 * "a backseat driver", "an aspiring writer", "a former teacher"): no occupation then.
 */
const notAJob = new Set(
  `terrible horrible lousy decent good great bad amazing awesome better worse best worst aspiring wannabe
   would-be former ex retired amateur hobby hobbyist natural born big huge lazy messy nervous backseat
   night morning weekend sunday home bit total complete real proper ai virtual digital helpful chat
   of and or & for to with the a an my your his her their our pokemon pokémon rocket slave getaway
   armchair household designated vietnam war army navy veteran only unofficial youngest oldest first
   last token`.split(/\s+/u),
);
/** Occupations' words that say no job on their own: "I'm an employee", "I'm the driver tonight". */
const noJobAlone = new Set(['employee', 'driver', 'cook', 'writer', 'coach', 'trainer', 'assistant']);

/** The occupation a sentence says the speaker has, or no longer has; null for any other sentence. */
export function occupationSaid(sentence: string): AttributeSentence | null {
  const over = ended.exec(sentence);
  const m = over ?? said.exec(sentence) ?? saidTitled.exec(sentence);
  if (!m) return null;
  return occupationOf(m[0], m.groups!['role'] ?? m.groups!['role2']!, over !== null);
}

/** What a person the speaker names is (their occupation, their diet), said of them in a sentence of its own. */
export interface AttributeOfAnother extends AttributeSentence {
  /** The person, as named: "Rui", "Tom Reyes". */
  who: string;
  /**
   * Whether the sentence is the person and the occupation alone ("Rui is a nurse", not "My brother Rui …"
   * nor "Rui is a nurse in Lisbon").
   */
  alone: boolean;
}

/**
 * The occupation a sentence that opens with a named person says they have, or no longer have: "Rui is a
 * nurse", "My brother Rui works as an electrician now". As narrow as the speaker's own.
 */
export function occupationOfAnotherSaid(sentence: string): AttributeOfAnother | null {
  const gone = endedOf.exec(sentence.trim());
  const m = gone ?? saidOf.exec(sentence.trim());
  if (!m) return null;
  const who = m.groups!['who']!;
  // "May is a nurse": an occupation is only a person's, so a month that is a name is theirs.
  if (!namesAPerson(who, true)) return null;
  const over = gone !== null || m.groups!['over'] !== undefined;
  const job = occupationOf(m[0], m.groups!['role']!, over);
  if (job === null) return null;
  const alone = m[0].trimStart().startsWith(who) && m.groups!['where'] === undefined;
  return { ...job, who, alone };
}

/**
 * The occupation said before an employer ("I'm a nurse" of "I'm a nurse at Santa Maria", "Rui works as
 * a nurse" of "Rui works as a nurse at Santa Maria"): read from the employer's clause as a sentence of
 * its own, with where it is in the sentence to quote. `who` for a person the speaker names.
 */
export function occupationBeforeEmployer(
  sentence: string,
  employer: { clause: readonly [number, number]; value: string },
  who?: string,
): { job: AttributeSentence; quote: [number, number] } | null {
  const [from, to] = clauseBeforeItsStart(sentence, employer.clause);
  const clause = sentence.slice(from, to);
  // "I'm the photographer at Marta's wedding": a part at an event, not a job.
  if (/['’]s$/u.test(employer.value) || eventAfter.test(sentence.slice(to))) return null;
  // "I work at Zalando as a data engineer": the role the clause ends with, quoting "as a data engineer",
  // so that once she leaves Zalando the role's evidence does not name it as her employer still (Context
  // quotes what still holds of a Record: "… as a data engineer", not the old employer with it). A
  // day to come after the role ("… as a senior data engineer on January 11") is no part of it.
  const after = asRole.exec(clause);
  if (after !== null) {
    const job = occupationOf(after[0], after.groups!['role']!, false);
    const start = from + after.index + after[0].length - after[0].trimStart().length;
    return job === null ? null : { job, quote: [start, to] };
  }
  // A chat in lower case names "santa maria" where the employer's value reads "Santa Maria".
  if (!clause.toLowerCase().endsWith(employer.value.toLowerCase())) return null;
  const head = clause.slice(0, clause.length - employer.value.length).trimEnd();
  const by = /\s(?:at|for)$/u.exec(head);
  if (!by) return null;
  const said = head.slice(0, by.index).trimEnd();
  const job = who === undefined ? occupationSaid(said) : occupationOfAnotherSaid(said);
  if (job === null || job.ends || (who !== undefined && (job as AttributeOfAnother).who !== who)) return null;
  return { job: { predicate: job.predicate, value: job.value }, quote: [from, from + said.length] };
}

/**
 * The occupation a role said on its own names: "as a senior data engineer" of "I start there on
 * January 11 as a senior data engineer", whose employer the sentence before names. Null where it is no
 * job ("as a favour", "as a terrible cook").
 */
export function occupationAs(said: string): AttributeSentence | null {
  const m = asRole.exec(` ${said.trim()}`);
  return m === null || m.index !== 0 ? null : occupationOf(m[0], m.groups!['role']!, false);
}

/** An occupation's words as a value, where they say a job at all. */
function occupationOf(said: string, role: string, over: boolean): AttributeSentence | null {
  // "CTO", "SRE": an acronym keeps its capitals; "Nurse" is a nurse.
  const value = role
    .split(/\s+/u)
    .map((w) => (/^\p{Lu}{2,}$/u.test(w) ? w : w.toLowerCase()))
    .join(' ');
  const words = value.toLowerCase().split(' ');
  if (words.slice(0, -1).some((w) => notAJob.has(w) || saysHowAPersonIs(w))) return null;
  // "I'm the driver": a cook, a writer or a driver alone is as often what one is tonight or by nature.
  if (words.length === 1 && noJobAlone.has(words[0]!) && !/(?<!\S)as\s/iu.test(said)) return null;
  return { predicate: 'occupation', value, ...(over ? { ends: true as const } : {}) };
}
