/**
 * Which of the owner's current Memories disagree with another current value of their slot, for the
 * Profile: the server lists them (`contested=true`), so nothing is scanned here.
 */
import { queryOptions } from '@tanstack/react-query';
import type { MnemoClient } from '../../server/client/index.ts';
import { keys, readContested } from './queries.ts';

/** Disagreements are few: this many covers a profile read many pages deep. */
const maxShown = 1000;

/**
 * Under the profile's key, so whatever reads the profile again as a whole reads this with it; a
 * change followed from the Brain (an agent's or the app's own write) reads it again only when it
 * touched a slot of the self's (useFollowBrain).
 */
export const contestedKey = (brainId: string) => [...keys.profile(brainId), 'contested'] as const;

export const contestedOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: contestedKey(brainId),
    queryFn: async ({ signal }) =>
      (await readContested(client, brainId, null, maxShown, signal, { owner: 'self' })).memories,
  });
