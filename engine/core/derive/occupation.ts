import { saysHowAPersonIs } from './how-a-person-is.ts';
import { chatEnd, fillers, occupations, type AttributeSentence } from './slot-sentences.ts';

/**
 * What one does for a living, said alone: "I work as a nurse", "I'm a software engineer", "i'm a
 * barista now", "I got promoted to senior engineer". One at a time, so a new one replaces the old;
 * "I'm no longer a nurse" ends it. Only an occupation's word last (slot-sentences.ts `occupations`):
 * "I'm a regular", "I'm a student" or "I'm a mess" say no job. Where one works as well ("I'm a nurse at
 * Santa Maria") is the employer's clause, read by slotSentences.
 */
const role = (n = '') => String.raw`(?<role${n}>(?:[\p{L}-]+\s+){0,3}?${occupations})`;
const article = String.raw`(?:an?|the)\s+`;
const until = String.raw`(?:\s+(?:now|these\s+days|nowadays|by\s+trade|by\s+profession|full[-\s]time|part[-\s]time|today|yesterday|this\s+week|last\s+week|at\s+last|finally|for\s+(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|many)\s+(?:years?|yrs?|months?|weeks?)(?:\s+now)?))?`;
const said = new RegExp(
  String.raw`^${fillers}(?:I(?:['’]?m|\s+am)\s+(?:now\s+)?${article}|I(?:['’]m|\s+am|['’]ve|\s+have)?\s+(?:now\s+)?(?:still\s+)?(?:work(?:ing)?|been\s+working)\s+as\s+${article}|(?:I\s+)?(?:just\s+|finally\s+|officially\s+)?got\s+promoted\s+to\s+(?:${article})?)${role()}${until}${chatEnd}`,
  'iu',
);
const ended = new RegExp(
  String.raw`^${fillers}I(?:['’]?m|\s+am)\s+(?:no\s+longer\s+${article}${role()}|not\s+${article}${role('2')}\s+(?:any\s?more|any\s+longer))${chatEnd}`,
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
   armchair household designated vietnam war army navy veteran`.split(/\s+/u),
);
/** Occupations' words that say no job on their own: "I'm an employee", "I'm the driver tonight". */
const noJobAlone = new Set(['employee', 'driver', 'cook', 'writer', 'coach', 'trainer', 'assistant']);

/** The occupation a sentence says the speaker has, or no longer has; null for any other sentence. */
export function occupationSaid(sentence: string): AttributeSentence | null {
  const over = ended.exec(sentence);
  const m = over ?? said.exec(sentence);
  if (!m) return null;
  const value = (m.groups!['role'] ?? m.groups!['role2']!).toLowerCase().replace(/\s+/gu, ' ');
  const words = value.split(' ');
  if (words.slice(0, -1).some((w) => notAJob.has(w) || saysHowAPersonIs(w))) return null;
  // "I'm the driver": a cook, a writer or a driver alone is as often what one is tonight or by nature.
  if (words.length === 1 && noJobAlone.has(words[0]!) && !/(?<!\S)as\s/iu.test(m[0])) return null;
  return { predicate: 'occupation', value, ...(over ? { ends: true as const } : {}) };
}
