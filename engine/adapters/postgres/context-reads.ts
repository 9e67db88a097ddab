import type {
  CitingVersion,
  ContextReads,
  EvidenceRecord,
  MemoryVersionRow,
  SlotValue,
} from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { scopeSql } from './lexical-index.ts';
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
