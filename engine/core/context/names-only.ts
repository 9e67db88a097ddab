import { foldText } from '../shared/fold-text.ts';
import { matchedTerms } from '../retrieve/query-terms.ts';
import { matchesOf } from '../../contract/matches-of.ts';

/** A word a question writes with a capital inside it, its possessive aside: "Marko" of "Marko's". */
const capitalised = /(?<![\p{L}\p{M}\p{N}])\p{Lu}[\p{L}\p{M}]*(?:[-'’]\p{L}+)*/gu;

/**
 * The question's terms that are names: as it writes them, with a capital ("marko" of "When is Marko's
 * birthday?"), or as words of the people it was found to ask of (`subjects`, the slot lane's: "marko" of
 * "when is marko's birthday"). A capital that opens the question makes its word one too: the rule that
 * reads these (holdsOnlyNames) then keeps more, not less.
 */
export function namesAsked(
  query: string,
  terms: readonly string[],
  subjects: readonly string[] = [],
): Set<string> {
  const written = [...matchesOf(capitalised, query)].map((m) => foldText(m[0].replace(/['’]s$/u, '')));
  const named = [...written, ...subjects].join('\n');
  return new Set(terms.filter((t) => matchedTerms(named, [t]).length > 0));
}

/**
 * Whether a passage holds, of the question's terms, some and only its names, where the question has
 * other words too: the diary line "… whether Marko and I want the same future" for "When is Marko's
 * birthday?" names whom the question asks of, and says nothing of what it asks.
 */
export function holdsOnlyNames(text: string, terms: readonly string[], names: ReadonlySet<string>): boolean {
  if (names.size === 0 || terms.every((t) => names.has(t))) return false;
  const held = matchedTerms(text, [...terms]);
  return held.length > 0 && held.every((t) => names.has(t));
}
