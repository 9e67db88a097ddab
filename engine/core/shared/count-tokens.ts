import type * as GptTokenizer from 'gpt-tokenizer';

type Tokenizer = typeof GptTokenizer;

// The tokenizer refuses text holding a special-token string ("<|endoftext|>", "<|im_start|>", ...) by
// default. Record text is the user's, and exported chats with language models hold these strings: they
// are counted as the ordinary characters they are, never as control tokens, and never throw.
const asOrdinaryText = { disallowedSpecial: new Set<string>() };

let tokenizer: Tokenizer | undefined;
let loading: Promise<Tokenizer> | undefined;

/**
 * What of gpt-tokenizer's byte-pair core the count below reads: its pre-tokenizer (o200k's split
 * pattern), the rank of a whole piece and the byte-pair merge of a piece without one. Not in its typed
 * API (the fields are TypeScript-private), so they are looked for at load and the library's own count
 * is used when they are missing or disagree with it.
 */
interface PieceCore {
  tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  bytePairEncode(piece: string): readonly number[];
}

/** The pre-tokenizer's pattern anchored where the last piece ended, and the core it feeds. */
let pieces: { split: RegExp; core: PieceCore } | null = null;

/**
 * Text that meets every branch of o200k's pattern (contractions, capitals, numbers split by three,
 * punctuation runs, newlines, trailing spaces, non-Latin scripts, a control token's string): the piece
 * count is used only if it gives the library's count for it.
 */
const selfCheck =
  '#mnemo-123456789 [1] message · date: 2024-03-12T09:15:00Z · speaker: "O\'Brien" (self)\n' +
  "We'RE booking 12345 tickets,   they'll cost €1,299.50!!\r\n\n  Ünïcødé: 東京で会いましょう — ok?\t <|endoftext|>  \n\n";

function findPieceCore(t: Tokenizer): PieceCore | null {
  const core = (t.default as unknown as { bytePairEncodingCoreProcessor?: Partial<PieceCore> })
    .bytePairEncodingCoreProcessor;
  if (
    !core ||
    !(core.tokenSplitRegex instanceof RegExp) ||
    typeof core.getBpeRankFromString !== 'function' ||
    typeof core.bytePairEncode !== 'function'
  )
    return null;
  return core as PieceCore;
}

/**
 * Loads the tokenizer, once. Its o200k ranks are 4 MB of JavaScript, ~0.55 CPU s to compile and index:
 * loaded with the engine, every server and every process importing it would pay that, where only
 * assembling a Context counts tokens. Awaited before `countTokens`.
 */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer').then((t) => {
    const core = findPieceCore(t);
    if (core) {
      // Sticky: each piece must start where the last ended. The pattern covers every character, so the
      // library's global search never skips one; if it ever did here, the library counts that text.
      const flags = core.tokenSplitRegex.flags.replace('g', '');
      pieces = { split: new RegExp(core.tokenSplitRegex.source, `${flags}y`), core };
      if (countPieces(selfCheck) !== t.countTokens(selfCheck, asOrdinaryText)) pieces = null;
    }
    return (tokenizer = t);
  });
  return loading;
}

/** Whether loadTokenizer was called yet in this process (the load may still be under way). */
export const tokenizerLoadStarted = (): boolean => loading !== undefined;

/**
 * Tokens of text as a prompt reads it (gpt-tokenizer's o200k), special-token strings included as text.
 * The same count as the library's `countTokens`, without its garbage: the library walks the pieces with
 * `matchAll`, a match array and an iterator result per word, ~20% of everything a fast Context
 * allocates. Here the pattern is tested piece by piece (`test` builds no match), each piece sliced out
 * and looked up or merged exactly as the library does.
 */
export function countTokens(text: string): number {
  if (!tokenizer) throw new Error('countTokens: the tokenizer is not loaded (await loadTokenizer() first)');
  return countPieces(text) ?? tokenizer.countTokens(text, asOrdinaryText);
}

/** The count piece by piece; undefined when the core was not found or the pattern left a gap. */
function countPieces(text: string): number | undefined {
  if (!pieces) return undefined;
  const { split, core } = pieces;
  let count = 0;
  for (let at = 0; at < text.length;) {
    split.lastIndex = at;
    if (!split.test(text) || split.lastIndex <= at) return undefined;
    const piece = text.slice(at, split.lastIndex);
    at = split.lastIndex;
    count += core.getBpeRankFromString(piece) === undefined ? core.bytePairEncode(piece).length : 1;
  }
  return count;
}

/** Whether counts go piece by piece (the library's core was found and agreed), for tests. */
export const countsPieceByPiece = (): boolean => pieces !== null;

/** Every special-token string the tokenizer knows ("<|endoftext|>", "<|im_start|>", ...), for tests. */
export async function specialTokens(): Promise<readonly string[]> {
  return (Object.values(await loadTokenizer()) as unknown[]).filter(
    (v): v is string => typeof v === 'string' && /^<\|[^|]+\|>$/u.test(v),
  );
}
