import { jsonStringEnd } from './json-string-end.ts';
import { pathText } from './validate.ts';

type Frame = { array: true; index: number } | { array: false; key: string | null; keys: Set<string> };

/**
 * Calls `found` with the path of each field name that a JSON text (one JSON.parse accepted) gives twice
 * in one object, in the order written, until it returns false; `where` limits the search to the paths
 * it accepts (MCP: a tool's arguments). JSON.parse keeps the last of the two and says nothing, so
 * `{"content":"a","content":"b"}` stored "b": RFC 8259 (4) leaves what a reader does with one
 * unpredictable, and a proxy or client that reads the first sees another request than the one served.
 * Names are compared as JSON.parse reads them (`"a"` and `"\u0061"` are one name). Strings are skipped
 * by their closing quote (json-string-end.ts).
 */
export function eachDuplicateKey(
  json: string,
  where: (path: (string | number)[]) => boolean,
  found: (path: (string | number)[]) => boolean,
): void {
  const stack: Frame[] = [];
  const pathOf = () => stack.map((f) => (f.array ? f.index : (f.key ?? '')));
  let i = 0;
  while (i < json.length) {
    const c = json.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = jsonStringEnd(json, i);
      const top = stack.at(-1);
      if (top && !top.array && top.key === null) {
        const raw = json.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        top.key = name;
        if (top.keys.has(name)) {
          const path = pathOf();
          if (where(path) && !found(path)) return;
        }
        top.keys.add(name);
      }
      i = end + 1;
    } else {
      if (c === 0x7b /* { */) stack.push({ array: false, key: null, keys: new Set() });
      else if (c === 0x5b /* [ */) stack.push({ array: true, index: 0 });
      else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
      else if (c === 0x2c /* , */) {
        const top = stack.at(-1)!;
        if (top.array) top.index++;
        else top.key = null;
      }
      // Whitespace, ':', numbers and the letters of true, false and null change nothing.
      i++;
    }
  }
}

/** The path of the first field name given twice in one object of a JSON text, or null. */
export function firstDuplicateKey(json: string): (string | number)[] | null {
  let first: (string | number)[] | null = null;
  eachDuplicateKey(
    json,
    () => true,
    (path) => {
      first = path;
      return false;
    },
  );
  return first;
}

/** Why a field given twice is refused, named as validation names it (`content.text: …`). */
export function duplicateKeyMessage(path: (string | number)[]): string {
  return `${pathText(path)}: must be given once (this object names it twice; JSON readers disagree on which to take)`;
}
