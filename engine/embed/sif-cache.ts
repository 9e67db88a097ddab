import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { replaceFile } from './cache-file.ts';
import type { GloveTable } from './glove-table.ts';
import { commonVariant, sifWeights, type SifWeights } from './glove-sif.ts';

/**
 * Where the common direction of a vectors file is kept: beside the table's cache, named by the file's
 * size (as the table's cache is) and by how the direction is computed.
 */
export function commonCacheFile(cacheDir: string, vectorsPath: string): string {
  return join(cacheDir, `glove-sg-100d-${statSync(vectorsPath).size}.common-${commonVariant}.f32`);
}

/**
 * The SIF weights of a table, with the common direction read from the cache when it was computed
 * before (~0.5 CPU s at every start otherwise), else computed and kept. A cache that cannot be read or
 * written costs only the computation.
 */
export function cachedSifWeights(t: GloveTable, vectorsPath: string, cacheDir: string): SifWeights {
  const file = commonCacheFile(cacheDir, vectorsPath);
  let known: Float32Array | undefined;
  try {
    const bytes = readFileSync(file);
    if (bytes.length === t.dims * 4) known = new Float32Array(new Uint8Array(bytes).buffer);
  } catch {
    // Not kept yet.
  }
  const weights = sifWeights(t, {}, known);
  if (!known && weights.common) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      replaceFile(file, [new Uint8Array(weights.common.buffer, weights.common.byteOffset, t.dims * 4)]);
    } catch {
      // Computed again next time.
    }
  }
  return weights;
}
