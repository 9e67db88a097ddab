import { spokenBySelf, type OwnPerson } from '../derive/resolve-owner.ts';
import type { EvidencePassage } from './evidence.ts';

// Words asking how things stand now, as against what was ever said: "Is Inês still coming?", "Do I
// still work there?", "Does he live in Porto anymore?", "Where do I live now?". English only, like
// the recency words of time-expressions.ts.
const presentState =
  /\b(still|anymore|any more|any longer|no longer|now|currently|nowadays|these days|at the moment)\b/iu;

/** Whether a query asks how things stand now. */
export function asksPresentState(query: string): boolean {
  return presentState.test(query);
}

// Lanes that find a message as said by the person the query names (entity), or as the value of the
// slot it asks about (slot). Not the lexical lane: it finds a message through its neighbours' words
// too, and in a long chat of many topics the newest such message is any message.

/** A pause in a thread this long starts another sitting of its conversation. */
const sittingGapMs = 6 * 3_600_000;

/**
 * For a question about how things stand now: within each thread, the messages found as said by the
 * person the query names (or as the slot it asks about) take the places those messages held, the
 * latest sitting's first (a sitting: the thread's messages with no pause of six hours or more between
 * them), each sitting's in the ranking's order. A plan changed in a later talk of the same conversation
 * is what answers it: "Is Inês still coming next weekend?" cited her "Still on for next weekend?" and
 * "my flight lands at 18:40" first and, days later, her "Sorry, I have to cancel, work came up" third,
 * since the older messages share more of the question's words. Only sittings are put newest first, not
 * messages: within one talk the newest message by the person is any of the things they said (LoCoMo's
 * "What book is Jon currently reading?" lost its answer from first to eighth place, under a later
 * message of Jon's in the same session, when every message was). Other messages, documents, and what
 * only words or a resemblance found stay where the ranking put them. The Brain's own person's
 * messages are not found as hers by the entity lane for this (`who`): nearly every message in her
 * Brain is, so her latest sitting's put any of her words first ("When is my dentist appointment
 * now?" led with her newer "Marko has a new number", the dentist's move third).
 */
export function latestFirstInThreads(
  evidence: readonly EvidencePassage[],
  who: OwnPerson = { self: null },
): EvidencePassage[] {
  const out = [...evidence];
  const places = new Map<string, number[]>();
  const about = (e: EvidencePassage) =>
    e.lanes.includes('slot') || (e.lanes.includes('entity') && !spokenBySelf(e.speaker, who));
  out.forEach((e, i) => {
    if (e.kind !== 'message' || e.thread === null || !about(e)) return;
    places.set(e.thread, [...(places.get(e.thread) ?? []), i]);
  });
  for (const at of places.values()) {
    if (at.length < 2) continue;
    const members = at.map((i) => ({ e: evidence[i]!, ms: Date.parse(evidence[i]!.occurredAt) }));
    // Each member's sitting, counted from the thread's first among them.
    const times = members.map((m) => m.ms).sort((a, b) => a - b);
    const starts = times.filter((t, k) => k > 0 && t - times[k - 1]! >= sittingGapMs);
    const sitting = (ms: number) => starts.filter((t) => t <= ms).length;
    // Latest sitting first; within one, the ranking's order (the sort is stable).
    const ordered = [...members].sort((a, b) => sitting(b.ms) - sitting(a.ms));
    at.forEach((i, k) => (out[i] = ordered[k]!.e));
  }
  return out;
}
