import { selfSpeakerNames } from '../../contract/index.ts';
import { spokenBySelf, type OwnPerson } from '../derive/resolve-owner.ts';
import { foldedWords } from '../retrieve/query-terms.ts';
import type { Dropped, EvidencePassage } from './evidence.ts';

/** A text's words, folded, one space between: the same words in any case, accents or punctuation. */
const wordsOf = (text: string) => foldedWords(text).join(' ');

/**
 * The person's own message of no Memory in the query's own words: an agent's loop (docs/agents.md)
 * writes the person's question and then asks with it, and it came back as block [1], above the answer,
 * once more each turn it was asked. Where no later message of its thread is among the evidence, nothing
 * here answers it: it is the question now asked, and is dropped. Where one is, it is what that reply
 * answers ("Is the trip still on?" then "Yes."), and is kept, last (`last`), as another's answered
 * question is (questions-last.ts). Anyone else's message in the same words stays where it ranked: it
 * is what they asked or said, and may be what an answer replies to.
 */
export function theQuestionAsked(
  evidence: readonly EvidencePassage[],
  query: string,
  who: OwnPerson,
): { evidence: EvidencePassage[]; last: ReadonlySet<EvidencePassage>; dropped: Dropped[] } {
  const asked = wordsOf(query);
  const bySelf = (e: EvidencePassage) =>
    e.speaker !== null &&
    (selfSpeakerNames.has(e.speaker.trim().toLowerCase()) || spokenBySelf(e.speaker, who));
  const copies = evidence.filter(
    (e) => e.kind === 'message' && e.memoryIds.length === 0 && bySelf(e) && wordsOf(e.passage) === asked,
  );
  if (copies.length === 0 || asked === '') return { evidence: [...evidence], last: new Set(), dropped: [] };
  const answered = (q: EvidencePassage) =>
    q.thread !== null &&
    evidence.some(
      (e) =>
        e.kind === 'message' &&
        e.thread === q.thread &&
        !copies.includes(e) &&
        Date.parse(e.occurredAt) > Date.parse(q.occurredAt),
    );
  const gone = new Set(copies.filter((q) => !answered(q)));
  return {
    evidence: evidence.filter((e) => !gone.has(e)),
    last: new Set(copies.filter((q) => !gone.has(q))),
    dropped: [...gone].map((q) => ({
      recordId: q.recordId,
      reason:
        "the question asked: the person's message in the query's own words, with no reply among the evidence",
    })),
  };
}
