import { compoundWordsOf } from './compound-words.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type { RecordRepository, RecordRow, StepRange } from '../../ports/index.ts';
import type { UnitTx } from './batch-tx.ts';
import type { PgQueryable } from './client.ts';
import { params, type Params } from './memory-view.ts';

/** JSON's escape of U+0000 (a backslash, then `u0000`) where that backslash is not itself escaped. */
const escapedNul = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/** A write's way to queue an insert, and the Records it read ahead (BatchTx). */
export type Deferring = Pick<UnitTx, 'defer' | 'queued' | 'readAround' | 'recordsAhead'>;

const columns = `r.n, r.id, r.brain_uid, r.seq, r.kind, r.content, r.text, r.source_name, r.external_id, r.trust,
  r.visibility, r.occurred_at, r.occurred_ms, r.created_at`;

/** The Brain's Records of the ids in $2 (a text array). */
const byIds = `SELECT ${columns} FROM records r WHERE r.brain_uid = $1 AND r.id = ANY($2::text[])`;

/** A Record is processing exactly while its `derive` job is queued (as SQLite's derive_queue). */
const queued = `EXISTS (SELECT 1 FROM derive_jobs d
  WHERE d.brain_uid = r.brain_uid AND d.record_id = r.id AND d.job = 'derive')`;

/**
 * One Brain's Records over PostgreSQL, as the SQLite adapter's: pages newest id first with the same
 * cursors, ids and names compared bytewise (COLLATE "C", SQLite's BINARY) whatever the database's
 * collation. Removing a Record takes its citations, jobs, failures and Idempotency-Keys by foreign
 * key, leaves its tombstone by trigger (migration 001), and drops its embeddings here: that table has
 * no foreign key to the Record (it keys owners of two kinds by `n`). In a write, an insert is queued
 * (`deferred`, BatchTx) and written with the others of its transaction.
 */
export function pgRecords(q: PgQueryable, brainUid: string, deferred?: Deferring): RecordRepository {
  return {
    async insert(row) {
      // PostgreSQL's text and jsonb hold no U+0000: refused here, the write alone fails, not its batch.
      if (
        [row.text, row.source_name, row.external_id].some((v) => v?.includes('\u0000')) ||
        escapedNul.test(row.content)
      )
        throw new MnemoError('invalid_request_body', 'content: this server stores no U+0000 (NUL) character');
      const values = [
        brainUid,
        row.id,
        row.seq,
        row.kind,
        row.content,
        row.text,
        row.source_name,
        row.external_id,
        row.trust,
        row.visibility,
        row.occurred_at,
        row.occurred_ms,
        row.created_at,
        compoundWordsOf(row.text),
      ];
      if (deferred) {
        deferred.defer('records', values);
        return { ...row, brain_uid: brainUid };
      }
      await q.query(
        `INSERT INTO records (brain_uid, id, seq, kind, content, text, source_name, external_id, trust,
             visibility, occurred_at, occurred_ms, created_at, words)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        values,
      );
      return { ...row, brain_uid: brainUid };
    },
    get: async (id) =>
      deferred?.recordsAhead.get(id) ??
      (
        await q.query<RecordRow>(`SELECT ${columns} FROM records r WHERE r.brain_uid = $1 AND r.id = $2`, [
          brainUid,
          id,
        ])
      ).rows[0] ??
      null,
    getMany: async (ids) => (await q.query<RecordRow>(byIds, [brainUid, ids])).rows,
    async prefetch(ids) {
      // Outside a write there is no transaction to hold them for. The Records asked for were committed
      // before this transaction began (a claimed job's), so none of its queued rows is among them and
      // the read needs no savepoint.
      if (!deferred || ids.length === 0) return [];
      const rows = (await deferred.readAround<RecordRow>(byIds, [brainUid, ids])).rows;
      for (const row of rows) deferred.recordsAhead.set(row.id, row);
      return rows;
    },
    // The thread's index (migration 002) serves it.
    threadBefore: async (thread, at, opts) =>
      (
        await q.query<RecordRow>(
          `SELECT ${columns} FROM records r
           WHERE r.brain_uid = $1 AND r.kind = 'message' AND (r.content::jsonb ->> 'thread') = $2
             AND (r.occurred_ms, r.n) < ($3, $4) AND r.occurred_ms >= $5
           ORDER BY r.occurred_ms DESC, r.n DESC LIMIT $6`,
          [brainUid, thread, at.occurred_ms, at.n, opts.sinceMs, opts.limit],
        )
      ).rows,
    async states(ids) {
      if (ids.length === 0) return [];
      const r = await q.query<{ processing: boolean; memory_ids: string[] }>(
        `SELECT EXISTS (SELECT 1 FROM derive_jobs d
                        WHERE d.brain_uid = $1 AND d.record_id = i.id AND d.job = 'derive') AS processing,
                ARRAY(SELECT c.memory_id FROM citations c WHERE c.brain_uid = $1 AND c.record_id = i.id
                      ORDER BY c.memory_id COLLATE "C") AS memory_ids
         FROM unnest($2::text[]) WITH ORDINALITY AS i(id, k) ORDER BY i.k`,
        [brainUid, ids],
      );
      return r.rows.map((s) => ({ processing: s.processing, memoryIds: s.processing ? [] : s.memory_ids }));
    },
    async list(query) {
      const conds = ['r.brain_uid = $1'];
      const params: unknown[] = [brainUid];
      const add = (cond: (p: string) => string, value: unknown) => {
        params.push(value);
        conds.push(cond(`$${params.length}`));
      };
      if (query.hideLocalOnly) conds.push("r.visibility <> 'local_only'");
      if (query.kind) add((p) => `r.kind = ${p}`, query.kind);
      if (query.sourceName) add((p) => `r.source_name = ${p}`, query.sourceName);
      if (query.hasSource !== undefined) conds.push(`r.source_name IS ${query.hasSource ? 'NOT ' : ''}NULL`);
      if (query.visibility) add((p) => `r.visibility = ${p}`, query.visibility);
      if (query.status === 'processing') conds.push(queued);
      if (query.status === 'ready') conds.push(`NOT ${queued}`);
      if (query.sinceMs !== undefined) add((p) => `r.occurred_ms >= ${p}`, query.sinceMs);
      if (query.untilMs !== undefined) add((p) => `r.occurred_ms <= ${p}`, query.untilMs);
      // Every word folded as foldText folds it (mnemo_fold), in the text, a message's speaker or a
      // document's title, as the SQLite adapter's; a word holds no line end.
      if (query.words !== undefined && query.words.length > 0)
        add(
          (p) => `NOT EXISTS (SELECT 1 FROM unnest(${p}::text[]) AS w(word)
                   WHERE strpos(mnemo_fold(r.text || chr(10) || coalesce(r.content::jsonb ->> 'speaker', '')
                                           || chr(10) || coalesce(r.content::jsonb ->> 'title', '')), w.word) = 0)`,
          query.words,
        );
      if (query.ids !== undefined) add((p) => `r.id = ANY(${p}::text[])`, query.ids);
      if (query.cursor) add((p) => `r.id COLLATE "C" < ${p}`, decodeCursor(query.cursor));
      params.push(query.limit + 1);
      const rows = (
        await q.query<RecordRow>(
          `SELECT ${columns} FROM records r WHERE ${conds.join(' AND ')}
           ORDER BY r.id COLLATE "C" DESC LIMIT $${params.length}`,
          params,
        )
      ).rows;
      const page = rows.slice(0, query.limit);
      return { rows: page, next: rows.length > query.limit ? encodeCursor(page.at(-1)!.id) : null };
    },
    sources: async (opts) =>
      (
        await q.query<{
          name: string;
          records: number;
          reconciled: number;
          items: number;
          first_ms: number;
          last_ms: number;
        }>(
          `SELECT source_name AS name, count(*) AS records, count(external_id) AS reconciled,
                  count(DISTINCT external_id) + count(*) - count(external_id) AS items,
                  min(occurred_ms) AS first_ms, max(occurred_ms) AS last_ms
           FROM records WHERE brain_uid = $1 AND source_name IS NOT NULL
             ${opts.hideLocalOnly ? "AND visibility <> 'local_only'" : ''}
           GROUP BY source_name ORDER BY source_name COLLATE "C"`,
          [brainUid],
        )
      ).rows,
    withoutSource: async (opts) => {
      const [row] = (
        await q.query<{ records: number; first_ms: number; last_ms: number }>(
          `SELECT count(*) AS records, min(occurred_ms) AS first_ms, max(occurred_ms) AS last_ms
           FROM records WHERE brain_uid = $1 AND source_name IS NULL
             ${opts.hideLocalOnly ? "AND visibility <> 'local_only'" : ''}`,
          [brainUid],
        )
      ).rows;
      return row && Number(row.records) > 0
        ? { records: Number(row.records), first_ms: Number(row.first_ms), last_ms: Number(row.last_ms) }
        : null;
    },
    idsOfSource: async (sourceName) =>
      (
        await q.query<{ id: string }>(
          'SELECT id FROM records WHERE brain_uid = $1 AND source_name = $2 ORDER BY n',
          [brainUid, sourceName],
        )
      ).rows.map((r) => r.id),
    idsOfSourceItems: async (sourceName, externalIds) =>
      (
        await q.query<{ id: string }>(
          'SELECT id FROM records WHERE brain_uid = $1 AND source_name = $2 AND external_id = ANY($3::text[]) ORDER BY n',
          [brainUid, sourceName, [...externalIds]],
        )
      ).rows.map((r) => r.id),
    // The records_external index holds every column read (but visibility, for a hosted reader).
    externalIdsOfSource: async (sourceName, opts) =>
      (
        await q.query<{ external_id: string }>(
          `SELECT DISTINCT external_id FROM records
           WHERE brain_uid = $1 AND source_name = $2 AND external_id IS NOT NULL
             ${opts.hideLocalOnly ? "AND visibility <> 'local_only'" : ''}`,
          [brainUid, sourceName],
        )
      ).rows.map((r) => r.external_id),
    correctionsNaming: async (recordIds) =>
      recordIds.length === 0
        ? []
        : (
            await q.query<{ id: string; content: string }>(
              `SELECT id, content FROM records WHERE brain_uid = $1 AND kind = 'correction'
                 AND (content::jsonb -> 'target' -> 'records') ?| $2::text[] ORDER BY id`,
              [brainUid, [...recordIds]],
            )
          ).rows,
    async replaceCorrectionContent(id, content) {
      deferred?.recordsAhead.delete(id);
      await q.query(
        "UPDATE records SET content = $3 WHERE brain_uid = $1 AND id = $2 AND kind = 'correction'",
        [brainUid, id, content],
      );
    },
    async remove(ids) {
      if (ids.length === 0) return;
      const gone = await q.query<{ n: number }>(
        'DELETE FROM records WHERE brain_uid = $1 AND id = ANY($2::text[]) RETURNING n',
        [brainUid, ids],
      );
      if (gone.rows.length === 0) return;
      // The embeddings table exists only where pgvector could be installed (migrate.ts).
      const table = await q.query<{ t: string | null }>("SELECT to_regclass('embeddings')::text AS t");
      if (table.rows[0]?.t)
        await q.query(
          "DELETE FROM embeddings WHERE brain_uid = $1 AND owner = 'record' AND owner_n = ANY($2::bigint[])",
          [brainUid, gone.rows.map((r) => r.n)],
        );
    },
    async changes(range) {
      const p = params(brainUid);
      const { steps, limit } = stepRangeSql(p, range, 'r.seq', 'r.id');
      return (
        await q.query<RecordRow>(
          `SELECT ${columns} FROM records r WHERE r.brain_uid = $1 AND ${steps}
             ${range.hideLocalOnly ? "AND r.visibility <> 'local_only'" : ''}
           ORDER BY r.seq, r.id COLLATE "C" ${limit}`,
          p.values,
        )
      ).rows;
    },
    forgotten: async (ids) =>
      (
        await q.query<{ id: string }>(
          'SELECT record_id AS id FROM record_tombstones WHERE brain_uid = $1 AND record_id = ANY($2::text[])',
          [brainUid, ids],
        )
      ).rows.map((r) => r.id),
    async tombstone(ids, seq, at) {
      await q.query(
        `INSERT INTO record_tombstones (brain_uid, record_id, seq, forgotten_at)
         SELECT $1, id, $2, $3 FROM unnest($4::text[]) AS id ON CONFLICT DO NOTHING`,
        [brainUid, seq, at, ids],
      );
    },
    // Ids are unique per Brain here (UNIQUE (brain_uid, id)): another Brain's ids are no bar.
    idsHeldElsewhere: async () => [],
    async removals(range) {
      const p = params(brainUid);
      const { steps, limit } = stepRangeSql(p, range, 't.seq', 't.record_id');
      return (
        await q.query<{ id: string; seq: number; forgotten_at: string }>(
          `SELECT t.record_id AS id, t.seq, t.forgotten_at FROM record_tombstones t
           WHERE t.brain_uid = $1 AND ${steps} ORDER BY t.seq, t.record_id COLLATE "C" ${limit}`,
          p.values,
        )
      ).rows;
    },
  };
}

/**
 * A feed's step range on `column` (and `idColumn` within a step) and its LIMIT clause, their values
 * bound to `p`. The id columns are COLLATE "C" (migration 003): bytewise, as the feed orders them.
 */
function stepRangeSql(
  p: Params,
  range: StepRange,
  column: string,
  idColumn: string,
): { steps: string; limit: string } {
  const steps =
    range.afterId === undefined
      ? `${column} > ${p.bind(range.afterSeq)}`
      : `(${column}, ${idColumn}) > (${p.bind(range.afterSeq)}, ${p.bind(range.afterId)})`;
  return { steps, limit: range.limit !== undefined ? `LIMIT ${p.bind(range.limit)}` : '' };
}
