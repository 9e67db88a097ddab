import type { TypedContent } from '../contract/index.ts';
import type { SqliteSyncRepositories } from '../adapters/sqlite/unit-of-work.ts';
import type { QueuedJob, RecordRow as StoredRecord } from '../ports/index.ts';
import { admitClaims } from './admit-claims.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import type { Deriver } from '../core/derive/deriver.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { recordRemoval } from './memory-removal.ts';
import { settleLineage } from './settle-lineage.ts';
import { supersedeOlderRevisions } from './supersede-revisions.ts';

/** What derivation reads of a stored Record. */
export type RecordRow = Pick<
  StoredRecord,
  'n' | 'external_id' | 'id' | 'kind' | 'content' | 'text' | 'source_name' | 'occurred_at' | 'occurred_ms'
>;

/** A Brain's synchronous repositories (the derive worker's batch is one synchronous transaction). */
export type ReposOf = (brainUid: string) => SqliteSyncRepositories;

/**
 * Reads the Records of a batch's derive jobs with one statement per Brain rather than one per job: a
 * batch gathers the Records of several batches of writes, and each statement costs more than its row.
 * Records never change and only forgetting deletes one, never inside a batch, so what it reads stays
 * current.
 */
export function loadBatchRecords(reposOf: ReposOf, jobs: readonly QueuedJob[]): BatchRecords {
  const byBrain = new Map<string, string[]>();
  for (const j of jobs) {
    if (j.job !== 'derive') continue;
    const ids = byBrain.get(j.brainUid) ?? [];
    ids.push(j.recordId);
    byBrain.set(j.brainUid, ids);
  }
  const records = new Map<string, RecordRow>();
  for (const [brainUid, ids] of byBrain)
    for (const r of reposOf(brainUid).records.getMany(ids)) records.set(r.id, r);
  return records;
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
 * Runs one queued job inside the caller's transaction (the caller completes it in the same one), over
 * its Brain's repositories `repos`.
 * derive: Record -> claims -> Memories (one sequence step for the whole Record).
 * rederive: a Memory that lost some support rests on its surviving Records only (restOnSurvivors).
 * `records`: its batch's Records (loadBatchRecords), else its Record is read here.
 */
export function runDeriveJob(
  repos: SqliteSyncRepositories,
  deriver: Deriver,
  job: QueuedJob,
  now: () => string,
  dropVectors: DropMemoryVectors,
  records?: BatchRecords,
): void {
  if (job.job === 'derive') {
    const r = records ? records.get(job.recordId) : repos.records.get(job.recordId);
    if (!r) return;
    const claims = citableClaims(deriver, deriverInput(r), { self: repos.self() });
    const seq = repos.nextSeq();
    admitClaims(
      repos.memories,
      job.brainUid,
      { id: r.id, occurredAt: r.occurred_at, occurredMs: r.occurred_ms, sourceName: r.source_name },
      claims,
      seq,
      now(),
    );
    supersedeOlderRevisions(
      repos.memories,
      { id: r.id, n: r.n, sourceName: r.source_name, externalId: r.external_id },
      seq,
    );
    return;
  }
  const m = repos.memories.get(job.memoryId);
  if (!m || !m.pending) return;
  restOnSurvivors(repos, deriver, job.brainUid, m, repos.nextSeq(), now, dropVectors);
}

export interface RestingMemory {
  n: number;
  id: string;
  lineage: string;
  norm: string;
  cause: string;
  statement: string;
}

/**
 * A Memory that lost some support is derived again from the Records still citing it: citations a
 * Record no longer supports (under the deriver as it is now) are dropped, world time restarts at the
 * earliest survivor, and it is served again (or deleted if nothing supports it any more).
 */
export function restOnSurvivors(
  repos: SqliteSyncRepositories,
  deriver: Deriver,
  brainUid: string,
  m: RestingMemory,
  seq: number,
  now: () => string,
  dropVectors: DropMemoryVectors,
): void {
  const self = repos.self();
  const cites = repos.memories.citations([m.id], { shareableOnly: false });
  const kept: Array<RecordRow & { statement: string | null }> = [];
  const dropped: string[] = [];
  for (const c of cites) {
    const r = repos.records.get(c.record_id)!;
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
    recordRemoval(repos, m.id, seq, 'deleted');
    repos.memories.remove([m.id]);
  } else {
    repos.memories.dropCitations(m.id, dropped);
    // A correction version stands on its correction Record by fiat: it keeps its world time and its
    // cause. Anything else now rests on the survivors only, and its revision entry says so: cause
    // `rederived`, learned (again) now.
    // Its words are the first survivor's too: Records whose statements differ only in case or
    // punctuation share a Memory, which spoke in the words of the first, and those may be the ones
    // just forgotten.
    if (m.cause !== 'correction') {
      const first = kept.reduce((a, b) => (b.occurred_ms < a.occurred_ms ? b : a));
      const statement = first.statement ?? m.statement;
      repos.memories.update(m.id, {
        statement,
        valid_from: first.occurred_at,
        valid_from_ms: first.occurred_ms,
        source_key: first.source_name ?? '',
        cause: 'rederived',
        learned_at: now(),
      });
      if (statement !== m.statement) dropVectors(m.n, brainUid);
    }
    repos.memories.update(m.id, { pending: false, seq });
  }
  settleLineage(repos.memories, m.lineage, seq);
}
