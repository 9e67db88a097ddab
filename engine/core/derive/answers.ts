import { months, weekdays } from '../retrieve/time-expressions.ts';
import { firstPerson } from './about-another.ts';
import { reactionOnly } from './reactions.ts';
import { valueKind } from './said-instead.ts';
import { normalizeStatement } from './record-text.ts';
import { chatEnd } from './slot-sentences.ts';
import { sentences } from './split-text.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/**
 * A question put to the speaker about one of their slots ("Where are you based?", "when's your
 * birthday?"), as the sentence a bare answer to it says in full: "Braga" to "Where do you live?" is "I
 * live in Braga". The rules read that sentence as any other, so an answer holds a slot only where the
 * sentence would.
 */
interface AskedSlot {
  asked: RegExp;
  /** "Do you still live in Porto?": answered by a mend ("no, Braga"), never by a bare word ("Sadly"). */
  still?: true;
  /** The answer's value said in full, in the first person. */
  said: (value: string, m: RegExpExecArray) => string;
}

const you = String.raw`(?:you|u)`;
const your = String.raw`(?:your|ur)`;
const is = String.raw`(?:['’]?s|\s+is)`;
const now = String.raw`(?:\s+(?:now|these\s+days|at\s+the\s+moment|currently|again))?`;
const role = String.raw`(wife|husband|partner|girlfriend|boyfriend|gf|bf|fianc[ée]e?|manager|boss|landlord|landlady|doctor|dentist|therapist)`;

const asked: readonly AskedSlot[] = [
  {
    asked: new RegExp(
      String.raw`^(?:so\s+)?(?:where\s+(?:do|did)\s+${you}\s+(?:live|stay)|where\s+are\s+${you}\s+(?:based|living|located)|what\s+city\s+(?:do\s+${you}\s+live\s+in|are\s+${you}\s+(?:in|based\s+in))|where\s+do\s+${you}\s+call\s+home)${now}$`,
      'iu',
    ),
    said: (v) => `I live in ${v}`,
  },
  {
    // "Do you still live in Porto?": answered "no, Braga" (read as a mend first, said-instead.ts).
    asked: new RegExp(
      String.raw`^(?:so\s+)?(?:do\s+${you}\s+still\s+live\s+in|are\s+${you}\s+still\s+(?:living\s+in|based\s+in|in))\s(?<named>[^?]+)$`,
      'iu',
    ),
    still: true,
    said: (v) => `I live in ${v}`,
  },
  {
    asked: new RegExp(
      String.raw`^(?:so\s+)?(?:do\s+${you}\s+still\s+work\s+(?:at|for)|are\s+${you}\s+still\s+(?:working\s+)?(?:at|with))\s(?<named>[^?]+)$`,
      'iu',
    ),
    still: true,
    said: (v) => `I work at ${v}`,
  },
  {
    asked: new RegExp(
      String.raw`^(?:so\s+)?(?:where\s+do\s+${you}\s+work|who\s+do\s+${you}\s+work\s+for|where\s+are\s+${you}\s+working|what\s+company\s+(?:do\s+${you}\s+work\s+(?:at|for)|are\s+${you}\s+(?:at|with)))${now}$`,
      'iu',
    ),
    said: (v) => `I work at ${v}`,
  },
  {
    asked: new RegExp(
      String.raw`^(?:so\s+)?(?:what\s+do\s+${you}\s+do(?:\s+for\s+(?:a\s+living|work))?|what${is}\s+${your}\s+(?:job|occupation|profession)|what\s+do\s+${you}\s+work\s+as)${now}$`,
      'iu',
    ),
    said: (v) => (/^(?:an?|the)\s/iu.test(v) ? `I work as ${v}` : `I work as a ${v}`),
  },
  {
    asked: new RegExp(
      String.raw`^(?:when${is}\s+${your}\s+(?:birthday|bday|b-day)|what${is}\s+${your}\s+(?:birthday|date\s+of\s+birth|birth\s+date|birthdate)|when\s+were\s+${you}\s+born)$`,
      'iu',
    ),
    said: (v) => `my birthday is ${v}`,
  },
  {
    asked: new RegExp(
      String.raw`^what${is}\s+${your}\s+(?:(?:new\s+)?(?:phone\s+|mobile\s+|cell\s+)?number|phone|mobile|cell)$`,
      'iu',
    ),
    said: (v) => `my number is ${v}`,
  },
  {
    asked: new RegExp(String.raw`^what${is}\s+${your}\s+(?:new\s+)?e-?mail(?:\s+address)?$`, 'iu'),
    said: (v) => `my email is ${v}`,
  },
  {
    asked: new RegExp(
      String.raw`^(?:what${is}\s+${your}\s+${role}(?:['’]s)?\s+name|who${is}\s+${your}\s+${role})${now}$`,
      'iu',
    ),
    said: (v, m) => `my ${m[1] ?? m[2]} is ${v}`,
  },
  {
    asked: new RegExp(String.raw`^what${is}\s+${your}\s+(favou?rite\s+\p{L}+(?:\s+\p{L}+)?)$`, 'iu'),
    said: (v, m) => `my ${m[1]} is ${v}`,
  },
  {
    asked: new RegExp(String.raw`^how\s+old\s+are\s+${you}(?:\s+now)?$`, 'iu'),
    said: (v) => (/^\d{1,3}$/u.test(v) ? `I'm ${v} years old` : ''),
  },
];

/** A message's sentences, trimmed; given already split (a caller that reads them for more), as they are. */
const sentencesOf = (message: string | readonly string[]): readonly string[] =>
  typeof message === 'string' ? sentences(message).map((s) => s.value.trim()) : message;

/** Words a question opens with before what it asks: "Nice! And where are you based?" asks the same. */
const opening =
  /^(?:(?:and|also|oh|ok|okay|so|btw|by\s+the\s+way|great|nice|cool|awesome|thanks)[,!.]?\s+)*/iu;

/** What a message asks of the speaker: the answer said in full, and whether it asks "still". */
export interface Asked {
  said: (value: string) => string;
  still: boolean;
  /** The value a "still" question names ("Porto" of "Do you still live in Porto?"). */
  named?: string;
}

/**
 * What `message` (or its sentences) asks the speaker about one of their slots ("Nice to meet you! Where are you based?"):
 * the answer said in full, as a function of its value. Null where it asks nothing of a slot, or asks
 * anything else as well ("Where are you based? Wanna grab coffee?"): the reply may answer that.
 */
export function askedOf(message: string | readonly string[]): Asked | null {
  const questions = sentencesOf(message).filter((q) => q.endsWith('?'));
  if (questions.length !== 1) return null;
  const q = questions[0]!;
  let end = q.length;
  while (end > 0 && '?! '.includes(q[end - 1]!)) end -= 1;
  const bare = q.slice(0, end).replace(opening, '');
  for (const a of asked) {
    const m = a.asked.exec(bare);
    const named = m?.groups?.['named']?.trim();
    if (m) return { said: (v) => a.said(v, m), still: a.still === true, ...(named ? { named } : {}) };
  }
  return null;
}

/** What an answer opens with that is not its value: "in Braga", "at Globex", "it's march 14". */
const answerLead =
  /^(?:(?:oh|um|uh|er|erm|ah|well|ok|okay|so|haha|lol|hmm)[,!.]?\s+)*(?:(?:i['’]?m\s+)?(?:in|at|for|with)\s+|it['’]?s\s+|its\s+|it\s+is\s+)?/iu;
/** Words an answer ends with that are not its value: "porto wbu", "at globex now", "Lisbon, and you". */
const tailWords = new Set([
  'now',
  'atm',
  'currently',
  'you',
  'u',
  'wbu',
  'hbu',
  'hby',
  'and',
  'days',
  'these',
]);
/** The answer without those words (and a comma before them) at its end. */
function withoutTail(value: string): string {
  const ws = value.split(/\s+/u);
  while (ws.length > 1 && tailWords.has(ws.at(-1)!.toLowerCase().replace(/[,.!]/gu, ''))) ws.pop();
  return ws.join(' ').replace(/,$/u, '');
}
const trailing = new RegExp(chatEnd, 'u');

/**
 * Words no answer's value opens with ("not sure", "idk", "Long story", "Same as you", "Retired",
 * "Single"): each says something of the person other than the value asked for, or nothing.
 */
const noValue = new Set(
  `not no yes yeah yep yea ya nope idk dunno nowhere everywhere somewhere anywhere here there home sure
   maybe i me my we it that this the why what which who how when where depends kinda sorta secret none
   nothing brb nvm jk honestly seriously lol haha long hard same tell thanks thank hold huh later
   traveling travelling remote remotely unemployed retired freelance freelancing self myself between
   single divorced widowed separated nobody complicated all various student mine of ofc correct sadly
   obviously always mhm yup definitely totally absolutely exactly right true indeed course`.split(/\s+/u),
);
/** Words that make an answer more than its value ("Moving to Braga next week", "Maria, but …"). */
const saysMore = new Set(
  `but and or not moving starting leaving going next last until soon maybe probably mostly hopefully
   sometimes usually kinda sorta depends tomorrow today tonight trip visit visiting vacation holiday
   holidays weekend week month year`
    .split(/\s+/u)
    .concat(months, weekdays),
);

/**
 * The value a message gives as a bare answer ("Braga", "in braga!", "at Globex", "march 14", "34"), or
 * null: at most four words, no question, no reaction, nothing that says more than the value ("Moving
 * to Braga next week", "Maria, but we're separated") or other than it ("Long story", "Retired").
 */
export function bareAnswer(text: string): string | null {
  // The length first: a long message is no bare answer, and is never run through the patterns.
  if (text.length > 200) return null;
  const t = text.trim().replace(trailing, '').trim();
  if (t.length === 0 || t.length > 60 || /[\n?;]/u.test(t)) return null;
  const value = withoutTail(t.replace(answerLead, '').trim()).trim();
  const words = value.split(/\s+/u).map((w) => normalizeStatement(w.split(/['’]/u)[0]!));
  if (value === '' || words.length > 4 || reactionOnly(value)) return null;
  // A comma only between a place and its country ("Braga, Portugal").
  if (value.includes(',') && !/^\p{Lu}[^,]*,\s*\p{Lu}[^,]*$/u.test(value)) return null;
  if (words[0] === '' || noValue.has(words[0]!)) return null;
  // A month says more beside a place ("Japan in april"), not in a date ("march 4").
  if (valueKind(value) !== 'date' && words.some((w) => saysMore.has(w))) return null;
  return value;
}

const opensFirstPerson = new RegExp(`^${firstPerson}`, 'iu');

/**
 * A reply that says little without what it answers: at most six words, no question, not opening with
 * the speaker ("I'm not married" says it whole): "probably early october", "very fluffy", "maya".
 */
export function shortReply(text: string): boolean {
  if (text.length > 80) return false;
  const t = text.trim();
  const words = t.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.length > 0 && words.length <= 6 && !t.includes('?') && !opensFirstPerson.test(t);
}

/** The one question `message` ends with ("What's Pimenta like?"), or null where it ends otherwise. */
export function lastQuestion(message: string | readonly string[]): string | null {
  const said = sentencesOf(message);
  const last = said.at(-1);
  return last?.endsWith('?') && said.filter((s) => s.endsWith('?')).length === 1 ? last : null;
}

/**
 * Where a question's own clause opens after words that say something of the asker ("I will be out sick
 * today, can you cover the standup?"): at a comma, semicolon or colon before a question word.
 */
const questionOpens =
  /[,;:]\s+(?=(?:can|could|would|will|do|does|did|are|is|was|were|have|has|should|shall|may|what|when|where|who|why|how|which)(?![\p{L}\p{N}]))/giu;

/**
 * The clause of question `q` that asks, without what the asker said of themselves before it: a short
 * reply ("Sure, get well soon.") answers "can you cover the standup?", and is no word that the replier
 * will be out sick. The question whole where no such clause opens it.
 */
export function questionClause(q: string): string {
  let at = 0;
  for (const m of matchesOf(questionOpens, q)) at = m.index + m[0].length;
  if (at === 0) return q;
  const clause = q.slice(at);
  return clause.charAt(0).toUpperCase() + clause.slice(1);
}

/** A reply that says yes ("yep, still porto", "yes, still at Sonae", "of course"), and nothing against it. */
export function saysYes(text: string): boolean {
  return (
    text.length <= 80 &&
    /^(?:yes|yep|yeah|yup|ya|yea|still|correct|of\s+course|ofc|sure|definitely|mhm|indeed|absolutely)(?![\p{L}\p{N}])/iu.test(
      text.trim(),
    ) &&
    !/(?<![\p{L}\p{N}])(?:but|not|no\s+longer|anymore|moving|leaving|until)(?![\p{L}\p{N}])/iu.test(text)
  );
}
