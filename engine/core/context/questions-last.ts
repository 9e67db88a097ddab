import { spokenBySelf, type OwnPerson } from '../derive/resolve-owner.ts';
import type { EvidencePassage } from './evidence.ts';

/**
 * Questions whose answer is in the evidence go below every other passage, in their order: a message
 * that asks and states nothing ("What city do you live in?"), by someone other than the Brain's own
 * person, when a message of that person in the same thread (or both in none), at or after it, is
 * evidence too. QA found an agent's question quoted right after the person's answer, taking room
 * and reading as something known; the answer says what is known. Kept, not dropped: a short answer
 * ("Lisbon.") may need its question to be read, and the budget cuts from the end. Without a self,
 * nobody is known to answer, and the order stays as ranked. The person is known by derivation's rule
 * (resolve-owner.ts): "Maya" answers for the self "Maya Costa" unless a "Maya Silva" speaks in the
 * Brain too (`who.selfFirstName`).
 */
export function questionsAfterAnswers(
  evidence: readonly EvidencePassage[],
  who: OwnPerson,
): EvidencePassage[] {
  if (who.self === null) return [...evidence];
  const bySelf = (e: EvidencePassage) => spokenBySelf(e.speaker, who);
  // The person's own statements, found once: each question is compared with these alone.
  const answers = evidence.filter((a) => a.kind === 'message' && !a.asksOnly && bySelf(a));
  const answered = (q: EvidencePassage) =>
    q.asksOnly &&
    !bySelf(q) &&
    answers.some((a) => a.thread === q.thread && Date.parse(a.occurredAt) >= Date.parse(q.occurredAt));
  const last = new Set(evidence.filter(answered));
  if (last.size === 0) return [...evidence];
  return [...evidence.filter((e) => !last.has(e)), ...last];
}
