import { queryTerms } from '../core/retrieve/query-terms.ts';
import type { LexicalIndex } from '../ports/index.ts';

/** Document frequencies are counted up to this: a word that common is no clue anyway. */
const dfCap = 500;

/**
 * Pseudo-relevance feedback for thorough mode: the rarest content words of the top-ranked Records
 * (by document frequency in this Brain's index) that the query lacks. Rare words shared by what ranked
 * first tend to name the thing the query circles around ("pottery" for "what does she do to relax").
 */
export async function feedbackTerms(
  lexical: LexicalIndex,
  brainUid: string,
  topTexts: string[],
  terms: string[],
  max = 5,
): Promise<string[]> {
  const have = new Set(terms);
  const counts = new Map<string, number>();
  for (const text of topTexts) {
    for (const w of new Set(queryTerms(text))) {
      if (w.length < 3 || have.has(w) || /^\d+$/.test(w)) continue;
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return [];
  const words = [...counts.keys()];
  const { records: total, counts: dfs } = await lexical.textFrequencies(brainUid, words, dfCap);
  const scored: Array<[string, number]> = [];
  words.forEach((w, i) => {
    const df = dfs[i] ?? 0;
    // Rarer than in half the Brain's Records, else it says nothing about this query.
    if (df === 0 || df >= dfCap || df > total / 2) return;
    scored.push([w, counts.get(w)! * Math.log((total + 1) / df)]);
  });
  return scored
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([w]) => w);
}
