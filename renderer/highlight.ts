import { matchesOf } from '../engine/contract/matches-of.ts';
export interface Segment {
  text: string;
  mark: boolean;
}

/**
 * Splits `text` around every occurrence of each quote, so the quote can be shown in place.
 * Quotes are exact substrings by contract; when one is not found (whitespace normalised by a
 * source, say) a case- and space-insensitive match is tried before giving up.
 */
export function highlightQuotes(text: string, quotes: readonly string[]): Segment[] {
  const ranges: Array<[number, number]> = [];
  for (const q of quotes) {
    if (!q) continue;
    let found = false;
    for (let i = text.indexOf(q); i !== -1; i = text.indexOf(q, i + q.length)) {
      ranges.push([i, i + q.length]);
      found = true;
    }
    if (!found) {
      const pattern = q
        .trim()
        .split(/\s+/)
        .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('\\s+');
      if (pattern) {
        for (const m of matchesOf(new RegExp(pattern, 'gi'), text))
          ranges.push([m.index, m.index + m[0].length]);
      }
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  const out: Segment[] = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) out.push({ text: text.slice(at, s), mark: false });
    out.push({ text: text.slice(s, e), mark: true });
    at = e;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
