import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { hidesRecords } from '../core/retrieve/hides-records.ts';
import type { VectorModelRef } from '../ports/index.ts';
import { laneRepeatKey, repeatsBehind } from './repeats-behind.ts';

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
      if (!q || !m) return [];
      // Ask for more neighbours only when filters will drop some of them. (The scan costs the same at any
      // k; the selection of the best k a little more per extra neighbour.)
      const k = Math.min(hidesRecords(input.eligibility) ? 4 * input.limit : input.limit, maxK);
      let found = await nearestInScope(input, q, m, k);
      let ordered = await withRepeatsBehind(input, found.rows);
      // The nearest all one line written many times over: the deepest search, once, for the Records
      // behind (the scan costs the same; only a Brain of such repeats pays for the selection and reads).
      if (
        found.full &&
        ordered.rows.length > ordered.distinct &&
        ordered.distinct < input.limit &&
        k < maxK
      ) {
        found = await nearestInScope(input, q, m, maxK);
        ordered = await withRepeatsBehind(input, found.rows);
      }
      return ordered.rows.slice(0, input.limit).map((r) => ({
        recordId: r.recordId,
        score: r.score,
        reason: `cosine ${r.score.toFixed(3)} (${m.provider} ${m.model}${r.via === 'memory' ? ', via a Memory' : ''})`,
      }));
    },
  };
}

const maxK = 1000;

interface Neighbour {
  recordId: string;
  score: number;
  via: 'record' | 'memory';
}

/**
 * The Records nearest the query among the k nearest Record vectors and the Records cited by the
 * nearest Memory vectors, over the provider's floor and in the request's scope, nearest first; `full`:
 * the k asked for were found, so more lie beyond them.
 */
async function nearestInScope(
  input: LaneInput,
  q: Float32Array,
  m: VectorModelRef,
  k: number,
): Promise<{ rows: Neighbour[]; full: boolean }> {
  const vectors = input.vectors;
  const floor = similarityFloor(m.provider);
  const best = new Map<number, { sim: number; via: 'record' | 'memory' }>();
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
  const full = recHits.length >= k;
  if (best.size === 0) return { rows: [], full };
  const order = [...best.keys()];
  const rank = new Map(order.map((n, i) => [n, i]));
  const rows = await vectors.inScope(order, input.eligibility);
  return {
    rows: rows
      .map((r) => ({ r, b: best.get(r.n)! }))
      // Equal similarities keep the KNN's order.
      .sort((a, b) => b.b.sim - a.b.sim || rank.get(a.r.n)! - rank.get(b.r.n)!)
      .map(({ r, b }) => ({ recordId: r.id, score: b.sim, via: b.via })),
    full,
  };
}

/**
 * The neighbours with those that repeat another's words behind the others (repeats-behind.ts). One
 * text embeds to one vector, so only neighbours of exactly the same similarity as another can repeat
 * it: their texts alone are read, and a lane without such ties reads nothing more.
 */
async function withRepeatsBehind(
  input: LaneInput,
  rows: Neighbour[],
): Promise<{ rows: Neighbour[]; distinct: number }> {
  const tied = rows.filter((r, i) => rows[i - 1]?.score === r.score || rows[i + 1]?.score === r.score);
  if (tied.length === 0) return { rows, distinct: rows.length };
  const read = await input.lexical.texts(
    input.eligibility.brainUid,
    tied.map((r) => r.recordId),
  );
  const texts = new Map(read.map((t) => [t.recordId, t]));
  return repeatsBehind(
    rows,
    (r) => {
      const t = texts.get(r.recordId);
      return t === undefined ? null : laneRepeatKey(t, null);
    },
    (r) => texts.get(r.recordId)?.occurredMs ?? 0,
  );
}
