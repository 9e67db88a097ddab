/**
 * Where the string that opens at index `open` (its `"`) of a JSON text one JSON.parse accepted ends:
 * the index of its closing quote. A quote escaped by an odd run of backslashes is inside the string.
 * The scanners of a body's numbers and names (exact-numbers.ts, duplicate-keys.ts) skip strings so.
 */
export function jsonStringEnd(json: string, open: number): number {
  let end = json.indexOf('"', open + 1);
  for (;;) {
    let slashes = 0;
    while (json.charCodeAt(end - 1 - slashes) === 0x5c /* \ */) slashes++;
    if (slashes % 2 === 0) return end;
    end = json.indexOf('"', end + 1);
  }
}
