/**
 * How a query asks about the person's tasks, read from its words alone: the tasks lane then reads the
 * Memories a checklist's tasks derive ("To do: send Priya the doc", "Done: renew passport";
 * rule-deriver.ts `withTaskState`), which share no word with "What's still on my to-do list?".
 */
export interface TaskQuestion {
  /** Asks what is still to do. */
  open: boolean;
  /** Asks what is done. */
  done: boolean;
}

/** A list of tasks named: "to-do list", "todos", "my tasks", "the checklist". */
const listNamed =
  /(?<![\p{L}\p{N}])(?:to[- ]?dos?(?=[\s?.!,]*(?:list|$|\?))|todos?|tasks?|checklists?)(?![\p{L}\p{N}])/iu;
/**
 * What is left to do, asked without naming a list: "what do I still have to do?", "what's left to do
 * this week?", "what is still to do?", "what remains to be done?", "what still needs doing?". "still" is
 * a word of the question, not of what it asks: read as a search word it found "I still eat it" first. The words after "to do" must end the question or say when: "what do I need to do to
 * renew a passport?" asks how, not what is on a list.
 */
const leftToDo =
  /(?<![\p{L}\p{N}])(?:(?:have|need|got|left|remaining|pending|outstanding)\s+(?:left\s+)?to\s+do|(?:still|yet|left|remains?|remaining)\s+to\s+(?:do|be\s+done)|needs?\s+(?:to\s+be\s+done|doing))(?=\s*(?:[?.!]|$|today|tonight|tomorrow|this\s|next\s|later|still|before\s|by\s))/iu;
/** Done, asked of a list or of ticking it: "which tasks are done?", "what have I ticked off?". */
const doneWords =
  /(?<![\p{L}\p{N}])(?:done|finished|completed|complete|(?:tick|check|cross)(?:ed)?\s+off)(?![\p{L}\p{N}])/iu;
const ticked = /(?<![\p{L}\p{N}])(?:tick|check|cross)(?:ed)?\s+off(?![\p{L}\p{N}])/iu;
/** Still open, said beside "done": "what isn't done yet?", "which tasks are not finished?". */
const notYet =
  /(?<![\p{L}\p{N}])(?:not|isn['’]t|aren['’]t|haven['’]t|yet|still|left|open|pending|remaining)(?![\p{L}\p{N}])/iu;

/** What a query asks of the person's tasks; null: it asks nothing of them. */
export function readTaskQuestion(query: string): TaskQuestion | null {
  const listed = listNamed.test(query);
  const left = leftToDo.test(query);
  const doneAsked = doneWords.test(query) && (listed || ticked.test(query));
  if (!listed && !left && !doneAsked) return null;
  if (!doneAsked) return { open: true, done: false };
  // "What's done and what's left?": both; "Which tasks are done?": the ticked ones alone.
  return { open: left || notYet.test(query), done: true };
}
