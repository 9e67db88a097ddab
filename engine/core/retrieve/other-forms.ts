import { kinWords, searchedKinWords } from './kin-words.ts';
import { practiceWords, searchedPracticeWords } from './practice-words.ts';
import { searchedForms, verbForms } from './verb-forms.ts';

/**
 * Every word, besides the stem a query term meets, that meets it as a whole word: its irregular verb's
 * forms (verb-forms.ts), the words for the same kin (kin-words.ts), or for the same care and its giver
 * (practice-words.ts); the term itself included. Empty for any other word.
 */
export function otherForms(term: string): readonly string[] {
  return [...verbForms(term), ...kinWords(term), ...practiceWords(term)];
}

/** The terms, each with the words it is searched by besides itself, de-duplicated. */
export function withOtherForms(terms: readonly string[]): string[] {
  return [
    ...new Set(
      terms.flatMap((t) => [t, ...searchedForms(t), ...searchedKinWords(t), ...searchedPracticeWords(t)]),
    ),
  ];
}
