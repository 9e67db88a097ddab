/**
 * word -> rank for a vocabulary of a few hundred thousand words, in typed arrays: the words' UTF-8 bytes
 * in one block and an open-addressing hash table of ranks. A Map of 341,479 GloVe words held ~29 MB of
 * V8 heap (a string and an entry each) in the embedder's worker; this holds ~8 MB and is looked up as
 * fast. A word given twice keeps its last rank, as Map.set would.
 */
export interface WordIndex {
  /** Distinct words. */
  readonly size: number;
  get(word: string): number | undefined;
  /** The rank of the word whose UTF-8 bytes are b[from, to), or -1. */
  rankOf(b: Uint8Array, from: number, to: number): number;
  /** Every distinct word with its rank, in the order first given. */
  entries(): IterableIterator<[string, number]>;
  /** The arrays it is made of: transferable to another thread, which rebuilds it with wordIndexFromParts. */
  parts(): WordIndexParts;
}

/** A WordIndex's arrays: the words' bytes, where each starts, and the hash table with its ranks. */
export interface WordIndexParts {
  bytes: Uint8Array;
  starts: Uint32Array;
  table: Int32Array;
  ranks: Int32Array;
  size: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a over bytes [from, to). */
function hashBytes(b: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h >>> 0;
}

/** The index of `count` words given as UTF-8, separated by '\n' (rank = position). */
export function wordIndexFromLines(lines: Uint8Array, count: number): WordIndex {
  const bytes = Uint8Array.from(lines);
  const starts = new Uint32Array(count + 1);
  let at = 0;
  for (let r = 0; r < count; r++) {
    starts[r] = at;
    const nl = bytes.indexOf(10, at);
    at = nl < 0 ? bytes.length : nl + 1;
  }
  starts[count] = bytes.length + 1;
  let slots = 1;
  while (slots < 2 * count) slots *= 2;
  /** Per slot: the rank whose bytes name the word (its first occurrence), or -1. */
  const table = new Int32Array(slots).fill(-1);
  /** Per first occurrence's slot: the rank to answer (the last occurrence's). */
  const ranks = new Int32Array(slots);
  const parts: WordIndexParts = { bytes, starts, table, ranks, size: 0 };
  const slotOf = slotFinder(parts);
  for (let r = 0; r < count; r++) {
    const s = slotOf(bytes, starts[r]!, starts[r + 1]! - 1);
    if (table[s]! < 0) {
      table[s] = r;
      parts.size++;
    }
    ranks[s] = r;
  }
  return wordIndexFromParts(parts);
}

/** The slot of a word's bytes in the parts' table: where it is, or the empty slot where it would go. */
function slotFinder({ bytes, starts, table }: WordIndexParts) {
  const mask = table.length - 1;
  const sameBytes = (r: number, b: Uint8Array, from: number, to: number) => {
    const s = starts[r]!;
    if (starts[r + 1]! - 1 - s !== to - from) return false;
    for (let i = 0; i < to - from; i++) if (bytes[s + i] !== b[from + i]) return false;
    return true;
  };
  return (b: Uint8Array, from: number, to: number): number => {
    for (let s = hashBytes(b, from, to) & mask; ; s = (s + 1) & mask) {
      const r = table[s]!;
      if (r < 0 || sameBytes(r, b, from, to)) return s;
    }
  };
}

/** The index over arrays made by wordIndexFromLines (here or on another thread): nothing is rebuilt. */
export function wordIndexFromParts(parts: WordIndexParts): WordIndex {
  const { bytes, starts, table, ranks, size } = parts;
  const count = starts.length - 1;
  const slotOf = slotFinder(parts);
  let scratch = new Uint8Array(256);
  return {
    size,
    get(word) {
      if (word.length * 3 > scratch.length) scratch = new Uint8Array(word.length * 3);
      const { written } = encoder.encodeInto(word, scratch);
      const s = slotOf(scratch, 0, written);
      return table[s]! < 0 ? undefined : ranks[s];
    },
    rankOf(b, from, to) {
      const s = slotOf(b, from, to);
      return table[s]! < 0 ? -1 : ranks[s]!;
    },
    *entries() {
      for (let r = 0; r < count; r++) {
        const end = starts[r + 1]! - 1;
        const word = decoder.decode(bytes.subarray(starts[r]!, end));
        const s = slotOf(bytes, starts[r]!, end);
        if (table[s] === r) yield [word, ranks[s]!];
      }
    },
    parts: () => parts,
  };
}

/** The index of words given in rank order. */
export function wordIndexOf(words: readonly string[]): WordIndex {
  return wordIndexFromLines(encoder.encode(words.join('\n')), words.length);
}
