/**
 * A gradient-boosted tree ensemble as the reranker ships it (scripts/reranker/train.py writes it from
 * XGBoost's JSON dump): every tree a flat array of nodes, a split sending x to `yes` when
 * x[feature] < threshold (compared in float32, as XGBoost does), else to `no`.
 */
export interface GbdtModel {
  format: 'mnemo-gbdt/1';
  /** Names of the features, in the order a row holds them. */
  features: string[];
  /** Added to the sum of the leaves (the margin; a logistic model's probability is its sigmoid). */
  base_margin: number;
  trees: GbdtNode[][];
}

export type GbdtNode = { leaf: number } | { feature: number; threshold: number; yes: number; no: number };

/** Checks the parsed file once, so scoring can trust its indices. */
export function validateGbdt(m: unknown, expectedFeatures: readonly string[]): GbdtModel {
  const model = m as GbdtModel;
  if (model?.format !== 'mnemo-gbdt/1') throw new Error('reranker model: unknown format');
  if (JSON.stringify(model.features) !== JSON.stringify(expectedFeatures)) {
    throw new Error('reranker model: trained on other features than this code computes; retrain it');
  }
  if (!Number.isFinite(model.base_margin)) throw new Error('reranker model: base_margin is not a number');
  for (const tree of model.trees) {
    if (tree.length === 0) throw new Error('reranker model: empty tree');
    for (const [i, n] of tree.entries()) {
      if ('leaf' in n) {
        if (!Number.isFinite(n.leaf)) throw new Error('reranker model: a leaf is not a number');
        continue;
      }
      if (!Number.isFinite(n.threshold)) throw new Error('reranker model: a threshold is not a number');
      const ok =
        Number.isInteger(n.feature) &&
        n.feature >= 0 &&
        n.feature < model.features.length &&
        [n.yes, n.no].every((c) => Number.isInteger(c) && c > i && c < tree.length);
      // Children after their parent: a walk always ends at a leaf.
      if (!ok) throw new Error('reranker model: a split points outside its tree');
    }
  }
  return model;
}

/**
 * The ensemble laid out flat for scoring (every node of every tree in typed arrays, children as
 * absolute indices, -1 for a leaf): ~60,000 tree walks per Context at the reranker's depth.
 */
export interface CompiledGbdt {
  baseMargin: number;
  roots: Int32Array;
  feature: Int32Array;
  threshold: Float32Array;
  yes: Int32Array;
  no: Int32Array;
  leaf: Float64Array;
}

export function compileGbdt(model: GbdtModel): CompiledGbdt {
  const size = model.trees.reduce((n, t) => n + t.length, 0);
  const c: CompiledGbdt = {
    baseMargin: model.base_margin,
    roots: new Int32Array(model.trees.length),
    feature: new Int32Array(size).fill(-1),
    threshold: new Float32Array(size),
    yes: new Int32Array(size),
    no: new Int32Array(size),
    leaf: new Float64Array(size),
  };
  let at = 0;
  model.trees.forEach((tree, t) => {
    c.roots[t] = at;
    tree.forEach((n, i) => {
      if ('leaf' in n) c.leaf[at + i] = n.leaf;
      else {
        c.feature[at + i] = n.feature;
        c.threshold[at + i] = n.threshold;
        c.yes[at + i] = at + n.yes;
        c.no[at + i] = at + n.no;
      }
    });
    at += tree.length;
  });
  return c;
}

/** The ensemble's margin for one row of features. */
export function gbdtMargin(m: CompiledGbdt, x: Float64Array): number {
  let sum = m.baseMargin;
  for (let t = 0; t < m.roots.length; t++) {
    let i = m.roots[t]!;
    for (let f = m.feature[i]!; f >= 0; f = m.feature[i]!) {
      i = Math.fround(x[f]!) < m.threshold[i]! ? m.yes[i]! : m.no[i]!;
    }
    sum += m.leaf[i]!;
  }
  return sum;
}
