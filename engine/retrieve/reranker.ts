import { readFileSync } from 'node:fs';
import type { ContextRequest } from '../contract/index.ts';
import type { RetrievalBackends } from './backends.ts';
import { compileGbdt, gbdtMargin, validateGbdt, type GbdtModel } from '../core/retrieve/gbdt.ts';
import {
  rerankFeatureNames,
  stackFeatureNames,
  stackFeatures,
  stage1Order,
  type RerankCandidates,
} from './rerank-features.ts';

/** A Context request's mode, which decides the lanes' depth (and so the model). */
export type RetrievalMode = NonNullable<ContextRequest['mode']>;

/**
 * Reorders the best fused candidates of a request from their features (rerank-features.ts). The
 * engine takes one as an option: the shipped model by default, null for plain fusion, or any other
 * scorer (scripts/reranker/collect-features.ts records the features through one).
 */
export interface Reranker {
  /** Names the model in Traces. */
  readonly id: string;
  /** How many of the best fused candidates it reorders; the rest keep their fused order after them. */
  readonly depth: number;
  /**
   * The embedding provider whose cosines it was trained on; with another (or none loaded yet) the
   * engine keeps the fusion's order rather than feed it inputs it never saw. Absent: any.
   */
  readonly embedder?: string;
  /**
   * The lexical and vector backends whose scores its features carried in training; on others the
   * engine keeps the fusion's order, as for another embedder. Absent: any.
   */
  readonly backends?: RetrievalBackends;
  /**
   * One score per candidate, higher first within a tier (Reranking.tiers). The mode matters:
   * thorough's lanes return three times as many.
   */
  score(candidates: RerankCandidates, mode: RetrievalMode): Reranking;
}

export interface Reranking {
  /** Each candidate's score from the last stage that scored it (the Trace's rerank_score). */
  scores: number[];
  /**
   * Per candidate, the order's first key: a candidate of a lower tier goes before any of a higher one
   * (stage 2's candidates before those only stage 1 scored); by score within a tier. Absent: one tier.
   */
  tiers?: number[];
  /** What ran, for the Trace's fusion.method; absent: the reranker's id. */
  by?: string;
}

/** One mode's models: stage 1 scores the candidates' features; stage 2, stacked on it, rescores. */
export interface GbdtStages<M = GbdtModel> {
  stage1: M;
  /** Sees the features plus stackFeatures of stage 1's scores; only where every candidate is in a thread. */
  stage2?: M;
}

/**
 * Stage 2 was trained (scripts/reranker/train.py) on the requests whose candidates are all thread
 * messages, and applies to those alone: a candidate outside any thread has no neighbours by
 * construction, not by retrieval, which its training rows never showed it. Elsewhere stage 1 stands.
 */
const stage2Applies = (c: RerankCandidates): boolean =>
  c.threads.length > 0 && c.threads.every((t) => t !== null);

/**
 * A reranker scoring with tree ensembles per mode: stage 1, then stage 2 where it applies, over the
 * best `stage2Depth` by stage 1; the rest follow them in stage 1's order.
 */
export function createGbdtReranker(
  id: string,
  models: Record<RetrievalMode, GbdtStages>,
  depth: number,
  embedder?: string,
  stage2Depth = depth,
  backends?: RetrievalBackends,
): Reranker {
  const compile = (m: GbdtStages) => ({
    stage1: compileGbdt(m.stage1),
    stage2: m.stage2 ? compileGbdt(m.stage2) : undefined,
  });
  const fast = compile(models.fast);
  const thorough = compile(models.thorough);
  return {
    id,
    depth,
    ...(embedder ? { embedder } : {}),
    ...(backends ? { backends } : {}),
    score: (c, mode) => {
      const m = mode === 'thorough' ? thorough : fast;
      const s1 = c.rows.map((x) => gbdtMargin(m.stage1, x));
      if (!m.stage2) return { scores: s1, by: `${id} (stage 1; no stage 2 for ${mode})` };
      if (!stage2Applies(c))
        return { scores: s1, by: `${id} (stage 1; stage 2 skipped: candidates outside threads)` };
      const s2 = m.stage2;
      // The stacked features need every candidate's stage-1 score; the second walk of 400 trees only
      // the candidates that can still reach the top.
      const byStage1 = stage1Order(s1);
      const rescored = byStage1.slice(0, stage2Depth);
      const tiers = new Array<number>(s1.length).fill(1);
      const scores = [...s1];
      stackFeatures(c, s1, byStage1, rescored).forEach((x, k) => {
        tiers[rescored[k]!] = 0;
        scores[rescored[k]!] = gbdtMargin(s2, x);
      });
      const over = s1.length > stage2Depth ? ` over the best ${stage2Depth} by stage 1` : '';
      return { scores, tiers, by: `${id} (stage 1, then stage 2${over})` };
    },
  };
}

/** The shipped models' file, trained on the LoCoMo dev half (docs/decisions/retrieval.md). */
const shippedModelUrl = new URL('./reranker-model.json', import.meta.url);

/** What scripts/reranker/train.py writes. */
interface ModelFile {
  id: string;
  /** Candidates per request it was trained on. */
  depth: number;
  /** Embedding provider of the cosines it saw. */
  embedder: string;
  /** The backends whose BM25 and distances it saw (backends.ts). */
  backends: RetrievalBackends;
  /** How many of the best by stage 1 stage 2 rescores (train.py's STAGE2_DEPTH); absent: all. */
  stage2_depth?: number;
  /** Per mode, {stage1, stage2?} (GbdtStages). */
  models: Record<RetrievalMode, unknown>;
  /** Rows with XGBoost's own stage-1 margins, which the tests replay through gbdt.ts. */
  checks?: Array<{ mode: RetrievalMode; x: number[]; margin: number }>;
  /**
   * Whole requests (stage 2 sees all of a request's candidates): the engine's stage-1 margins as
   * train.py replays its tree walk, and the final scores (XGBoost's own stage-2 margins for the best
   * stage2_depth by stage 1 where stage 2 applies, stage 1's for the rest), for the tests.
   */
  request_checks?: Array<{
    mode: RetrievalMode;
    rows: number[][];
    neighbours: number[][];
    threads: (string | null)[];
    stage1: number[];
    stage2_applies: boolean;
    final: number[];
  }>;
}

/** Checks one mode's {stage1, stage2?}: stage 1 on the features, stage 2 on them plus the stacked ones. */
export function validateStages(m: unknown): GbdtStages {
  const stages = m as Partial<GbdtStages<unknown>> | null;
  if (typeof stages !== 'object' || stages === null || !('stage1' in stages)) {
    throw new Error('reranker model: expected {stage1, stage2?} per mode; retrain it');
  }
  const stage1 = validateGbdt(stages.stage1, rerankFeatureNames);
  if (stages.stage2 === undefined) return { stage1 };
  return { stage1, stage2: validateGbdt(stages.stage2, [...rerankFeatureNames, ...stackFeatureNames]) };
}

/** Reads and checks the shipped model file. */
export function readShippedModelFile(): ModelFile {
  const raw = JSON.parse(readFileSync(shippedModelUrl, 'utf8')) as ModelFile;
  if (!Number.isInteger(raw.depth) || raw.depth < 1 || typeof raw.embedder !== 'string') {
    throw new Error('reranker model: depth or embedder missing');
  }
  if (typeof raw.backends?.lexical !== 'string' || typeof raw.backends?.vector !== 'string') {
    throw new Error('reranker model: backends {lexical, vector} missing; retrain it');
  }
  if (raw.stage2_depth !== undefined && !(Number.isInteger(raw.stage2_depth) && raw.stage2_depth >= 1)) {
    throw new Error('reranker model: stage2_depth must be a positive integer');
  }
  return raw;
}

// The parsed model is immutable: one per process, however many engines open (tests open hundreds).
let shipped: Reranker | undefined;

/** The shipped reranker, read and checked on first use; throws when the file is missing or wrong. */
export function shippedReranker(): Reranker {
  if (shipped) return shipped;
  const raw = readShippedModelFile();
  shipped = createGbdtReranker(
    raw.id,
    { fast: validateStages(raw.models.fast), thorough: validateStages(raw.models.thorough) },
    raw.depth,
    raw.embedder,
    raw.stage2_depth,
    raw.backends,
  );
  return shipped;
}
