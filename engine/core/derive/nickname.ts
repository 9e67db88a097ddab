import { isQuestion } from './unmarked-question.ts';
import { foldName } from './resolve-owner.ts';

/**
 * A speaker saying the name people call them by: "most people call me Tom", "call me Tom", "I go by
 * Tom", "I'm known as Tom", "my nickname is Tom", "I'm Tomislav (Tom)", "Tomislav, Tom for short",
 * "Tom here." It holds the speaker's `nickname` slot ("Tomislav Kovačević's nickname is Tom"), which
 * retrieval reads as another name of the Brain's own person (retrieve/self-names.ts): "Where does Tom
 * live?" asks about her as "Where does Tomislav live?" does.
 *
 * Narrow, as a wrong name would make a stranger her: the name capitalised, with a small letter ("call
 * me ASAP", "call me tomorrow", "call me Monday" hold none), at most two words; nothing that denies it,
 * puts it in the past or asks it ("nobody calls me Tom", "they used to call me Tommy", "why do people
 * call me Tom?"); and not her own name or a word of it ("call me Tomislav" says nothing new, and would
 * end the nickname held).
 */
export interface NicknameSaid {
  value: string;
  /** Where the words that say it stand in the sentence, [start, end): "most people call me Tom". */
  clause: [number, number];
  /**
   * The sentence says more than the name and a greeting or an introduction by her own name ("Hi, I'm
   * Tomislav, most people call me Tom." says nothing more): it is a Memory of its own too.
   */
  more: boolean;
}

/** One word of a name: capitalised, then small letters ("Tom", "Jo", "McKay", "Anne-Marie"). */
const nameWord = String.raw`\p{Lu}[\p{L}\p{M}'’-]*`;
/** The name said: a word or two, read as written (each checked by asName). */
const value = String.raw`(?<value>${nameWord}(?:\s+${nameWord})?)`;
/** Where a clause starts: the sentence's start, a comma or a dash, or a joining word. */
const opens = String.raw`(?:^|[,;:(—–]\s*|\s-\s*|\s(?:but|and|so)\s+)`;
/** Or any word before it, where the clause's own words say whose it is ("Hi I'm Tomislav I go by Tom"). */
const anyOpens = String.raw`(?:^|[\s,;:(—–])`;
const people = String.raw`(?:(?:most|all|some|many)\s+(?:of\s+)?)?(?:my\s+)?(?:people|everyone|everybody|friends|folks|family|colleagues|coworkers|co-workers|they)`;

const patterns: readonly RegExp[] = [
  // "most people call me Tom", "everyone calls me Tom", "my friends just call me Tom".
  new RegExp(
    String.raw`${anyOpens}(?<lead>${people}\s+(?:usually\s+|just\s+|mostly\s+|all\s+|always\s+|tend\s+to\s+)*calls?\s+me\s+)${value}`,
    'iu',
  ),
  // "call me Tom", "you can call me Tom", "please, just call me Tom".
  new RegExp(
    String.raw`${opens}(?<lead>(?:(?:you\s+can|you\s+may|feel\s+free\s+to|please,?|just|pls|go\s+ahead\s+and)\s+)*call\s+me\s+)${value}`,
    'iu',
  ),
  // "I go by Tom", "I'm known as Tom", "I'm called Tom", "I usually go by Tom".
  new RegExp(
    String.raw`${anyOpens}(?<lead>I\s+(?:usually\s+|mostly\s+|just\s+|also\s+|now\s+)?go\s+by\s+|I(?:['’]m|\s+am)\s+(?:usually\s+|mostly\s+|also\s+|better\s+)?(?:known\s+as|called)\s+)${value}`,
    'iu',
  ),
  // "my nickname is Tom", "my preferred name is Tom".
  new RegExp(
    String.raw`${opens}(?<lead>my\s+(?:nickname|nick\s+name|preferred\s+name|short\s+name)\s+is\s+)${value}`,
    'iu',
  ),
  // "I'm Tomislav (Tom)", "my name is Tomislav (Tom) Kovačević".
  new RegExp(
    String.raw`${opens}(?<lead>(?:I['’]?m|I\s+am|my\s+name\s+is|this\s+is|it['’]s)\s+${nameWord}(?:\s+${nameWord}){0,2}\s*\(\s*)${value}(?=\s*\))`,
    'iu',
  ),
  // "I'm Tomislav, Tom for short", "Tomislav, or Tom for short".
  new RegExp(String.raw`,\s*(?<lead>(?:or\s+|but\s+)?(?:just\s+)?)${value}(?=\s+for\s+short)`, 'iu'),
  // "Tom here.", "Hi, Tom here!": the whole sentence.
  new RegExp(
    String.raw`^\s*(?:(?:hi|hey|hello)(?:\s+there)?[,!.]?\s+)?(?<lead>)${value}(?=\s+here[.!]*\s*$)`,
    'iu',
  ),
];

/** Words before it in its clause that deny it or put it in the past: "nobody calls me Tom". */
const denied =
  /(?<![\p{L}\p{N}])(?:not|never|nobody|no\s+one|don['’]t|doesn['’]t|didn['’]t|won['’]t|stop|used\s+to|would|if)(?![\p{L}\p{N}])[^,;]*$/iu;

/** Capitalised words that are no name: days, months, a chat's acronyms, "Mr". */
const notNames = new Set(
  `monday tuesday wednesday thursday friday saturday sunday today tomorrow tonight january february march april may june july august september october november december mr mrs ms dr sir madam maybe please back later anytime asap lol crazy`.split(
    ' ',
  ),
);

/** The name's words that are one: capitalised with a small letter, no day or month; null if none is. */
function asName(said: string): string | null {
  const words = said.split(/\s+/u);
  const kept: string[] = [];
  for (const w of words) {
    if (!/^\p{Lu}/u.test(w) || !/\p{Ll}/u.test(w) || notNames.has(w.toLowerCase()) || /['’]s$/u.test(w))
      break;
    kept.push(w);
  }
  return kept.length > 0 ? kept.join(' ') : null;
}

/** What is left of a sentence that says nothing more than a greeting and her name. */
const onlyGreeting = (subject: string) => {
  const names = [...new Set([foldName(subject), ...foldName(subject).split(' ')])];
  return (rest: string): boolean => {
    const folded = foldName(rest)
      .replace(/[^\p{L}\p{N}'’\s]+/gu, ' ')
      .replace(/\s+/gu, ' ')
      .trim();
    // One space between words now: each step strips a whole word or words.
    const said = folded
      .replace(/^(?:hi|hey|hello)(?: there)?(?: |$)/u, '')
      .replace(/(?:^| )(?:but|and|so|or)$/u, '');
    if (said === '') return true;
    const intro = /^(?:i['’]?m|i am|my name is|it['’]s|this is) /u.exec(said);
    return intro !== null && names.includes(said.slice(intro[0].length));
  };
};

/** The nickname `subject` (the speaker, as the Brain names them) says in `sentence`, or null. */
export function nicknameSaid(sentence: string, subject: string): NicknameSaid | null {
  if (isQuestion(sentence)) return null;
  const own = new Set([foldName(subject), ...foldName(subject).split(' ')]);
  for (const pattern of patterns) {
    const m = pattern.exec(sentence);
    if (m === null) continue;
    const lead = m.groups!['lead']!;
    const start = m.index + m[0].length - m.groups!['value']!.length - lead.length;
    if (denied.test(sentence.slice(0, start + lead.length))) continue;
    const name = asName(m.groups!['value']!);
    if (name === null || own.has(foldName(name))) continue;
    // "I go by Tom's place": a possessive, no name said.
    if (/^['’]s(?![\p{L}])/u.test(sentence.slice(start + lead.length + name.length))) continue;
    const end = start + lead.length + name.length;
    // "I'm Tomislav (Tom)": the clause is the introduction whole.
    const clause: [number, number] = lead.includes('(')
      ? [start, sentence.indexOf(')', end) + 1]
      : [start, end];
    const rest =
      sentence.slice(0, clause[0]) +
      ' ' +
      sentence.slice(clause[1]).replace(/^\s*(?:for\s+short|here)(?![\p{L}])/iu, '');
    return { value: name, clause, more: !onlyGreeting(subject)(rest) };
  }
  return null;
}
