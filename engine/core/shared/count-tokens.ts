import * as tokenizer from 'gpt-tokenizer';

// The tokenizer refuses text holding a special-token string ("<|endoftext|>", "<|im_start|>", ...) by
// default. Record text is the user's, and exported chats with language models hold these strings: they
// are counted as the ordinary characters they are, never as control tokens, and never throw.
const asOrdinaryText = { disallowedSpecial: new Set<string>() };

/** Tokens of text as a prompt reads it (gpt-tokenizer's o200k), special-token strings included as text. */
export function countTokens(text: string): number {
  return tokenizer.countTokens(text, asOrdinaryText);
}

/** Every special-token string the tokenizer knows ("<|endoftext|>", "<|im_start|>", ...), for tests. */
export const specialTokens: readonly string[] = (Object.values(tokenizer) as unknown[]).filter(
  (v): v is string => typeof v === 'string' && /^<\|[^|]+\|>$/u.test(v),
);
