import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGbdt, compileWalk, gbdtMargin, walkMargin, type GbdtModel, type GbdtNode } from './gbdt.ts';
import { readShippedModelFile } from '../../retrieve/reranker.ts';

/** A seeded PRNG (mulberry32), so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random tree of the given depth over `features` features, its thresholds from `cuts`. */
function randomTree(r: () => number, depth: number, features: number, cuts: number[]): GbdtNode[] {
  const nodes: GbdtNode[] = [];
  const grow = (d: number): number => {
    const at = nodes.length;
    if (d === 0 || r() < 0.2) {
      nodes.push({ leaf: Math.round((r() - 0.5) * 1e6) / 1e4 });
      return at;
    }
    const split = {
      feature: Math.floor(r() * features),
      threshold: cuts[Math.floor(r() * cuts.length)]!,
      yes: 0,
      no: 0,
    };
    nodes.push(split);
    split.yes = grow(d - 1);
    split.no = grow(d - 1);
    return at;
  };
  grow(depth);
  return nodes;
}

/** The margin by following each tree's nodes as the model file gives them: a reference of its own. */
function treeByTree(model: GbdtModel, x: Float64Array): number {
  let sum = model.base_margin;
  for (const tree of model.trees) {
    let n = tree[0]!;
    while (!('leaf' in n)) n = tree[Math.fround(x[n.feature]!) < Math.fround(n.threshold) ? n.yes : n.no]!;
    sum += n.leaf;
  }
  return sum;
}

describe('gbdt scoring', () => {
  it('the QuickScorer layout gives the tree walk’s margin bit for bit, ties and NaN included', () => {
    const r = rng(42);
    // Thresholds a float64 row can sit on, just under, or round onto in float32.
    const cuts = [-1, 0, 0.1, 0.25, 1 / 3, 0.5, 2, 7.5];
    // Full trees of depth 5 use all 32 bits of a tree's mask (the last one is the sign bit).
    const full = () => Math.max(0.3, r());
    for (const depth of [1, 3, 5]) {
      const model: GbdtModel = {
        format: 'mnemo-gbdt/1',
        features: ['a', 'b', 'c', 'd'],
        base_margin: 0.125,
        trees: Array.from({ length: 60 }, (_, t) => randomTree(t % 2 ? r : full, depth, 4, cuts)),
      };
      if (depth === 5) assert.ok(model.trees.some((t) => t.filter((n) => 'leaf' in n).length === 32));
      const m = compileGbdt(model);
      assert.ok('quick' in m, `depth ${depth} fits the QuickScorer layout`);
      const walk = compileWalk(model);
      for (let i = 0; i < 2_000; i++) {
        const x = Float64Array.from({ length: 4 }, () => {
          const c = cuts[Math.floor(r() * cuts.length)]!;
          const p = r();
          return p < 0.3 ? c : p < 0.4 ? c + 1e-9 : p < 0.5 ? c - 1e-9 : p < 0.55 ? NaN : (r() - 0.3) * 10;
        });
        assert.equal(gbdtMargin(m, x), walkMargin(walk, x), `depth ${depth}, row ${x.join(', ')}`);
      }
    }
  });

  it('scores the shipped models’ check rows as the walk does, in both modes and stages', () => {
    const file = readShippedModelFile();
    const r = rng(3);
    for (const check of file.request_checks ?? []) {
      const stages = file.models[check.mode] as { stage1: GbdtModel; stage2: GbdtModel };
      for (const model of [stages.stage1, stages.stage2]) {
        const m = compileGbdt(model);
        assert.ok('quick' in m);
        const walk = compileWalk(model);
        for (const row of check.rows) {
          // Stage 2's extra inputs (stacked stage-1 scores) drawn at random around their range.
          const x = Float64Array.from(
            { length: model.features.length },
            (_, i) => row[i] ?? (r() - 0.7) * 12,
          );
          assert.equal(gbdtMargin(m, x), walkMargin(walk, x));
        }
      }
    }
  });

  it('walks trees with more leaves than a 32-bit mask holds', () => {
    const r = rng(7);
    const model: GbdtModel = {
      format: 'mnemo-gbdt/1',
      features: ['a'],
      base_margin: 0,
      // A full tree of depth 6 has 64 leaves.
      trees: [randomTree(() => Math.max(0.3, r()), 6, 1, [0, 1, 2, 3, 4, 5, 6, 7])],
    };
    const m = compileGbdt(model);
    assert.ok('walk' in m, 'walked');
    for (const v of [-1, 0, 0.5, 2.5, 3, 7.9, NaN])
      assert.equal(gbdtMargin(m, Float64Array.of(v)), treeByTree(model, Float64Array.of(v)), `x = ${v}`);
  });

  it('lays out a chain 50,000 splits deep without recursing through it, leaning either way', () => {
    const chain = (yesIsNext: boolean) => {
      const nodes: GbdtNode[] = [];
      for (let i = 0; i < 50_000; i++) {
        // Split i at 2i, its leaf at 2i + 1, the next split at 2i + 2; a row goes on while x is below
        // (leaning left) or at least (leaning right) the threshold.
        const next = 2 * i + 2;
        const leaf = 2 * i + 1;
        const threshold = yesIsNext ? 50_000 - i : i;
        nodes.push(
          { feature: 0, threshold, yes: yesIsNext ? next : leaf, no: yesIsNext ? leaf : next },
          { leaf: i },
        );
      }
      nodes.push({ leaf: -1 });
      return { format: 'mnemo-gbdt/1', features: ['a'], base_margin: 0, trees: [nodes] } satisfies GbdtModel;
    };
    const left = chain(true);
    const right = chain(false);
    // Right-leaning: leaves at the yes sides, so the 33rd leaf is met early. Left-leaning: every leaf
    // hangs off the no side, after the whole chain below it, so only the depth bound stops it.
    for (const model of [left, right]) assert.ok('walk' in compileGbdt(model), 'walked');
    assert.equal(gbdtMargin(compileGbdt(left), Float64Array.of(4_321.5)), 45_679);
    assert.equal(gbdtMargin(compileGbdt(right), Float64Array.of(4_321.5)), 4_322);
  });
});
