/**
 * Every match of a global pattern in `text`, as `[...text.matchAll(re)]` has them, without the copy of
 * the pattern `matchAll` makes at each call: V8 parses and compiles that copy again, which was ~40% of
 * the slot rules' time. All matches are read before any is returned, so the caller may use `re`
 * meanwhile; it is searched from the start whatever its `lastIndex`, which it is left at 0. In the
 * contract, below the core, so that the engine, the server and the UI may all import it.
 */
export function matchesOf(re: RegExp, text: string): RegExpExecArray[] {
  if (!re.global) throw new TypeError(`matchesOf needs a global pattern: ${String(re)}`);
  const found: RegExpExecArray[] = [];
  re.lastIndex = 0;
  try {
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      found.push(m);
      // An empty match would be found again at the same place.
      if (m[0] === '') re.lastIndex = nextIndex(text, re.lastIndex, re.unicode || re.flags.includes('v'));
    }
  } finally {
    re.lastIndex = 0;
  }
  return found;
}

/** One character on, a surrogate pair being one for a pattern that reads code points. */
function nextIndex(text: string, at: number, codePoints: boolean): number {
  if (!codePoints || at + 1 >= text.length) return at + 1;
  const c = text.charCodeAt(at);
  const d = text.charCodeAt(at + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? at + 2 : at + 1;
}
