import { highlightQuotes, type Segment } from './highlight.ts';

export interface Excerpt {
  segments: Segment[];
  /** Text was left out before / after the excerpt. */
  cutBefore: boolean;
  cutAfter: boolean;
}

/** How far a cut may move to land on a space rather than in a word. */
const snap = 40;

/** A cut moved to the nearest space within `snap`, and never between the halves of a surrogate pair. */
function cutAt(text: string, at: number, direction: 1 | -1): number {
  if (at <= 0 || at >= text.length) return Math.max(0, Math.min(at, text.length));
  for (let i = 0; i < snap; i += 1) {
    const p = at + i * direction;
    if (p <= 0 || p >= text.length) break;
    if (/\s/.test(text[p]!)) return direction === 1 ? p + 1 : p;
  }
  const low = text.charCodeAt(at);
  return low >= 0xdc00 && low <= 0xdfff ? at + direction : at;
}

/**
 * The part of a Record around its quote: `around` characters either side of the quote's first
 * occurrence, with every occurrence inside marked. A cited Record can be a whole document (a note of
 * a megabyte), and the quote is what the person came to see. When the quote is not found, the start.
 */
export function quoteExcerpt(text: string, quote: string, around = 300): Excerpt {
  const all = highlightQuotes(text, [quote]);
  let at = 0;
  let from = -1;
  let to = 0;
  for (const s of all) {
    if (s.mark && from === -1) [from, to] = [at, at + s.text.length];
    at += s.text.length;
  }
  if (from === -1) [from, to] = [0, 0];
  const start = from <= around ? 0 : cutAt(text, from - around, 1);
  const end = to + around >= text.length ? text.length : cutAt(text, Math.max(to + around, 2 * around), -1);
  if (start === 0 && end === text.length) return { segments: all, cutBefore: false, cutAfter: false };
  const segments: Segment[] = [];
  at = 0;
  for (const s of all) {
    const a = Math.max(at, start);
    const b = Math.min(at + s.text.length, end);
    if (a < b) segments.push({ text: s.text.slice(a - at, b - at), mark: s.mark });
    at += s.text.length;
  }
  return { segments, cutBefore: start > 0, cutAfter: end < text.length };
}
