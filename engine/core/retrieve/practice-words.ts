/**
 * Words for a kind of care and for the one who gives it: "Do I see a therapist?" asks of "Therapy today
 * with Dr. Horvat.", which no stemmer brings to "therapist" (porter keeps "therapist" and "therapi"
 * apart), and nothing else in the question names it. Each group is one term's words, searched and met as
 * a kin's words are (kin-words.ts), after the words as asked. Only words that name that care alone.
 */
const groups = [
  'therapy therapies therapist therapists',
  'psychotherapy psychotherapies psychotherapist psychotherapists',
  'physiotherapy physiotherapist physiotherapists physio',
  'psychiatry psychiatrist psychiatrists psychiatric',
  'counselling counseling counsellor counselor counsellors counselors',
  'dentist dentists dental dentistry',
  'pharmacy pharmacies pharmacist pharmacists',
  'chiropractor chiropractors chiropractic',
].map((g) => g.split(' '));

const groupOf = new Map<string, readonly string[]>();
for (const g of groups) for (const w of g) groupOf.set(w, g);

/** Every word of the care a query term names, the term included; empty for any other word. */
export function practiceWords(term: string): readonly string[] {
  return groupOf.get(term) ?? [];
}

/** The words a query term is searched by besides itself when it names a kind of care or its giver. */
export function searchedPracticeWords(term: string): string[] {
  return (groupOf.get(term) ?? []).filter((w) => w !== term);
}
