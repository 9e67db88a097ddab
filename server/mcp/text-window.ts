import type { MnemoRecord } from '../../engine/contract/index.ts';

/** How much of a Record's text each tool shows: a page of Records, one Record, the echo of a write. */
export const textChars = { listed: 2_000, read: 20_000, written: 200 } as const;

/** `at`, or one before it: never between the two halves of a surrogate pair (a lone surrogate). */
export function pairSafe(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

/** Where a Record's text was cut: read on from `next_offset` with get_record's text_offset. */
export interface TextWindow {
  offset: number;
  shown: number;
  total: number;
  next_offset: number | null;
}

/** The field of a Record's content that may be long: a message's or a document's text, a fact's value. */
function longField(content: MnemoRecord['content'] | undefined): 'text' | 'value' | null {
  // A newer server's Record may carry a kind, or a shape, this build does not know: shown as it is.
  if (typeof content !== 'object' || content === null) return null;
  if ((content.kind === 'message' || content.kind === 'document') && typeof content.text === 'string')
    return 'text';
  if (content.kind === 'fact' && typeof content.value === 'string') return 'value';
  return null;
}

/**
 * A Record as a tool shows it: its long text from `offset`, at most `chars` characters of it, with
 * `text_window` saying where it was cut. An agent's context is what a tool's answer costs: a million
 * characters echoed for one write, or fifty such in a page of list_records, would fill it. Whole where
 * it fits from the start.
 */
export function windowed(
  r: MnemoRecord,
  chars: number,
  offset = 0,
): MnemoRecord & { text_window?: TextWindow } {
  const field = longField(r.content);
  if (field === null) return r;
  const text = (r.content as Record<string, unknown>)[field] as string;
  if (offset === 0 && text.length <= chars) return r;
  const from = Math.min(offset, text.length);
  const cut = (at: number) => pairSafe(text, at);
  const start = from > 0 ? cut(from) : 0;
  const end = cut(Math.min(text.length, start + chars));
  return {
    ...r,
    content: { ...r.content, [field]: text.slice(start, end) } as MnemoRecord['content'],
    text_window: {
      offset: start,
      shown: end - start,
      total: text.length,
      next_offset: end < text.length ? end : null,
    },
  };
}

/**
 * A cited Record's text as get_memory shows it: at most `textChars.listed` characters, the quote and
 * what surrounds it, with `text_window` saying where it was cut. A Memory cited in a long document
 * gave the document whole, once for each Record citing it. Whole where it fits. A quote not in the
 * text (the contract says it is, but a store may differ) leaves the window at the start, marked
 * `quote_found: false`, so that a model does not read that start as what was quoted. A quote said
 * twice is shown where it is first: a Citation has no offset to say which was meant.
 */
export function evidenceWindowed<E extends { text: string | null; quote: string }>(
  e: E,
): E & { text_window?: TextWindow & { quote_found?: false } } {
  const { text, quote } = e;
  const chars = textChars.listed;
  if (text === null || text.length <= chars) return e;
  const found = text.indexOf(quote);
  const at = Math.max(0, found);
  const centred = quote.length >= chars ? at : at - Math.floor((chars - quote.length) / 2);
  const from = Math.max(0, Math.min(centred, text.length - chars));
  // Past a pair's second half rather than before its first: the window then still ends where it did.
  const start = pairSafe(text, from) === from ? from : from + 1;
  const end = pairSafe(text, Math.min(text.length, start + chars));
  return {
    ...e,
    text: text.slice(start, end),
    text_window: {
      offset: start,
      shown: end - start,
      total: text.length,
      next_offset: end < text.length ? end : null,
      ...(found < 0 ? { quote_found: false as const } : {}),
    },
  };
}
