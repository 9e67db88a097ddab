import type {
  ChangedVersion,
  ChangeEvent,
  CitingVersion,
  ContextReads,
  EvidenceRecord,
  MemoryVersionRow,
  SlotValue,
} from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { bareCorrectionSql, scopeSql } from './lexical-index.ts';
import { versionColumns } from './memory-repository.ts';
import { params, scheduledSql, servedSql } from './memory-view.ts';

/**
 * A Context's reads of one Brain over PostgreSQL, the SQLite adapter's twins: ids compare bytewise
 * (COLLATE "C", SQLite's BINARY) whatever the database's collation.
 */
export function pgContextReads(q: PgQueryable, brainUid: string): ContextReads {
  return {
    async evidence(recordIds, at) {
      // One statement, one round trip: the three reads as JSON arrays in the port's shapes, each as its
      // own query would answer it (the citing versions in their order).
      const p = params(brainUid, [...recordIds]);
      const eligible = scopeSql(p, at.scope, 'nr');
      const served = servedSql(p, at.readMs, at.nowMs);
      const later = scheduledSql(p, at.readMs ?? at.nowMs);
      const row = (
        await q.query<{
          records: EvidenceRecord[];
          newer: { id: string; newer: string }[];
          citing: CitingVersion[];
        }>(
          `SELECT
             (SELECT coalesce(json_agg(json_build_object('id', r.id, 'kind', r.kind, 'content', r.content,
                       'text', r.text, 'source_name', r.source_name, 'occurred_at', r.occurred_at,
                       'visibility', r.visibility)), '[]')
              FROM records r WHERE r.brain_uid = $1 AND r.id = ANY($2::text[])) AS records,
             (SELECT coalesce(json_agg(json_build_object('id', r.id, 'newer', x.newer)), '[]')
              FROM records r CROSS JOIN LATERAL (
                SELECT nr.id AS newer FROM records nr
                WHERE nr.brain_uid = r.brain_uid AND nr.source_name IS NOT DISTINCT FROM r.source_name
                  AND nr.external_id = r.external_id AND nr.n > r.n AND ${eligible}
                ORDER BY nr.n DESC LIMIT 1) x
              WHERE r.brain_uid = $1 AND r.id = ANY($2::text[]) AND r.external_id IS NOT NULL) AS newer,
             (SELECT coalesce(json_agg(json_build_object('recordId', c.record_id, 'memoryId', m.id,
                       'quote', c.quote, 'statement', m.statement, 'subject', m.subject,
                       'predicate', m.predicate, 'served', ${served}, 'pending', m.pending,
                       'retracted', m.status = 'retracted', 'later', ${later},
                       'validFromMs', m.valid_from_ms, 'validToMs', m.valid_to_ms)
                     ORDER BY c.record_id COLLATE "C", c.memory_id COLLATE "C"), '[]')
              FROM citations c JOIN memories m ON m.brain_uid = c.brain_uid AND m.id = c.memory_id
              WHERE c.brain_uid = $1 AND c.record_id = ANY($2::text[])) AS citing`,
          p.values,
        )
      ).rows[0]!;
      return row;
    },
    async successors(memoryIds, at, limit) {
      if (memoryIds.length === 0) return [];
      const p = params(brainUid, [...memoryIds]);
      const current = servedSql(p, at.readMs, at.nowMs, 'cur');
      const eligible = scopeSql(p, at.scope, 'sr');
      return (
        await q.query<{ record_id: string }>(
          `SELECT sr.id AS record_id FROM memories old
             JOIN memories cur ON cur.brain_uid = old.brain_uid AND cur.lineage = old.lineage AND cur.id <> old.id
             JOIN citations sc ON sc.brain_uid = cur.brain_uid AND sc.memory_id = cur.id
             JOIN records sr ON sr.brain_uid = sc.brain_uid AND sr.id = sc.record_id
           WHERE old.brain_uid = $1 AND old.id = ANY($2::text[]) AND ${current} AND ${eligible}
           GROUP BY sr.id ORDER BY max(sr.occurred_ms) DESC, sr.id COLLATE "C" LIMIT ${p.bind(limit)}`,
          p.values,
        )
      ).rows.map((r) => r.record_id);
    },
    async slotValues(memoryIds, at) {
      if (memoryIds.length === 0) return [];
      const p = params(brainUid, [...memoryIds]);
      const served = servedSql(p, at.readMs, at.nowMs);
      return (
        await q.query<SlotValue>(
          `WITH touched AS (
             SELECT t.lineage, min(t.id COLLATE "C") AS first FROM memories t
             WHERE t.brain_uid = $1 AND t.id = ANY($2::text[]) AND t.slot IS NOT NULL GROUP BY t.lineage)
           SELECT m.id, m.lineage, m.statement, m.subject, m.predicate, m.valid_from
           FROM touched JOIN memories m ON m.brain_uid = $1 AND m.lineage = touched.lineage
           WHERE ${served} ORDER BY touched.first COLLATE "C", m.n`,
          p.values,
        )
      ).rows;
    },
    async served(memoryIds, at) {
      if (memoryIds.length === 0) return [];
      const p = params(brainUid, [...memoryIds]);
      const served = servedSql(p, at.readMs, at.nowMs);
      return (
        await q.query<MemoryVersionRow>(
          `SELECT ${versionColumns} FROM memories m
           WHERE m.brain_uid = $1 AND m.id = ANY($2::text[]) AND ${served} ORDER BY m.id COLLATE "C"`,
          p.values,
        )
      ).rows;
    },
    async changes(span, at, limit) {
      // One statement, one round trip, as the SQLite adapter's two read it: from the span's Records
      // (records_brain_time) to their citations (citations_record) and the versions they name, and the
      // versions they withdrew (memories_retracted_by); then the lineages touched, by their unique key.
      const p = params(brainUid);
      const seen = scopeSql(p, at.scope, 'r', { bare: true });
      const quotable = scopeSql(p, at.scope, 'qr');
      const row = (
        await q.query<{ events: ChangeEvent[]; versions: ChangedVersion[] }>(
          `WITH span AS (
             SELECT r.id, r.n, r.occurred_ms, r.occurred_at, NOT ${bareCorrectionSql('r')} AS evidence
             FROM records r
             WHERE ${seen} AND r.occurred_ms >= ${p.bind(span.fromMs)}::bigint
               AND r.occurred_ms < ${p.bind(span.toMs)}::bigint),
           made AS (
             SELECT s.id AS record_id, s.occurred_at, s.occurred_ms, 'version' AS how, m.id AS memory_id,
                    true AS evidence, m.version > 1 AS next
             FROM span s
               JOIN citations c ON c.brain_uid = $1 AND c.record_id = s.id
               JOIN memories m ON m.brain_uid = $1 AND m.id = c.memory_id
             WHERE NOT m.pending AND m.status <> 'retracted' AND (m.version > 1 OR m.slot IS NOT NULL)
               AND NOT EXISTS (
                 SELECT 1 FROM citations e JOIN records er ON er.brain_uid = e.brain_uid AND er.id = e.record_id
                 WHERE e.brain_uid = $1 AND e.memory_id = m.id AND e.record_id <> s.id
                   AND (er.occurred_ms < s.occurred_ms OR (er.occurred_ms = s.occurred_ms AND er.n < s.n)))
             UNION ALL
             SELECT s.id, s.occurred_at, s.occurred_ms, 'retracted', m.id, s.evidence, true
             FROM span s JOIN memories m ON m.brain_uid = $1 AND m.retracted_by = s.id
             WHERE NOT m.pending),
           picked AS (
             SELECT * FROM made
             ORDER BY next DESC, occurred_ms DESC, record_id COLLATE "C" DESC LIMIT ${p.bind(limit)})
           SELECT
             (SELECT coalesce(json_agg(json_build_object('recordId', record_id, 'occurredAt', occurred_at,
                       'occurredMs', occurred_ms, 'how', how, 'memoryId', memory_id, 'evidence', evidence)
                     ORDER BY next DESC, occurred_ms DESC, record_id COLLATE "C" DESC), '[]')
              FROM picked) AS events,
             (SELECT coalesce(json_agg(json_build_object('id', m.id, 'lineage', m.lineage, 'slot', m.slot,
                       'version', m.version, 'statement', m.statement, 'norm', m.norm, 'subject', m.subject,
                       'predicate', m.predicate, 'status', m.status, 'pending', m.pending,
                       'corrects', m.corrects, 'cause', m.cause,
                       'recordId', (SELECT qr.id FROM citations qc
                                      JOIN records qr ON qr.brain_uid = qc.brain_uid AND qr.id = qc.record_id
                                    WHERE qc.brain_uid = $1 AND qc.memory_id = m.id AND ${quotable}
                                    ORDER BY qr.occurred_ms, qr.n LIMIT 1))
                     ORDER BY m.lineage COLLATE "C", m.version), '[]')
              FROM memories m
              WHERE m.brain_uid = $1
                AND m.lineage IN (SELECT t.lineage FROM picked JOIN memories t
                                    ON t.brain_uid = $1 AND t.id = picked.memory_id)) AS versions`,
          p.values,
        )
      ).rows[0]!;
      return row;
    },
    async visible(recordIds, scope) {
      if (recordIds.length === 0) return [];
      const p = params([...recordIds]);
      const el = scopeSql(p, scope);
      return (
        await q.query<{ id: string }>(
          `SELECT r.id FROM records r WHERE r.id = ANY($1::text[]) AND ${el}`,
          p.values,
        )
      ).rows.map((r) => r.id);
    },
  };
}
