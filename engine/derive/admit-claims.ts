import { newId } from '../ids.ts';
import type { Store } from '../adapters/sqlite/store.ts';
import type { Claim } from '../core/derive/deriver.ts';
import { addCitation, insertMemory, nextVersion } from './insert-memory.ts';
import { inForceAt } from '../core/temporal/memory-time.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { settleLineage } from './settle-lineage.ts';

export interface AdmittedRecord {
  id: string;
  occurredAt: string;
  occurredMs: number;
  sourceName: string | null;
}

interface SlotVersion {
  id: string;
  lineage: string;
  norm: string;
  valid_from_ms: number;
  valid_to_ms: number | null;
  status: 'active' | 'superseded' | 'retracted';
  revised: number;
}

/**
 * The current Memory with the same statement, owner and subject as a claim without a slot. The
 * statement picks out at most a few rows, and the query names its index: the store keeps no table
 * statistics, so the planner's pick among fitting indexes is arbitrary, and the `(brain_uid, subject)`
 * index it once took (dropped in migration 010) read every Memory about the subject, for every claim
 * (at 100,000 Records writes slowed from 193 to 74 per second).
 */
export const sameStatementSql = `SELECT id FROM memories INDEXED BY memories_brain_norm
  WHERE brain_uid = ? AND norm = ? AND slot IS NULL AND subject = ?
    AND owner_state = ? AND owner_entity IS ? AND status = 'active' LIMIT 1`;

/**
 * Turns a Record's claims into Memory versions:
 * - a slot claim (fact) joins the slot's lineage: the same value at the same world time, or the same
 *   value as the one holding the slot at the Record's world time, only adds a citation; a different
 *   value is a new version, and the lineage is settled (supersession by world time, or a conflict);
 * - any other claim adds a citation to an identical current statement with the same owner and
 *   subject, else starts a lineage of its own.
 * Returns the ids of the Memories the Record now supports.
 */
export function admitClaims(
  store: Store,
  brainUid: string,
  record: AdmittedRecord,
  claims: Claim[],
  seq: number,
  now: string,
): string[] {
  const ids: string[] = [];
  const sourceKey = record.sourceName ?? '';
  for (const claim of claims) {
    const norm = normalizeStatement(claim.statement);
    const slot = claim.predicate !== null ? slotKey(claim.subject, claim.predicate, claim.owner) : null;
    const versions =
      slot !== null
        ? store.all<SlotVersion>(
            `SELECT id, lineage, norm, valid_from_ms, valid_to_ms, status, revised_by IS NOT NULL AS revised
             FROM memories WHERE brain_uid = ? AND slot = ? ORDER BY n`,
            brainUid,
            slot,
          )
        : [];
    const same =
      slot !== null
        ? (versions.find(
            (v) => v.norm === norm && v.valid_from_ms === record.occurredMs && v.status !== 'retracted',
          ) ?? versions.find((v) => v.norm === norm && inForceAt(v, record.occurredMs)))
        : store.get<{ id: string }>(
            sameStatementSql,
            brainUid,
            norm,
            claim.subject,
            claim.owner.state,
            claim.owner.entity ?? null,
          );
    if (same) {
      addCitation(store, same.id, record.id, claim.quote, seq);
      ids.push(same.id);
      continue;
    }
    // A slot claim joins its slot's lineage (a new version); any other claim starts a lineage of its own.
    const lineage = versions[0]?.lineage ?? newId('lin');
    ids.push(
      insertMemory(store, {
        brainUid,
        lineage,
        slot,
        version: versions.length > 0 ? nextVersion(store, lineage) : 1,
        statement: claim.statement,
        norm,
        subject: claim.subject,
        predicate: claim.predicate,
        owner: claim.owner,
        sourceKey,
        validFrom: record.occurredAt,
        validFromMs: record.occurredMs,
        corrects: null,
        seq,
        learnedAt: now,
        cause: versions.length > 0 ? 'superseded_by_record' : 'derived',
        citations: [{ recordId: record.id, quote: claim.quote }],
      }),
    );
    if (slot !== null) settleLineage(store, lineage, seq);
  }
  return [...new Set(ids)];
}
