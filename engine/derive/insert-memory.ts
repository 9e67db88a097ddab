import { newId } from '../ids.ts';
import type { Store } from '../adapters/sqlite/store.ts';
import type { OwnerClaim } from '../core/derive/deriver.ts';

export interface NewMemory {
  brainUid: string;
  lineage: string;
  slot: string | null;
  version: number;
  statement: string;
  norm: string;
  subject: string;
  predicate: string | null;
  owner: OwnerClaim;
  sourceKey: string;
  validFrom: string;
  validFromMs: number;
  corrects: string | null;
  seq: number;
  learnedAt: string;
  cause: 'derived' | 'superseded_by_record' | 'correction' | 'rederived';
  citations: { recordId: string; quote: string }[];
}

/**
 * Writes one Memory version with its citations (citations first: the schema refuses a Memory row
 * without one). Status starts active; the caller settles the lineage afterwards.
 */
export function insertMemory(store: Store, m: NewMemory): string {
  if (m.citations.length === 0)
    throw new Error('memory_without_lineage: refusing to write a Memory without citations');
  const id = newId('mem');
  for (const c of m.citations) {
    store.run(
      // A quote the schema refuses fails the job (and shows) instead of leaving the Memory without it.
      'INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?) ON CONFLICT (memory_id, record_id) DO NOTHING',
      id,
      c.recordId,
      c.quote,
    );
  }
  store.run(
    `INSERT INTO memories (id, brain_uid, lineage, slot, version, statement, norm, subject, predicate,
       owner_state, owner_entity, source_key, valid_from, valid_from_ms, status, corrects, seq, learned_at, cause)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
    id,
    m.brainUid,
    m.lineage,
    m.slot,
    m.version,
    m.statement,
    m.norm,
    m.subject,
    m.predicate,
    m.owner.state,
    m.owner.entity ?? null,
    m.sourceKey,
    m.validFrom,
    m.validFromMs,
    m.corrects,
    m.seq,
    m.learnedAt,
    m.cause,
  );
  return id;
}

/** Adds a supporting Record to an existing Memory (the same statement from another Record). */
export function addCitation(
  store: Store,
  memoryId: string,
  recordId: string,
  quote: string,
  seq: number,
): void {
  const r = store.run(
    'INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?) ON CONFLICT (memory_id, record_id) DO NOTHING',
    memoryId,
    recordId,
    quote,
  );
  if (r.changes > 0) store.run('UPDATE memories SET seq = ? WHERE id = ?', seq, memoryId);
}

export function nextVersion(store: Store, lineage: string): number {
  return (
    (store.get<{ v: number | null }>('SELECT max(version) AS v FROM memories WHERE lineage = ?', lineage)
      ?.v ?? 0) + 1
  );
}
