/**
 * Every match of a global pattern in `text`, as `text.matchAll(re)` gives them, one at a time, without
 * the copy of the pattern `matchAll` makes at each call: V8 parses and compiles that copy again, which
 * was ~40% of the slot rules' time. Each step searches from where the last match ended, whatever the
 * pattern's `lastIndex` is meanwhile, so the caller may use `re` between matches; `lastIndex` is 0
 * between steps. In the contract, below the core, so that the engine, the server and the UI may all
 * import it.
 */
export function matchesOf(re: RegExp, text: string): Generator<RegExpExecArray, void, undefined> {
  // Refused at the call, as matchAll refuses, not at the first match asked for.
  if (!re.global) throw new TypeError(`matchesOf needs a global pattern: ${String(re)}`);
  return matches(re, text, re.unicode || re.flags.includes('v'));
}

function* matches(
  re: RegExp,
  text: string,
  codePoints: boolean,
): Generator<RegExpExecArray, void, undefined> {
  for (let at = 0; at <= text.length;) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m === null) break;
    // An empty match would be found again at the same place.
    at = m[0] === '' ? nextIndex(text, re.lastIndex, codePoints) : re.lastIndex;
    re.lastIndex = 0;
    yield m;
  }
  re.lastIndex = 0;
}

/** One character on, a surrogate pair being one for a pattern that reads code points. */
function nextIndex(text: string, at: number, codePoints: boolean): number {
  if (!codePoints || at + 1 >= text.length) return at + 1;
  const c = text.charCodeAt(at);
  const d = text.charCodeAt(at + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? at + 2 : at + 1;
}
