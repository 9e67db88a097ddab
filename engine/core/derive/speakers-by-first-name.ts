import { foldName } from './resolve-owner.ts';

/** A Brain's messages written after `afterSeq`, in the order of their seq: each one's seq and speaker. */
export type MessageSpeakersSince = (afterSeq: number) => Promise<Array<{ seq: number; speaker: unknown }>>;

/**
 * BrainUnitOfWork.speakersFirstNamed over any storage: per Brain, the speakers seen so far by their
 * first word, read on from the last message read by its seq (a Brain's seq never goes back, a forget
 * or a rollback included, and is taken in commit order under the Brain's lock), so a call reads only
 * what was written since, and a Brain with millions of messages is read whole once per process. A
 * speaker whose Records were forgotten stays: it errs toward another person.
 */
export function speakersByFirstName(): (
  brainUid: string,
  first: string,
  since: MessageSpeakersSince,
) => Promise<string[]> {
  const seen = new Map<string, { through: number; byFirst: Map<string, Set<string>> }>();
  return async (brainUid, first, since) => {
    const b = seen.get(brainUid) ?? { through: 0, byFirst: new Map<string, Set<string>>() };
    seen.set(brainUid, b);
    for (const r of await since(b.through)) {
      b.through = Math.max(b.through, r.seq);
      if (typeof r.speaker !== 'string') continue;
      const name = foldName(r.speaker);
      if (name === '') continue;
      const key = name.split(' ')[0]!;
      const names = b.byFirst.get(key) ?? new Set<string>();
      b.byFirst.set(key, names.add(name));
    }
    return [...(b.byFirst.get(first) ?? [])];
  };
}
