import { foldText } from './fold-text.ts';

/** Anything but a letter, a digit or a mark parts a name's words: spaces, hyphens, apostrophes, dots. */
const betweenWords = /[^\p{L}\p{N}\p{M}]+/u;

/** The words of a name as the filters compare them: folded as searches fold (foldText), in order. */
export function nameWords(name: string): string[] {
  return foldText(name).split(betweenWords).filter(Boolean);
}

/**
 * Whether what a person typed names this name: each word typed is a whole word of it, in any order,
 * case and accents ignored ("babic", "Marko Babic" and "babić marko" name Marko Babić; "bab" and
 * "Marko Horvat" do not). Typed text with no word at all ("☕", "-") names the name it folds to.
 */
export function namesName(typed: string, name: string): boolean {
  return namerOf(typed)(name);
}

/** namesName for one typed text, its words folded once for every name it is tried on. */
function namerOf(typed: string): (name: string) => boolean {
  const words = nameWords(typed);
  if (words.length > 0)
    return (name) => {
      const theirs = new Set(nameWords(name));
      return words.every((w) => theirs.has(w));
    };
  const said = foldText(typed.trim());
  return (name) => said !== '' && said === foldText(name.trim());
}

/** The names of `names` that `typed` names (namesName), in their order. */
export function namedBy(typed: string, names: readonly string[]): string[] {
  return names.filter(namerOf(typed));
}
