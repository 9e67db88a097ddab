import { segmentInWindows } from '../shared/segment-in-windows.ts';

/** A span of the source text: text.slice(start, end) === value, trimmed. */
export interface Span {
  start: number;
  end: number;
  value: string;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** text[start, end) without its surrounding whitespace, as a Span; null when nothing else is left. */
export function trimmedSpan(text: string, start: number, end: number): Span | null {
  while (start < end && /\s/u.test(text[start]!)) start += 1;
  while (end > start && /\s/u.test(text[end - 1]!)) end -= 1;
  return end > start ? { start, end, value: text.slice(start, end) } : null;
}

/**
 * Titles and abbreviations that Node's ICU segmenter (it has no abbreviation suppressions) takes for a
 * sentence's end before a capital: "My dentist is Dr. Silva in Braga." was two Memories, "My dentist is
 * Dr." and "Silva in Braga.", and correcting the first left the second current. A segment ending in one
 * is joined to the next on the same line. That errs the other way for a sentence that really ends in
 * one ("… on Oak St. Then …" stays one sentence), which keeps every statement whole rather than cutting
 * one in two. ("No. 5", "p. 12": the segmenter does not cut before a digit.) Written as usual or in
 * capitals ("DR. SILVA", a form's or an old system's export), not in any other mix.
 */
const titles = [
  ...['Mrs', 'Mr', 'Ms', 'Mx', 'Dr', 'Prof', 'Rev', 'Fr', 'St', 'Mt', 'Ft', 'Gen', 'Col', 'Capt', 'Lt'],
  ...['Sgt', 'Hon', 'Sen', 'Rep', 'Gov', 'Insp', 'Det', 'Supt', 'vs', 'approx', 'cf'],
].flatMap((t) => [t, t.toUpperCase()]);
const title = new RegExp(`(?:^|[^\\p{L}\\p{N}.])(?:${titles.join('|')})\\.[ \\t\\u00a0]*$`, 'u');

/** The segmenter's sentences as [start, end) of text, with those cut after a title joined again. */
function* wholeSentences(text: string): Generator<{ index: number; segment: string }> {
  let held: { start: number; end: number } | null = null;
  for (const seg of segmentInWindows(segmenter, text)) {
    const end = seg.index + seg.segment.length;
    // Only the held sentence's end can hold the title: a bounded tail keeps a chain of joins linear.
    if (
      held &&
      title.test(text.slice(Math.max(held.start, held.end - 24), held.end)) &&
      // The next word, or one opening a quote or a bracket ("Dr. \"Silva\"", "Mr. (Bo) Reis").
      /^[\p{Pi}\p{Ps}"']?[\p{L}\p{N}]/u.test(seg.segment)
    ) {
      held.end = end;
      continue;
    }
    // A mark with no space after it ends no sentence: ICU cuts "…/edit?usp=sharing" after its "?",
    // and the half ending in "?" read as a question, so the message was no Memory. (CJK's full-width
    // marks are not these: its sentences follow each other with no space.)
    if (
      held &&
      /[?!.]$/u.test(text.slice(held.end - 1, held.end)) &&
      /^[\p{L}\p{N}=&%#/_-]/u.test(seg.segment)
    ) {
      held.end = end;
      continue;
    }
    if (held) yield { index: held.start, segment: text.slice(held.start, held.end) };
    held = { start: seg.index, end };
  }
  if (held) yield { index: held.start, segment: text.slice(held.start, held.end) };
}

/**
 * A list item's marker and a task's box before a line's words ("- Hotel: Casa das Flores", "* [ ] Book
 * flights", "• Budget"): the list's, not the sentence's, so no Memory opens with it.
 */
const listMarker = /^(?:[-*+•‣◦]\s+)(?:\[[ xX]\]\s+)?(?=\S)/u;

/**
 * Sentences as exact, trimmed substrings of text (Intl.Segmenter, with titles and abbreviations kept
 * in), each without a list item's marker before it.
 */
export function sentences(text: string): Span[] {
  const out: Span[] = [];
  for (const seg of wholeSentences(text)) {
    // The segmenter keeps line breaks inside a "sentence"; lines (lists, chat lines) are units too.
    let offset = seg.index;
    for (const line of seg.segment.split('\n')) {
      const span = trimmedSpan(text, offset, offset + line.length);
      const marker = span ? listMarker.exec(span.value) : null;
      if (span) out.push(marker ? trimmedSpan(text, span.start + marker[0].length, span.end)! : span);
      offset += line.length + 1;
    }
  }
  return out;
}

/**
 * Passages of at most ~maxChars, made of whole sentences where possible and never spanning a blank
 * line (paragraph break). Each is an exact substring of text, so it can be quoted as is.
 */
export function passages(text: string, maxChars = 800): Span[] {
  const out: Span[] = [];
  let cur: Span | null = null;
  const flush = () => {
    if (cur) out.push(cur);
    cur = null;
  };
  for (const s of sentences(text)) {
    for (const piece of hardSplit(text, s, maxChars)) {
      const paragraphBreak = cur !== null && /\n\s*\n/.test(text.slice(cur.end, piece.start));
      if (cur && !paragraphBreak && piece.end - cur.start <= maxChars) {
        cur = { start: cur.start, end: piece.end, value: text.slice(cur.start, piece.end) };
      } else {
        flush();
        cur = piece;
      }
    }
  }
  flush();
  return out;
}

/** Splits an over-long sentence at whitespace so no passage exceeds maxChars. */
function hardSplit(text: string, s: Span, maxChars: number): Span[] {
  if (s.end - s.start <= maxChars) return [s];
  const out: Span[] = [];
  let start = s.start;
  while (start < s.end) {
    let end = Math.min(start + maxChars, s.end);
    if (end < s.end) {
      const ws = text.lastIndexOf(' ', end);
      if (ws > start + maxChars / 2) end = ws;
    }
    const span = trimmedSpan(text, start, end);
    if (span) out.push(span);
    start = end;
  }
  return out;
}
