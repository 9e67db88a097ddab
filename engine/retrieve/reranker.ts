import { readFileSync } from 'node:fs';
import type { ContextRequest } from '../contract/index.ts';
import { compileGbdt, gbdtMargin, validateGbdt, type GbdtModel } from './gbdt.ts';
import { rerankFeatureNames } from './rerank-features.ts';

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
  /** One score per row, higher first. The mode matters: thorough's lanes return three times as many. */
  score(ids: readonly string[], rows: readonly Float64Array[], mode: RetrievalMode): number[];
}

/** A reranker scoring with one tree ensemble per mode. */
export function createGbdtReranker(
  id: string,
  models: Record<RetrievalMode, GbdtModel>,
  depth: number,
  embedder?: string,
): Reranker {
  const fast = compileGbdt(models.fast);
  const thorough = compileGbdt(models.thorough);
  return {
    id,
    depth,
    ...(embedder ? { embedder } : {}),
    score: (_ids, rows, mode) => rows.map((x) => gbdtMargin(mode === 'thorough' ? thorough : fast, x)),
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
  models: Record<RetrievalMode, unknown>;
  /** Rows with XGBoost's own margins, which the tests replay through gbdt.ts. */
  checks?: Array<{ mode: RetrievalMode; x: number[]; margin: number }>;
}

/** Reads and checks the shipped model file. */
export function readShippedModelFile(): ModelFile {
  const raw = JSON.parse(readFileSync(shippedModelUrl, 'utf8')) as ModelFile;
  if (!Number.isInteger(raw.depth) || raw.depth < 1 || typeof raw.embedder !== 'string') {
    throw new Error('reranker model: depth or embedder missing');
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
    {
      fast: validateGbdt(raw.models.fast, rerankFeatureNames),
      thorough: validateGbdt(raw.models.thorough, rerankFeatureNames),
    },
    raw.depth,
    raw.embedder,
  );
  return shipped;
}
