/** A segment as Intl.Segmenter reports it, with its index in the whole text. */
export interface Segment {
  segment: string;
  index: number;
  isWordLike?: boolean;
}

/** Long enough for any sentence worth the name, short enough that each step stays cheap. */
const defaultWindow = 2048;
/**
 * How near a window's end a boundary is not trusted: ICU decides some breaks by looking past them
 * (after "e.g." it looks ahead for a lower-case letter), and near the end that look is cut short.
 */
const lookahead = 256;

/**
 * Intl.Segmenter's segments of `text`, found window by window. V8's segment iterator (Node 20) costs
 * time in proportion to the whole string at every step, so one pass over a long text is quadratic:
 * 200,000 characters of short sentences took over two minutes, 120,000 of Japanese three, all of it on
 * the server's event loop. The segments that end near a window's end are left for the next window,
 * which starts where the first of them does, so each boundary is decided with as much text after it
 * as the whole text gives (up to `lookahead` characters): the segments are the whole text's, except
 * that a segment longer than a window is cut in it: after its last full stop or space past the
 * window's middle, else at its end.
 */
export function* segmentInWindows(
  segmenter: Intl.Segmenter,
  text: string,
  windowChars = defaultWindow,
): Generator<Segment> {
  const margin = Math.min(lookahead, Math.floor(windowChars / 4));
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + windowChars);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
    const found = Array.from(segmenter.segment(text.slice(start, end)));
    const at = (s: Intl.SegmentData): Segment => ({
      segment: s.segment,
      index: start + s.index,
      isWordLike: s.isWordLike,
    });
    if (end === text.length) {
      yield* found.map(at);
      break;
    }
    const settled = found.filter((s) => start + s.index + s.segment.length <= end - margin);
    const first = found[0]!;
    if (settled.length === 0 && first.segment.length === end - start) {
      // One segment longer than the window (a chat in lower case: its full stops are no breaks to ICU):
      // cut after a full stop or a space in its second half, not inside a word.
      const cut = lastBreak(first.segment, Math.floor(windowChars / 2));
      yield { segment: first.segment.slice(0, cut), index: start, isWordLike: first.isWordLike };
      start += cut;
      continue;
    }
    // One segment filling nearly the whole window: taken as it is.
    const taken = settled.length > 0 ? settled : found.slice(0, 1);
    yield* taken.map(at);
    const last = taken[taken.length - 1]!;
    start += last.index + last.segment.length;
  }
}

/**
 * Where to cut a piece too long for its window: after its last full stop and the spaces after it past
 * `from`, else after its last spaces; its end where there are none (one word that long).
 */
function lastBreak(piece: string, from: number): number {
  // A break at the very end would cut nothing off.
  const tail = piece.slice(from, -1);
  const stop = /^[\s\S]*[.!?…]\s+/u.exec(tail) ?? /^[\s\S]*\s/u.exec(tail);
  return stop ? from + stop[0].length : piece.length;
}
