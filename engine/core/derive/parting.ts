import { chatEnd, fillers, partnerNamed, relationNames } from './slot-sentences.ts';

/**
 * A slot a sentence ends without naming its value the way the slot holds it: "We broke up" ends
 * whichever partner holds the slot then. `values` narrows it to the person named ("I broke up with
 * Tom": Tom); absent, whatever value holds the slot ends.
 */
export interface HeldEnding {
  predicate: string;
  values?: readonly string[];
}

/** The partners one has one of at a time, as the attribute sentences spell them (slot-sentences.ts). */
const partnerRoles = ['partner', 'girlfriend', 'boyfriend', 'fiancé', 'wife', 'husband'] as const;
/** Statuses a parting ends: one is single after it, or divorced, which the person says themselves. */
const togetherStatuses = ['in a relationship', 'engaged'];

const role = String.raw`(?:partner|girlfriend|boyfriend|gf|bf|fianc[ée]e?|wife|husband)`;
/** Who one parted from: "my boyfriend", a name of up to three words, or a pronoun (checked apart). */
const who = (n: number) =>
  String.raw`(?:my\s+(?<role${n}>${role})|(?<who${n}>[\p{L}\p{M}'’.-]+(?:\s+[\p{L}\p{M}'’.-]+){0,2}?))`;
const when = String.raw`(?:\s+(?:today|yesterday|recently|last\s+(?:night|week|weekend|month|year)|this\s+(?:week|weekend|month|year)|a\s+(?:few\s+)?(?:days?|weeks?|months?)\s+ago))?`;
const soon = String.raw`(?:just\s+|finally\s+|officially\s+|recently\s+)?`;
/** "we broke up", "Tom and I split up", "my boyfriend and I have broken up". */
const mutual = new RegExp(
  String.raw`^${fillers}(?:we|${who(1)}\s+and\s+I|I\s+and\s+${who(2)})(?:['’]ve\s+|\s+have\s+|\s+)${soon}(?:broke\s+up|broken\s+up|split(?:\s+up)?|separated|called\s+it\s+quits|got\s+divorced)${when}${chatEnd}`,
  'iu',
);
/** "I broke up with Tom", "I dumped him", "I divorced my husband". */
const mine = new RegExp(
  String.raw`^${fillers}I(?:['’]ve\s+|\s+have\s+|\s+)${soon}(?:(?:broke|broken)\s+up\s+with|split\s+(?:up\s+)?(?:with|from)|separated\s+from|dumped|divorced)\s+${who(3)}${when}${chatEnd}`,
  'iu',
);
/** "Tom broke up with me", "my girlfriend dumped me", "he left me". */
const theirs = new RegExp(
  String.raw`^${fillers}${who(4)}(?:['’]s\s+|\s+has\s+|\s+)${soon}(?:(?:broke|broken)\s+up\s+with|dumped|left|divorced)\s+me${when}${chatEnd}`,
  'iu',
);
const pronouns = new Set(['he', 'she', 'they', 'him', 'her', 'them']);
/** Words a name of a partner cannot be: "I dumped it", "we and I". */
const noPartner =
  /^(?:(?:it|this|that|we|you|us|everyone|someone|everything|all|i|me)$|(?:my|our|your|the|a|an|his|her|their|this|that)\s)/iu;

/**
 * The partners a sentence of one's own says one has parted from, and the statuses that end with them:
 * "We broke up", "Tom and I split up last week", "I broke up with Tom", "My boyfriend dumped me".
 * Null for any other sentence, and for words that name no partner ("I broke up with it").
 */
export function partingSaid(sentence: string): HeldEnding[] | null {
  const s = sentence.trim();
  const m = mutual.exec(s) ?? mine.exec(s) ?? theirs.exec(s);
  if (!m) return null;
  const g = m.groups!;
  const named = g['who1'] ?? g['who2'] ?? g['who3'] ?? g['who4'];
  const said = g['role1'] ?? g['role2'] ?? g['role3'] ?? g['role4'];
  // "He left me", "Dad left me": one leaves a party or a child too; only a partner named by role.
  if (said === undefined && /\bleft\s+me\b/iu.test(m[0])) return null;
  const roles = said === undefined ? partnerRoles : [relationNames[said.toLowerCase()] ?? roleName(said)];
  if (named !== undefined && !pronouns.has(named.toLowerCase())) {
    if (noPartner.test(named) || !partnerNamed(named, s)) return null;
    // "Dad left me", "Google dumped me": a name may be no partner's, so only a breakup's own words end
    // the status too; the partner ends only where that name holds the slot.
    const brokeUp = /\b(?:broke|broken|split)\b/iu.test(m[0]);
    return [
      ...roles.map((predicate) => ({ predicate, values: [named] })),
      ...(brokeUp ? [statusEnding] : []),
    ];
  }
  return [...roles.map((predicate) => ({ predicate })), statusEnding];
}

const roleName = (said: string): string => {
  const low = said.toLowerCase();
  if (low === 'gf') return 'girlfriend';
  if (low === 'bf') return 'boyfriend';
  return low;
};

const statusEnding: HeldEnding = { predicate: 'relationship status', values: togetherStatuses };

/**
 * The partners a relationship status says one has no more: "I'm single now" ends any partner,
 * "I'm divorced" a wife or a husband (a partner since may be a new one). None for other statuses.
 */
export function partnersEndedBy(status: string): HeldEnding[] {
  if (status === 'single') return partnerRoles.map((predicate) => ({ predicate }));
  if (status === 'divorced') return [{ predicate: 'wife' }, { predicate: 'husband' }];
  return [];
}
