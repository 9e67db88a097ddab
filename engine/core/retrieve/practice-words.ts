import { wordGroups } from './word-groups.ts';

/**
 * Words for a kind of care and for the one who gives it: "Do I see a therapist?" asks of "Therapy today
 * with Dr. Horvat.", which no stemmer brings to "therapist" (porter keeps "therapist" and "therapi"
 * apart), and nothing else in the question names it. Each group is one term's words, searched and met as
 * a kin's words are (kin-words.ts), after the words as asked. Only words that name that care alone.
 */
const care = wordGroups([
  'therapy therapies therapist therapists',
  'psychotherapy psychotherapies psychotherapist psychotherapists',
  'physiotherapy physiotherapist physiotherapists physio',
  'psychiatry psychiatrist psychiatrists psychiatric',
  'counselling counseling counsellor counselor counsellors counselors',
  'dentist dentists dental dentistry',
  'pharmacy pharmacies pharmacist pharmacists',
  'chiropractor chiropractors chiropractic',
]);

/** Every word of the care a query term names, the term included; empty for any other word. */
export const practiceWords = care.words;

/** The words a query term is searched by besides itself when it names a kind of care or its giver. */
export const searchedPracticeWords = care.others;

/**
 * Words that, right before "therapy", make it a treatment no therapist gives ("radiation therapy",
 * "retail therapy"): there it does not meet "therapist", so a private Record about a cancer's treatment
 * is not named by "Who is my therapist?". A physical, speech or occupational therapy has its therapist.
 */
const treatments = new Set(
  (
    'radiation radio chemo hormone hormonal gene retail light oxygen cell targeted drug infusion laser ' +
    'heat cold shock immune immuno antibiotic replacement proton photodynamic stem electroconvulsive iv ' +
    'steroid insulin'
  ).split(' '),
);
const guarded = new Set(['therapy', 'therapies']);

/**
 * Whether a word of a care group met at `at` in folded text (foldText) means that care: not a therapy
 * that a word before it names as a treatment.
 */
export function meansTheCare(lower: string, form: string, at: number): boolean {
  if (!guarded.has(form)) return true;
  let end = at;
  while (end > 0 && /[\s-]/u.test(lower[end - 1]!)) end--;
  if (end === at) return true;
  let start = end;
  while (start > 0 && end - start < 40 && /[\p{L}\p{N}]/u.test(lower[start - 1]!)) start--;
  return !treatments.has(lower.slice(start, end));
}

/** Each care word as a whole word, made once. */
const wholeWord = new Map(
  care.all.map((w) => [w, new RegExp(`(?<![\\p{L}\\p{N}])${w}(?![\\p{L}\\p{N}])`, 'u')]),
);

/**
 * Whether text holds one of the care words a term is searched by besides itself. Asked of a Record that
 * the term meets nowhere (matchedTerms, which reads those words in the care's sense only), it says the
 * search found the Record by a care word in another sense ("radiation therapy" for "therapist").
 */
export function holdsOtherCareWord(lower: string, term: string): boolean {
  return searchedPracticeWords(term).some((w) => wholeWord.get(w)!.test(lower));
}
