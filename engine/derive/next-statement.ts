import type { Claim, OwnerClaim } from '../core/derive/deriver.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { AdmittedRecord } from './admit-claims.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { settleLineage } from './settle-lineage.ts';

/**
 * Admits `statement`, which a Record's claim says in place of what a lineage of no slot held (a plan
 * changed, changed-plans.ts; a task done, done-tasks.ts), as that lineage's next version: from the
 * Record's world time, quoting the claim, the lineage settled so the version before is closed there.
 * The same statement said again (an agent's read-back, an import of the same chat) joins the version
 * that says it. Returns the version's id.
 */
export async function admitNextStatement(
  memories: MemoryRepository,
  at: {
    brainUid: string;
    lineage: string;
    statement: string;
    record: AdmittedRecord;
    claim: Claim;
    seq: number;
    now: string;
  },
): Promise<string> {
  const { record, claim, seq } = at;
  const norm = statementKey(at.statement);
  const citation = { recordId: record.id, quote: claim.quote };
  const versions = await memories.lineage(at.lineage, { shareableOnly: false });
  const same = versions.find((v) => v.norm === norm && v.status === 'active');
  if (same !== undefined) {
    await memories.addCitation(
      { memory_id: same.id, record_id: citation.recordId, quote: citation.quote },
      seq,
    );
    return same.id;
  }
  const id = await insertMemory(memories, {
    brainUid: at.brainUid,
    lineage: at.lineage,
    slot: null,
    version: nextVersion(versions),
    statement: at.statement,
    norm,
    subject: claim.subject,
    predicate: null,
    owner: claim.owner,
    sourceKey: record.sourceName ?? '',
    validFrom: record.occurredAt,
    validFromMs: record.occurredMs,
    corrects: null,
    seq,
    learnedAt: at.now,
    cause: 'superseded_by_record',
    citations: [citation],
  });
  await settleLineage(memories, at.lineage, seq);
  return id;
}

/**
 * A lineage of no slot a claim was found to change (changed-plans.ts `changedPlanOf`, done-tasks.ts
 * `doneTaskOf`, ended-tastes.ts `saidOverOf`), and what its next version is.
 */
export interface NextOf {
  lineage: string;
  /** What the next version says: the claim's statement, or the task done ("Done: renew passport"). */
  statement: string;
  /** Whose the next version is. */
  owner: OwnerClaim;
  /** The lineages of the same thing written elsewhere (a calendar's event of the plan). */
  also: readonly string[];
}

/**
 * A claim found to change something said before (`found`: a plan moved or called off, a task done, a
 * taste said over) admitted as the next version of its lineage, saying and owned as found, and of each
 * lineage of the same thing written elsewhere (`also`). Returns the first version's id.
 */
export async function admitAsNextOf(
  memories: MemoryRepository,
  at: { brainUid: string; record: AdmittedRecord; claim: Claim; seq: number; now: string },
  found: NextOf,
): Promise<string> {
  const next = (lineage: string) =>
    admitNextStatement(memories, {
      ...at,
      lineage,
      statement: found.statement,
      claim: { ...at.claim, owner: found.owner },
    });
  const id = await next(found.lineage);
  for (const lineage of found.also) await next(lineage);
  return id;
}
