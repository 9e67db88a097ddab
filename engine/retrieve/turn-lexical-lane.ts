import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { eligibilitySql, hidesRecords } from './lane.ts';
import { matchedTerms } from '../core/retrieve/query-terms.ts';
import type { SqlParam } from '../adapters/sqlite/store.ts';
import { scopeToken } from './thread-context.ts';
import { ftsPhrase, ftsRankingSql } from '../adapters/sqlite/turn-table.ts';

export interface TurnSearch {
  terms: string[];
  limit: number;
  /** Only Records that occurred in [fromMs, toMs). */
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** One BM25 search of turn_fts under the eligibility rules; shared by the lexical, entity and time lanes. */
export interface TurnRow {
  id: string;
  n: number;
  text: string;
  score: number;
  speakerNorm: string | null;
  occurredMs: number;
}

export function searchTurns(input: LaneInput, s: TurnSearch): TurnRow[] {
  if (s.terms.length === 0) return [];
  const key = JSON.stringify(['turns', s]);
  const hit = input.memo?.get(key) as TurnRow[] | undefined;
  if (hit) return hit;
  const el = eligibilitySql(input.eligibility);
  const extra: string[] = [];
  const params: Array<string | number> = [];
  if (s.fromMs !== undefined) {
    extra.push('r.occurred_ms >= ?');
    params.push(s.fromMs);
  }
  if (s.toMs !== undefined) {
    extra.push('r.occurred_ms < ?');
    params.push(s.toMs);
  }
  if (emptyWindow(input, s)) {
    input.memo?.set(key, []);
    return [];
  }
  const where = `${el.sql} ${extra.map((e) => `AND ${e}`).join(' ')}`;
  // Filters that may reject many of the best rows get a deeper cut (10 x limit): a filter keeping
  // almost nothing in a huge Brain then finds only what is among those, a bounded cost.
  const deep = extra.length > 0 || hidesRecords(input.eligibility);
  const cut = deep ? 10 * s.limit : s.limit;
  const q: RankedQuery = {
    terms: s.terms,
    scope: scopeToken(input.eligibility.brainUid),
    cut,
    where,
    params: [...el.params, ...params],
    limit: s.limit,
  };
  const ranked = input.indexes?.turns.rank(q.terms, q.scope, q.cut) ?? null;
  const rows = ranked ? readRanked(input, ranked, q) : searchFts(input, q);
  input.memo?.set(key, rows);
  return rows;
}

const cols = `r.id AS id, r.n AS n, substr(r.text, 1, 2000) AS text, ri.speaker_norm AS speakerNorm, r.occurred_ms AS occurredMs`;

/**
 * The Records of the ranked rowids (a JSON array) that pass the request's conditions. CROSS JOIN keeps
 * the rowids as the outer loop: with `r.n IN (...)` the planner reads the whole Brain by its
 * brain_uid index instead (12 ms at 100,000 Records, against 0.2).
 */
export function rankedRowsSql(where: string): string {
  return `SELECT ${cols} FROM json_each(?) j CROSS JOIN records r ON r.n = j.value
          LEFT JOIN retrieval_index ri ON ri.record_n = r.n WHERE ${where}`;
}

/**
 * One ranked search: the words, the Brain's scope token, how many of the best rows to rank, then the
 * request's conditions on the Records (SQL on alias r, with their parameters) and how many to keep.
 */
interface RankedQuery {
  terms: readonly string[];
  scope: string;
  cut: number;
  where: string;
  params: SqlParam[];
  limit: number;
}

/** The ranked rows that pass the request's conditions, best first, with their scores. */
function readRanked(
  input: LaneInput,
  ranked: Array<{ n: number; score: number }>,
  q: RankedQuery,
): TurnRow[] {
  if (ranked.length === 0) return [];
  const found = new Map(
    input.store
      .all<Omit<TurnRow, 'score'>>(
        rankedRowsSql(q.where),
        JSON.stringify(ranked.map((r) => r.n)),
        ...q.params,
      )
      .map((r) => [r.n, r]),
  );
  const out: TurnRow[] = [];
  for (const { n, score } of ranked) {
    const r = found.get(n);
    if (!r) continue;
    out.push({ ...r, score });
    if (out.length === q.limit) break;
  }
  return out;
}

/**
 * The same search in FTS5 itself, while the in-memory copy is not ready (or for a word FTS5 would
 * read as several tokens).
 */
function searchFts(input: LaneInput, q: RankedQuery): TurnRow[] {
  // The scope token keeps the ranking inside the Brain; in a store that holds no other Brain it
  // restricts nothing, and intersecting with a posting list as long as the Brain costs ~5 ms at 100,000
  // Records. The scope column weighs 0, so the scores are the same either way.
  const any = `(${q.terms.map(ftsPhrase).join(' OR ')})`;
  const alone = !input.store.get('SELECT 1 FROM brains WHERE uid <> ? LIMIT 1', input.eligibility.brainUid);
  const match = alone ? any : `scope:${q.scope} AND ${any}`;
  // Rank inside the index first, then read the few Records that made it. CROSS JOIN keeps the ranked
  // rows as the outer loop (the planner otherwise scans the Brain's Records).
  return input.store.all<TurnRow>(
    `SELECT ${cols}, t.score AS score
     FROM (${ftsRankingSql}) t
     CROSS JOIN records r ON r.n = t.n LEFT JOIN retrieval_index ri ON ri.record_n = r.n
     WHERE ${q.where} ORDER BY t.score DESC LIMIT ?`,
    match,
    q.cut,
    ...q.params,
    q.limit,
  );
}

/**
 * True when the search's time window (its own, intersected with since/until/as_of) holds none of the
 * Brain's Records: the ranked search would score every lexical match of the Brain only to discard them
 * all (at 100,000 Records a "last month" before the first Record cost a full BM25 pass, ~20 ms). One
 * probe of records_brain_occurred answers it.
 */
function emptyWindow(input: LaneInput, s: TurnSearch): boolean {
  const e = input.eligibility;
  const from = Math.max(s.fromMs ?? -Infinity, e.sinceMs ?? -Infinity);
  // toMs is exclusive; until and as_of are inclusive.
  const untilIncl = Math.min(e.untilMs ?? Infinity, e.asOfMs ?? Infinity);
  if (from === -Infinity && s.toMs === undefined && untilIncl === Infinity) return false;
  const conds = ['brain_uid = ?'];
  const params: number[] = [];
  if (from !== -Infinity) {
    conds.push('occurred_ms >= ?');
    params.push(from);
  }
  if (s.toMs !== undefined) {
    conds.push('occurred_ms < ?');
    params.push(s.toMs);
  }
  if (untilIncl !== Infinity) {
    conds.push('occurred_ms <= ?');
    params.push(untilIncl);
  }
  return !input.store.get(
    `SELECT 1 FROM records WHERE ${conds.join(' AND ')} LIMIT 1`,
    e.brainUid,
    ...params,
  );
}

/** The lexical search the lexical and entity lanes share (run once per request through the memo). */
export function searchQuery(input: LaneInput): TurnRow[] {
  return searchTurns(input, { terms: input.terms, limit: 3 * input.limit });
}

/** The reason a person checks first: the query words the Record shares, or that its neighbours do. */
export function sharedReason(text: string, terms: string[]): string {
  const own = matchedTerms(text, terms);
  return own.length > 0 ? `shared words: ${own.join(', ')}` : 'shared words in the surrounding messages';
}

/**
 * Lexical lane: FTS5 BM25 (porter stemming) over each Record with its speaker and thread neighbours,
 * so a reply is found through the question it answers.
 */
export function createTurnLexicalLane(): Lane {
  return {
    name: 'lexical',
    search(input: LaneInput): LaneCandidate[] {
      const rows = searchQuery(input).slice(0, input.limit);
      input.ledger.charge('processing', rows.length / 1000);
      return rows.map((r) => ({ recordId: r.id, score: r.score, reason: sharedReason(r.text, input.terms) }));
    },
  };
}
