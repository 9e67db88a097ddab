import type { Store } from '../adapters/sqlite/store.ts';
import { queryTerms } from '../core/retrieve/query-terms.ts';
import { scopeToken } from '../adapters/sqlite/turn-table.ts';

/**
 * Pseudo-relevance feedback for thorough mode: the rarest content words of the top-ranked Records
 * (by document frequency in this Brain's index) that the query lacks. Rare words shared by what ranked
 * first tend to name the thing the query circles around ("pottery" for "what does she do to relax").
 */
export function feedbackTerms(
  store: Store,
  brainUid: string,
  topTexts: string[],
  terms: string[],
  max = 5,
): string[] {
  const have = new Set(terms);
  const counts = new Map<string, number>();
  for (const text of topTexts) {
    for (const w of new Set(queryTerms(text))) {
      if (w.length < 3 || have.has(w) || /^\d+$/.test(w)) continue;
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  if (counts.size === 0) return [];
  const total =
    store.get<{ c: number }>('SELECT count(*) AS c FROM retrieval_index WHERE brain_uid = ?', brainUid)?.c ??
    1;
  const cap = 500;
  const scored: Array<[string, number]> = [];
  for (const [w, tf] of counts) {
    // Document frequency in this Brain, counted up to a cap: a word that common is no clue anyway.
    const df =
      store.get<{ c: number }>(
        `SELECT count(*) AS c FROM (SELECT 1 FROM turn_fts WHERE turn_fts MATCH ? LIMIT ${cap})`,
        `scope:${scopeToken(brainUid)} AND text:"${w.replaceAll('"', '""')}"`,
      )?.c ?? 0;
    // Rarer than in half the Brain's Records, else it says nothing about this query.
    if (df === 0 || df >= cap || df > total / 2) continue;
    scored.push([w, tf * Math.log((total + 1) / df)]);
  }
  return scored
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([w]) => w);
}
