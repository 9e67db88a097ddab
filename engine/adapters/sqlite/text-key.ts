import { createHash } from 'node:crypto';

/**
 * A 64-bit fingerprint of a Record's text (the first 8 bytes of its SHA-256, as a signed integer), so
 * that word-for-word repeats are found through an index instead of by grouping every text of the
 * Brain. Equal texts have equal keys; callers confirm equal keys by comparing the texts.
 */
export function textKey(text: string): bigint {
  return createHash('sha256').update(text).digest().readBigInt64BE(0);
}
