import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFile } from './cache-file.ts';
import type { GloveTable } from './glove-table.ts';
import { sifWeights, type SifWeights } from './glove-sif.ts';

/** Where a table's common direction is read, and whether it may be written there when it is not. */
export interface CommonFile {
  /** Named by the table and by how the direction is computed (word-table.ts, `tableFiles`). */
  common: string;
  writable: boolean;
}

/**
 * The SIF weights of a table, with the common direction read from its file when it was computed
 * before (~0.5 CPU s at every start otherwise), else computed and, where writable, kept. A file that
 * cannot be read or written costs only the computation.
 */
export function cachedSifWeights(t: GloveTable, { common: file, writable }: CommonFile): SifWeights {
  let known: Float32Array | undefined;
  try {
    const bytes = readFileSync(file);
    if (bytes.length === t.dims * 4) known = new Float32Array(new Uint8Array(bytes).buffer);
  } catch {
    // Not kept yet.
  }
  const weights = sifWeights(t, {}, known);
  if (!known && weights.common && writable) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      replaceFile(file, [new Uint8Array(weights.common.buffer, weights.common.byteOffset, t.dims * 4)]);
    } catch {
      // Computed again next time.
    }
  }
  return weights;
}
