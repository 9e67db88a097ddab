/**
 * Groups of words that stand for one query term (kin-words.ts, practice-words.ts): each word of a group
 * is met by, and searched with, the others.
 */
export interface WordGroups {
  /** Every word of the groups. */
  readonly all: readonly string[];
  /** Every word of the term's group, the term included; empty for a word of no group. */
  words(term: string): readonly string[];
  /** The words the term is searched by besides itself. */
  others(term: string): string[];
}

/** Groups written one to a string, words apart by spaces. */
export function wordGroups(groups: readonly string[]): WordGroups {
  const groupOf = new Map<string, readonly string[]>();
  for (const g of groups.map((line) => line.split(' '))) for (const w of g) groupOf.set(w, g);
  return {
    all: [...groupOf.keys()],
    words: (term) => groupOf.get(term) ?? [],
    others: (term) => (groupOf.get(term) ?? []).filter((w) => w !== term),
  };
}
