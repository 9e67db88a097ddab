import { createHash } from 'node:crypto';
import { normalize } from './embedder.ts';
import { words } from './glove-sif.ts';

/**
 * Bag of hashed words: each word adds ±1 in a few hashed dimensions. Deterministic and instant, so
 * tests of the vector plumbing need no model; it knows no synonyms and is never the default.
 */
export function createHashModel(dims = 64): { dims: number; embedOne(text: string): Float32Array } {
  return {
    dims,
    embedOne(text: string): Float32Array {
      const v = new Float32Array(dims);
      for (const w of words(text)) {
        const h = createHash('sha256').update(w).digest();
        for (let i = 0; i < 3; i++) v[h.readUInt32LE(i * 4) % dims]! += h[12 + i]! & 1 ? 1 : -1;
      }
      return normalize(v);
    },
  };
}
