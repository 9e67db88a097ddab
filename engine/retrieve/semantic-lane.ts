import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { hidesRecords } from '../core/retrieve/hides-records.ts';
import type { VectorModelRef } from '../ports/index.ts';

/**
 * Below this cosine a vector neighbour is not evidence: KNN always returns k neighbours, relevant or
 * not, and a Context must still be able to say it found nothing. Calibrated per provider on the LoCoMo
 * dev half (glove-sif: unrelated questions score 0.07-0.25, a quarter of the evidence under 0.42).
 */
export function similarityFloor(provider: string): number {
  if (provider === 'glove-sif') return 0.35;
  if (provider === 'hash') return 0.2;
  return 0.3;
}

/**
 * Semantic lane: exact KNN of the query's embedding through the VectorIndex port (over SQLite,
 * sqlite-vec's, answered from the Brain's in-memory copy) over the Brain's Record vectors and Memory
 * vectors (a Memory hit stands for the Records it cites), filtered by the eligibility rules. Only
 * vectors of the active model are compared with the query.
 */
export function createSemanticLane(): Lane {
  return {
    name: 'semantic',
    needsQueryVector: true,
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const q = input.queryVector;
      const m: VectorModelRef | null | undefined = input.vectorModel;
      const vectors = input.vectors;
      if (!q || !m) return [];
      // Ask for more neighbours only when filters will drop some of them. (The scan costs the same at any
      // k; the selection of the best k a little more per extra neighbour.)
      const k = Math.min(hidesRecords(input.eligibility) ? 4 * input.limit : input.limit, 1000);
      const floor = similarityFloor(m.provider);
      const best = new Map<number, { sim: number; via: string }>();
      const brain = input.eligibility.brainUid;
      const recHits = await vectors.nearest(m, 'record', brain, q, k);
      const memHits = await vectors.nearest(m, 'memory', brain, q, input.limit);
      // The neighbours the scan ranked, not the k asked for: a Brain of three Records costs three.
      input.ledger.charge('processing', (recHits.length + memHits.length) / 1000);
      for (const hit of recHits) {
        if (1 - hit.distance >= floor) best.set(hit.n, { sim: 1 - hit.distance, via: 'record' });
      }
      if (memHits.length > 0) {
        const cited = await vectors.cited(
          brain,
          memHits.map((h) => h.n),
        );
        const sim = new Map(memHits.map((h) => [h.n, 1 - h.distance]));
        for (const c of cited) {
          const s = sim.get(c.memoryN) ?? 0;
          if (s >= floor && (best.get(c.recordN)?.sim ?? -Infinity) < s)
            best.set(c.recordN, { sim: s, via: 'memory' });
        }
      }
      if (best.size === 0) return [];
      const order = [...best.keys()];
      const rank = new Map(order.map((n, i) => [n, i]));
      const rows = await vectors.inScope(order, input.eligibility);
      return (
        rows
          .map((r) => ({ r, b: best.get(r.n)! }))
          // Equal similarities keep the KNN's order.
          .sort((a, b) => b.b.sim - a.b.sim || rank.get(a.r.n)! - rank.get(b.r.n)!)
          .slice(0, input.limit)
          .map(({ r, b }) => ({
            recordId: r.id,
            score: b.sim,
            reason: `cosine ${b.sim.toFixed(3)} (${m.provider} ${m.model}${b.via === 'memory' ? ', via a Memory' : ''})`,
          }))
      );
    },
  };
}
