import { readFileSync } from 'node:fs';
import type { ContextRequest } from '../contract/index.ts';
import {
  postgresBackends,
  sameBackends,
  sqliteBackends,
  type RetrievalBackends,
} from '../core/retrieve/backends.ts';
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
   * The modes it has a model for (each mode's lanes return a different number of candidates, so ranks
   * mean something else); in another the engine keeps the fusion's order. Absent: all.
   */
  readonly modes?: readonly RetrievalMode[];
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
 * best `stage2Depth` by stage 1; the rest follow them in stage 1's order. A mode without models is
 * left out of `modes`, so the engine keeps the fusion's order there.
 */
export function createGbdtReranker(
  id: string,
  models: Partial<Record<RetrievalMode, GbdtStages>>,
  depth: number,
  embedder?: string,
  stage2Depth = depth,
  backends?: RetrievalBackends,
): Reranker {
  const compile = (m: GbdtStages) => ({
    stage1: compileGbdt(m.stage1),
    stage2: m.stage2 ? compileGbdt(m.stage2) : undefined,
  });
  const compiled = {
    fast: models.fast && compile(models.fast),
    thorough: models.thorough && compile(models.thorough),
  };
  const modes = (['fast', 'thorough'] as const).filter((m) => compiled[m]);
  return {
    id,
    depth,
    ...(embedder ? { embedder } : {}),
    ...(backends ? { backends } : {}),
    ...(modes.length < 2 ? { modes } : {}),
    score: (c, mode) => {
      const m = compiled[mode];
      if (!m) throw new Error(`reranker ${id}: no ${mode} model (the engine checks modes first)`);
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

/**
 * The shipped models' files, trained on the LoCoMo dev half (docs/decisions/retrieval.md), one per
 * store: each on the scores of that store's backends, which its file names. Each is read only by an
 * engine searching with its backends, so the desktop never reads the PostgreSQL one.
 */
const shippedModels: ReadonlyArray<{ url: URL; backends: RetrievalBackends }> = [
  { url: new URL('./reranker-model.json', import.meta.url), backends: sqliteBackends },
  { url: new URL('./reranker-model-postgres.json', import.meta.url), backends: postgresBackends },
];

/**
 * The shipped file for these backends; for backends none was trained on, the SQLite store's, which
 * stands aside on them (retrieve.ts) and the Trace says why.
 */
const shippedFor = (backends: RetrievalBackends) =>
  shippedModels.find((m) => sameBackends(m.backends, backends)) ?? shippedModels[0]!;

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
  /** Per mode, {stage1, stage2?} (GbdtStages); a mode absent was not trained for these backends. */
  models: Partial<Record<RetrievalMode, unknown>>;
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

/** Reads and checks the shipped model file for these backends (default: the SQLite store's). */
export function readShippedModelFile(backends: RetrievalBackends = sqliteBackends): ModelFile {
  const { url, backends: expected } = shippedFor(backends);
  const raw = JSON.parse(readFileSync(url, 'utf8')) as ModelFile;
  if (!Number.isInteger(raw.depth) || raw.depth < 1 || typeof raw.embedder !== 'string') {
    throw new Error('reranker model: depth or embedder missing');
  }
  if (typeof raw.backends?.lexical !== 'string' || typeof raw.backends?.vector !== 'string') {
    throw new Error('reranker model: backends {lexical, vector} missing; retrain it');
  }
  // A file swapped for another store's would load and rerank on scales it never saw.
  if (!sameBackends(raw.backends, expected)) {
    throw new Error(
      `reranker model ${url.pathname}: trained on ${raw.backends.lexical} and ${raw.backends.vector}, ` +
        `expected ${expected.lexical} and ${expected.vector}`,
    );
  }
  if (typeof raw.models !== 'object' || raw.models === null || !(raw.models.fast || raw.models.thorough)) {
    throw new Error('reranker model: no models for either mode; retrain it');
  }
  if (raw.stage2_depth !== undefined && !(Number.isInteger(raw.stage2_depth) && raw.stage2_depth >= 1)) {
    throw new Error('reranker model: stage2_depth must be a positive integer');
  }
  return raw;
}

// The parsed models are immutable: one per file per process, however many engines open (tests open hundreds).
const shipped = new Map<URL, Reranker>();

/**
 * The shipped reranker for an engine searching with these backends (default: the SQLite store's),
 * read and checked on first use; throws when its file is missing or wrong.
 */
export function shippedReranker(backends: RetrievalBackends = sqliteBackends): Reranker {
  const { url } = shippedFor(backends);
  const known = shipped.get(url);
  if (known) return known;
  const raw = readShippedModelFile(backends);
  const stages = (m: unknown) => (m === undefined ? undefined : validateStages(m));
  const reranker = createGbdtReranker(
    raw.id,
    { fast: stages(raw.models.fast), thorough: stages(raw.models.thorough) },
    raw.depth,
    raw.embedder,
    raw.stage2_depth,
    raw.backends,
  );
  shipped.set(url, reranker);
  return reranker;
}
