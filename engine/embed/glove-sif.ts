import { ensureRow, ensureRows, type GloveTable } from './glove-table.ts';
import { normalize } from './embedder.ts';
import { createWordScanner, type WordVisitor } from './word-scan.ts';

/**
 * Sentence vectors from word vectors by smooth inverse frequency (Arora et al., 2017): each word weighs
 * a / (a + p(w)), so "the" counts for ~1% and a rare name for ~100%; then the common direction shared
 * by all sentences is projected out. p(w) comes from the word's frequency rank (the package lists
 * words most-frequent first) by Zipf's law, p(r) = 1 / (r · H_N).
 */
export interface SifOptions {
  /** SIF smoothing; 1e-3 is the paper's usual value. */
  a?: number;
  /**
   * Remove the common component (estimated from the vocabulary's frequent words) and leave function
   * words out. Default true: recall barely moves (LoCoMo dev frac@10 0.436 -> 0.422) but cosine
   * becomes meaningful: unrelated text scores ~0.1-0.25 instead of ~0.7, so a similarity floor can
   * tell "nothing relevant" from "something" (docs/decisions/retrieval.md).
   */
  removeCommon?: boolean;
}

/** Function words: they carry no topic, and with them every pair of sentences looks alike. */
export const functionWords: ReadonlySet<string> = new Set(
  `a an and are as at be been but by can could did do does for from had has have he her hers him his how i
   if in into is it its me my mine of on or our ours she so than that the their them then there these they
   this those to us was we were what when where which who whom whose why will with would you your yours
   about any all also just not no yes 's 're 've 'd 'll 'm`.split(/\s+/),
);

export interface SifModel {
  dims: number;
  embedOne(text: string): Float32Array;
}

/** Lower-cased word tokens; possessive and contraction tails become their own tokens, as in GloVe. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+|'[\p{L}]+/gu) ?? [];
}

function wordWeights(size: number, a: number): Float32Array {
  const h = Math.log(size) + 0.5772;
  const w = new Float32Array(size);
  for (let r = 0; r < size; r++) {
    const p = 1 / ((r + 1) * h);
    w[r] = a / (a + p);
  }
  return w;
}

const defaultA = 1e-3;
const commonTop = 20_000;
const commonIterations = 30;
/**
 * Names how the common direction is computed (the weights' `a`, the words and iterations of the power
 * iteration): a kept copy of it is valid only for the same table and the same name (sif-cache.ts).
 */
export const commonVariant = `a${defaultA}-top${commonTop}-it${commonIterations}`;

/**
 * The common direction: the first principal component of SIF-weighted vectors of the most frequent
 * words, found by power iteration. Sentences built from them all lean that way; removing it makes
 * cosine similarity compare content rather than "being English".
 */
function commonComponent(t: GloveTable, w: Float32Array): Float32Array {
  const n = Math.min(commonTop, t.size);
  const d = t.dims;
  ensureRows(t, 0, n);
  let u: Float32Array = new Float32Array(d).fill(1 / Math.sqrt(d));
  const row = new Float32Array(d);
  for (let iter = 0; iter < commonIterations; iter++) {
    const next = new Float32Array(d);
    for (let r = 0; r < n; r++) {
      const s = (t.norms[r]! * w[r]!) / 127;
      let p = 0;
      for (let k = 0; k < d; k++) {
        row[k] = t.q[r * d + k]! * s;
        p += row[k]! * u[k]!;
      }
      for (let k = 0; k < d; k++) next[k]! += p * row[k]!;
    }
    u = normalize(next);
  }
  return u;
}

/** What the sentence embedder computes from the table once: the words' weights and the common direction. */
export interface SifWeights {
  weights: Float32Array;
  /** The common direction to remove, or null when it is kept. */
  common: Float32Array | null;
}

/**
 * The weights of a table: the common direction is half a second's arithmetic, done where the table is
 * loaded unless `knownCommon` gives it (computed before for this table and the default options).
 */
export function sifWeights(t: GloveTable, opts: SifOptions = {}, knownCommon?: Float32Array): SifWeights {
  const a = opts.a ?? defaultA;
  const weights = wordWeights(t.size, a);
  if (opts.removeCommon === false) return { weights, common: null };
  return { weights, common: knownCommon && a === defaultA ? knownCommon : commonComponent(t, weights) };
}

/** Builds the sentence embedder over a loaded word table. */
export function createSifModel(t: GloveTable, opts: SifOptions = {}): SifModel {
  return sifModelOf(t, sifWeights(t, opts));
}

/** Per rank, 1 for a function word: a word's rank stands for the word, so no string is compared. */
function functionWordRanks(t: GloveTable): Uint8Array {
  const flags = new Uint8Array(t.size);
  for (const word of functionWords) {
    const r = t.index.get(word);
    if (r !== undefined) flags[r] = 1;
  }
  return flags;
}

/**
 * The sentence embedder over a table and its weights, computed here or on another thread. It reads the
 * words of a text as `words()` splits them, as bytes looked up in the index (word-scan.ts): no string
 * per word.
 */
export function sifModelOf(t: GloveTable, { weights: w, common: u }: SifWeights): SifModel {
  const d = t.dims;
  const skip = u !== null ? functionWordRanks(t) : null;
  const scan = createWordScanner();
  // The ranks of a text's words, gathered by the scan and then summed here, where the vector is local.
  let ranks = new Int32Array(64);
  let count = 0;
  const gather: WordVisitor = (bytes, from, to) => {
    const r = t.index.rankOf(bytes, from, to);
    if (r < 0 || (skip !== null && skip[r] === 1) || t.norms[r] === 0) return;
    ensureRow(t, r);
    if (count === ranks.length) {
      const grown = new Int32Array(2 * count);
      grown.set(ranks);
      ranks = grown;
    }
    ranks[count++] = r;
  };
  return {
    dims: d,
    embedOne(text: string): Float32Array {
      count = 0;
      scan(text, gather);
      const v = new Float32Array(d);
      for (let i = 0; i < count; i++) {
        const r = ranks[i]!;
        const s = (t.norms[r]! * w[r]!) / 127;
        const base = r * d;
        for (let k = 0; k < d; k++) v[k]! += t.q[base + k]! * s;
      }
      if (u) {
        let p = 0;
        for (let k = 0; k < d; k++) p += v[k]! * u[k]!;
        for (let k = 0; k < d; k++) v[k]! -= p * u[k]!;
      }
      return normalize(v);
    },
  };
}
