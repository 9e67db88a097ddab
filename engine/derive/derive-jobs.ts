import type { SelfEntity, TypedContent } from '../contract/index.ts';
import { recordRemoval } from '../adapters/sqlite/memory-removals.ts';
import type { Store } from '../adapters/sqlite/store.ts';
import type { QueuedJob } from '../ports/index.ts';
import { admitClaims } from './admit-claims.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import type { Deriver } from '../core/derive/deriver.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { settleLineage } from './settle-lineage.ts';
import { supersedeOlderRevisions } from './supersede-revisions.ts';

export interface RecordRow {
  n: number;
  external_id: string | null;
  id: string;
  kind: string;
  content: string;
  text: string;
  source_name: string | null;
  occurred_at: string;
  occurred_ms: number;
}

export function brainSelf(store: Store, brainUid: string): SelfEntity | null {
  const b = store.get<{ self_type: 'person' | 'org' | null; self_name: string | null }>(
    'SELECT self_type, self_name FROM brains WHERE uid = ?',
    brainUid,
  );
  return b?.self_type && b.self_name ? { type: b.self_type, name: b.self_name } : null;
}

export function loadRecord(store: Store, id: string): RecordRow | undefined {
  return store.get<RecordRow>(
    'SELECT n, id, kind, content, text, source_name, external_id, occurred_at, occurred_ms FROM records WHERE id = ?',
    id,
  );
}

/**
 * Reads the Records of a batch's derive jobs with one statement rather than one per job: a batch
 * gathers the Records of several write groups, and each statement costs more than its row. Records
 * never change and only forgetting deletes one, never inside a batch, so what it reads stays current.
 */
export function loadBatchRecords(store: Store, jobs: readonly QueuedJob[]): BatchRecords {
  const ids = jobs.flatMap((j) => (j.job === 'derive' ? [j.recordId] : []));
  if (ids.length === 0) return new Map();
  const rows = store.all<RecordRow>(
    `SELECT n, id, kind, content, text, source_name, external_id, occurred_at, occurred_ms FROM records
     WHERE id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(ids),
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** The Records of a batch's derive jobs by id; a job's Record missing here is gone. */
export type BatchRecords = ReadonlyMap<string, RecordRow>;

/** What the Deriver reads of a stored Record. */
export function deriverInput(r: RecordRow) {
  return {
    id: r.id,
    content: JSON.parse(r.content) as TypedContent,
    text: r.text,
    sourceName: r.source_name,
    occurredAt: r.occurred_at,
  };
}

/**
 * Removes a Memory's vectors once derivation changed its text in place, so it is embedded again (the
 * engine's vector index, in the caller's transaction).
 */
export type DropMemoryVectors = (n: number, brainUid: string) => void;

/**
 * Runs one queued job inside the caller's transaction (the caller completes it in the same one).
 * derive: Record -> claims -> Memories (one sequence step for the whole Record).
 * rederive: a Memory that lost some support rests on its surviving Records only (restOnSurvivors).
 * `records`: its batch's Records (loadBatchRecords), else its Record is read here.
 */
export function runDeriveJob(
  store: Store,
  deriver: Deriver,
  job: QueuedJob,
  now: () => string,
  dropVectors: DropMemoryVectors,
  records?: BatchRecords,
): void {
  if (job.job === 'derive') {
    const r = records ? records.get(job.recordId) : loadRecord(store, job.recordId);
    if (!r) return;
    const claims = citableClaims(deriver, deriverInput(r), { self: brainSelf(store, job.brainUid) });
    const seq = store.nextSeq(job.brainUid);
    admitClaims(
      store,
      job.brainUid,
      { id: r.id, occurredAt: r.occurred_at, occurredMs: r.occurred_ms, sourceName: r.source_name },
      claims,
      seq,
      now(),
    );
    supersedeOlderRevisions(
      store,
      job.brainUid,
      { id: r.id, n: r.n, sourceName: r.source_name, externalId: r.external_id },
      seq,
    );
    return;
  }
  const m = loadRestingMemory(store, job.memoryId);
  if (!m || !m.pending) return;
  restOnSurvivors(store, deriver, job.brainUid, m, store.nextSeq(job.brainUid), now, dropVectors);
}

export interface RestingMemory {
  n: number;
  id: string;
  lineage: string;
  norm: string;
  cause: string;
  pending: number;
  statement: string;
}

function loadRestingMemory(store: Store, id: string): RestingMemory | undefined {
  return store.get<RestingMemory>(
    'SELECT n, id, lineage, norm, cause, pending, statement FROM memories WHERE id = ?',
    id,
  );
}

/**
 * A Memory that lost some support is derived again from the Records still citing it: citations a
 * Record no longer supports (under the deriver as it is now) are dropped, world time restarts at the
 * earliest survivor, and it is served again (or deleted if nothing supports it any more).
 */
export function restOnSurvivors(
  store: Store,
  deriver: Deriver,
  brainUid: string,
  m: RestingMemory,
  seq: number,
  now: () => string,
  dropVectors: DropMemoryVectors,
): void {
  const self = brainSelf(store, brainUid);
  const cites = store.all<{ record_id: string }>('SELECT record_id FROM citations WHERE memory_id = ?', m.id);
  const kept: Array<RecordRow & { statement: string | null }> = [];
  const dropped: string[] = [];
  for (const c of cites) {
    const r = loadRecord(store, c.record_id)!;
    // A correction Record supports its version by fiat, not by derivation.
    if (r.kind === 'correction') {
      kept.push({ ...r, statement: null });
      continue;
    }
    const claim = citableClaims(deriver, deriverInput(r), { self }).find(
      (x) => normalizeStatement(x.statement) === m.norm,
    );
    if (claim) kept.push({ ...r, statement: claim.statement });
    else dropped.push(r.id);
  }
  if (kept.length === 0) {
    recordRemoval(store, brainUid, m.id, seq, 'deleted');
    store.run('DELETE FROM memories WHERE id = ?', m.id);
  } else {
    for (const id of dropped)
      store.run('DELETE FROM citations WHERE memory_id = ? AND record_id = ?', m.id, id);
    // A correction version stands on its correction Record by fiat: it keeps its world time and its
    // cause. Anything else now rests on the survivors only, and its revision entry says so: cause
    // `rederived`, learned (again) now.
    // Its words are the first survivor's too: Records whose statements differ only in case or
    // punctuation share a Memory, which spoke in the words of the first, and those may be the ones
    // just forgotten.
    if (m.cause !== 'correction') {
      const first = kept.reduce((a, b) => (b.occurred_ms < a.occurred_ms ? b : a));
      const statement = first.statement ?? m.statement;
      store.run(
        `UPDATE memories SET statement = ?, valid_from = ?, valid_from_ms = ?, source_key = ?, cause = 'rederived',
         learned_at = ? WHERE id = ?`,
        statement,
        first.occurred_at,
        first.occurred_ms,
        first.source_name ?? '',
        now(),
        m.id,
      );
      if (statement !== m.statement) dropVectors(m.n, brainUid);
    }
    store.run('UPDATE memories SET pending = 0, seq = ? WHERE id = ?', seq, m.id);
  }
  settleLineage(store, m.lineage, seq);
}
