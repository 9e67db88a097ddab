import { todoWord } from './split-text.ts';

/*
 * A task said in a sentence, as a checklist's box says one: "remind me to water the tomatoes", "note to
 * self: book the vet", "add oat milk to my to-do list", "I still need to call the bank", "I need to
 * renew my passport", "gotta call the plumber", "todo: renew passport". It was a Memory in the
 * speaker's words, which "What is still on my to-do list?" never found (the tasks lane reads
 * "To do: …", task-statement.ts). Only these cues, each opening the sentence, and each of the speaker
 * alone ("I", or none, as chat drops it): "it's on my to-do list" is a wish for some day, "we need to
 * book a hotel" a plan of two, and "don't forget to relax" is said to the listener, advice or their
 * task, never the speaker's. "I should call mum" is no task either: "should" says what would be good,
 * not what the speaker has taken on, and chat says it of wishes ("I should really try making one",
 * "I really should start a cork board"; each of LoCoMo dev's four).
 */

/** Words before the cue that say nothing of the task: "yes please, and remind me to …". */
const lead = String.raw`^(?:(?:yes|yeah|yep|ok|okay|and|also|oh|so|please|pls|plz|hey|btw|actually|oh\s+and|ugh|argh|right|anyway)[\s,!.:;—–-]*)*`;

/** Cues by which a person asks to be reminded, or writes to themselves: a task whatever its verb. */
const asked: readonly RegExp[] = [
  new RegExp(
    String.raw`${lead}(?:please\s+)?(?:(?:can|could|would|will)\s+you\s+)?(?:remind\s+me|don['’]?t\s+let\s+me\s+forget)\s+to\s+(?<task>\S)`,
    'iu',
  ),
  new RegExp(String.raw`${lead}note\s+to\s+self(?:\s*[:,—–-]\s*|\s+)(?<task>\S)`, 'iu'),
  new RegExp(String.raw`${lead}${todoWord}\s*:\s*(?<task>\S)`, 'iu'),
  new RegExp(
    String.raw`${lead}i\s+(?:need\s+to\s+remember\s+to|must\s+remember\s+to|must\s+not\s+forget\s+to|mustn['’]t\s+forget\s+to|can['’]?not\s+forget\s+to|can['’]t\s+forget\s+to)\s+(?<task>\S)`,
    'iu',
  ),
];

/**
 * Cues by which a person says what they must do: "I need to", "I still have to", "I've got to", "I
 * must", "gotta", "need to" as chat drops the "I". Chat says as much of a need that is no task ("I
 * need to go now", "I have to admit…", "gotta stay positive"): the task must be a deed one ticks off
 * (`isDeed`).
 */
const must = new RegExp(
  String.raw`${lead}(?:(?:i\s+|i(?=['’]))?(?:(?:still|also|really|just|definitely|urgently|seriously|finally)\s+)*(?:need\s+to|have\s+to|(?:have|['’]ve)\s+got\s+to|gotta)|i\s+(?:(?:still|also|really|just|definitely)\s+)*must)\s+(?<task>\S)`,
  'iu',
);

/** "add oat milk to my to-do list": the task is what is added, between these two. */
const adds = new RegExp(String.raw`${lead}(?:please\s+)?(?:add|put)\s+`, 'iu');
const toTheList = new RegExp(String.raw`\s(?:to|on)\s+my\s+(?:${todoWord}|task)s?\s+list[\s.!…]*$`, 'iu');

/** Where the task's words end: a clause after it ("…, they look thirsty") says why, not what. */
const clauseEnd = /[,;:!?…]|\s[—–-]\s|\s(?:because|since|so\s+that|cause|as)\s|\.(?:\s|$)/iu;

/**
 * The tasks a sentence says, each as [start, end) of its words in the sentence ("water the tomatoes on
 * the balcony" of "Yes please, and remind me to water the tomatoes on the balcony."); more than one
 * where it lists them ("I still need to buy the vase for Petra and call the bank"); none where it says
 * no task.
 */
export function tasksSaid(sentence: string): Array<[number, number]> {
  if (sentence.length > 300) return [];
  const add = adds.exec(sentence);
  const list = add === null ? null : toTheList.exec(sentence);
  if (add !== null && list !== null && list.index > add[0].length) {
    const at = wordsFrom(sentence, add[0].length, list.index, 1);
    return at === null ? [] : [at];
  }
  for (const re of asked) {
    const m = re.exec(sentence);
    if (m !== null) return listed(sentence, m.index + m[0].length - 1);
  }
  const m = must.exec(sentence);
  if (m === null) return [];
  const tasks = listed(sentence, m.index + m[0].length - 1);
  // A list is the speaker's to-dos where each of its tasks is a deed: "I need to relax and call mum"
  // says a wish beside a task.
  return tasks.every(([s, e]) => isDeed(sentence.slice(s, e))) ? tasks : [];
}

/**
 * The tasks listed from `start`, up to a clause that says why: a task after "and", "then" or a comma
 * where a verb and what it is done to open it ("buy the vase for Petra and call the bank about the
 * mortgage": two; "buy milk and eggs", "call mum and dad", "call the bank, ugh": one). One task where a
 * part would be under two words: "wash and iron my shirts" is one deed.
 */
function listed(s: string, start: number): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  let from = start;
  for (;;) {
    const rest = s.slice(from);
    const cut = clauseEnd.exec(rest);
    const end = cut === null ? rest.length : cut.index;
    const and = joint.exec(rest.slice(0, end));
    // A comma that goes on with another task ("call the bank, email Sam") lists it; any other ends it.
    const comma = and === null && cut?.[0] === ',' ? nextTask.exec(rest.slice(end)) : null;
    const m = and ?? comma;
    if (m === null || parts.length > 6) {
      parts.push([from, from + end]);
      break;
    }
    parts.push([from, from + (and !== null ? and.index : end)]);
    from += (and !== null ? 0 : end) + m.indices!.groups!['verb']![0];
  }
  const tasks = parts.map(([a, b]) => wordsFrom(s, a, b));
  if (tasks.every((t) => t !== null)) return tasks as Array<[number, number]>;
  const one = wordsFrom(s, start, parts.length > 1 ? firstClauseEnd(s, start) : parts[0]![1]);
  return one === null ? [] : [one];
}

/** Where the clause from `start` ends, "and" or a comma before another task being no end. */
function firstClauseEnd(s: string, start: number): number {
  const cut = clauseEnd.exec(s.slice(start));
  return cut === null ? s.length : start + cut.index;
}

/** What opens the next task after a joint: a lower-case word, then what it is done to or a particle. */
const taskOpening = String.raw`(?<verb>(?!(?:${[
  'a an the my our his her their your its this that these those some any all both more less',
  'i you he she we they it me him us them there here which who what when if or nor not no',
  'too also then so just very really',
]
  .join(' ')
  .replaceAll(
    ' ',
    '|',
  )})(?![\p{L}'’-]))\p{Ll}[\p{Ll}'’-]*)\s+(?=(?:the|a|an|my|our|his|her|their|your|some|this|that|these|those|it|him|them|me|us|up|back|out|off|down|over|\p{Lu}[\p{L}'’-]*)(?:\s|[.,!?;:]|$))`;
const nextTask = new RegExp(String.raw`^,\s*(?:and\s+then\s+|and\s+|then\s+)?${taskOpening}`, 'du');
const joint = new RegExp(String.raw`\s(?:and\s+then|and|then|&)\s+${taskOpening}`, 'du');

const words = (t: string): number => t.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/*
 * Verbs of a need that is no deed one ticks off: a stance or a telling ("I have to admit", "I must
 * say", "gotta tell you about…"), a way of being or a habit ("I need to relax", "gotta stay focused",
 * "I need to sleep more", "I have to keep going"), or a wish to try something some day ("I need to try
 * baking that"). "I need to sleep more" is no task: it is never done, only kept up, and a later "I
 * slept 9 hours" would tick it off. "go" alone is leaving ("I need to go now"); "go to the bank" is a
 * deed by where it goes.
 */
const notDeeds = new Set(
  [
    'say admit confess agree tell thank apologise apologize mention ask wonder',
    'be stay keep remain feel seem look sound believe trust think know hope wish love like enjoy',
    'relax rest sleep chill calm breathe focus grow strive improve practice practise exercise eat',
    'try start stop quit learn remember forget figure balance make take have get find',
  ]
    .join(' ')
    .split(' '),
);
/** Deeds these verbs open as chat says them: "make an appointment", "take the car in", "get a new charger". */
const deedAfter: Readonly<Record<string, RegExp>> = {
  make: /^(?:an?\s+appointment|a\s+(?:booking|reservation|call|payment|doctor['’]s)|the\s+(?:booking|reservation|payment|call)|dinner|a\s+cake)\b/iu,
  take: /^(?:the\s+(?:car|dog|cat|bins?|trash|rubbish|kids?)|out\s+the\s+(?:bins?|trash|rubbish)|back\s+)\b/iu,
  get: /^(?:a|an|the|my|some|new)\s+(?!(?:better|chance|idea|feeling|sense|grip|life|rest|sleep)\b)\p{L}/iu,
  // "figure out which flight to take" is a deed; "figure out how to balance it all" a struggle.
  figure: /^out\s+(?:the|my|which|where|when)\s/iu,
  // "find a plumber" is a deed; "find a way to tough it out", "find time to…" are a wish.
  find: /^(?!(?:a\s+way|ways|a\s+balance|balance|time|the\s+time|the\s+strength|the\s+energy|peace|joy|motivation)\b)\p{L}/iu,
  // "tell him about the leak" is a deed; "I gotta tell you about…" is a telling now.
  tell: /^(?!(?:you|ya|u)\b)\p{L}/iu,
};
/** A task's end that says a habit kept up, never done: "sleep more", "call mum more often". */
const habit =
  /\s(?:more(?:\s+often)?|less|better|regularly|every\s+\w+|each\s+\w+|daily|weekly|all\s+the\s+time|anymore|from\s+now\s+on|in\s+general)[\s.!…]*$/iu;
/** Leaving the chat: "go now", "go back to work", "head out". */
const leaving =
  /^(?:go|head|run|dash|leave|jump|hop)(?:\s+(?:now|soon|off|out|home|to\s+bed|back\s+to\s+work|to\s+work))*[\s.!…]*$/iu;

/** Whether a need's words say a deed one ticks off (see notDeeds, habit, leaving). */
function isDeed(task: string): boolean {
  if (habit.test(task) || leaving.test(task)) return false;
  const [verb = '', ...rest] = task.split(/\s+/u);
  const v = verb.toLowerCase();
  if (!notDeeds.has(v)) return true;
  return deedAfter[v]?.test(rest.join(' ')) ?? false;
}

/**
 * The span trimmed, or null where it holds fewer than `least` words: a task said after a cue is a verb
 * and what it is done to; one added to a list may be a thing alone ("add milk to my to-do list").
 */
function wordsFrom(s: string, start: number, end: number, least = 2): [number, number] | null {
  const trimmed = s.slice(start, end).trimEnd();
  if (words(trimmed) < least) return null;
  return [start, start + trimmed.length];
}
