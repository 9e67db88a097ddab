import { readFileSync } from 'node:fs';
import { compileGbdt, gbdtMargin, validateGbdt, type GbdtModel } from './gbdt.ts';
import { rerankFeatureNames } from './rerank-features.ts';

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
  /** One score per row, higher first. */
  score(ids: readonly string[], rows: readonly Float64Array[]): number[];
}

/** A reranker scoring with a tree ensemble. */
export function createGbdtReranker(id: string, model: GbdtModel, depth: number): Reranker {
  const compiled = compileGbdt(model);
  return { id, depth, score: (_ids, rows) => rows.map((x) => gbdtMargin(compiled, x)) };
}

/** The shipped model's file, trained on the LoCoMo dev half (docs/decisions/retrieval.md). */
const shippedModelUrl = new URL('./reranker-model.json', import.meta.url);
/** The depth it was trained at. */
const shippedDepth = 150;

/** Reads and checks the shipped reranker (the local engine does, once, when it opens). */
export function loadShippedReranker(): Reranker {
  const raw = JSON.parse(readFileSync(shippedModelUrl, 'utf8')) as { id: string; model: unknown };
  return createGbdtReranker(raw.id, validateGbdt(raw.model, rerankFeatureNames), shippedDepth);
}
