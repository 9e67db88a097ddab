import type { Fused } from './fuse.ts';
import type { ThreadIndex } from '../ports/index.ts';
import type { Eligibility, LaneCandidate } from './lane.ts';

/** How many of the best fused candidates lend weight to the message before them. */
export const promptSources = 50;

/** A prompt, with the strong match it comes before (the answer it may be needed to read). */
export interface PromptCandidate extends LaneCandidate {
  answer: string;
}

/**
 * Prompt lane, run on the first fusion: for each of the best candidates, the message just before it in
 * the same thread, in the candidate's order. An answer rarely stands alone; the question that drew it
 * out is part of the evidence ("What was it about?" before "It was about loss and identity"), and it
 * usually shares none of the query's words. Eligibility applies to the prompts like to any candidate.
 */
export async function promptCandidates(
  threads: ThreadIndex,
  eligibility: Eligibility,
  fused: readonly Fused[],
): Promise<PromptCandidate[]> {
  const top = fused.slice(0, promptSources);
  if (top.length === 0) return [];
  const rows = await threads.justBefore(
    top.map((f) => f.recordId),
    eligibility,
  );
  const rank = new Map(top.map((f, i) => [f.recordId, i + 1]));
  const seen = new Set<string>();
  const out: PromptCandidate[] = [];
  for (const r of rows) {
    if (seen.has(r.beforeId)) continue;
    seen.add(r.beforeId);
    out.push({
      recordId: r.beforeId,
      score: 1 / (rank.get(r.recordId) ?? promptSources),
      reason: `the message just before a strong match (fused rank ${rank.get(r.recordId)})`,
      answer: r.recordId,
    });
  }
  return out;
}
