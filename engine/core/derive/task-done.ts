import { verbForms } from '../retrieve/verb-forms.ts';
import { newsLeadIns } from './called-off.ts';
import { isQuestion } from './unmarked-question.ts';
import { taskStatementStart } from './task-statement.ts';

/*
 * A task said done in the past tense: "I renewed my passport today!", "Finally called the plumber.",
 * "I've sent Priya the onboarding doc". A checklist's open task ("To do: renew passport",
 * task-statement.ts) stayed open beside it, and "What is still on my to-do list?" listed it. What the
 * sentence says is read against the speaker's open tasks (engine/derive/done-tasks.ts): the task it
 * names is done, its next version "Done: renew passport", quoting the sentence.
 */

/** What a sentence says was done: the verbs it may be a past form of, and the words after it. */
export interface TaskDone {
  /**
   * The verb's base forms it may be ("renewed": renew, renewe), as a task would open with one; `anyVerb`
   * for a word that says a task done whatever its verb ("Taxes done.").
   */
  verbs: readonly string[];
  /** The words after the verb, lower case, but the small ones ("my passport today": passport, today). */
  words: readonly string[];
}

/** "Done, I bought the gift", "All done: I called the bank": the deed told after it is said done. */
const doneFirst = String.raw`(?:(?:all\s+|it['’]?s\s+|that['’]?s\s+)?(?:done|finished|sorted)\s*[,:!.—–-]+\s*(?:${newsLeadIns}))?`;
const opening = new RegExp(
  String.raw`^${newsLeadIns}${doneFirst}(?:(?:i|we)(?:['’]ve|\s+have)?\s+)?(?:just\s+|finally\s+|already\s+|also\s+)*(?<verb>[\p{L}]+)\s+(?<rest>[^.!?;]+)`,
  'iu',
);

/** Small words that say nothing of which task: "call the bank" and "called my bank" are one task. */
const small = new Set(
  'a an the my our his her their to for of on in at with and from about up off out back this that some today tonight yesterday finally just already also'.split(
    ' ',
  ),
);

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}'’-]+/u)
    .map((w) => w.replace(/['’]s$/u, ''))
    .filter((w) => w !== '' && !small.has(w));

/**
 * The base forms a past form may be of: "renewed" renew (and renewe), "scheduled" schedule, "submitted"
 * submit, "replied" reply, "sent" send (verb-forms.ts). Empty for a word that is no past form.
 */
export function pastOf(word: string): string[] {
  const w = word.toLowerCase();
  const irregular = verbForms(w);
  if (irregular.length > 0 && irregular[0] !== w && !irregular.slice(0, 3).includes(w))
    return [irregular[0]!];
  if (!/ed$/u.test(w) || w.length < 4) return [];
  const stem = w.slice(0, -2);
  const out = [stem, `${stem}e`];
  if (/ied$/u.test(w)) out.push(`${w.slice(0, -3)}y`);
  if (/([bdgklmnprtz])\1ed$/u.test(w)) out.push(w.slice(0, -3));
  return [...new Set(out)];
}

/** Not a deed done: denied, wished or asked ("I haven't renewed…", "if I called…"). */
const notDone =
  /(?<![\p{L}\p{N}])(?:not|n['’]t|never|if|whether|should|would|could|might|wish|hope|need|needed|wanted|tried|forgot|almost|nearly)(?![\p{L}\p{N}])/iu;

/** The deed a sentence of the speaker's says done, or null. */
export function taskDone(sentence: string): TaskDone | null {
  const s = sentence.trim();
  if (s.length > 200 || isQuestion(s)) return null;
  for (const re of [opening, objectFirst]) {
    const m = re.exec(s);
    if (m === null) continue;
    const verb = m.groups!['verb']!.toLowerCase();
    const verbs = finished.has(verb) ? [anyVerb] : pastOf(verb);
    if (verbs.length === 0) continue;
    if (notDone.test(s.slice(0, m.index + m[0].length))) return null;
    const words = wordsOf(m.groups!['rest']!);
    return words.length > 0 ? { verbs, words } : null;
  }
  return null;
}

/** "Passport renewed!", "Taxes done.": what was done, then its past form, the sentence's end. */
const objectFirst = new RegExp(
  String.raw`^${newsLeadIns}(?:(?:the|my|our)\s)?(?<rest>[\p{L}\p{N}'’-]+(?:\s[\p{L}\p{N}'’-]+){0,4})\s(?:(?:is|are|was|were|got|all|finally)\s)?(?<verb>\p{L}+)[\s.!…]*$`,
  'iu',
);

/** Words that say a task is done whatever its verb ("Taxes done.", "Report finished!"). */
const finished = new Set(['done', 'finished', 'completed', 'sorted', 'handled']);
/** Stands for any verb in `TaskDone.verbs`: a task that opens with any verb may be the one done. */
export const anyVerb = '*';

/**
 * Whether an open task is the one done: it opens with one of the verbs, and the sentence says what it
 * is done to, the task's words before any word that says where, when or about what ("water the
 * tomatoes on the balcony" is done by "I watered the tomatoes"); a task with none of those, its every
 * word after the verb, but one where it has three or more ("send Priya the onboarding doc" is done by
 * "I sent Priya the doc").
 */
export function isTaskDone(task: string, done: TaskDone): boolean {
  const [verb, ...rest] = task
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w !== '');
  if (verb === undefined) return false;
  if (!done.verbs.includes(anyVerb) && !done.verbs.includes(verb.replace(/[^\p{L}]/gu, ''))) return false;
  const at = rest.findIndex((w) => besides.has(w));
  const object = at > 0 ? wordsOf(rest.slice(0, at).join(' ')) : [];
  const want = object.length > 0 ? object : wordsOf(rest.join(' '));
  if (want.length === 0) return false;
  const said = new Set(done.words.flatMap((w) => [w, w.replace(/e?s$/u, '')]));
  const missing = want.filter((w) => !said.has(w) && !said.has(w.replace(/e?s$/u, ''))).length;
  return missing === 0 || (missing === 1 && want.length >= 3 && object.length === 0);
}

/** Words after what a task is done to that say where, when or about what: "on the balcony", "about the sink". */
const besides = new Set(
  'about at on in for with before after by from to into onto until till during'.split(' '),
);

/** Whether a statement is a task done by this deed ("Done: renew passport" by "I renewed my passport"). */
export function isDoneBy(statement: string, done: TaskDone): boolean {
  const start = taskStatementStart(true).statement;
  return statement.startsWith(start) && isTaskDone(statement.slice(start.length), done);
}
