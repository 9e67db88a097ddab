import { newId } from '../ids.ts';
import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryRepository, SameStatement } from '../ports/index.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { sameSlotValue } from '../core/derive/slot-value.ts';
import { settleLineage } from './settle-lineage.ts';

export interface AdmittedRecord {
  id: string;
  occurredAt: string;
  occurredMs: number;
  sourceName: string | null;
}

/** What a statement is looked up by: its words, its subject and its owner (a claim's, or a correction's). */
type StatementOf = Pick<Claim, 'statement' | 'subject' | 'owner'>;

/**
 * What a claim of no slot looks up: a current statement of the same key (statement-key.ts) with the same
 * owner and subject; then, when its key is not its words as normalised, a statement of those words
 * keyed before `rules-v16` (a correction's, or one the upgrade pass has not reached yet).
 */
export const sameStatementsOf = (claim: StatementOf): SameStatement[] => {
  const who = {
    subject: claim.subject,
    owner_state: claim.owner.state,
    owner_entity: claim.owner.entity ?? null,
  };
  const key = statementKey(claim.statement);
  const words = normalizeStatement(claim.statement);
  return words === key
    ? [{ norm: key, ...who }]
    : [
        { norm: key, ...who },
        { norm: words, ...who },
      ];
};

/** The current Memory of the same statement (sameStatementsOf), or null. */
export async function sameStatement(memories: MemoryRepository, claim: StatementOf): Promise<string | null> {
  for (const q of sameStatementsOf(claim)) {
    const id = await memories.sameStatement(q);
    if (id !== null) return id;
  }
  return null;
}

/**
 * Turns a Record's claims into Memory versions:
 * - a slot claim (fact) joins the slot's lineage: the same value at the same world time, or the same
 *   value as the one holding the slot at the Record's world time, only adds a citation (the same value
 *   in whatever form: a fact's "me home city: Lisbon" and "I live in Lisbon" are one, slot-value.ts);
 *   a different value is a new version, and the lineage is settled (supersession by world time, or a
 *   conflict);
 * - any other claim adds a citation to a current statement of the same key with the same owner and
 *   subject ("I really love hiking!" to "I love hiking.": statement-key.ts), else starts a lineage of
 *   its own.
 * Returns the ids of the Memories the Record now supports.
 */
export async function admitClaims(
  memories: MemoryRepository,
  brainUid: string,
  record: AdmittedRecord,
  claims: Claim[],
  seq: number,
  now: string,
): Promise<string[]> {
  const ids: string[] = [];
  const sourceKey = record.sourceName ?? '';
  for (const claim of claims) {
    const norm = statementKey(claim.statement);
    const slot = claim.predicate !== null ? slotKey(claim.subject, claim.predicate, claim.owner) : null;
    const versions = slot !== null ? await memories.slotVersions(slot) : [];
    const same =
      slot !== null
        ? (
            versions.find(
              (v) =>
                sameSlotValue(v, claim) && v.valid_from_ms === record.occurredMs && v.status !== 'retracted',
            ) ?? versions.find((v) => sameSlotValue(v, claim) && inForceAt(timesOf(v), record.occurredMs))
          )?.id
        : await sameStatement(memories, claim);
    if (same) {
      await memories.addCitation({ memory_id: same, record_id: record.id, quote: claim.quote }, seq);
      ids.push(same);
      continue;
    }
    // A slot claim joins its slot's lineage (a new version); any other claim starts a lineage of its own.
    const lineage = versions[0]?.lineage ?? newId('lin');
    ids.push(
      await insertMemory(memories, {
        brainUid,
        lineage,
        slot,
        version: nextVersion(versions),
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
    if (slot !== null) await settleLineage(memories, lineage, seq);
  }
  return [...new Set(ids)];
}
