import type { LaneCandidate } from './lane.ts';

export interface LaneResult {
  lane: string;
  candidates: LaneCandidate[];
  ms: number;
}

export interface Fused {
  recordId: string;
  score: number;
  lanes: string[];
  /** Set when a reranker ordered this candidate (retrieve.ts). */
  rerankScore?: number;
}

/**
 * Reciprocal rank fusion (k = 60): each lane contributes weight / (k + rank), weight 1 unless given.
 * Rank-based, so lanes with incomparable scores (BM25, cosine, recency) combine without calibration.
 */
/** The k of reciprocal rank fusion, and how Traces name the method. */
export const rrfK = 60;
export const fusionMethod = `weighted_reciprocal_rank_fusion(k=${rrfK})`;

export function fuse(
  results: LaneResult[],
  k = rrfK,
  weights: Readonly<Record<string, number>> = {},
): Fused[] {
  const byRecord = new Map<string, Fused>();
  for (const r of results) {
    r.candidates.forEach((c, i) => {
      const f = byRecord.get(c.recordId) ?? { recordId: c.recordId, score: 0, lanes: [] };
      f.score += (weights[r.lane] ?? 1) / (k + i + 1);
      f.lanes.push(r.lane);
      byRecord.set(c.recordId, f);
    });
  }
  return [...byRecord.values()].sort((a, b) => b.score - a.score);
}
