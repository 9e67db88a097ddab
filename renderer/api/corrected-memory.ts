import { useQuery } from '@tanstack/react-query';
import { oneLine } from '../format.ts';
import { statementLabel } from '../record-text.ts';
import { useClient } from './client.ts';
import { memoryOptions } from './queries.ts';

/**
 * The words of the Memory a correction changed (statementLabel, on one line), once read: what Records,
 * a correction's page and its Forget dialog name it by. Null until then, for no Memory (`id` null), or
 * where it is gone or may not be read.
 */
export function useCorrectedMemory(brainId: string, id: string | null): string | null {
  const memory = useQuery({
    ...memoryOptions(useClient(), brainId, id ?? ''),
    enabled: id !== null,
    retry: false,
  });
  return memory.data ? oneLine(statementLabel(memory.data), 120) : null;
}
