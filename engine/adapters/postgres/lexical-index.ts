import { searchBigrams, segmentWords } from '../../core/retrieve/segment-words.ts';
import { turnWeights } from '../../core/retrieve/turn-shape.ts';
import { foldText, normName } from '../../core/shared/fold-text.ts';
import type { LexicalHit, LexicalIndex, SearchScope } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { params, type Params } from './memory-view.ts';
import { postgresBackends } from '../../core/retrieve/backends.ts';

/**
 * Each query word's `ts_rank` (normalisation 1: divided by 1 + log of the turn's length) weighted by
 * the word's IDF in the Brain, summed: BM25's IDF as FTS5 computes it, log((N - n + 0.5) / (n + 0.5)),
 * 1e-6 when not positive, with N the Brain's turns and n those holding the word. Without it a common
 * word ("like", "go") counted as much as a rare one, and the lane found 0.66 of LoCoMo dev's evidence
 * in its top 10 against FTS5's 0.74; with it 0.72. N and n are the Brain's own, not the table's as
 * in FTS5 (one store per user there): on a shared server one tenant's words must not move another's
 * scores. Within a word `ts_rank` saturates repeats (1/i²), so a turn with two of the words outranks
 * one with a single word three times, as BM25's saturation does (lexical-index.test.ts checks both).
 */
export const pgLexicalBackend = postgresBackends.lexical;

/** ts_rank's weights, in its order (D, C, B, A): after, speaker, before, the text (migration 005). */
const rankWeights = `{${[turnWeights.after, turnWeights.speaker, turnWeights.before, turnWeights.text].join(',')}}`;

/**
 * The request's conditions on a records alias, binding their values to `p`: the SQLite adapter's
 * eligibilitySql and the search's own window, to the letter. A bare correction (one no Memory cites)
 * is never evidence; `bare` keeps it (what the request may see, not quote: what withdrew a Memory).
 */
export function scopeSql(p: Params, scope: SearchScope, alias = 'r', opts: { bare?: boolean } = {}): string {
  const r = alias;
  const conds = [`${r}.brain_uid = ${p.bind(scope.brainUid)}`];
  if (!opts.bare) conds.push(`NOT ${bareCorrectionSql(r)}`);
  const at = (cond: string, ms: number) => conds.push(`${r}.occurred_ms ${cond} ${p.bind(ms)}::bigint`);
  if (scope.excludeLocalOnly) conds.push(`${r}.visibility <> 'local_only'`);
  if (scope.shareableOnly) conds.push(`${r}.visibility = 'shareable'`);
  if (scope.sinceMs !== undefined) at('>=', scope.sinceMs);
  if (scope.untilMs !== undefined) at('<=', scope.untilMs);
  if (scope.asOfMs !== undefined) at('<=', scope.asOfMs);
  if (scope.sources !== undefined)
    conds.push(`${r}.source_name = ANY (${p.bind([...scope.sources])}::text[])`);
  if (scope.fromMs !== undefined) at('>=', scope.fromMs);
  if (scope.toMs !== undefined) at('<', scope.toMs);
  return conds.join(' AND ');
}

/** The Record (a records alias) is a bare correction: one no Memory cites, which withdrew and stated nothing. */
export const bareCorrectionSql = (r: string) =>
  `(${r}.kind = 'correction' AND NOT EXISTS (SELECT 1 FROM citations ec
                                            WHERE ec.brain_uid = ${r}.brain_uid AND ec.record_id = ${r}.id))`;

/**
 * A message's speaker as the SQLite indexer normalises it (trimmed, folded by mnemo_fold), for a records
 * alias; it names nobody unless `spokenSql` holds. Migration 020 indexes this very expression.
 */
export const speakerNormSql = (r: string) =>
  `mnemo_fold(btrim(${r}.content::jsonb ->> 'speaker', E' \\t\\n\\r\\f\\x0b'))`;
/** The Record is a message with a speaker that is not empty (the predicate of migration 020's index). */
export const spokenSql = (r: string) =>
  `${r}.kind = 'message' AND coalesce(${r}.content::jsonb ->> 'speaker', '') <> ''`;

/** A message's speaker as written, for a records alias (null for another kind): see withSpeakerNorm. */
export const speakerCol = (r: string) =>
  `CASE WHEN ${r}.kind = 'message' THEN ${r}.content::jsonb ->> 'speaker' END AS speaker`;

/**
 * A row's speaker as the indexer normalises it (none when empty), folded here rather than by
 * `speakerNormSql`: mnemo_fold costs ~7 µs a call in the database, ~1 ms for a search's 150 hits.
 * The function is the one the SQLite indexer keeps `speaker_norm` by.
 */
export function withSpeakerNorm<T extends { speaker: string | null }>({
  speaker,
  ...row
}: T): Omit<T, 'speaker'> & { speakerNorm: string | null } {
  return { ...row, speakerNorm: speaker ? normName(speaker) : null };
}

/**
 * What the lanes read of a hit, as the SQLite index reads it: the text's first 2,000 characters, a
 * message's speaker (withSpeakerNorm), the time, the kind.
 */
const hitCols = `r.n AS "recordN", r.id AS "recordId", substr(r.text, 1, 2000) AS text,
  ${speakerCol('r')}, r.occurred_ms AS "occurredMs", r.kind`;

type HitRow = Omit<LexicalHit, 'speakerNorm'> & { speaker: string | null };

/**
 * The CTEs that end in `ranked (n, score)`: the Brain's best `cut` turns for the query words $1..$words,
 * in one pass over the matching turns. Each word is a phrase (a word the parser splits, "e-mail", must
 * match as written) and a turn matches if it holds any of them; per matching turn each word's
 * `ts_rank`, then per word the turns holding it (its n), and the score Σ idf(word) × rank. N is the
 * count the Brain's row keeps (migration 011), not a count of its turns per search.
 */
function idfRankingSql(words: number, brain: string, cut: string): string {
  const each = (f: (i: number) => string, sep = ', ') =>
    Array.from({ length: words }, (_, i) => f(i)).join(sep);
  return `WITH q AS MATERIALIZED (
       SELECT ${each((i) => `phraseto_tsquery('english', mnemo_fold($${i + 1})) AS q${i}`)}),
     matched AS MATERIALIZED (
       SELECT t.n, ${each((i) => `CASE WHEN t.tsv @@ q.q${i} THEN ts_rank('${rankWeights}'::float4[], t.tsv, q.q${i}, 1) ELSE 0 END AS r${i}`)}
       FROM turns t, q
       WHERE t.brain_uid = ${brain} AND t.tsv @@ (${each((i) => `q.q${i}`, ' || ')})),
     idf AS MATERIALIZED (
       SELECT ${each((i) => `greatest(ln((c.total - c.n${i} + 0.5)::float8 / (c.n${i} + 0.5)), 1e-6) AS w${i}`)}
       FROM (SELECT (SELECT turn_count FROM brains WHERE uid = ${brain}) AS total,
                    ${each((i) => `count(*) FILTER (WHERE m.r${i} > 0) AS n${i}`)}
             FROM matched m) c),
     ranked AS (
       SELECT m.n, ${each((i) => `idf.w${i} * m.r${i}`, ' + ')} AS score
       FROM matched m, idf
       ORDER BY score DESC, m.n
       LIMIT ${cut})`;
}

/**
 * Full-text search over turns (`turns.tsv`, GIN): a message with its speaker and its thread
 * neighbours' words, weighted as the SQLite lanes' turn_fts columns, so a reply is found through the
 * question it answers; a Record of another kind is its own words.
 *
 * As the SQLite lane does, the best `cut` matches of the Brain are ranked first and the request's
 * conditions applied to those, so a scope that hides most Records costs no more than a plain search.
 */
export function pgLexicalIndex(db: PgQueryable): LexicalIndex {
  return {
    backend: pgLexicalBackend,
    async search({ terms, scope, cut, limit }): Promise<LexicalHit[]> {
      if (terms.length === 0 || limit <= 0 || cut <= 0) return [];
      // A long CJK or Korean word is looked up by its bigrams too, which a compound's words hold
      // (migration 030), as on the local engine.
      const words = [...new Set(terms.flatMap((t) => [t, ...searchBigrams(segmentWords(foldText(t)))]))];
      const p = params(...words, cut, limit);
      const at = words.length + 1;
      const brain = p.bind(scope.brainUid);
      const where = scopeSql(p, scope);
      const rows = await db.query<HitRow>(
        `${idfRankingSql(words.length, brain, `$${at}`)}
         SELECT ${hitCols}, ranked.score
         FROM ranked JOIN records r ON r.brain_uid = ${brain} AND r.n = ranked.n
         WHERE ${where}
         ORDER BY ranked.score DESC, r.n
         LIMIT $${at + 1}`,
        p.values,
      );
      return rows.rows.map(withSpeakerNorm);
    },
    async anyInWindow(scope): Promise<boolean> {
      // The window alone (since, until, as_of and the search's own), as the SQLite lane's probe.
      const conds = ['brain_uid = $1'];
      const params: unknown[] = [scope.brainUid];
      const from = Math.max(scope.fromMs ?? -Infinity, scope.sinceMs ?? -Infinity);
      const untilIncl = Math.min(scope.untilMs ?? Infinity, scope.asOfMs ?? Infinity);
      if (from !== -Infinity) conds.push(`occurred_ms >= $${params.push(from)}`);
      if (scope.toMs !== undefined) conds.push(`occurred_ms < $${params.push(scope.toMs)}`);
      if (untilIncl !== Infinity) conds.push(`occurred_ms <= $${params.push(untilIncl)}`);
      const r = await db.query(`SELECT 1 FROM records WHERE ${conds.join(' AND ')} LIMIT 1`, params);
      return r.rows.length > 0;
    },
    async inWindow(scope, limit, order = 'oldest'): Promise<LexicalHit[]> {
      const p = params(limit);
      const where = scopeSql(p, scope);
      const dir = order === 'newest' ? 'DESC' : 'ASC';
      const rows = await db.query<HitRow>(
        `SELECT ${hitCols}, 0 AS score FROM records r
         WHERE ${where}
         ORDER BY r.occurred_ms ${dir}, r.n ${dir}
         LIMIT $1`,
        p.values,
      );
      return rows.rows.map(withSpeakerNorm);
    },
    async textFrequencies(brainUid, words, cap) {
      // A Record's own words are the turn's weight A (migration 005); the GIN index finds the turns
      // with the word at any weight, ts_filter keeps those with it in the text.
      const rows = await db.query<{ records: number; counts: number[] | null }>(
        `SELECT coalesce((SELECT turn_count FROM brains WHERE uid = $1), 0)::int AS records,
                (SELECT array_agg(c ORDER BY ord) FROM (
                   SELECT w.ord, (SELECT count(*) FROM (
                       SELECT 1 FROM turns t
                       WHERE t.brain_uid = $1 AND t.tsv @@ q.q AND ts_filter(t.tsv, '{a}') @@ q.q
                       LIMIT $3) x)::int AS c
                   FROM unnest($2::text[]) WITH ORDINALITY AS w(word, ord),
                        LATERAL (SELECT phraseto_tsquery('english', mnemo_fold(w.word)) AS q) q) per) AS counts`,
        [brainUid, [...words], cap],
      );
      const row = rows.rows[0]!;
      return { records: row.records, counts: row.counts ?? [] };
    },
    async saysWords(brainUid, words) {
      if (words.length === 0) return [];
      // As textFrequencies counts them, one turn each at most.
      const rows = await db.query<{ says: boolean }>(
        // A word the configuration does not index (a stop word) cannot be told absent: said.
        `SELECT numnode(q.q) = 0 OR EXISTS (SELECT 1 FROM turns t
                        WHERE t.brain_uid = $1 AND t.tsv @@ q.q AND ts_filter(t.tsv, '{a}') @@ q.q) AS says
         FROM unnest($2::text[]) WITH ORDINALITY AS w(word, ord),
              LATERAL (SELECT phraseto_tsquery('english', mnemo_fold(w.word)) AS q) q
         ORDER BY w.ord`,
        [brainUid, [...words]],
      );
      return rows.rows.map((r) => r.says);
    },
    async texts(brainUid, recordIds) {
      if (recordIds.length === 0) return [];
      const rows = await db.query<Omit<HitRow, 'recordN' | 'score'>>(
        `SELECT r.id AS "recordId", substr(r.text, 1, 2000) AS text, r.occurred_ms AS "occurredMs", r.kind,
                ${speakerCol('r')}
         FROM records r WHERE r.brain_uid = $1 AND r.id = ANY ($2::text[])`,
        [brainUid, [...recordIds]],
      );
      return rows.rows.map(withSpeakerNorm);
    },
  };
}
