import type { Citation, Memory } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import type { SqlParam, Store } from './store.ts';

export interface MemoryRow {
  n: number;
  id: string;
  brain_uid: string;
  lineage: string;
  slot: string | null;
  version: number;
  statement: string;
  subject: string;
  predicate: string | null;
  owner_state: 'self' | 'other' | 'unresolved';
  owner_entity: string | null;
  valid_from: string;
  valid_from_ms: number;
  valid_to: string | null;
  status: 'active' | 'superseded' | 'retracted';
  pending: number;
  seq: number;
  learned_at: string;
  cause: 'derived' | 'superseded_by_record' | 'correction' | 'rederived';
}

export const memoryColumns = `m.n, m.id, m.brain_uid, m.lineage, m.slot, m.version, m.statement, m.subject,
  m.predicate, m.owner_state, m.owner_entity, m.valid_from, m.valid_from_ms, m.valid_to, m.status, m.pending,
  m.seq, m.learned_at, m.cause`;

/**
 * The condition "served at this world time" for alias m: current (active, open) when asOfMs is
 * undefined, else valid at asOfMs; never pending re-derivation, never retracted.
 */
export function servedSql(asOfMs: number | undefined, alias = 'm'): { sql: string; params: SqlParam[] } {
  if (asOfMs === undefined) {
    return {
      sql: `${alias}.pending = 0 AND ${alias}.status = 'active' AND ${alias}.valid_to IS NULL`,
      params: [],
    };
  }
  return {
    sql: `${alias}.pending = 0 AND ${alias}.status <> 'retracted' AND ${alias}.valid_from_ms <= ?
          AND (${alias}.valid_to_ms IS NULL OR ${alias}.valid_to_ms > ?)`,
    params: [asOfMs, asOfMs],
  };
}

export function citationsOf(store: Store, ids: string[]): Map<string, Citation[]> {
  const out = new Map<string, Citation[]>();
  if (ids.length === 0) return out;
  const rows = store.all<{ memory_id: string; record_id: string; quote: string }>(
    `SELECT memory_id, record_id, quote FROM citations
     WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY memory_id, record_id`,
    JSON.stringify(ids),
  );
  for (const r of rows) {
    const list = out.get(r.memory_id) ?? [];
    list.push({ record_id: r.record_id, quote: r.quote });
    out.set(r.memory_id, list);
  }
  return out;
}

/** Serializes Memory rows; a row without citations is a bug and is never served. */
export function toMemories(store: Store, rows: MemoryRow[]): Memory[] {
  const cites = citationsOf(
    store,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const citations = cites.get(r.id) ?? [];
    if (citations.length === 0) {
      throw new MnemoError('memory_without_lineage', `Memory ${r.id} has no supporting Records`);
    }
    return {
      id: r.id,
      object: 'memory',
      statement: r.statement,
      subject: r.subject,
      predicate: r.predicate,
      owner:
        r.owner_entity !== null ? { state: r.owner_state, entity: r.owner_entity } : { state: r.owner_state },
      valid_from: r.valid_from,
      valid_to: r.valid_to,
      version: r.version,
      status: r.status,
      citations,
    };
  });
}
