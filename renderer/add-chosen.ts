// Part of chosen-files.ts without the browser's file types, so the unit tests type-check it in Node.

/**
 * What is chosen after `more` is added to `before`: a folder and then a file (or a drop) add up, as the
 * list under the boxes says, instead of the last choice silently replacing the others. A path chosen
 * again is taken once, as last chosen (a folder chosen twice is not sent twice).
 */
export function addChosen<T extends { path: string }>(before: readonly T[], more: readonly T[]): T[] {
  const byPath = new Map(before.map((f) => [f.path, f]));
  for (const f of more) {
    byPath.delete(f.path);
    byPath.set(f.path, f);
  }
  return [...byPath.values()];
}
