/**
 * Words that name the same kin: "What's my mom's name?" asks of "My mother Ana is a teacher.", which no
 * stemmer brings to "mom", and the default embedder cannot find it either: glove-sif puts "mom" and
 * "dad" near most everyday talk (docs/decisions/retrieval.md, "A word near everything"). Each group is
 * one term's words, searched and met as a verb's forms are (verb-forms.ts). Only words that name nothing
 * else: not "ma", "pa", "pop" or "nan".
 */
const groups = [
  'mom mum mother mommy mummy mama momma',
  'dad father daddy papa',
  'grandma grandmother granny nana',
  'grandpa grandfather granddad grandad gramps',
].map((g) => g.split(' '));

const groupOf = new Map<string, readonly string[]>();
for (const g of groups) for (const w of g) groupOf.set(w, g);

/** Every word of the kin a query term names, the term included; empty for any other word. */
export function kinWords(term: string): readonly string[] {
  return groupOf.get(term) ?? [];
}

/** The words a query term is searched by besides itself when it names kin. */
export function searchedKinWords(term: string): string[] {
  return (groupOf.get(term) ?? []).filter((w) => w !== term);
}
