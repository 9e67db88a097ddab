import type { SelfEntity } from '../../contract/index.ts';
import { escapeRegExp } from '../shared/escape-reg-exp.ts';
import { foldName, sameName, selfFirstName } from './resolve-owner.ts';
import { attributeSentence, chatEnd, slotSentences, type SlotSentence } from './slot-sentences.ts';

/**
 * Speakers that are an agent, not a person: what the docs tell an agent to write its answers as
 * ("assistant", docs/agents.md) and its usual names, folded. An AI chat export's own assistant is one
 * by its source (chat-exports.ts: "ChatGPT" in `chatgpt`, "Claude" in `claude`), not by the name alone:
 * in a WhatsApp chat, Claude is a person.
 */
const agentNames = new Set(['assistant', 'ai', 'ai assistant', 'bot', 'chatbot', 'agent', 'model']);
/** The names (folded) a speaker is an agent by, whatever the source (agentSpeaker). */
export const agentSpeakerNames: readonly string[] = [...agentNames];
/**
 * How a folded name may be written: as is, its first letter in capitals, each word's, and a word of
 * two letters in capitals ("ai assistant": "Ai assistant", "AI Assistant", "AI assistant").
 */
export function spellings(name: string): string[] {
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  const words = name.split(' ');
  const acronym = words.map((w) => (w.length <= 2 ? w.toUpperCase() : w));
  return [
    ...new Set([
      name,
      cap(name),
      words.map(cap).join(' '),
      acronym.join(' '),
      acronym.map(cap).join(' '),
      name.toUpperCase(),
    ]),
  ];
}
const exportAgents: Readonly<Record<string, string>> = { chatgpt: 'chatgpt', claude: 'claude' };

/** Whether a message's speaker is an agent (an assistant), not a person. */
export function agentSpeaker(speaker: string | undefined, sourceName: string | null): boolean {
  if (speaker === undefined) return false;
  const n = foldName(speaker);
  return agentNames.has(n) || (sourceName !== null && exportAgents[sourceName] === n);
}

/** Words that may stand between a name and its verb ("Ana now lives in Braga"). */
const adverb = String.raw`(?:(?:now|just|currently|still|recently|also|actually)\s+)?`;

/** A verb after "Ana", as after "I": "lives" is "live", "is" is "am"; "moved" stays. */
function asAfterI(verb: string): string {
  const v = verb.toLowerCase();
  if (v === 'is') return 'am';
  if (v === 'has') return 'have';
  if (v === 'does') return 'do';
  if (/^\p{L}+ies$/u.test(v)) return `${verb.slice(0, -3)}y`;
  if (/^\p{L}+[^s]s$/u.test(v)) return verb.slice(0, -1);
  return verb;
}

/**
 * An agent's sentence about the person, said back as she would say it: "you", "the user" and the self's
 * whole name read as "I" ("Noted: Ana Costa lives in Braga." is "Noted: I live in Braga."; "Got it, you work at
 * Feedzai." is "Got it, I work at Feedzai."), "your" and "<name>'s" as "my". Read only to find the
 * slot it restates; never stored as said.
 */
function asSelfWouldSay(s: string, self: SelfEntity): string {
  // "The user" or "User" is how agents name the person they serve, as by her name.
  const name = `(?:${escapeRegExp(self.name.trim()).replace(/\s+/gu, '\\s+')}|(?:the\\s+)?user)`;
  return s
    .replace(new RegExp(String.raw`\b(?:${name}['’]s|your)\b`, 'giu'), 'my')
    .replace(new RegExp(String.raw`\b${name}\s+(${adverb})(\p{L}+)\b`, 'giu'), (_m, a: string, v: string) => {
      return `I ${a}${asAfterI(v)}`;
    })
    .replace(/\byou(?:['’]re|\s+are)\b/giu, 'I am')
    .replace(/\byou(?:['’]ve)\b/giu, 'I have')
    .replace(/\byou\b/giu, 'I');
}

/** A slot an agent's sentence says the self holds: its home, job, favourite, number or e-mail. */
export interface RestatedSlot {
  predicate: string;
  value: string;
}

/**
 * The slots an agent's statement says the Brain's person holds, read as she would say them ("Noted:
 * Ana lives in Braga.", "Got it — you work at Feedzai now.", "Your number is 555-0198."). None where the
 * sentence says them of its own speaker ("I work at OpenAI": the agent's), or says one has ended
 * ("you no longer work at Acme": an agent does not end the person's value), or the self is no person.
 */
export function restatedSlots(s: string, self: SelfEntity | null): RestatedSlot[] {
  if (self?.type !== 'person') return [];
  const own = slotSentences(s);
  if (own.slots.length > 0 || own.ended !== null || attributeSentence(s) !== null) return [];
  const said = asSelfWouldSay(s, self);
  if (said === s) return [];
  const read = slotsSaid(said);
  if (read !== null) return read;
  // "Noted, you're vegetarian.", "Got it — you're married to Tom.": her words after the agent's lead.
  const words = readBackOfSelf(s, self);
  return (words === null ? null : slotsSaid(words)) ?? [];
}

/** The slots a sentence in her words holds, none where it ends one; null where it holds none. */
function slotsSaid(said: string): RestatedSlot[] | null {
  const read = slotSentences(said);
  if (read.ended !== null) return [];
  if (read.slots.length > 0)
    return read.slots.map((x: SlotSentence) => ({ predicate: x.predicate, value: x.value }));
  const a = attributeSentence(said);
  if (a === null) return null;
  return a.ends ? [] : [{ predicate: a.predicate, value: a.value }];
}

/** An agent saying it keeps a note: "I'll remember", "I've made a note", "I'll keep in mind". */
const keepsNote = String.raw`I(?:['’]ll|\s+will|['’]ve|\s+have)\s+(?:remember(?:ed)?|noted|made\s+a\s+note|make\s+a\s+note|keep\s+in\s+mind|kept\s+in\s+mind)`;

/**
 * What an agent says before it reads the person's words back: "Noted,", "Got it —", "Thanks for letting
 * me know.", "I'll remember that", "Just to confirm:". Not "Sure,": it leads an idiom or sarcasm as
 * often ("Sure, you're the boss.", "Sure, you're totally allergic to penicillin. 🙄").
 */
/** "Noted,", "Got it —", "Thanks for letting me know.": an acknowledgement, each with its mark. */
const acknowledged = String.raw`(?:noted\s+that|noted|got\s+it|understood|ok(?:ay)?|great|perfect|alright|all\s+right|of\s+course|absolutely|will\s+do|sounds\s+good|(?:thanks|thank\s+you)(?:\s+for\s+(?:letting\s+me\s+know|sharing(?:\s+that)?|telling\s+me))?)(?:\s*[,.!:;—–-]+)?\s+`;
/** "So,", "Just to confirm:". */
const confirming = String.raw`(?:so|just\s+to\s+confirm|to\s+confirm)(?:\s*[,:—–-]+)?\s+`;
const noting = String.raw`${keepsNote}\s+(?:that\s+)?`;
/** At least one of them, in this order: never the empty string (a sentence with no lead has none). */
const readBackLead = new RegExp(
  String.raw`^(?:(?:${acknowledged})+(?:${confirming})?(?:${noting})?|${confirming}(?:${noting})?|${noting})`,
  'iu',
);
/** The length of the lead an agent's sentence opens with (readBackLead), 0 where it has none. */
const leadLength = (s: string): number => readBackLead.exec(s)?.[0].length ?? 0;

/**
 * An agent's sentence after the lead it reads back with ("Noted: Marina's birthday is March 3." is
 * "Marina's birthday is March 3."), or null where it opens with none ("Marko lives in Split.") or is
 * nothing but one.
 */
export function afterReadBackLead(s: string): string | null {
  const trimmed = s.trim();
  const rest = trimmed.slice(leadLength(trimmed));
  return rest === '' || rest === trimmed ? null : rest;
}

/**
 * The person's own words an agent's sentence of no slot reads back, as she would say them ("Noted,
 * you're allergic to penicillin." is "I am allergic to penicillin."; "Got it — your sister lives in
 * Madrid!" is "my sister lives in Madrid!"): where a Memory of hers says them, the agent's sentence
 * cites it (engine/derive/echoes.ts) rather than standing beside it as the agent's own. Only where,
 * after the lead, the sentence opens with her ("you", "your", "the user", her name) and says nothing of
 * its own speaker: "I think you're right" and "You should try the Alps, I loved it" are the agent's.
 */
export function readBackOfSelf(s: string, self: SelfEntity | null): string | null {
  if (self?.type !== 'person') return null;
  const trimmed = s.trim();
  let rest = trimmed.slice(leadLength(trimmed));
  // "Ana is allergic to nuts.": her first name alone is her, read as her whole name is.
  const whole = self.name.trim();
  const first = whole.split(/\s+/u)[0]!;
  const named = (n: string) =>
    n !== '' &&
    foldName(rest.slice(0, n.length)) === foldName(n) &&
    !/^[\p{L}\p{N}]/u.test(rest.slice(n.length));
  if (!named(whole) && named(first)) rest = whole + rest.slice(first.length);
  const opensWithHer = /^(?:you|your|(?:the\s+)?user)(?![\p{L}\p{N}])/iu.test(rest) || named(whole);
  if (!opensWithHer || /(?<![\p{L}\p{N}])(?:I|me|my|mine)(?![\p{L}\p{N}])/u.test(rest)) return null;
  const words = asSelfWouldSay(asSubjectWouldSay(rest), self);
  return words === rest ? null : words;
}

/** Where "you" opens a clause, as its subject: after "and", "that", a comma (the sentence's start aside). */
const opensClauseBefore = /(?:\b(?:and|but|so|that|because|when|if|while|since|or)|[,;:—–-])\s$/iu;
/**
 * "you" as she would say it where it is not the subject ("Tom gave you a raise": "Tom gave me a
 * raise"), and the verbs that change with it ("you were" is "I was"), before asSelfWouldSay reads
 * every other "you" as "I".
 */
function asSubjectWouldSay(s: string): string {
  return s
    .replace(/\byou\b(?!['’])/giu, (m: string, at: number) =>
      at === 0 || opensClauseBefore.test(s.slice(Math.max(0, at - 9), at).replace(/\s+/gu, ' ')) ? m : 'me',
    )
    .replace(/\byou\s+were\b/giu, 'I was')
    .replace(/\byou\s+weren['’]t\b/giu, "I wasn't")
    .replace(/\byou\s+aren['’]t\b/giu, 'I am not');
}

/**
 * A lead by which an agent says it keeps what follows as a note of its own: "I'll remember that", "I've
 * made a note that", "I'll keep in mind that", "Noted that". Not "Noted," or "Got it,", which as often
 * acknowledge what the agent says next of its own ("Noted, you'll get an email confirmation shortly.",
 * "Got it, you're going to love Lisbon!"): those join her words only where she said them (echoes.ts).
 */
const notingLead = new RegExp(String.raw`^(?:noted|${keepsNote})\s+that\s`, 'iu');
/**
 * What one may, should or could do: advice, not what one is or does ("…, so you should leave by 6.").
 * "may" in lower case only: "in May" is a month.
 */
const mayOrShould =
  /(?<![\p{L}\p{N}])(?:[Ss]hould|[Cc]ould|[Mm]ight|may|[Cc]an|[Mm]ust|[Oo]ught|[Ww]ould|[Nn]eed\s+to|[Hh]ave\s+to|[Hh]as\s+to)(?![\p{L}\p{N}])/u;

/**
 * The person's words an agent says it keeps a note of ("I'll remember that you're training for a
 * marathon in May."), as she would say them: hers, whether or not she said them in words of her own, as
 * "Reminder: Lucía prefers window seats." is. Null for anything else, advice anywhere in it ("…, so
 * you should leave by 6.") and a question.
 */
export function notedOfSelf(s: string, self: SelfEntity | null): string | null {
  const trimmed = s.trim();
  if (!notingLead.test(trimmed) || trimmed.endsWith('?')) return null;
  const words = readBackOfSelf(trimmed, self);
  if (words === null || mayOrShould.test(words)) return null;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What an assistant says in serving, whole: "Happy to help!", "Let me know if you need anything else.",
 * "I'll keep that in mind.", "Good luck with the move!", "Have a great weekend!", "Nice to meet you,
 * Sam!", "Welcome to Denver!", "Stay dry!", "Feel better soon!". Nothing of the person's
 * to remember, and nothing the assistant knows: not "Noted: you live in Braga." (a read-back of her
 * slot) nor "Good luck with the interview at Globex on Monday" beyond a few words of what it wishes.
 */
const servingWords = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|sure|great|perfect|got\s+it|noted|of\s+course|absolutely|sounds\s+good|will\s+do|understood|no\s+problem|you['’]re\s+(?:very\s+)?welcome|any\s?time|my\s+pleasure)[,!.]?\s*)*(?:(?:i['’]m\s+)?(?:always\s+)?(?:happy|glad)\s+(?:to|I\s+could)\s+help|(?:just\s+)?let\s+me\s+know\s+if\s+(?:you\s+need|there['’]s|there\s+is|I\s+can\s+(?:help\s+with|do))\s+anything(?:\s+else)?(?:\s+I\s+can\s+(?:help\s+with|do))?|feel\s+free\s+to\s+(?:ask|reach\s+out|come\s+back)(?:\s+(?:anytime|any\s+time|if\s+you\s+need\s+anything))?|(?:I\s+)?hope\s+(?:that|this)\s+helps|I(?:['’]ll|\s+will)\s+(?:keep\s+(?:that|this|it)\s+in\s+mind|remember\s+(?:that|this))|good\s+luck(?:\s+with\s+(?:the|your)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)?|(?:have|enjoy)\s+(?:a|your)\s+(?:great|good|nice|lovely|wonderful|fun|safe)?\s*(?:day|weekend|evening|night|trip|time|holiday|vacation)|congrat(?:s|ulations)(?:\s+on\s+(?:the|your)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)?|take\s+care|enjoy|stay\s+(?:dry|safe|warm|cool|healthy|hydrated)|drive\s+safe(?:ly)?|safe\s+travels|sleep\s+well|rest\s+(?:up|well)|(?:(?:I\s+)?hope\s+you\s+)?feel\s+better(?:\s+soon)?|get\s+well\s+soon|have\s+fun|(?:(?:it['’]s|it\s+is)\s+)?(?:nice|great|good|lovely|a\s+pleasure)\s+to\s+meet\s+you(?:\s+too)?(?:,?\s+\p{Lu}[\p{L}-]*)?|welcome(?:\s+back)?(?:\s+to\s+\p{Lu}[\p{L}-]*(?:\s+\p{Lu}[\p{L}-]*)?)?(?:,?\s+\p{Lu}[\p{L}-]*)?)${chatEnd}`,
  'iu',
);

/**
 * A person telling the agent the name the Brain already knows her by: "I'm Sam.", "Hi! I'm Sam Rivera",
 * "My name is Sam". Nothing to remember; it was a line of her Profile. Another name is kept ("I'm Sam,
 * not Samantha" says more; "I'm Alex" may be a nickname to keep).
 */
export function introducesSelf(sentence: string, self: SelfEntity | null): boolean {
  if (self?.type !== 'person') return false;
  const m =
    /^(?:(?:hi|hey|hello)(?:\s+there)?[,!.]?\s+)?(?:I['’]?m|I\s+am|my\s+name\s+is|it['’]s|this\s+is)\s+(?<name>[\p{L}'’-]+(?:\s+[\p{L}'’-]+){0,2}?)(?:\s+here)?[.!]*$/iu.exec(
      sentence.trim(),
    );
  const name = m?.groups?.['name'];
  if (name === undefined) return false;
  const said = foldName(name);
  return sameName(said, foldName(self.name)) || said === selfFirstName(self);
}

/** Whether an agent's sentence only serves (servingWords): no Memory of it. */
export function agentCourtesy(sentence: string): boolean {
  return servingWords.test(sentence.trim());
}
