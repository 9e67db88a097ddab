import type { MessageSpeakersSince } from '../../core/derive/speakers-by-first-name.ts';
import type { Store } from './store.ts';

/** Read by the index records_brain_seq (migration 045): a range from `after`, already in order. */
export const messageSpeakersSql = `SELECT seq, json_extract(content, '$.speaker') AS speaker FROM records
  WHERE brain_uid = ? AND seq > ? AND kind = 'message' ORDER BY seq`;

/** A Brain's messages written after a seq, for speakersByFirstName. */
export function messageSpeakersSince(store: Pick<Store, 'all'>, brainUid: string): MessageSpeakersSince {
  return async (after) => store.all<{ seq: number; speaker: unknown }>(messageSpeakersSql, brainUid, after);
}
