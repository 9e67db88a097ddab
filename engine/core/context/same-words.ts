import { importedMailHeader, type ImportedMailHeader } from '../../contract/mail-header.ts';
import { baseSubject } from '../shared/base-subject.ts';
import { matchedTerms } from '../retrieve/query-terms.ts';

/**
 * What a Record says, as two blocks of a Context would say it twice: the kind, the speaker, a note's
 * title and the text, a mail's without its header lines but with its subject (a "Re:" or "Fwd:" aside).
 * Compared character for character, as the census's duplicates are: a newsletter sent every fortnight
 * with the same body, a fact remembered twice. The speaker is part of it: "Thanks!" by two people is two
 * things said. So is what names the words: "Confirmed: Thursday, 10:00." under "Atlas design review"
 * and under "Borealis design review" answers two questions, as do two notes titled for two projects.
 * Bulk mail's subject is not: a newsletter's changes with each issue ("-20% this week") while its body
 * does not. Null: no block repeats it.
 */
export function sameWordsKey(
  kind: string,
  speaker: string | null,
  text: string,
  terms: readonly string[],
  title: string | null = null,
): string | null {
  const header = kind === 'message' ? importedMailHeader(text) : null;
  // A chat message that says none of the question's words was found through the messages around it:
  // what it says is theirs. The same "Yes." in two chats answers two questions.
  if (kind === 'message' && header === null && matchedTerms(text, [...terms]).length === 0) return null;
  return keyOf(kind, speaker, text, title, header);
}

/**
 * What a Record says, as sameWordsKey compares it, however it was found: a Record found by its own
 * meaning (the semantic lane) says what it says, wherever it was said.
 */
export function wordsKey(
  kind: string,
  speaker: string | null,
  text: string,
  title: string | null = null,
): string {
  return keyOf(kind, speaker, text, title, kind === 'message' ? importedMailHeader(text) : null);
}

function keyOf(
  kind: string,
  speaker: string | null,
  text: string,
  title: string | null,
  header: ImportedMailHeader | null,
): string {
  const body = header ? text.slice(header.end) : text;
  const named = header ? (header.bulk ? '' : baseSubject(header.subject ?? '')) : (title ?? '');
  return `${kind}\u0000${speaker ?? ''}\u0000${named}\u0000${body.trim()}`;
}

/** Lanes that put a Record forward as what holds now: the slot's current value, what superseded a
 * Record found, a note's newest revision. */
const madeCurrentLanes = ['slot', 'successor', 'revision'];

/** A Record among Records of the same words, as far as choosing the one to keep needs it. */
export interface Repeat {
  recordId: string;
  lanes: readonly string[];
  occurredAt: string;
  /** Kept though every Memory of it was superseded (select-evidence.ts' saysMore). */
  superseded: boolean;
  /** A change the question asks about shows it (select-evidence.ts' `lead`). */
  lead: boolean;
}

/** Why the one kept of some Records of the same words is kept (the reason a repeat is left out says it). */
export type KeptFor = 'a change' | 'made current' | 'newest';

/**
 * Of two Records of the same words, whether `next` is kept rather than `kept`: the one a change the
 * question asks about shows, else the one a slot or a supersession made current (the slot lane found
 * it, or it was brought in for what it superseded), else one still current over one superseded, else
 * the newest (what the sender says now: the latest issue of a newsletter, the fact remembered last),
 * else the one ranked first.
 */
export function keptOf(kept: Repeat, next: Repeat): { next: boolean; for: KeptFor } {
  const current = (r: Repeat) => r.lanes.some((l) => madeCurrentLanes.includes(l));
  const tiers: Array<[(r: Repeat) => boolean, KeptFor]> = [
    [(r) => r.lead, 'a change'],
    [current, 'made current'],
    [(r) => !r.superseded, 'made current'],
  ];
  for (const [tier, why] of tiers) {
    if (tier(next) !== tier(kept)) return { next: tier(next), for: why };
  }
  return { next: Date.parse(next.occurredAt) > Date.parse(kept.occurredAt), for: 'newest' };
}

/** The reason a Record is left out for repeating the words of `keptId`'s block. */
export function repeatReason(keptId: string, keptFor: KeptFor): string {
  const why =
    keptFor === 'newest'
      ? 'the newest of them'
      : keptFor === 'a change'
        ? 'the one showing the change asked about'
        : 'the one a slot or a supersession made current';
  return `repeated: the same words as ${keptId}, which is quoted instead (${why})`;
}
