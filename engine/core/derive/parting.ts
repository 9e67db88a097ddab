import type { HeldSlots } from './deriver.ts';
import { reactionOnly } from './reactions.ts';
import { chatEnd, fillers, partnerNamed, relationNames } from './slot-sentences.ts';

/**
 * A slot a sentence ends without naming its value the way the slot holds it: "We broke up" ends
 * whichever partner holds the slot then. `values` narrows it to the person named ("I broke up with
 * Tom": Tom); absent, whatever value holds the slot ends. `withPartner`: only where one of the same
 * Record's partner endings ends a value ("I broke up with Tom" ends "in a relationship" only where Tom
 * was the partner: "I broke up with Facebook" ends nothing).
 */
export interface HeldEnding extends HeldSlots {
  predicate: string;
}

/** The partners one has one of at a time, as the attribute sentences spell them (slot-sentences.ts). */
export const partnerRoles = ['partner', 'girlfriend', 'boyfriend', 'fiancé', 'wife', 'husband'] as const;
/** Statuses a parting ends: one is single after it, or divorced, which the person says themselves. */
const togetherStatuses = ['in a relationship', 'engaged'];

const role = String.raw`(?:partner|girlfriend|boyfriend|gf|bf|fianc[ée]e?|wife|husband)`;
/** A word of a name: letters, with an apostrophe, a hyphen or an initial's dot inside, never last. */
const nameWord = String.raw`[\p{L}\p{M}](?:[\p{L}\p{M}'’.-]*[\p{L}\p{M}])?`;
/**
 * Who one parted from: "my boyfriend", "my boyfriend Tom", a name of up to three words, or a pronoun
 * (checked apart).
 */
const who = (n: number) =>
  String.raw`(?:my\s+(?<role${n}>${role})(?:,?\s+(?<named${n}>${nameWord}(?:\s+${nameWord})?))?|(?<who${n}>${nameWord}(?:\s+${nameWord}){0,2}?))`;
/** Words before it that say nothing of it: "Ugh, we broke up", "So yeah, …", "Long story short, …". */
const opening = String.raw`${fillers}(?:(?:yeah|lol|omg|ugh|hey|honestly|sadly|unfortunately|anyway|anyways|well|so\s+yeah|long\s+story\s+short|news|guess\s+what)[,:!.-]*\s+)*`;
/** How or on which day, if said: "over text", "by email", "on my birthday", "on Valentine's Day". */
const how = String.raw`(?:over|via|by)\s+(?:a\s+|the\s+)?(?:text(?:\s+message)?|texts|phone|call|e-?mail|whatsapp|snapchat|instagram|messenger|voicemail|letter|note|facetime|video\s+call|zoom)|on\s+(?:my|our)\s+(?:birthday|anniversary)|on\s+valentine['’]?s(?:\s+day)?`;
/**
 * When, if said: lately, not long ago, a day of this week in any of the words people use ("tonight",
 * "earlier today", "yesterday evening", "the other day", "last Friday"). A parting of years ago ("last year", "in 2015") may have ended a
 * partner long since replaced: it ends none.
 */
const when = String.raw`(?:\s+(?:(?:earlier\s+)?(?:today|tonight)|yesterday(?:\s+(?:morning|afternoon|evening))?|recently|again|for\s+good|just\s+now|the\s+other\s+(?:day|night)|on\s+\p{L}+day|${how}|over\s+the\s+weekend|(?:earlier\s+)?this\s+(?:morning|afternoon|evening|week|weekend|month)|(?:this\s+)?past\s+(?:week|weekend)|last\s+(?:night|week|weekend|month|\p{L}+day)|(?:a|an|one|two|three|four|five|six|\d{1,2}|a\s+few|a\s+couple(?:\s+of)?)\s+(?:days?|weeks?|months?)\s+ago))*`;
/** A chat's words after it: ":(", "lmao", "tbh". */
const chatTail = String.raw`(?:\s*(?::\(|:'\(|lmao|smh|tbh|ngl|rip))*`;
/**
 * What may follow it, after a comma or "and"/"so"/"because": how it went ("we broke up, it was
 * mutual", "We broke up and I'm devastated"), unless it takes it back ("… but we got back together").
 */
const after = String.raw`(?:(?:,|\s+(?:and|so|because|cause|since))\s+(?<after>[^]*))?`;
/** What unsays a parting after it: getting back together, making up, a joke owned. */
const takenBack =
  /(?<![\p{L}\p{N}])(?:back\s+together|got\s+back|get\s+back|made\s+up|make\s+up|reconcil\p{L}*|jk|just\s+kidding|not\s+really)(?![\p{L}\p{N}])/iu;
const soon = String.raw`(?:just\s+|finally\s+|officially\s+|recently\s+)?`;
const have = String.raw`(?:['’]ve\s+|\s+have\s+|\s+)`;
const end = String.raw`${when}${chatTail}${after}${chatEnd}`;
/** "we broke up", "Tom and I split up", "me and my bf broke up", "we parted ways". */
const mutual = new RegExp(
  String.raw`^${opening}(?:we|${who(1)}\s+and\s+(?:I|me)|(?:I|me)\s+and\s+${who(2)})${have}${soon}(?:broke\s*-?\s*up|brokeup|broken\s+up|split\s+up|separated|called\s+it\s+quits|got\s+divorced|ended\s+things|parted\s+ways|went\s+our\s+separate\s+ways)${end}`,
  'iu',
);
/** "we're not together anymore", "My boyfriend and I are no longer together". */
const apart = new RegExp(
  String.raw`^${opening}(?:we|${who(5)}\s+and\s+I)(?:['’]re|\s+are)\s+(?:no\s+longer\s+together|not\s+together\s+any\s?(?:more|longer))${end}`,
  'iu',
);
/** "I broke up with Tom", "I dumped him", "I divorced my husband", "I ended things with Tom". */
const mine = new RegExp(
  String.raw`^${opening}I${have}${soon}(?:(?:broke|broken)\s*-?\s*up\s+with|brokeup\s+with|split\s+(?:up\s+)?(?:with|from)|separated\s+from|dumped|divorced|ended\s+things\s+with|parted\s+ways\s+with)\s+${who(3)}${end}`,
  'iu',
);
/** "I'm not with Tom anymore", "I'm no longer with him". */
const notWith = new RegExp(
  String.raw`^${opening}I(?:['’]?m|\s+am)\s+(?:not\s+with\s+${who(6)}\s+any\s?(?:more|longer)|no\s+longer\s+with\s+${who(7)})${end}`,
  'iu',
);
/** "Tom broke up with me", "my girlfriend dumped me", "my wife left me". */
const theirs = new RegExp(
  String.raw`^${opening}${who(4)}(?:['’]s\s+|\s+has\s+|\s+)${soon}(?:(?:broke|broken)\s+up\s+with|dumped|left|divorced)\s+me${end}`,
  'iu',
);
/** "Tom is no longer my boyfriend", "Tom is my ex now". */
const exNow = new RegExp(
  String.raw`^${opening}${who(8)}(?:['’]s|\s+is)\s+(?:no\s+longer\s+my\s+(?<role9>${role})|not\s+my\s+(?<role10>${role})\s+any\s?(?:more|longer)|my\s+ex(?:\s+now)?)${end}`,
  'iu',
);
/** "it's over with tom", "it's over between us", "it's really over with my boyfriend". */
const itsOver = new RegExp(
  String.raw`^${opening}(?:it['’]?s|it\s+is)\s+(?:so\s+|really\s+|finally\s+|officially\s+)?over\s+(?:with\s+${who(14)}|between\s+(?:us|${who(15)}\s+and\s+(?:me|I)))${end}`,
  'iu',
);
/** "I got dumped", "I just got dumped lol". */
const gotDumped = new RegExp(String.raw`^${opening}I\s+${soon}got\s+dumped${end}`, 'iu');
/** One of the partners: not "they", which as often means friends, a group or a firm. */
const pronouns = new Set(['he', 'she', 'him', 'her']);
/** Words a name of a partner cannot be: "I dumped it", "they dumped me", "Then Tom". */
const noPartner =
  /^(?:(?:it|this|that|we|you|us|they|them|everyone|someone|everything|all|i|me)$|(?:my|our|your|the|a|an|his|her|their|this|that|then|today|yesterday|apparently|and|but|so)\s)/iu;

/** The one numbered group of `name` ("who3", "role9") that took part in the match. */
const groupOf = (g: Record<string, string | undefined>, name: 'who' | 'role' | 'named') =>
  Object.entries(g).find(
    ([k, v]) => v !== undefined && k.startsWith(name) && /^\d+$/u.test(k.slice(name.length)),
  )?.[1];

/**
 * A partner of the past a sentence tells of: "I dated Jake in college", "I used to go out with Mark",
 * "My ex was awful", "my ex-boyfriend Jake". A parting told soon after it by a pronoun or "we" ("He
 * dumped me.") is that partner's, not today's. `dated` and `married` say a partner whoever follows;
 * one goes out with or sees friends and doctors as often, so those say one only of a name.
 */
const datedWho = new RegExp(
  String.raw`(?<![\p{L}\p{N}])I\s+(?:(?<surely>used\s+to\s+date|dated|was\s+(?:dating|engaged\s+to|married\s+to))|used\s+to\s+(?:go\s+out\s+with|see)|was\s+seeing|went\s+out\s+with)\s+(?<who>${nameWord})`,
  'iu',
);
const exWho = new RegExp(
  String.raw`(?<![\p{L}\p{N}])my\s+(?:ex(?:[\s-]?(?<exRole>${role}))?|(?:former|first|old)\s+(?<oldRole>${role}|love))(?![\p{L}\p{N}])(?:,?\s+(?<who>${nameWord}))?`,
  'iu',
);
/** What an "ex" is before a word such as these: a former one of them, no partner ("my ex boss"). */
const exNotPartner = new Set(
  `boss colleague coworker co-worker roommate flatmate housemate employer manager teammate friend bestie
   landlord landlady neighbor neighbour student teacher company job team band club school`.split(/\s+/u),
);
/** Titles a name may open with, which alone are no one ("I was seeing Dr. Costa about my knee"). */
const titles = new Set(['dr', 'mr', 'mrs', 'ms', 'miss', 'prof', 'doctor', 'professor']);

/** The partner of the past a sentence tells of, by name when it gives one (datedWho, exWho). */
export interface PastPartner {
  name: string | null;
}

/** Words a chat in lower case puts where a name would be that name no one ("i went out with friends"). */
const people = new Set(
  `friends friend people family coworkers colleagues guys girls boys kids everybody somebody nobody him her
   them someone everyone anyone one mates pals`.split(/\s+/u),
);

/**
 * A partner's first name as a story tells it ("Jake" of "Jake Miller": a parting named so ends "Jake
 * Miller" too): capitalised, or in a chat written all in lower case a word a name may be.
 */
function storyName(who: string, sentence: string): string | null {
  const first = who.split(/\s+/u)[0]!;
  const low = first.toLowerCase();
  if (titles.has(low.replace(/\.$/u, '')) || people.has(low) || noPartner.test(first)) return null;
  if (/^\p{Lu}/u.test(first)) return first;
  return !/\p{Lu}/u.test(sentence) && partnerNamed(first, sentence) ? first : null;
}

/** The partner of the past a sentence of one's own tells of, else null. */
export function pastPartnerTold(sentence: string): PastPartner | null {
  const dated = datedWho.exec(sentence);
  if (dated) {
    const name = storyName(dated.groups!['who']!, sentence);
    return name !== null || dated.groups!['surely'] !== undefined ? { name } : null;
  }
  const ex = exWho.exec(sentence);
  if (!ex) return null;
  const who = ex.groups!['who'];
  const roleSaid = ex.groups!['exRole'] ?? ex.groups!['oldRole'];
  if (roleSaid === undefined && who !== undefined && exNotPartner.has(who.toLowerCase())) return null;
  return { name: who === undefined ? null : storyName(who, sentence) };
}

/**
 * The partners a sentence of one's own says one has parted from, and the statuses that end with them:
 * "We broke up", "Tom and I split up last week", "I broke up with Tom", "My boyfriend dumped me", "I'm
 * not with him anymore", "Tom is my ex now". Null for any other sentence, for words that name no
 * partner ("I broke up with it", "They dumped me"), and for one whose next words take it back.
 */
export function partingSaid(sentence: string, told: PastPartner | null = null): HeldEnding[] | null {
  const s = sentence.trim();
  const m =
    mutual.exec(s) ??
    apart.exec(s) ??
    mine.exec(s) ??
    notWith.exec(s) ??
    theirs.exec(s) ??
    exNow.exec(s) ??
    itsOver.exec(s) ??
    gotDumped.exec(s);
  if (!m) return null;
  const g = m.groups!;
  // More said after it is how a breakup went, not how a meeting or a day ended ("We called it quits,
  // it was late"), and never one taken back.
  if (g['after'] !== undefined) {
    const before = m[0].slice(0, m[0].length - g['after'].length);
    if (takenBack.test(g['after']) || !/(?:broke|broken|split|separated|divorced|dumped)/iu.test(before))
      return null;
  }
  // "He left me", "Dad left me": one leaves a party or a child too; only a partner named by role.
  if (groupOf(g, 'role') === undefined && /\bleft\s+me\b/iu.test(m[0])) return null;
  return partnersOf(g, s, statusEnding, told);
}

/**
 * The partner slots a match names (by role, or all of them), narrowed to the person it names, and the
 * status with them: with a name, only where the name reached a partner ("I broke up with Facebook",
 * "Mom and I split up" may name no partner). Null for words that name no partner.
 */
function partnersOf(
  g: Record<string, string | undefined>,
  s: string,
  status: HeldEnding,
  told: PastPartner | null,
): HeldEnding[] | null {
  const said = groupOf(g, 'role');
  const roles = said === undefined ? partnerRoles : [relationNames[said.toLowerCase()] ?? roleName(said)];
  const named = partedFrom(besideRole(groupOf(g, 'named'), s) ?? groupOf(g, 'who'), said, s, told);
  if (named === null) return null;
  if (named === undefined)
    return [...roles.map((predicate) => ({ predicate, oneOf: 'partner' as const })), status];
  return [
    ...roles.map((predicate) => ({ predicate, values: [named], oneOf: 'partner' as const })),
    { ...status, withPartner: true as const },
  ];
}

/**
 * Whom a parting names: a name, undefined for whichever partner ("we", "he", "my boyfriend"), null for
 * no partner. After a story of a partner of the past, "He dumped me" and "We broke up" are that
 * partner's, and end nothing when the story gave no name ("My ex was awful. He dumped me.").
 */
function partedFrom(
  named: string | undefined,
  role: string | undefined,
  s: string,
  told: PastPartner | null,
): string | null | undefined {
  if (named === undefined || pronouns.has(named.toLowerCase()))
    return role === undefined && told !== null ? told.name : undefined;
  return noPartner.test(named) || !partnerNamed(named, s) ? null : named;
}

/** Words after a role that say when or how, not who: "my boyfriend today", "my bf over text". */
const notBeside =
  /^(?:today|yesterday|tonight|recently|again|finally|officially|over|via|by|on|in|at|for|this|last|a|an|the|one|two|three|few|couple|\d+)$/iu;

/**
 * The name beside a role ("my boyfriend Tom", "my bf jake"): as written, up to two words; in a chat
 * without capitals one word, where it is no word of when or how. Undefined where there is none.
 */
function besideRole(words: string | undefined, s: string): string | undefined {
  if (words === undefined) return undefined;
  const name = /^\p{Lu}/u.test(words) ? words : words.split(/\s+/u)[0]!;
  const first = name.split(/\s+/u)[0]!;
  if (notBeside.test(first) || pronouns.has(first.toLowerCase())) return undefined;
  // In lower case, a word of how it felt is no name ("…my boyfriend, sadly", "my bf smh", "ugh").
  if (/^\p{Ll}/u.test(first) && (reactionOnly(first) || /ly$/u.test(first) || notNamesBeside.has(first)))
    return undefined;
  // As written, a day or a holiday is when, not who ("my boyfriend Christmas Eve", "… Tuesday").
  if (
    /^(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|christmas|easter|xmas|new)$/iu.test(first)
  )
    return undefined;
  return partnerNamed(name, s) ? name : undefined;
}

/** Chat words after "my boyfriend" that say how, not who. */
const notNamesBeside = new Set(
  'smh ugh kinda sorta tho though anyway anyways rip lmao omg idk tbh ngl fr btw finally officially'.split(
    ' ',
  ),
);

/** "we got back together", "Tom and I are back together", "me and my bf got back together". */
const together = new RegExp(
  String.raw`^${opening}(?:we|${who(11)}\s+and\s+(?:I|me)|(?:I|me)\s+and\s+${who(12)})(?:['’](?:re|ve)\s+|\s+(?:are|have)\s+|\s+)${soon}(?:got(?:ten)?\s+)?back\s+together${when}${chatTail}${chatEnd}`,
  'iu',
);
/** "I'm back with Tom", "I got back together with him". */
const backWith = new RegExp(
  String.raw`^${opening}I(?:['’]?m|\s+am|['’]ve|\s+have|\s+)\s*${soon}(?:got(?:ten)?\s+)?back\s+(?:together\s+)?with\s+${who(13)}${when}${chatTail}${chatEnd}`,
  'iu',
);

/**
 * The partners a sentence of one's own says one is back with, after a parting ended them: "We got back
 * together", "I'm back with Tom", "Tom and I got back together". Each is the value a parting ended,
 * where one holds the slot then (held-endings.ts), and being together again with them. Null for any
 * other sentence.
 */
export function reunionSaid(sentence: string, told: PastPartner | null = null): HeldEnding[] | null {
  const s = sentence.trim();
  const m = together.exec(s) ?? backWith.exec(s);
  if (!m) return null;
  // Being together again only with the partner restored.
  return partnersOf(m.groups!, s, { ...statusEnding, withPartner: true }, told);
}

const roleName = (said: string): string => {
  const low = said.toLowerCase();
  if (low === 'gf') return 'girlfriend';
  if (low === 'bf') return 'boyfriend';
  return low;
};

const statusEnding: HeldEnding = { predicate: 'relationship status', values: togetherStatuses };

/**
 * The partners a relationship status says one has no more: "I'm single now" or "I'm no longer in a
 * relationship" end any partner, "I'm divorced" a wife or a husband (a partner since may be a new one).
 * None for other statuses.
 */
export function partnersEndedBy(status: string, ended = false): HeldEnding[] {
  if ((!ended && status === 'single') || (ended && status === 'in a relationship'))
    return partnerRoles.map((predicate) => ({ predicate }));
  if (!ended && status === 'divorced') return [{ predicate: 'wife' }, { predicate: 'husband' }];
  return [];
}
