import { reactionOnly } from './reactions.ts';
import { normalizeStatement } from './record-text.ts';
import { chatEnd } from './slot-sentences.ts';
import { sentences } from './split-text.ts';

/**
 * A question put to the speaker about one of their slots ("Where are you based?", "when's your
 * birthday?"), as the sentence a bare answer to it says in full: "Braga" to "Where do you live?" is "I
 * live in Braga". The rules read that sentence as any other, so an answer holds a slot only where the
 * sentence would.
 */
interface AskedSlot {
  asked: RegExp;
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
      String.raw`^(?:so\s+)?(?:do\s+${you}\s+still\s+live\s+in|are\s+${you}\s+still\s+(?:living\s+in|based\s+in|in))\s[^?]+$`,
      'iu',
    ),
    said: (v) => `I live in ${v}`,
  },
  {
    asked: new RegExp(
      String.raw`^(?:so\s+)?(?:do\s+${you}\s+still\s+work\s+(?:at|for)|are\s+${you}\s+still\s+(?:working\s+)?(?:at|with))\s[^?]+$`,
      'iu',
    ),
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

/** Words a question opens with before what it asks: "Nice! And where are you based?" asks the same. */
const opening =
  /^(?:(?:and|also|oh|ok|okay|so|btw|by\s+the\s+way|great|nice|cool|awesome|thanks)[,!.]?\s+)*/iu;

/**
 * The sentence a bare answer to `message` says in full, as a function of the answer's value: where
 * one question of the message asks the speaker about one slot ("Nice to meet you! Where are you
 * based?"). Null where it asks none, or more than one.
 */
export function askedOf(message: string): ((value: string) => string) | null {
  const found: Array<(value: string) => string> = [];
  for (const { value: s } of sentences(message)) {
    const q = s.trim();
    if (!q.endsWith('?')) continue;
    let end = q.length;
    while (end > 0 && '?! '.includes(q[end - 1]!)) end -= 1;
    const bare = q.slice(0, end).replace(opening, '');
    for (const a of asked) {
      const m = a.asked.exec(bare);
      if (m) found.push((v) => a.said(v, m));
    }
  }
  return found.length === 1 ? found[0]! : null;
}

/** What an answer opens with that is not its value: "in Braga", "at Globex", "it's march 14". */
const answerLead =
  /^(?:(?:oh|um|uh|well|ok|okay|so|haha|lol|hmm)[,!.]?\s+)*(?:(?:i['’]?m\s+)?(?:in|at|for|with)\s+|it['’]?s\s+|its\s+|it\s+is\s+)?/iu;
const trailing = new RegExp(chatEnd, 'u');

/** Words no answer's value opens with: "not sure", "idk", "nowhere really". */
const noValue = new Set(
  `not no yes yeah yep nope idk dunno nowhere everywhere somewhere anywhere here there home sure maybe
   i me my we it that this the why what which who how when where depends kinda sorta secret none nothing
   brb nvm jk honestly seriously lol haha`.split(/\s+/u),
);

/**
 * The value a message gives as a bare answer ("Braga", "in braga!", "at Globex", "march 14", "34"), or
 * null: at most five words, no question, no reaction ("not sure", "idk"), no sentence of its own.
 */
export function bareAnswer(text: string): string | null {
  // The length first: a long message is no bare answer, and is never run through the patterns.
  if (text.length > 200) return null;
  const t = text.trim().replace(trailing, '').trim();
  if (t.length === 0 || t.length > 60 || /[\n?]/u.test(t)) return null;
  const value = t.replace(answerLead, '').trim();
  const words = value.split(/\s+/u);
  if (value === '' || words.length > 5 || reactionOnly(value)) return null;
  const first = normalizeStatement(words[0]!.split(/['’]/u)[0]!);
  return first === '' || noValue.has(first) ? null : value;
}
