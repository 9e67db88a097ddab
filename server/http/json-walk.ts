/** Where a token stands in a JSON text: field names and array indexes from the root. */
export type JsonPath = (string | number)[];

/**
 * What walkJson reports. `path` builds the token's path when asked (most tokens need none). A call
 * that returns false ends the walk.
 */
export interface JsonVisitor {
  /** A field name as JSON.parse reads it (`"\u0061"` is `a`); `again`: its object named it before. */
  name?(path: () => JsonPath, name: string, again: boolean): boolean;
  /** A number as it was written (`1.50e2`). */
  number?(path: () => JsonPath, token: string): boolean;
}

type Frame = { array: true; index: number } | { array: false; key: string | null; keys: Set<string> };

/** What a number token of valid JSON is made of after its first character: 0-9 + - . e E. */
const isNumberChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/**
 * Walks a JSON text that one JSON.parse accepted, reporting its field names and numbers in the order
 * written: what the parsed value no longer tells (a name given twice, the digits a number was sent
 * with). Strings are skipped by their closing quote, so a long Record costs little; a name is decoded
 * only when it holds an escape. The scanners of a body (duplicate-keys.ts, exact-numbers.ts) are
 * visitors of one walk.
 */
export function walkJson(json: string, visit: JsonVisitor): void {
  const stack: Frame[] = [];
  const path = () => stack.map((f) => (f.array ? f.index : (f.key ?? '')));
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = stringEnd(json, i);
      const top = stack.at(-1);
      if (top && !top.array && top.key === null) {
        const raw = json.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.key = name;
        const again = top.keys.has(name);
        top.keys.add(name);
        if (visit.name && !visit.name(path, name, again)) return;
      }
      i = end + 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39) /* 0-9 */) {
      let end = i + 1;
      while (end < json.length && isNumberChar(json.charCodeAt(end))) end++;
      if (visit.number && !visit.number(path, json.slice(i, end))) return;
      i = end;
    } else {
      if (c === 0x7b /* { */) stack.push({ array: false, key: null, keys: new Set() });
      else if (c === 0x5b /* [ */) stack.push({ array: true, index: 0 });
      else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
      else if (c === 0x2c /* , */) {
        const top = stack.at(-1)!;
        if (top.array) top.index++;
        else top.key = null;
      }
      // Whitespace, ':' and the letters of true, false and null change nothing.
      i++;
    }
  }
}

/** The index of the quote that closes the string opening at `open`: one escaped by an odd run of backslashes is inside it. */
function stringEnd(json: string, open: number): number {
  let end = json.indexOf('"', open + 1);
  for (;;) {
    let slashes = 0;
    while (json.charCodeAt(end - 1 - slashes) === 0x5c /* \ */) slashes++;
    if (slashes % 2 === 0) return end;
    end = json.indexOf('"', end + 1);
  }
}
