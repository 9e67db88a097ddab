import type * as GptTokenizer from 'gpt-tokenizer';

type Tokenizer = typeof GptTokenizer;

// The tokenizer refuses text holding a special-token string ("<|endoftext|>", "<|im_start|>", ...) by
// default. Record text is the user's, and exported chats with language models hold these strings: they
// are counted as the ordinary characters they are, never as control tokens, and never throw.
const asOrdinaryText = { disallowedSpecial: new Set<string>() };

let tokenizer: Tokenizer | undefined;
let loading: Promise<Tokenizer> | undefined;

/**
 * Loads the tokenizer, once. Its o200k ranks are 4 MB of JavaScript, ~0.55 CPU s to compile and index:
 * loaded with the engine, every server and every process importing it would pay that, where only
 * assembling a Context counts tokens. Awaited before `countTokens`.
 */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer').then((t) => (tokenizer = t));
  return loading;
}

/** Whether loadTokenizer was called yet in this process (the load may still be under way). */
export const tokenizerLoadStarted = (): boolean => loading !== undefined;

/** Tokens of text as a prompt reads it (gpt-tokenizer's o200k), special-token strings included as text. */
export function countTokens(text: string): number {
  if (!tokenizer) throw new Error('countTokens: the tokenizer is not loaded (await loadTokenizer() first)');
  return tokenizer.countTokens(text, asOrdinaryText);
}

/** Every special-token string the tokenizer knows ("<|endoftext|>", "<|im_start|>", ...), for tests. */
export async function specialTokens(): Promise<readonly string[]> {
  return (Object.values(await loadTokenizer()) as unknown[]).filter(
    (v): v is string => typeof v === 'string' && /^<\|[^|]+\|>$/u.test(v),
  );
}
