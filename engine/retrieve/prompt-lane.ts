import type { Fused } from './fuse.ts';
import type { Eligibility, LaneCandidate } from './lane.ts';
import { eligibilitySql } from './lane.ts';
import type { Store } from '../adapters/sqlite/store.ts';

/** How many of the best fused candidates lend weight to the message before them. */
export const promptSources = 50;

/**
 * Prompt lane, run on the first fusion: for each of the best candidates, the message just before it in
 * the same thread, in the candidate's order. An answer rarely stands alone; the question that drew it
 * out is part of the evidence ("What was it about?" before "It was about loss and identity"), and it
 * usually shares none of the query's words. Eligibility applies to the prompts like to any candidate.
 */
export function promptCandidates(
  store: Store,
  eligibility: Eligibility,
  fused: readonly Fused[],
): LaneCandidate[] {
  const top = fused.slice(0, promptSources);
  if (top.length === 0) return [];
  const el = eligibilitySql(eligibility, 'p');
  const rows = store.all<{ follower: string; id: string }>(
    `SELECT c.value AS follower, p.id AS id
     FROM json_each(?) c
     JOIN records f ON f.id = c.value
     JOIN retrieval_index fi ON fi.record_n = f.n AND fi.thread IS NOT NULL
     JOIN records p ON p.n = (
       SELECT pi.record_n FROM retrieval_index pi
       WHERE pi.brain_uid = fi.brain_uid AND pi.thread = fi.thread
         AND (pi.occurred_ms, pi.record_n) < (fi.occurred_ms, fi.record_n)
       ORDER BY pi.occurred_ms DESC, pi.record_n DESC LIMIT 1)
     WHERE ${el.sql}
     ORDER BY c.key`,
    JSON.stringify(top.map((f) => f.recordId)),
    ...el.params,
  );
  const rank = new Map(top.map((f, i) => [f.recordId, i + 1]));
  const seen = new Set<string>();
  const out: LaneCandidate[] = [];
  for (const r of rows) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    out.push({
      recordId: r.id,
      score: 1 / (rank.get(r.follower) ?? promptSources),
      reason: `the message just before a strong match (fused rank ${rank.get(r.follower)})`,
    });
  }
  return out;
}
