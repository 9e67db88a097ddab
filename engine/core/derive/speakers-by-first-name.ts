import { foldName, givenName } from './resolve-owner.ts';

/** A Brain's messages written after `afterSeq`, in the order of their seq: each one's seq and speaker. */
export type MessageSpeakersSince = (afterSeq: number) => Promise<Array<{ seq: number; speaker: unknown }>>;

/**
 * BrainUnitOfWork.speakersFirstNamed over any storage: per Brain, the speakers seen so far by their
 * first word, read on from the last message read by its seq (a Brain's seq never goes back, a forget
 * or a rollback included, and is taken in commit order under the Brain's lock), so a call reads only
 * what was written since, and a Brain with millions of messages is read whole once per process. A
 * speaker whose Records were forgotten stays: it errs toward another person. Each speaker is kept with
 * the step of its first message read, so `before` asks who had spoken before a given message (the
 * first of a namesake: namesake.ts).
 */
export type SpeakersByFirstName = (
  brainUid: string,
  first: string,
  since: MessageSpeakersSince,
  before?: number,
) => Promise<string[]>;

export function speakersByFirstName(): SpeakersByFirstName {
  const seen = new Map<string, { through: number; byFirst: Map<string, Map<string, number>> }>();
  return async (brainUid, first, since, before = Infinity) => {
    const b = seen.get(brainUid) ?? { through: 0, byFirst: new Map<string, Map<string, number>>() };
    seen.set(brainUid, b);
    for (const r of await since(b.through)) {
      b.through = Math.max(b.through, r.seq);
      if (typeof r.speaker !== 'string') continue;
      const name = foldName(r.speaker);
      if (name === '') continue;
      const key = givenName(name);
      if (key === null) continue;
      const names = b.byFirst.get(key) ?? new Map<string, number>();
      if (!names.has(name)) b.byFirst.set(key, names.set(name, r.seq));
    }
    return [...(b.byFirst.get(first) ?? [])].flatMap(([name, seq]) => (seq < before ? [name] : []));
  };
}

/**
 * ThreadIndex.speakersFirstNamed over any storage: each of `firsts` that names a speaker, with the
 * speakers it names, from BY_FIRST (speakersByFirstName). The first lookup brings the list up to date
 * and the others read nothing more: a read each was a round trip a query word on PostgreSQL.
 */
export async function speakersOfEach(
  byFirst: SpeakersByFirstName,
  brainUid: string,
  firsts: readonly string[],
  since: MessageSpeakersSince,
): Promise<Array<{ first: string; speakers: string[] }>> {
  let read = false;
  const once: MessageSpeakersSince = (after) => {
    if (read) return Promise.resolve([]);
    read = true;
    return since(after);
  };
  const out: Array<{ first: string; speakers: string[] }> = [];
  for (const first of new Set(firsts)) {
    const speakers = await byFirst(brainUid, first, once);
    if (speakers.length > 0) out.push({ first, speakers });
  }
  return out;
}
