/** A segment as Intl.Segmenter reports it, with its index in the whole text. */
export interface Segment {
  segment: string;
  index: number;
  isWordLike?: boolean;
}

/** Long enough for any sentence worth the name, short enough that each step stays cheap. */
const defaultWindow = 2048;

/**
 * Intl.Segmenter's segments of `text`, found window by window. V8's segment iterator (Node 20) costs
 * time in proportion to the whole string at every step, so one pass over a long text is quadratic:
 * 200,000 characters of short sentences took over two minutes, 120,000 of Japanese three, all of it on
 * the server's event loop. A window's last segment may be cut by the window's end, so it is left for
 * the next window, which starts where it does: the segments are the ones the whole text gives, except
 * that a segment longer than a window is cut at the window's end.
 */
export function* segmentInWindows(
  segmenter: Intl.Segmenter,
  text: string,
  windowChars = defaultWindow,
): Generator<Segment> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + windowChars);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end -= 1;
    const atEnd = end === text.length;
    let held: Intl.SegmentData | null = null;
    let gave = false;
    for (const s of segmenter.segment(text.slice(start, end))) {
      if (held) {
        yield { segment: held.segment, index: start + held.index, isWordLike: held.isWordLike };
        gave = true;
      }
      held = s;
    }
    if (!held) break;
    if (atEnd || !gave) {
      // The text's last segment, or one segment filling the whole window: taken as it is.
      yield { segment: held.segment, index: start + held.index, isWordLike: held.isWordLike };
      start = end;
    } else start += held.index;
  }
}
