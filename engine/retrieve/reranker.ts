import { readFileSync } from 'node:fs';
import { compileGbdt, gbdtMargin, validateGbdt, type GbdtModel } from './gbdt.ts';
import { rerankFeatureNames } from './rerank-features.ts';

export type RetrievalMode = 'fast' | 'thorough';

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
  /** One score per row, higher first. The mode matters: thorough's lanes return three times as many. */
  score(ids: readonly string[], rows: readonly Float64Array[], mode: RetrievalMode): number[];
}

/** A reranker scoring with one tree ensemble per mode. */
export function createGbdtReranker(
  id: string,
  models: Record<RetrievalMode, GbdtModel>,
  depth: number,
): Reranker {
  const fast = compileGbdt(models.fast);
  const thorough = compileGbdt(models.thorough);
  return {
    id,
    depth,
    score: (_ids, rows, mode) => rows.map((x) => gbdtMargin(mode === 'thorough' ? thorough : fast, x)),
  };
}

/** The shipped models' file, trained on the LoCoMo dev half (docs/decisions/retrieval.md). */
const shippedModelUrl = new URL('./reranker-model.json', import.meta.url);
/** The depth they were trained at. */
const shippedDepth = 150;

/** Reads and checks the shipped reranker (the local engine does, once, when it opens). */
export function loadShippedReranker(): Reranker {
  const raw = JSON.parse(readFileSync(shippedModelUrl, 'utf8')) as {
    id: string;
    models: Record<RetrievalMode, unknown>;
  };
  return createGbdtReranker(
    raw.id,
    {
      fast: validateGbdt(raw.models.fast, rerankFeatureNames),
      thorough: validateGbdt(raw.models.thorough, rerankFeatureNames),
    },
    shippedDepth,
  );
}
