import type { SlotHolding, SlotIndex } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { scopeSql } from './lexical-index.ts';
import { params, servedSql } from './memory-view.ts';

/** The predicate part of a slot key (core/derive/slot-key.ts: subject, U+001F, predicate). */
const predicateOf = (slot: string) => `substr(${slot}, strpos(${slot}, chr(31)) + 1)`;

/** The slot lane's reads over PostgreSQL, as SQLite's (adapters/sqlite/slot-index.ts) answer them. */
export function pgSlotIndex(q: PgQueryable): SlotIndex {
  return {
    known: async (brainUid, keys) =>
      (
        await q.query<{ slot: string }>(
          'SELECT DISTINCT slot FROM memories WHERE brain_uid = $1 AND slot = ANY($2::text[])',
          [brainUid, keys],
        )
      ).rows.map((r) => r.slot),
    ofFirstName: async (brainUid, first, predicates, limit) =>
      (
        await q.query<{ slot: string }>(
          `SELECT DISTINCT slot FROM memories
            WHERE brain_uid = $1 AND slot >= $2 AND slot < $3 AND ${predicateOf('slot')} = ANY($4::text[])
            LIMIT $5`,
          [brainUid, `${first} `, `${first}!`, predicates, limit],
        )
      ).rows.map((r) => r.slot),
    selfName: async (brainUid) =>
      (
        await q.query<{ name: string | null }>('SELECT self_name AS name FROM brains WHERE uid = $1', [
          brainUid,
        ])
      ).rows[0]?.name ?? null,
    held: async (brainUid, slots) =>
      (
        await q.query<{ statement: string; subject: string; predicate: string | null }>(
          `SELECT statement, subject, predicate FROM memories
            WHERE brain_uid = $1 AND slot = ANY($2::text[])
              AND status <> 'retracted' AND revised_by IS NULL AND NOT pending
              AND (valid_to_ms IS NULL OR valid_to_ms > valid_from_ms)`,
          [brainUid, [...slots]],
        )
      ).rows,
    async holdings({ scope, nowMs, readTimeMs, during, by, limit }) {
      const p = params(scope.brainUid);
      // As SQLite's: served at some instant of the span, and how much of it each held, for the order.
      const span = during && {
        from: `${p.bind(during.fromMs)}::bigint`,
        to: `${p.bind(during.toMs)}::bigint`,
      };
      const longest = span
        ? `LEAST(COALESCE(m.valid_to_ms, ${span.to}), ${span.to}) - GREATEST(m.valid_from_ms, ${span.from})`
        : '0';
      const which =
        'slots' in by
          ? `m.slot IS NOT NULL AND m.slot = ANY(${p.bind([...by.slots])}::text[])`
          : 'predicates' in by
            ? `m.slot IS NOT NULL AND ${predicateOf('m.slot')} = ANY(${p.bind([...by.predicates])}::text[])`
            : // starts_with, not a range: the norm index compares in the database's collation.
              `starts_with(m.norm, ${p.bind(by.statementStart.key)}) AND starts_with(m.statement, ${p.bind(by.statementStart.statement)})`;
      const served = span
        ? `(NOT m.pending AND m.status <> 'retracted' AND m.valid_from_ms < ${span.to}
            AND (m.valid_to_ms IS NULL OR m.valid_to_ms > GREATEST(m.valid_from_ms, ${span.from})))`
        : servedSql(p, readTimeMs, nowMs, 'm');
      const holder = scopeSql(p, scope, 'er');
      const held = p.bind(limit);
      const eligible = scopeSql(p, scope, 'r');
      const r = await q.query<SlotHolding>(
        `WITH held AS (
           SELECT m.id, m.statement, m.valid_from_ms, m.owner_state = 'self' AS self, ${longest} AS longest
             FROM memories m
            WHERE m.brain_uid = $1 AND ${which} AND ${served}
              AND EXISTS (SELECT 1 FROM citations ec
                          JOIN records er ON er.brain_uid = ec.brain_uid AND er.id = ec.record_id
                          WHERE ec.brain_uid = m.brain_uid AND ec.memory_id = m.id AND ${holder})
            ORDER BY self DESC, longest DESC, m.valid_from_ms DESC
            LIMIT ${held})
         SELECT r.id AS "recordId", h.id AS "memoryId", h.statement
           FROM held h
           JOIN citations c ON c.brain_uid = $1 AND c.memory_id = h.id
           JOIN records r ON r.brain_uid = c.brain_uid AND r.id = c.record_id
          WHERE ${eligible}
          ORDER BY h.self DESC, h.longest DESC, h.valid_from_ms DESC, r.id COLLATE "C"`,
        p.values,
      );
      return r.rows;
    },
  };
}
