import type {
  ChangedVersion,
  ChangeEvent,
  CitingVersion,
  ContextReads,
  ContextReadTime,
  EvidenceRecord,
  SlotValue,
} from '../../ports/index.ts';
import { bareCorrectionSql, eligibilitySql } from './eligibility-sql.ts';
import { versionColumns, versionOf, type SqlVersion } from './memory-repository.ts';
import { scheduledSql, servedSql } from './memory-view.ts';
import type { SqlParam, Store } from './store.ts';

/**
 * The query of `successors`. The joins are CROSS JOINs so SQLite keeps their order, from the few
 * dropped Memories outwards: with no table statistics its planner began at the Brain's Records and read
 * every one of them (130-210 ms at 100,000) for each dropped Record.
 */
export function successorSql(
  gone: readonly string[],
  at: ContextReadTime,
  limit: number,
): { sql: string; params: SqlParam[] } {
  const current = servedSql(at.readMs, at.nowMs, 'cur');
  const eligible = eligibilitySql(at.scope, 'sr');
  return {
    sql: `SELECT sr.id AS record_id FROM memories old
         CROSS JOIN memories cur ON cur.lineage = old.lineage AND cur.id <> old.id
         CROSS JOIN citations sc ON sc.memory_id = cur.id
         CROSS JOIN records sr ON sr.id = sc.record_id
       WHERE old.id IN (SELECT value FROM json_each(?)) AND ${current.sql} AND ${eligible.sql}
       GROUP BY sr.id ORDER BY max(sr.occurred_ms) DESC, sr.id LIMIT ?`,
    params: [JSON.stringify(gone), ...current.params, ...eligible.params, limit],
  };
}

/**
 * For each of the Records (json ids, the last parameter), the newest revision of the same item (source
 * name and external_id, written after it) that the request may see, or null.
 */
function newerRevisionSql(scope: ContextReadTime['scope']): { sql: string; params: SqlParam[] } {
  const eligible = eligibilitySql(scope, 'nr');
  return {
    sql: `SELECT r.id, (SELECT nr.id FROM records nr INDEXED BY records_external
                         WHERE nr.brain_uid = r.brain_uid AND nr.source_name IS r.source_name
                           AND nr.external_id = r.external_id AND nr.n > r.n AND ${eligible.sql}
                         ORDER BY nr.n DESC LIMIT 1) AS newer
            FROM records r WHERE r.id IN (SELECT value FROM json_each(?)) AND r.external_id IS NOT NULL`,
    params: eligible.params,
  };
}

/**
 * Each changed lineage's versions by the unique (lineage, version) index (`+`: the planner, with no
 * statistics, took the Brain's index and read all its Memories), each with its earliest Record the
 * request may quote, by its citations' key.
 */
export function changedVersionsSql(
  scope: ContextReadTime['scope'],
  memoryIds: readonly string[],
  brainUid: string,
): { sql: string; params: SqlParam[] } {
  const el = eligibilitySql(scope, 'r');
  return {
    sql: `SELECT m.id, m.lineage, m.slot, m.version, m.statement, m.norm, m.subject, m.predicate, m.status,
        m.pending, m.corrects, m.cause,
        (SELECT r.id FROM citations c CROSS JOIN records r ON r.id = c.record_id
         WHERE c.memory_id = m.id AND ${el.sql} ORDER BY r.occurred_ms, r.n LIMIT 1) AS record_id
      FROM memories m
      WHERE m.lineage IN (SELECT t.lineage FROM json_each(?) j CROSS JOIN memories t ON t.id = j.value)
        AND +m.brain_uid = ?
      ORDER BY m.lineage, m.version`,
    params: [...el.params, JSON.stringify(memoryIds), brainUid],
  };
}

/**
 * The query of `changes`: from the span's Records (the time index, INDEXED BY: with no statistics the
 * planner may begin at the Brain's Memories) to their citations and the versions they name, and to the
 * versions they withdrew (memories_retracted_by). A version counts where the Record is the first to
 * support it (by occurred_at, then write order): a value said again in the span changed nothing then.
 */
export function changesSql(
  span: { fromMs: number; toMs: number },
  at: ContextReadTime,
  limit: number,
): { sql: string; params: SqlParam[] } {
  const seen = eligibilitySql(at.scope, 'r', { bare: true });
  return {
    sql: `WITH span AS (
         SELECT r.id, r.n, r.occurred_ms, r.occurred_at, NOT ${bareCorrectionSql('r')} AS evidence
         FROM records r INDEXED BY records_brain_occurred
         WHERE ${seen.sql} AND r.occurred_ms >= ? AND r.occurred_ms < ?),
       made AS (
         SELECT s.id AS record_id, s.occurred_at, s.occurred_ms, 'version' AS how, m.id AS memory_id,
                1 AS evidence, m.version > 1 AS next
         FROM span s CROSS JOIN citations c ON c.record_id = s.id CROSS JOIN memories m ON m.id = c.memory_id
         WHERE m.pending = 0 AND m.status <> 'retracted' AND (m.version > 1 OR m.slot IS NOT NULL)
           AND NOT EXISTS (SELECT 1 FROM citations e CROSS JOIN records er ON er.id = e.record_id
                           WHERE e.memory_id = m.id AND e.record_id <> s.id
                             AND (er.occurred_ms < s.occurred_ms OR (er.occurred_ms = s.occurred_ms AND er.n < s.n)))
         UNION ALL
         SELECT s.id, s.occurred_at, s.occurred_ms, 'retracted', m.id, s.evidence, 1
         FROM span s CROSS JOIN memories m ON m.retracted_by = s.id
         WHERE m.pending = 0)
       SELECT record_id, occurred_at, occurred_ms, how, memory_id, evidence FROM made
       ORDER BY next DESC, occurred_ms DESC, record_id DESC LIMIT ?`,
    params: [...seen.params, span.fromMs, span.toMs, limit],
  };
}

type Flag = 0 | 1 | null;

/** A Context's reads of one Brain over SQLite (ports/context-reads.ts). */
export function sqliteContextReads(store: Store, brainUid: string): ContextReads {
  return {
    async evidence(recordIds, at) {
      const json = JSON.stringify(recordIds);
      const records = store.all<EvidenceRecord>(
        `SELECT id, kind, content, text, source_name, occurred_at, visibility FROM records
         WHERE id IN (SELECT value FROM json_each(?)) AND brain_uid = ?`,
        json,
        brainUid,
      );
      const revision = newerRevisionSql(at.scope);
      const newer = store
        .all<{ id: string; newer: string | null }>(revision.sql, ...revision.params, json)
        .flatMap((r) => (r.newer !== null ? [{ id: r.id, newer: r.newer }] : []));
      const served = servedSql(at.readMs, at.nowMs);
      // Scheduled (memory-view.ts, "Time"): a Record dropped for it must not be called superseded.
      const later = scheduledSql(at.readMs ?? at.nowMs);
      // citations_record holds (record_id, memory_id): each Record's versions come by Memory id. The
      // Brain's condition uses no index (unary +): on memories_brain_id the planner began at the
      // Brain's every Memory.
      const citing = store
        .all<{
          record_id: string;
          id: string;
          quote: string;
          statement: string;
          subject: string;
          predicate: string | null;
          served: Flag;
          pending: Flag;
          retracted: Flag;
          later: Flag;
          valid_from_ms: number;
          valid_to_ms: number | null;
        }>(
          `SELECT c.record_id, c.quote, m.statement, m.subject, m.predicate, m.id, (${served.sql}) AS served, m.pending,
             m.status = 'retracted' AS retracted, ${later.sql} AS later, m.valid_from_ms, m.valid_to_ms
           FROM citations c JOIN memories m ON m.id = c.memory_id
           WHERE c.record_id IN (SELECT value FROM json_each(?)) AND +m.brain_uid = ?`,
          ...served.params,
          ...later.params,
          json,
          brainUid,
        )
        .map((m): CitingVersion => ({
          recordId: m.record_id,
          memoryId: m.id,
          quote: m.quote,
          statement: m.statement,
          subject: m.subject,
          predicate: m.predicate,
          served: m.served === 1,
          pending: m.pending === 1,
          retracted: m.retracted === 1,
          later: m.later === 1,
          validFromMs: m.valid_from_ms,
          validToMs: m.valid_to_ms,
        }));
      return { records, newer, citing };
    },
    async successors(memoryIds, at, limit) {
      if (memoryIds.length === 0) return [];
      const q = successorSql(memoryIds, at, limit);
      return store.all<{ record_id: string }>(q.sql, ...q.params).map((r) => r.record_id);
    },
    async slotValues(memoryIds, at) {
      if (memoryIds.length === 0) return [];
      const served = servedSql(at.readMs, at.nowMs);
      // From the few Memories named outwards (CROSS JOIN keeps the order).
      return store.all<SlotValue>(
        `WITH touched AS (
           SELECT t.lineage, min(t.id) AS first FROM json_each(?) j
             CROSS JOIN memories t ON t.id = j.value
           WHERE t.slot IS NOT NULL AND t.brain_uid = ? GROUP BY t.lineage)
         SELECT m.id, m.lineage, m.statement, m.subject, m.predicate, m.valid_from
         FROM touched CROSS JOIN memories m ON m.lineage = touched.lineage
         WHERE ${served.sql} ORDER BY touched.first, m.n`,
        JSON.stringify(memoryIds),
        brainUid,
        ...served.params,
      );
    },
    async served(memoryIds, at) {
      if (memoryIds.length === 0) return [];
      const served = servedSql(at.readMs, at.nowMs);
      return store
        .all<SqlVersion>(
          `SELECT ${versionColumns} FROM memories m
           WHERE m.id IN (SELECT value FROM json_each(?)) AND m.brain_uid = ? AND ${served.sql}
           ORDER BY m.id`,
          JSON.stringify(memoryIds),
          brainUid,
          ...served.params,
        )
        .map(versionOf);
    },
    async changes(span, at, limit) {
      const q = changesSql(span, at, limit);
      const events = store
        .all<
          Omit<ChangeEvent, 'evidence' | 'recordId' | 'memoryId' | 'occurredAt' | 'occurredMs'> & {
            record_id: string;
            memory_id: string;
            occurred_at: string;
            occurred_ms: number;
            evidence: Flag;
          }
        >(q.sql, ...q.params)
        .map((e): ChangeEvent => ({
          recordId: e.record_id,
          occurredAt: e.occurred_at,
          occurredMs: e.occurred_ms,
          how: e.how,
          memoryId: e.memory_id,
          evidence: e.evidence === 1,
        }));
      if (events.length === 0) return { events, versions: [] };
      const vq = changedVersionsSql(at.scope, [...new Set(events.map((e) => e.memoryId))], brainUid);
      const versions = store
        .all<Omit<ChangedVersion, 'pending' | 'recordId'> & { pending: Flag; record_id: string | null }>(
          vq.sql,
          ...vq.params,
        )
        .map(({ record_id, pending, ...v }): ChangedVersion => ({
          ...v,
          pending: pending === 1,
          recordId: record_id,
        }));
      return { events, versions };
    },
    async visible(recordIds, scope) {
      if (recordIds.length === 0) return [];
      const el = eligibilitySql(scope);
      return store
        .all<{ id: string }>(
          `SELECT r.id FROM records r WHERE r.id IN (SELECT value FROM json_each(?)) AND ${el.sql}`,
          JSON.stringify(recordIds),
          ...el.params,
        )
        .map((r) => r.id);
    },
  };
}
