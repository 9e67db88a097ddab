import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type { RecordRepository, RecordRow, StepRange } from '../../ports/index.ts';
import type { SqlParam, Store } from './store.ts';
import { textKey } from './text-key.ts';

/** What a page of listRecords asks of the store (RecordRepository.list). */
export type RecordListFilter = Parameters<RecordRepository['list']>[0];

/** A RecordRow's columns (text_key is the store's own, for the census's duplicates). */
const recordColumns = `r.n, r.id, r.brain_uid, r.seq, r.kind, r.content, r.text, r.source_name, r.external_id,
  r.trust, r.visibility, r.occurred_at, r.occurred_ms, r.created_at`;

/** One page of listRecords (limit + 1 rows, to tell whether more follow), newest id first. */
export function recordPageSql(brainUid: string, q: RecordListFilter): { sql: string; params: SqlParam[] } {
  const conds = ['r.brain_uid = ?'];
  const params: SqlParam[] = [brainUid];
  const add = (cond: string, ...p: SqlParam[]) => {
    conds.push(cond);
    params.push(...p);
  };
  if (q.hideLocalOnly) add("r.visibility <> 'local_only'");
  if (q.kind) add('r.kind = ?', q.kind);
  if (q.sourceName) add('r.source_name = ?', q.sourceName);
  if (q.hasSource !== undefined) add(`r.source_name IS ${q.hasSource ? 'NOT ' : ''}NULL`);
  if (q.visibility) add('r.visibility = ?', q.visibility);
  if (q.status === 'processing')
    add("EXISTS (SELECT 1 FROM derive_queue d WHERE d.record_id = r.id AND d.job = 'derive')");
  if (q.status === 'ready')
    add("NOT EXISTS (SELECT 1 FROM derive_queue d WHERE d.record_id = r.id AND d.job = 'derive')");
  if (q.sinceMs !== undefined) add('r.occurred_ms >= ?', q.sinceMs);
  if (q.untilMs !== undefined) add('r.occurred_ms <= ?', q.untilMs);
  // Every word, folded as searchWords folds them (mnemo_has_words), in what the Records list shows of
  // a Record: its text, a message's speaker, a document's title. A read of the Brain's Records in the
  // page's order until the page is full.
  if (q.words !== undefined && q.words.length > 0)
    add(
      `mnemo_has_words(r.text, ?, json_extract(r.content, '$.speaker'), json_extract(r.content, '$.title')) = 1`,
      q.words.join('\u0000'),
    );
  if (q.ids !== undefined) add('r.id IN (SELECT value FROM json_each(?))', JSON.stringify(q.ids));
  if (q.cursor) add('r.id < ?', decodeCursor(q.cursor));
  return {
    sql: `SELECT ${recordColumns} FROM records r WHERE ${conds.join(' AND ')} ORDER BY r.id DESC LIMIT ?`,
    params: [...params, q.limit + 1],
  };
}

/**
 * A Record written from a sync remote's feed (sync_records.from_remote, migration 042): no item of this
 * device's own imports, whatever source it names (docs/sync.md, "Trust of a pulled Record").
 */
const notPulled = `NOT EXISTS (SELECT 1 FROM sync_records s
  WHERE s.brain_uid = records.brain_uid AND s.record_id = records.id AND s.from_remote = 1)`;

/**
 * Per source.name of a Brain's Records: its counts and the span of occurred_at, by name. A hosted
 * reader is not shown local_only Records, so they are not counted for it either. Records pulled from a
 * sync remote are the remote's, counted under no source of this device.
 */
export const sourceListSql = (hideLocalOnly: boolean) =>
  `SELECT source_name AS name, count(*) AS records, count(external_id) AS reconciled,
          min(occurred_ms) AS first_ms, max(occurred_ms) AS last_ms
   FROM records WHERE brain_uid = ? AND source_name IS NOT NULL ${hideLocalOnly ? "AND visibility <> 'local_only'" : ''}
     AND ${notPulled}
   GROUP BY source_name ORDER BY source_name`;

/** The Records with no source.name: a scan of the Brain's Records, as sourceListSql's of the named. */
const withoutSourceSql = (hideLocalOnly: boolean) =>
  `SELECT count(*) AS records, min(occurred_ms) AS first_ms, max(occurred_ms) AS last_ms
   FROM records WHERE brain_uid = ? AND source_name IS NULL ${hideLocalOnly ? "AND visibility <> 'local_only'" : ''}`;

/**
 * Per source.name, how many external ids its Records carry, each once however many revisions of it
 * were written: a read of `records_external` in its order. In sourceListSql, the distinct count
 * sorted every Record of the Brain in a temporary B-tree.
 */
export const sourceItemsSql = (hideLocalOnly: boolean) =>
  `SELECT source_name AS name, count(DISTINCT external_id) AS distinct_external
   FROM records INDEXED BY records_external
   WHERE brain_uid = ? AND external_id IS NOT NULL ${hideLocalOnly ? "AND visibility <> 'local_only'" : ''}
     AND ${notPulled}
   GROUP BY source_name`;

/**
 * One Brain's Records over SQLite (records; `n` is the rowid). A Record is processing while its
 * `derive` job is in derive_queue; its citations, derivation jobs and index rows go with it by
 * foreign key and trigger.
 */
export function sqliteRecords(store: Store, brainUid: string): RecordRepository {
  return {
    async insert(row) {
      store.run(
        `INSERT INTO records (id, brain_uid, seq, kind, content, text, text_key, source_name, external_id, trust,
             visibility, occurred_at, occurred_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.id,
        brainUid,
        row.seq,
        row.kind,
        row.content,
        row.text,
        textKey(row.text),
        row.source_name,
        row.external_id,
        row.trust,
        row.visibility,
        row.occurred_at,
        row.occurred_ms,
        row.created_at,
      );
      return { ...row, brain_uid: brainUid };
    },
    get: async (id) =>
      store.get<RecordRow>(
        `SELECT ${recordColumns} FROM records r WHERE id = ? AND brain_uid = ?`,
        id,
        brainUid,
      ) ?? null,
    getMany: async (ids) =>
      ids.length === 0
        ? []
        : store.all<RecordRow>(
            `SELECT ${recordColumns} FROM records r
             WHERE id IN (SELECT value FROM json_each(?)) AND brain_uid = ?`,
            JSON.stringify(ids),
            brainUid,
          ),
    // A read here is a statement on the engine's own connection, as cheap one at a time as together.
    prefetch: async () => [],
    // The Brain's messages in the time span first (records_brain_occurred), then their thread.
    threadBefore: async (thread, at, opts) =>
      store.all<RecordRow>(
        `SELECT ${recordColumns} FROM records r
         WHERE r.brain_uid = ? AND r.occurred_ms BETWEEN ? AND ? AND r.kind = 'message'
           AND json_extract(r.content, '$.thread') = ? AND (r.occurred_ms < ? OR r.n < ?)
         ORDER BY r.occurred_ms DESC, r.n DESC LIMIT ?`,
        brainUid,
        opts.sinceMs,
        at.occurred_ms,
        thread,
        at.occurred_ms,
        at.n,
        opts.limit,
      ),
    states: async (ids) =>
      ids.map((id) => {
        if (store.get("SELECT 1 FROM derive_queue WHERE record_id = ? AND job = 'derive'", id))
          return { processing: true, memoryIds: [] };
        const memoryIds = store
          .all<{ memory_id: string }>(
            'SELECT memory_id FROM citations WHERE record_id = ? ORDER BY memory_id',
            id,
          )
          .map((m) => m.memory_id);
        return { processing: false, memoryIds };
      }),
    async remove(ids) {
      for (const id of ids) store.run('DELETE FROM records WHERE id = ? AND brain_uid = ?', id, brainUid);
    },
    async correctionsNaming(recordIds) {
      if (recordIds.length === 0) return [];
      return store.all<{ id: string; content: string }>(
        `SELECT DISTINCT r.id, r.content FROM records r, json_each(r.content, '$.target.records') t
         WHERE r.brain_uid = ? AND r.kind = 'correction' AND t.value IN (SELECT value FROM json_each(?))
         ORDER BY r.id`,
        brainUid,
        JSON.stringify(recordIds),
      );
    },
    async replaceCorrectionContent(id, content) {
      store.run(
        "UPDATE records SET content = ? WHERE id = ? AND brain_uid = ? AND kind = 'correction'",
        content,
        id,
        brainUid,
      );
    },
    async list(q) {
      const { sql, params } = recordPageSql(brainUid, q);
      const rows = store.all<RecordRow>(sql, ...params);
      const page = rows.slice(0, q.limit);
      return {
        rows: page,
        next: rows.length > q.limit ? encodeCursor(page[page.length - 1]!.id) : null,
      };
    },
    sources: async (opts) => {
      const distinct = new Map(
        store
          .all<{ name: string; distinct_external: number }>(sourceItemsSql(opts.hideLocalOnly), brainUid)
          .map((r) => [r.name, r.distinct_external]),
      );
      return (
        store
          .all<{ name: string; records: number; reconciled: number; first_ms: number; last_ms: number }>(
            sourceListSql(opts.hideLocalOnly),
            brainUid,
          )
          // An item is an external id once, or a Record with none.
          .map((r) => ({ ...r, items: (distinct.get(r.name) ?? 0) + r.records - r.reconciled }))
      );
    },
    withoutSource: async (opts) => {
      const row = store.get<{ records: number; first_ms: number; last_ms: number }>(
        withoutSourceSql(opts.hideLocalOnly),
        brainUid,
      );
      return row && row.records > 0 ? row : null;
    },
    idsOfSource: async (sourceName) =>
      store
        .all<{ id: string }>(
          'SELECT id FROM records WHERE brain_uid = ? AND source_name = ? ORDER BY n',
          brainUid,
          sourceName,
        )
        .map((r) => r.id),
    idsOfSourceItems: async (sourceName, externalIds) => {
      const out: string[] = [];
      // SQLite binds at most 32,766 parameters; a forget names at most 1,000 ids.
      for (let i = 0; i < externalIds.length; i += 500) {
        const chunk = externalIds.slice(i, i + 500);
        for (const r of store.all<{ id: string }>(
          `SELECT id FROM records WHERE brain_uid = ? AND source_name = ?
             AND external_id IN (${chunk.map(() => '?').join(', ')}) ORDER BY n`,
          brainUid,
          sourceName,
          ...chunk,
        ))
          out.push(r.id);
      }
      return out;
    },
    // The records_external index holds every column read.
    externalIdsOfSource: async (sourceName, opts) =>
      store
        .all<{ external_id: string }>(
          `SELECT DISTINCT external_id FROM records
           WHERE brain_uid = ? AND source_name = ? AND external_id IS NOT NULL
             ${opts.hideLocalOnly ? "AND visibility <> 'local_only'" : ''}`,
          brainUid,
          sourceName,
        )
        .map((r) => r.external_id),
    changes: async (q) => {
      const { sql, params } = recordChangesSql(brainUid, q);
      return store.all<RecordRow>(sql, ...params);
    },
    forgotten: async (ids) =>
      store
        .all<{ id: string }>(
          `SELECT record_id AS id FROM record_tombstones
           WHERE brain_uid = ? AND record_id IN (SELECT value FROM json_each(?))`,
          brainUid,
          JSON.stringify(ids),
        )
        .map((r) => r.id),
    async tombstone(ids, seq, at) {
      store.run(
        `INSERT OR IGNORE INTO record_tombstones (brain_uid, record_id, seq, forgotten_at)
         SELECT ?, value, ?, ? FROM json_each(?)`,
        brainUid,
        seq,
        at,
        JSON.stringify(ids),
      );
    },
    idsHeldElsewhere: async (ids) =>
      store
        .all<{ id: string }>(
          'SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?)) AND brain_uid <> ?',
          JSON.stringify(ids),
          brainUid,
        )
        .map((r) => r.id),
    removals: async (q) => {
      const { sql, params } = stepRangeSql(q, 't.seq', 't.record_id');
      return store.all<{ id: string; seq: number; forgotten_at: string }>(
        `SELECT t.record_id AS id, t.seq, t.forgotten_at FROM record_tombstones t
         WHERE t.brain_uid = ? ${sql} ORDER BY t.seq, t.record_id ${q.limit !== undefined ? 'LIMIT ?' : ''}`,
        brainUid,
        ...params,
      );
    },
  };
}

/** The Records' changes feed: a range of records_brain_seq (migration 045), in its order. */
export function recordChangesSql(
  brainUid: string,
  q: Parameters<RecordRepository['changes']>[0],
): { sql: string; params: SqlParam[] } {
  const range = stepRangeSql(q, 'r.seq', 'r.id');
  return {
    sql: `SELECT ${recordColumns} FROM records r
      WHERE r.brain_uid = ? ${range.sql} ${q.hideLocalOnly ? "AND r.visibility <> 'local_only'" : ''}
      ORDER BY r.seq, r.id ${q.limit !== undefined ? 'LIMIT ?' : ''}`,
    params: [brainUid, ...range.params],
  };
}

/**
 * A feed's conditions on its step and id columns (AND-ed after the Brain's), and the LIMIT's value
 * last. Ids compare bytewise (BINARY), as the feed orders them.
 */
function stepRangeSql(q: StepRange, column: string, idColumn: string): { sql: string; params: SqlParam[] } {
  const params: SqlParam[] = [q.afterSeq];
  let sql = `AND ${column} > ?`;
  if (q.afterId !== undefined) {
    sql = `AND (${column}, ${idColumn}) > (?, ?)`;
    params.push(q.afterId);
  }
  if (q.limit !== undefined) params.push(q.limit);
  return { sql, params };
}
