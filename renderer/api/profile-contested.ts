/**
 * Which of the owner's current Memories disagree with another current value of their slot, for the
 * Profile: the server lists them (`contested=true`), so nothing is scanned here.
 */
import { queryOptions } from '@tanstack/react-query';
import type { Memory } from '../../engine/contract/index.ts';
import type { MnemoClient } from '../../server/client/index.ts';
import { keys } from './queries.ts';

/** Disagreements are few; this many pages of them is more than a profile of 100 lines can show. */
const maxPages = 5;

/**
 * Under the profile's key, so whatever refreshes the profile (a change in the Brain) refreshes this
 * with it.
 */
export const contestedOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: [...keys.profile(brainId), 'contested'] as const,
    queryFn: async ({ signal }) => {
      const found: Memory[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < maxPages; i += 1) {
        const page = await client.listMemories(
          brainId,
          { contested: 'true', owner: 'self', limit: 200, ...(cursor ? { cursor } : {}) },
          { signal },
        );
        found.push(...page.data);
        cursor = page.has_more ? page.next_cursor : null;
        if (cursor === null) break;
      }
      return found;
    },
  });
