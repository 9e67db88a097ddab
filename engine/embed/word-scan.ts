import { matchesOf } from '../contract/matches-of.ts';
/**
 * The words of a text as UTF-8 byte ranges, split exactly as `words()` (glove-sif.ts) splits them:
 * `text.toLowerCase().match(/[\p{L}\p{N}]+|'[\p{L}]+/gu)`, without its string per word and array per
 * text: the embedder runs on the engine's thread, over every Record written. The lower-cased text goes
 * into one reused byte buffer, and the words are ranges of it, looked up by bytes (WordIndex.rankOf).
 */
export type WordVisitor = (bytes: Uint8Array, from: number, to: number) => void;

const OTHER = 0;
const NUMBER = 1;
const LETTER = 2;

/** Code points per block of kinds: a text pays only for the blocks its characters fall in. */
const blockBits = 8;
const blockSize = 1 << blockBits;
/** Per block of code points, each one's kind; built when a text first uses the block. */
const blocks: (Uint8Array | undefined)[] = [];

const kindPatterns = [
  [/\p{N}+/gu, NUMBER],
  [/\p{L}+/gu, LETTER],
] as const;

/**
 * The kinds of a block's code points, by the same `\p{L}` and `\p{N}` the regular expression tests, run
 * over a string of the whole block (surrogates, which are no code point, left as spaces).
 */
function blockKinds(block: number): Uint8Array {
  const kinds = new Uint8Array(blockSize);
  const first = block << blockBits;
  const units = first < 0x10000 ? 1 : 2;
  const cps: number[] = [];
  for (let cp = first; cp < first + blockSize; cp++) cps.push(cp >= 0xd800 && cp <= 0xdfff ? 0x20 : cp);
  const all = String.fromCodePoint(...cps);
  for (const [re, kind] of kindPatterns) {
    for (const m of matchesOf(re, all)) {
      const from = m.index / units;
      kinds.fill(kind, from, from + m[0].length / units);
    }
  }
  return kinds;
}

function kindOf(cp: number): number {
  const block = cp >>> blockBits;
  const kinds = blocks[block] ?? (blocks[block] = blockKinds(block));
  return kinds[cp & (blockSize - 1)]!;
}

/** The kinds of ASCII, looked up first: most text is. */
const asciiKinds = blockKinds(0).subarray(0, 0x80);

/** The kind of the character whose UTF-8 sequence starts at b[i]. */
function kindAt(b: Uint8Array, i: number): number {
  const lead = b[i]!;
  return lead < 0x80 ? asciiKinds[lead]! : kindOf(codePointAt(b, i));
}

/** Bytes of the UTF-8 sequence its lead byte starts (the encoder writes only well-formed ones). */
const seqLength = (lead: number) => (lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4);

function codePointAt(b: Uint8Array, i: number): number {
  const lead = b[i]!;
  if (lead < 0x80) return lead;
  if (lead < 0xe0) return ((lead & 0x1f) << 6) | (b[i + 1]! & 0x3f);
  if (lead < 0xf0) return ((lead & 0x0f) << 12) | ((b[i + 1]! & 0x3f) << 6) | (b[i + 2]! & 0x3f);
  return ((lead & 0x07) << 18) | ((b[i + 1]! & 0x3f) << 12) | ((b[i + 2]! & 0x3f) << 6) | (b[i + 3]! & 0x3f);
}

const APOSTROPHE = 0x27;
const encoder = new TextEncoder();

/** A buffer larger than this is dropped after the text that needed it, not kept for the next. */
const keptBufferBytes = 1 << 16;

/** A scanner with its own byte buffer: not reentrant (a visitor must not scan with the same one). */
export function createWordScanner(): (text: string, visit: WordVisitor) => void {
  let kept = new Uint8Array(1024);
  const bufferFor = (s: string) => {
    const need = s.length * 3;
    if (need <= kept.length) return kept;
    const b = new Uint8Array(need);
    if (need <= keptBufferBytes) kept = b;
    return b;
  };
  return (text, visit) => {
    let bytes = bufferFor(text);
    let n = encoder.encodeInto(text, bytes).written;
    let ascii = 0;
    while (ascii < n && bytes[ascii]! < 0x80) ascii++;
    if (ascii === n) {
      // ASCII lower-cases byte by byte, A-Z alone; anything else may change length or depend on
      // context (İ, a final Σ), so it goes through toLowerCase.
      for (let i = 0; i < n; i++) if (bytes[i]! >= 0x41 && bytes[i]! <= 0x5a) bytes[i] = bytes[i]! | 0x20;
    } else {
      const lower = text.toLowerCase();
      bytes = bufferFor(lower);
      n = encoder.encodeInto(lower, bytes).written;
    }
    for (let i = 0; i < n;) {
      const lead = bytes[i]!;
      if (kindAt(bytes, i) !== OTHER) {
        let j = i + seqLength(lead);
        while (j < n && kindAt(bytes, j) !== OTHER) j += seqLength(bytes[j]!);
        visit(bytes, i, j);
        i = j;
        continue;
      }
      if (lead === APOSTROPHE) {
        let j = i + 1;
        while (j < n && kindAt(bytes, j) === LETTER) j += seqLength(bytes[j]!);
        if (j > i + 1) {
          visit(bytes, i, j);
          i = j;
          continue;
        }
      }
      i += seqLength(lead);
    }
  };
}
