import type { LexicalHit, LexicalIndex, SearchScope } from '../../ports/index.ts';
import { eligibilitySql } from './eligibility-sql.ts';
import type { SqlParam, Store } from './store.ts';
import type { TurnCopies } from './turn-copies.ts';
import { searchBigrams } from '../../core/retrieve/segment-words.ts';
import { ftsPhrase, ftsRankingSql, scopeToken, turnText } from './turn-table.ts';
import { sqliteBackends } from '../../core/retrieve/backends.ts';

/** FTS5's BM25 over turn_fts; the in-memory copy answers exactly as FTS5 does, so it is no backend of its own. */
export const sqliteLexicalBackend = sqliteBackends.lexical;

const cols = `r.id AS recordId, r.n AS recordN, substr(r.text, 1, 2000) AS text, ri.speaker_norm AS speakerNorm, r.occurred_ms AS occurredMs, r.kind AS kind`;

/**
 * The Records of the ranked rowids (a JSON array) that pass the request's conditions. CROSS JOIN keeps
 * the rowids as the outer loop: with `r.n IN (...)` the planner reads the whole Brain by its
 * brain_uid index instead (12 ms at 100,000 Records, against 0.2).
 */
export function rankedRowsSql(where: string): string {
  return `SELECT ${cols} FROM json_each(?) j CROSS JOIN records r ON r.n = j.value
          LEFT JOIN retrieval_index ri ON ri.record_n = r.n WHERE ${where}`;
}

/** The scope's conditions on alias r: eligibility and the search's own window (from inclusive, to exclusive). */
function scopeSql(scope: SearchScope): { sql: string; params: SqlParam[] } {
  const el = eligibilitySql(scope);
  const conds = [el.sql];
  const params = [...el.params];
  if (scope.fromMs !== undefined) {
    conds.push('r.occurred_ms >= ?');
    params.push(scope.fromMs);
  }
  if (scope.toMs !== undefined) {
    conds.push('r.occurred_ms < ?');
    params.push(scope.toMs);
  }
  return { sql: conds.join(' AND '), params };
}

/**
 * turn_fts (a message with its speaker and thread neighbours' words) ranked by BM25, from the store's
 * in-memory copy when it can answer (`turns`), else by FTS5 itself. The hits' text, speaker and time
 * come with the scope's conditions in one statement: a second read by rowid cost more than the
 * columns do.
 */
export function createSqliteLexicalIndex(store: Store, turns?: TurnCopies): LexicalIndex {
  return {
    backend: sqliteLexicalBackend,
    async search({ terms, scope, cut, limit }) {
      if (terms.length === 0) return [];
      // Folded and cut as turn_fts's text is, with the bigrams a CJK or Korean word may be found by
      // inside a longer compound.
      const words = [
        ...new Set(
          terms.flatMap((t) => {
            const word = turnText(t);
            return [word, ...searchBigrams(word)];
          }),
        ),
      ];
      const where = scopeSql(scope);
      const ranked = turns?.rank(words, scopeToken(scope.brainUid), cut) ?? null;
      return ranked
        ? readRanked(store, ranked, where, limit)
        : searchFts(store, words, scope, cut, where, limit);
    },
    async anyInWindow(scope) {
      const from = Math.max(scope.fromMs ?? -Infinity, scope.sinceMs ?? -Infinity);
      // toMs is exclusive; until and as_of are inclusive.
      const untilIncl = Math.min(scope.untilMs ?? Infinity, scope.asOfMs ?? Infinity);
      const conds = ['brain_uid = ?'];
      const params: number[] = [];
      if (from !== -Infinity) {
        conds.push('occurred_ms >= ?');
        params.push(from);
      }
      if (scope.toMs !== undefined) {
        conds.push('occurred_ms < ?');
        params.push(scope.toMs);
      }
      if (untilIncl !== Infinity) {
        conds.push('occurred_ms <= ?');
        params.push(untilIncl);
      }
      return !!store.get(
        `SELECT 1 FROM records WHERE ${conds.join(' AND ')} LIMIT 1`,
        scope.brainUid,
        ...params,
      );
    },
    async inWindow(scope, limit, order = 'oldest') {
      const where = scopeSql(scope);
      // Ties by r.n, as PostgreSQL's: a window cut at `limit` holds the same Records on both engines.
      const dir = order === 'newest' ? 'DESC' : 'ASC';
      return store.all<LexicalHit>(
        `SELECT ${cols}, 0 AS score
         FROM records r LEFT JOIN retrieval_index ri ON ri.record_n = r.n
         WHERE ${where.sql}
         ORDER BY r.occurred_ms ${dir}, r.n ${dir} LIMIT ?`,
        ...where.params,
        limit,
      );
    },
    async textFrequencies(brainUid, words, cap) {
      const records =
        store.get<{ c: number }>('SELECT count(*) AS c FROM retrieval_index WHERE brain_uid = ?', brainUid)
          ?.c ?? 0;
      // FTS5 itself, not the in-memory copy: the copy ranks whole turns, this counts one column.
      const counts = words.map(
        (w) =>
          store.get<{ c: number }>(
            'SELECT count(*) AS c FROM (SELECT 1 FROM turn_fts WHERE turn_fts MATCH ? LIMIT ?)',
            wordInText(brainUid, w),
            cap,
          )?.c ?? 0,
      );
      return { records, counts };
    },
    async saysWords(brainUid, words) {
      return words.map(
        (w) =>
          store.get('SELECT 1 AS c FROM turn_fts WHERE turn_fts MATCH ? LIMIT 1', wordInText(brainUid, w)) !==
          undefined,
      );
    },
    async texts(brainUid, recordIds) {
      if (recordIds.length === 0) return [];
      return store.all<Pick<LexicalHit, 'recordId' | 'text' | 'occurredMs' | 'kind' | 'speakerNorm'>>(
        `SELECT r.id AS recordId, substr(r.text, 1, 2000) AS text, r.occurred_ms AS occurredMs, r.kind AS kind,
                ri.speaker_norm AS speakerNorm
         FROM records r LEFT JOIN retrieval_index ri ON ri.record_n = r.n
         WHERE r.id IN (SELECT value FROM json_each(?)) AND r.brain_uid = ?`,
        JSON.stringify(recordIds),
        brainUid,
      );
    },
  };
}

/** The ranked rows that pass the request's conditions, best first, with their scores. */
function readRanked(
  store: Store,
  ranked: Array<{ n: number; score: number }>,
  where: { sql: string; params: SqlParam[] },
  limit: number,
): LexicalHit[] {
  if (ranked.length === 0) return [];
  const found = new Map(
    store
      .all<Omit<LexicalHit, 'score'>>(
        rankedRowsSql(where.sql),
        JSON.stringify(ranked.map((r) => r.n)),
        ...where.params,
      )
      .map((r) => [r.recordN, r]),
  );
  const out: LexicalHit[] = [];
  for (const { n, score } of ranked) {
    const r = found.get(n);
    if (!r) continue;
    out.push({ ...r, score });
    if (out.length === limit) break;
  }
  return out;
}

/**
 * The same search in FTS5 itself, while the in-memory copy is not ready (or for a word FTS5 would
 * read as several tokens).
 */
function searchFts(
  store: Store,
  terms: readonly string[],
  scope: SearchScope,
  cut: number,
  where: { sql: string; params: SqlParam[] },
  limit: number,
): LexicalHit[] {
  // The scope token keeps the ranking inside the Brain; in a store that holds no other Brain it
  // restricts nothing, and intersecting with a posting list as long as the Brain costs ~5 ms at 100,000
  // Records. The scope column weighs 0, so the scores are the same either way.
  const any = `(${terms.map(ftsPhrase).join(' OR ')})`;
  const alone = !store.get('SELECT 1 FROM brains WHERE uid <> ? LIMIT 1', scope.brainUid);
  const match = alone ? any : `scope:${scopeToken(scope.brainUid)} AND ${any}`;
  // Rank inside the index first, then read the few Records that made it. CROSS JOIN keeps the ranked
  // rows as the outer loop (the planner otherwise scans the Brain's Records).
  return store.all<LexicalHit>(
    `SELECT ${cols}, t.score AS score
     FROM (${ftsRankingSql}) t
     CROSS JOIN records r ON r.n = t.n LEFT JOIN retrieval_index ri ON ri.record_n = r.n
     WHERE ${where.sql} ORDER BY t.score DESC LIMIT ?`,
    match,
    cut,
    ...where.params,
    limit,
  );
}

/** An FTS5 query for the Brain's Records with the word in their own text (the turn's text column). */
const wordInText = (brainUid: string, word: string): string =>
  `scope:${scopeToken(brainUid)} AND text:${ftsPhrase(turnText(word))}`;
