import { matchedTerms } from '../retrieve/query-terms.ts';
import type { Dropped, EvidencePassage } from './evidence.ts';

/** Words that ask about mail sent to a list itself: then it is what the question is about. */
export const bulkWords = ['newsletter', 'newsletters', 'digest', 'subscription', 'unsubscribe'];

/**
 * Whether a question asks about mail sent to a list: one of bulkWords among its words. This way round:
 * "new" is the start of "newsletter", but "newsletters" in a question is one of them.
 */
export const asksAboutBulk = (terms: readonly string[]) =>
  matchedTerms(terms.join(' '), bulkWords).length > 0;

/**
 * Whether a question names a bulk sender: a word of its name ("What did the Medium digest say?").
 * Where the importer had only an address, its domain's name ("deals@skyscout.travel": "skyscout"):
 * "new" is the start of news@flydeals.example.
 */
export function namesSender(sender: string, terms: readonly string[]): boolean {
  const address = /^[^\s@]+@([^.\s]+)/u.exec(sender);
  return matchedTerms(address ? address[1]! : sender, [...terms]).length > 0;
}

/**
 * Blocks of one sender's bulk mail a Context holds at most, where other evidence shares the question's
 * words: the newsletter's offer or reminder is shown (a model may be asked about it, and sees the person
 * gets it), and a second issue shows whether it changed; the rest of a fortnightly mailing says the
 * same pitch again (18 blocks of one airline's ads, "Depart 18 December", for "When is my flight to
 * Lisbon?", the person's own booking among them).
 */
export const bulkPerSender = 2;
/**
 * Of such a Context's evidence, bulk mail is at most one block for every this many blocks that are not
 * bulk (rounded up, so one when there is any): a fifth at most. Blocks are what a model weighs, and
 * five newsletters under four mails of the person's would outvote them whatever their order.
 */
export const nonBulkPerBulk = 4;

/**
 * Evidence with its bulk mail (the importer's "Precedence: bulk" line) cut to a small share, where
 * mail, notes or messages not sent to a list share the question's words (`says`): at most bulkPerSender
 * blocks of each sender, and in all at most one for every nonBulkPerBulk other blocks, the first in the
 * evidence's order kept. None is left out when the question asks about newsletters, of a sender it
 * names, or when nothing but bulk mail shares its words: then it may be the answer.
 */
export function withinBulkShare(
  evidence: readonly EvidencePassage[],
  terms: readonly string[],
  says: (e: EvidencePassage) => boolean,
): { kept: EvidencePassage[]; held: Dropped[] } {
  const all = { kept: [...evidence], held: [] as Dropped[] };
  const bulk = (e: EvidencePassage) => e.bulk === true && !namesSender(e.speaker ?? '', terms);
  if (!evidence.some(bulk) || asksAboutBulk(terms)) return all;
  const others = evidence.filter((e) => e.bulk !== true);
  if (!others.some(says)) return all;
  const share = Math.ceil(others.length / nonBulkPerBulk);
  const perSender = new Map<string, number>();
  let taken = 0;
  const kept: EvidencePassage[] = [];
  const held: Dropped[] = [];
  for (const e of evidence) {
    if (!bulk(e)) {
      kept.push(e);
      continue;
    }
    const sender = e.speaker ?? '';
    const n = perSender.get(sender) ?? 0;
    if (n >= bulkPerSender)
      held.push({
        recordId: e.recordId,
        reason: `bulk mail: ${bulkPerSender} blocks of its sender are quoted already, and Records not sent to a list share the question's words`,
      });
    else if (taken >= share)
      held.push({
        recordId: e.recordId,
        reason: `bulk mail: ${share} of the Context's blocks are bulk mail already (one for every ${nonBulkPerBulk} that are not), and Records not sent to a list share the question's words`,
      });
    else {
      perSender.set(sender, n + 1);
      taken += 1;
      kept.push(e);
    }
  }
  return { kept, held };
}
