import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { eligibilitySql } from './lane.ts';

const quote = (t: string) => `"${t.replaceAll('"', '""')}"`;

/**
 * FTS5 over Record text (porter + unicode61): any query word may match, ranked by BM25. The reason
 * names the query words each Record shares (as FTS5 stems them), which is what a person checks first.
 */
export function createLexicalLane(): Lane {
  return {
    name: 'lexical',
    search(input: LaneInput): LaneCandidate[] {
      if (input.terms.length === 0) return [];
      const el = eligibilitySql(input.eligibility);
      const rows = input.store.all<{ id: string; n: number; score: number }>(
        `SELECT r.id AS id, r.n AS n, -bm25(records_fts) AS score
         FROM records_fts JOIN records r ON r.n = records_fts.rowid
         WHERE records_fts MATCH ? AND ${el.sql}
         ORDER BY bm25(records_fts) LIMIT ?`,
        input.terms.map(quote).join(' OR '),
        ...el.params,
        input.limit,
      );
      if (rows.length === 0) return [];
      const shared = new Map<number, string[]>();
      const ns = JSON.stringify(rows.map((r) => r.n));
      for (const term of input.terms) {
        const hits = input.store.all<{ n: number }>(
          'SELECT rowid AS n FROM records_fts WHERE records_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
          quote(term),
          ns,
        );
        for (const h of hits) shared.set(h.n, [...(shared.get(h.n) ?? []), term]);
      }
      input.ledger.charge('processing', rows.length / 1000);
      return rows.map((r) => ({
        recordId: r.id,
        score: r.score,
        reason: `shared words: ${(shared.get(r.n) ?? []).join(', ')}`,
      }));
    },
  };
}
