import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useSelfName } from './self-name.ts';
import { readsToStart } from '../reads-to-start.ts';
import { recordSummary } from '../record-text.ts';
import { maxListedIds, type TypedContent } from '../../engine/contract/index.ts';
import { batchedRecordRead } from './record-batch.ts';
import { useClient } from './client.ts';
import { recordOptions } from './queries.ts';

/** Records' words by id, and the ids whose read failed (forgotten since, or not readable with this key). */
export interface RecordWords {
  words: Map<string, string>;
  /** The Records' content by id, as read: what a quote of one is worded from (citedQuoteLabel). */
  contents: Map<string, TypedContent>;
  failed: Set<string>;
}

/**
 * The words of some Records, by id, read through the shared Record cache (a Record never changes, so
 * one read serves every screen for good): those asked for together are read in one request
 * (record-batch.ts), as many at once as one listRecords by `ids` takes. An id in neither `words` nor
 * `failed` is still to be read.
 */
export function useRecordWords(brainId: string, ids: readonly string[]): RecordWords {
  const client = useClient();
  const selfName = useSelfName(brainId);
  const qc = useQueryClient();
  const read = batchedRecordRead(client, brainId);
  const options = ids.map((id) => ({ ...recordOptions(client, brainId, id), queryFn: () => read(id) }));
  const settled = (id: string) => {
    const status = qc.getQueryState(recordOptions(client, brainId, id).queryKey)?.status;
    return status === 'success' || status === 'error';
  };
  const start = readsToStart(ids, settled, maxListedIds);
  // A disabled query still gives what the cache holds, so only the reads to start are enabled.
  const records = useQueries({ queries: options.map((o, i) => ({ ...o, enabled: start.has(ids[i]!) })) });
  const words = new Map<string, string>();
  const contents = new Map<string, TypedContent>();
  const failed = new Set<string>();
  records.forEach((r, i) => {
    if (r.data) {
      words.set(ids[i]!, recordSummary(r.data.content, selfName));
      contents.set(ids[i]!, r.data.content);
    } else if (r.isError) failed.add(ids[i]!);
  });
  return { words, contents, failed };
}
