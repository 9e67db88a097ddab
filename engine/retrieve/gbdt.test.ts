import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGbdt, gbdtMargin, walkMargin, type GbdtModel, type GbdtNode } from './gbdt.ts';
import { readShippedModelFile } from './reranker.ts';

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

describe('gbdt scoring', () => {
  it('the QuickScorer layout gives the tree walk’s margin bit for bit, ties and NaN included', () => {
    const r = rng(42);
    // Thresholds a float64 row can sit on, just under, or round onto in float32.
    const cuts = [-1, 0, 0.1, 0.25, 1 / 3, 0.5, 2, 7.5];
    for (const depth of [1, 3, 5]) {
      const model: GbdtModel = {
        format: 'mnemo-gbdt/1',
        features: ['a', 'b', 'c', 'd'],
        base_margin: 0.125,
        trees: Array.from({ length: 60 }, () => randomTree(r, depth, 4, cuts)),
      };
      const m = compileGbdt(model);
      assert.ok(m.quick, `depth ${depth} fits the QuickScorer layout`);
      for (let i = 0; i < 2_000; i++) {
        const x = Float64Array.from({ length: 4 }, () => {
          const c = cuts[Math.floor(r() * cuts.length)]!;
          const p = r();
          return p < 0.3 ? c : p < 0.4 ? c + 1e-9 : p < 0.5 ? c - 1e-9 : p < 0.55 ? NaN : (r() - 0.3) * 10;
        });
        assert.equal(gbdtMargin(m, x), walkMargin(m.walk, x), `depth ${depth}, row ${x.join(', ')}`);
      }
    }
  });

  it('scores the shipped models’ check rows as the walk does, in both modes and stages', () => {
    const file = readShippedModelFile();
    for (const check of file.request_checks ?? []) {
      const stages = file.models[check.mode] as { stage1: GbdtModel };
      const m = compileGbdt(stages.stage1);
      assert.ok(m.quick);
      for (const row of check.rows) {
        const x = Float64Array.from(row);
        assert.equal(gbdtMargin(m, x), walkMargin(m.walk, x));
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
    assert.equal(m.quick, null);
    assert.equal(gbdtMargin(m, Float64Array.of(3)), walkMargin(m.walk, Float64Array.of(3)));
  });
});
