import type { SlotHolding, SlotIndex } from '../../ports/index.ts';
import { eligibilitySql } from './eligibility-sql.ts';
import { servedSql } from './memory-view.ts';
import type { SqlParam, Store } from './store.ts';

/**
 * The predicate part of a slot key (slot-key.ts `slotKey`: subject, U+001F, predicate), written as
 * migration 016's index is, which SQLite uses only for the same expression.
 */
const predicateOf = (slot: string) => `substr(${slot}, instr(${slot}, char(31)) + 1)`;

/** The least string above every string that starts with `prefix` (bytewise, as SQLite's BINARY compares). */
const after = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/**
 * Served at some instant of [fromMs, toMs): as servedSql at that instant (not pending, not retracted,
 * begun by it, not ended at it), so an empty interval (a corrected version's) never is.
 */
function heldDuringSql(span: { fromMs: number; toMs: number }): { sql: string; params: SqlParam[] } {
  return {
    sql: `m.pending = 0 AND m.status <> 'retracted' AND m.valid_from_ms < ?
          AND (m.valid_to_ms IS NULL OR m.valid_to_ms > max(m.valid_from_ms, ?))`,
    params: [span.toMs, span.fromMs],
  };
}

/** How much of the span the version held (its interval cut to the span), for the order. */
function longestSql(span: { fromMs: number; toMs: number }): { sql: string; params: SqlParam[] } {
  return {
    sql: 'min(coalesce(m.valid_to_ms, ?), ?) - max(m.valid_from_ms, ?)',
    params: [span.toMs, span.toMs, span.fromMs],
  };
}

/**
 * The slot lane's reads over SQLite. Each query names its index: the store keeps no table statistics,
 * so the planner's pick among fitting indexes would be arbitrary.
 */
export function createSqliteSlotIndex(store: Store): SlotIndex {
  return {
    known: async (brainUid, keys) =>
      store
        .all<{ slot: string }>(
          `SELECT DISTINCT slot FROM memories INDEXED BY memories_brain_slot
            WHERE brain_uid = ? AND slot IN (SELECT value FROM json_each(?))`,
          brainUid,
          JSON.stringify(keys),
        )
        .map((r) => r.slot),
    ofFirstName: async (brainUid, first, predicates, limit) =>
      store
        .all<{ slot: string }>(
          `SELECT DISTINCT slot FROM memories INDEXED BY memories_brain_slot
            WHERE brain_uid = ? AND slot >= ? AND slot < ?
              AND ${predicateOf('slot')} IN (SELECT value FROM json_each(?))
            LIMIT ?`,
          brainUid,
          `${first} `,
          `${first}!`,
          JSON.stringify(predicates),
          limit,
        )
        .map((r) => r.slot),
    selfName: async (brainUid) =>
      store.get<{ name: string | null }>('SELECT self_name AS name FROM brains WHERE uid = ?', brainUid)
        ?.name ?? null,
    held: async (brainUid, slots) =>
      store.all<{ statement: string; subject: string; predicate: string | null }>(
        `SELECT statement, subject, predicate FROM memories INDEXED BY memories_brain_slot
          WHERE brain_uid = ? AND slot IN (SELECT value FROM json_each(?))
            AND status <> 'retracted' AND revised_by IS NULL AND pending = 0
            AND (valid_to_ms IS NULL OR valid_to_ms > valid_from_ms)`,
        brainUid,
        JSON.stringify(slots),
      ),
    async holdings({ scope, nowMs, readTimeMs, during, by, limit }) {
      const served = during ? heldDuringSql(during) : servedSql(readTimeMs, nowMs, 'm');
      const longest = during ? longestSql(during) : { sql: '0', params: [] };
      const eligible = eligibilitySql(scope, 'r');
      const eligibleHolder = eligibilitySql(scope, 'er');
      const [index, where, params]: [string, string, SqlParam[]] =
        'slots' in by
          ? [
              'memories_brain_slot',
              'm.slot IS NOT NULL AND m.slot IN (SELECT value FROM json_each(?))',
              [JSON.stringify(by.slots)],
            ]
          : 'predicates' in by
            ? [
                'memories_slot_predicate',
                `m.slot IS NOT NULL AND ${predicateOf('m.slot')} IN (SELECT value FROM json_each(?))`,
                [JSON.stringify(by.predicates)],
              ]
            : [
                'memories_brain_norm',
                'm.norm >= ? AND m.norm < ? AND substr(m.statement, 1, length(?)) = ?',
                [
                  by.statementStart.key,
                  after(by.statementStart.key),
                  by.statementStart.statement,
                  by.statementStart.statement,
                ],
              ];
      // The holders are ranked before their Records are read.
      return store.all<SlotHolding>(
        `WITH held AS (
           SELECT m.id, m.statement, m.valid_from_ms, m.owner_state = 'self' AS self,
                  ${longest.sql} AS longest
             FROM memories m INDEXED BY ${index}
            WHERE m.brain_uid = ? AND ${where} AND ${served.sql}
              -- Only holders with a Record this request may see, before the limit: 50 newer holders
              -- from chat would otherwise hide the one from mail that filter.sources asks for.
              AND EXISTS (SELECT 1 FROM citations ec CROSS JOIN records er ON er.id = ec.record_id
                          WHERE ec.memory_id = m.id AND ${eligibleHolder.sql})
            ORDER BY self DESC, longest DESC, m.valid_from_ms DESC
            LIMIT ?)
         SELECT r.id AS recordId, h.id AS memoryId, h.statement
           FROM held h
           CROSS JOIN citations c ON c.memory_id = h.id
           CROSS JOIN records r ON r.id = c.record_id
          WHERE ${eligible.sql}
          ORDER BY h.self DESC, h.longest DESC, h.valid_from_ms DESC, r.id`,
        ...longest.params,
        scope.brainUid,
        ...params,
        ...served.params,
        ...eligibleHolder.params,
        limit,
        ...eligible.params,
      );
    },
  };
}
