import type { RecordFacts, ThreadIndex } from '../ports/index.ts';
import type { Fused, LaneResult } from './fuse.ts';
import type { Eligibility } from './lane.ts';
import { matchedTerms } from '../core/retrieve/query-terms.ts';

/** The lanes whose ranks the reranker sees (feedback, thorough only, reaches it through the fusion). */
const rankedLanes = ['lexical', 'entity', 'time', 'recency', 'when', 'semantic', 'prompt'] as const;
const questionWords = ['what', 'which', 'how', 'why', 'who', 'where', 'when'] as const;
/** Thread neighbours whose place in the fusion says something about a candidate (before: -, after: +). */
const neighbourOffsets = [-2, -1, 1, 2] as const;

/**
 * The features of one candidate, in the order the model was trained on. Changing a name, its meaning
 * or the order needs a retrained model (scripts/reranker/); the model file lists the names it expects
 * and loading refuses a mismatch.
 */
export const rerankFeatureNames: readonly string[] = [
  'frank',
  'fscore',
  ...rankedLanes.flatMap((l) => [`r_${l}`, `on_${l}`]),
  'lexnorm',
  'cos',
  ...neighbourOffsets.map((o) => `nb${o}`),
  'same_thread_top10',
  'len',
  'has_q',
  'opener',
  'speaker_named',
  'names',
  'wh',
  'nterms',
  'overlap',
];

/**
 * What the reranker gets for one request: per candidate (best fused first) its id, its features, the
 * indices into these rows of its thread neighbours at neighbourOffsets (-1: none among the candidates,
 * or no such neighbour) and its thread (null: not in a thread).
 */
export interface RerankCandidates {
  ids: string[];
  rows: Float64Array[];
  neighbours: Int32Array[];
  threads: (string | null)[];
}

export interface RerankInput {
  /** Reads the candidates' texts, speakers and threads. */
  threads: Pick<ThreadIndex, 'facts'>;
  query: string;
  /** The query's content words (queryTerms). */
  terms: readonly string[];
  /** The Brain's speakers the query names (namedSpeakers), folded as the terms are. */
  names: readonly string[];
  /** The request's eligibility: a neighbour it may not see is no neighbour (it must not shape the order). */
  eligibility: Eligibility;
  laneResults: readonly LaneResult[];
  fused: readonly Fused[];
  /** How many of the best fused candidates get features. */
  depth: number;
}

/**
 * Features of the best `depth` fused candidates for the learned reranker: where each lane and the
 * fusion put it, how strongly the lexical and semantic lanes matched, where its thread neighbours
 * landed among the candidates (an answer sits next to the question that drew it out), and a few plain
 * facts about its text against the query. Everything comes from this request's lanes and one read of
 * the thread index (its `facts`) for the candidates' texts, speakers and neighbours.
 */
export async function rerankFeatures(o: RerankInput): Promise<RerankCandidates> {
  const top = o.fused.slice(0, o.depth);
  if (top.length === 0) return { ids: [], rows: [], neighbours: [], threads: [] };
  const position = new Map(top.map((f, i) => [f.recordId, i + 1]));
  const lanes = new Map(o.laneResults.map((r) => [r.lane, r]));
  // Per request, not per candidate: each lane's ranks, and whether it ran.
  const laneRanks = rankedLanes.map((l) => {
    const m = new Map<string, number>();
    lanes.get(l)?.candidates.forEach((c, i) => {
      if (!m.has(c.recordId)) m.set(c.recordId, i + 1);
    });
    return m;
  });
  const laneRan = rankedLanes.map((l) => ((lanes.get(l)?.candidates.length ?? 0) > 0 ? 1 : 0));
  const lexical = lanes.get('lexical')?.candidates ?? [];
  const bestLexical = lexical[0]?.score ?? 0;
  const lexScore = new Map(lexical.map((c) => [c.recordId, c.score]));
  const cosine = new Map((lanes.get('semantic')?.candidates ?? []).map((c) => [c.recordId, c.score]));

  const rows = await o.threads.facts(
    top.map((f) => f.recordId),
    o.eligibility,
  );
  const byId = new Map(rows.map((r) => [r.recordId, r]));
  // A neighbour counts where it stands among the candidates; one further down the fusion, as absent.
  const positionOfN = new Map(rows.map((r) => [r.recordN, position.get(r.recordId)!]));
  // How many of the fusion's best ten each thread holds.
  const top10PerThread = new Map<string, number>();
  for (const f of o.fused.slice(0, 10)) {
    const t = byId.get(f.recordId)?.thread;
    if (t != null) top10PerThread.set(t, (top10PerThread.get(t) ?? 0) + 1);
  }

  const words = o.query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const wh = questionWords.indexOf(words[0] as (typeof questionWords)[number]);
  const nameWords = new Set(o.names.flatMap((n) => n.split(/\s+/)));
  const topicTerms = o.terms.filter((t) => !nameWords.has(t));
  const inverse = (n: number | undefined) => (n ? 1 / n : 0);

  const nbInverse = (n: number | null) => (n === null ? 0 : inverse(positionOfN.get(n)));

  const out: Float64Array[] = [];
  const kept: RecordFacts[] = [];
  for (const [i, f] of top.entries()) {
    const r = byId.get(f.recordId);
    if (!r) continue;
    kept.push(r);
    const shared = matchedTerms(r.text, topicTerms).length;
    // Written in place: arrays spread into arrays cost as much as the rest of the function.
    const x = new Float64Array(rerankFeatureNames.length);
    let k = 0;
    x[k++] = i + 1;
    x[k++] = f.score * 100;
    for (let l = 0; l < rankedLanes.length; l++) {
      x[k++] = inverse(laneRanks[l]!.get(f.recordId));
      x[k++] = laneRan[l]!;
    }
    x[k++] = bestLexical > 0 ? (lexScore.get(f.recordId) ?? 0) / bestLexical : 0;
    x[k++] = cosine.get(f.recordId) ?? 0;
    const [p2, p1, n1, n2] = r.around;
    x[k++] = nbInverse(p2);
    x[k++] = nbInverse(p1);
    x[k++] = nbInverse(n1);
    x[k++] = nbInverse(n2);
    x[k++] = r.thread === null ? 0 : (top10PerThread.get(r.thread) ?? 0);
    x[k++] = Math.log(1 + r.length);
    x[k++] = r.question ? 1 : 0;
    x[k++] = r.thread !== null && p1 === null ? 1 : 0;
    x[k++] = r.speakerNorm !== null && o.names.includes(r.speakerNorm) ? 1 : 0;
    x[k++] = o.names.length;
    x[k++] = wh;
    x[k++] = topicTerms.length;
    x[k++] = topicTerms.length > 0 ? shared / topicTerms.length : 0;
    if (k !== x.length) throw new Error('rerank features: a row does not match rerankFeatureNames');
    out.push(x);
  }
  const rowOfN = new Map(kept.map((r, i) => [r.recordN, i]));
  const neighbours = kept.map((r) =>
    Int32Array.from(r.around, (n) => (n === null ? -1 : (rowOfN.get(n) ?? -1))),
  );
  return { ids: kept.map((r) => r.recordId), rows: out, neighbours, threads: kept.map((r) => r.thread) };
}

/** What the stacked model (stage 2) adds to the features: the stage-1 scores of a candidate and its thread. */
export const stackFeatureNames: readonly string[] = [
  's1',
  's1_inv_rank',
  's1_gap',
  ...neighbourOffsets.map((o) => `s1_nb${o}`),
  's1_thread_max',
  's1_nb_max',
];

/** Stands for the stage-1 score of a neighbour that is not among the candidates (or of none). */
export const stackMissing = -8;

/**
 * Stage 2's rows: each candidate's features, then its stage-1 score `s`, 1 / its place by s (ties keep
 * the fused order), s minus the best s of the request, the s of its thread neighbours at
 * neighbourOffsets (stackMissing where there is none among the candidates), the best s of the other
 * candidates in its thread (stackMissing if none) and the best of the four neighbours'. As
 * scripts/reranker/train.py computes them. `order` is stage1Order(s); only the rows of the candidates
 * `which` (by default all, in the candidates' order) are built, in that order (stage 2 rescores only the
 * best few).
 */
export function stackFeatures(
  c: RerankCandidates,
  s: readonly number[],
  order: readonly number[] = stage1Order(s),
  which: readonly number[] = s.map((_, i) => i),
): Float64Array[] {
  const place = new Int32Array(s.length);
  order.forEach((i, k) => (place[i] = k + 1));
  const best = s[order[0]!]!;
  // The best two scores per thread: a candidate's "other" best is the second when it is the first.
  const top2 = new Map<string, [number, number]>();
  c.threads.forEach((t, i) => {
    if (t === null) return;
    const b = top2.get(t);
    if (!b) top2.set(t, [i, -1]);
    else if (s[i]! > s[b[0]]!) top2.set(t, [i, b[0]]);
    else if (b[1] < 0 || s[i]! > s[b[1]]!) b[1] = i;
  });
  const width = c.rows[0]?.length ?? 0;
  return which.map((i) => {
    const out = new Float64Array(width + stackFeatureNames.length);
    out.set(c.rows[i]!);
    let k = width;
    out[k++] = s[i]!;
    out[k++] = 1 / place[i]!;
    out[k++] = s[i]! - best;
    let nbMax = -Infinity;
    for (const j of c.neighbours[i]!) {
      const v = j < 0 ? stackMissing : s[j]!;
      out[k++] = v;
      if (v > nbMax) nbMax = v;
    }
    const t = c.threads[i] ?? null;
    const b = t === null ? undefined : top2.get(t)!;
    const other = b === undefined ? -1 : b[0] === i ? b[1] : b[0];
    out[k++] = other < 0 ? stackMissing : s[other]!;
    out[k] = nbMax;
    return out;
  });
}

/** Candidate indices by stage-1 score, best first; ties keep the fused order. */
export function stage1Order(s: readonly number[]): number[] {
  return s.map((_, i) => i).sort((a, b) => s[b]! - s[a]! || a - b);
}
