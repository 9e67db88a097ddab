import { useQuery } from '@tanstack/react-query';
import { useClient } from './client.ts';
import { brainOptions } from './queries.ts';

/**
 * The name of the person a Brain is a memory of, or undefined (none, or not read yet): a fact's line
 * about them is worded with it (record-text.ts), as the engine's own statements name them. The
 * Brain's read is the one the page's side bar makes already.
 */
export function useSelfName(brainId: string): string | undefined {
  return useQuery(brainOptions(useClient(), brainId)).data?.self?.name;
}
