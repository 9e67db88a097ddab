import type { TypedContent } from '../contract/index.ts';
import type { Claim, Deriver } from '../core/derive/deriver.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import { agentSpeaker } from '../core/derive/agent-words.ts';
import { foldName } from '../core/derive/resolve-owner.ts';
import { saidInsteadOf } from '../core/derive/said-instead.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { valueStatement } from '../core/derive/slot-statement.ts';
import { sameSlotValue } from '../core/derive/slot-value.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import type { BrainUnitOfWork, RecordRow } from '../ports/index.ts';
import { deriveContext } from './derive-context.ts';
import { deriverInput } from './deriver-input.ts';
import { settleLineage } from './settle-lineage.ts';

/** How long after a value a message may still say another in its place: a slip is mended at once. */
export const saidInsteadReachMs = 30 * 60_000;

type Derived = Pick<RecordRow, 'n' | 'content' | 'occurred_ms'>;

/**
 * A Record's claims with a value said in place of another (`saidInstead`: "wait no, it's march 14")
 * made the claim of the slot it mends: the one the thread's message just before held (said within
 * half an hour by the same speaker, or by an agent saying back the person's slot: "Got it, you work at
 * Globant." then "globex not globant lol"), as derived now from that Record. Where it holds none, the
 * claim stays the statement it is. Every reader of a Record's claims reads them so (as held endings),
 * so a Memory it holds compares with what it says.
 */
export async function withSaidInstead(
  uow: Pick<BrainUnitOfWork, 'records' | 'self' | 'speakersFirstNamed'>,
  deriver: Deriver,
  record: Derived,
  claims: readonly Claim[],
): Promise<Claim[]> {
  if (!claims.some((c) => c.saidInstead !== undefined)) return [...claims];
  const prior = await priorClaims(uow, deriver, record);
  return claims.map((c) => {
    if (c.saidInstead === undefined) return c;
    const mended = prior === null ? null : saidInsteadOf(c, prior.claims, prior.id);
    if (mended !== null) return mended;
    const { saidInstead: _unresolved, ...statement } = c;
    return statement;
  });
}

/** The claims of the message a Record may mend: the thread's one just before, by the same speaker or an agent. */
async function priorClaims(
  uow: Pick<BrainUnitOfWork, 'records' | 'self' | 'speakersFirstNamed'>,
  deriver: Deriver,
  record: Derived,
): Promise<{ id: string; claims: Claim[] } | null> {
  const content = JSON.parse(record.content) as TypedContent;
  if (content.kind !== 'message' || content.thread === undefined) return null;
  const [before] = await uow.records.threadBefore(content.thread, record, {
    sinceMs: record.occurred_ms - saidInsteadReachMs,
    limit: 1,
  });
  if (before === undefined) return null;
  const input = deriverInput(before);
  const said = input.content;
  if (said.kind !== 'message') return null;
  const same = foldName(said.speaker ?? '') === foldName(content.speaker ?? '');
  if (!same && !agentSpeaker(said.speaker, before.source_name)) return null;
  return { id: before.id, claims: citableClaims(deriver, input, await deriveContext(uow, [said])) };
}

/**
 * Withdraws the slip a Record's claims mended (`replaces`): each Memory of the other value the mended
 * Record supports (its slot's version, or an agent's read-back kept as a statement of its own) whose
 * every supporting Record is a message of this thread from the last half hour is retracted by this
 * Record, and its lineage settled. It was said in error, not a value that held until now; forgetting
 * the Record brings it back. Support from elsewhere keeps it: then it was true for a while.
 */
export async function withdrawSlips(
  uow: Pick<BrainUnitOfWork, 'records' | 'memories'>,
  record: Pick<RecordRow, 'id' | 'content' | 'occurred_ms'>,
  claims: readonly Claim[],
  seq: number,
): Promise<void> {
  const content = JSON.parse(record.content) as TypedContent;
  if (content.kind !== 'message' || content.thread === undefined) return;
  const thread = content.thread;
  const lineages = new Set<string>();
  for (const claim of claims) {
    const slip = claim.replaces;
    if (slip === undefined || claim.predicate === null) continue;
    const slot = slotKey(claim.subject, claim.predicate, claim.owner);
    const keys = new Set(slip.statements.map(statementKey));
    const wrong = {
      statement: valueStatement(claim.subject, claim.predicate, slip.value),
      subject: claim.subject,
    };
    for (const { id } of await uow.memories.citing([slip.recordId])) {
      const m = await uow.memories.get(id);
      if (m === null || m.retracted_by !== null || m.status === 'retracted') continue;
      const isSlip =
        keys.has(m.norm) || (m.slot === slot && sameSlotValue(m, { ...wrong, predicate: claim.predicate }));
      if (!isSlip) continue;
      const cites = await uow.memories.citations([m.id], { shareableOnly: false });
      const support = await uow.records.getMany([...new Set(cites.map((c) => c.record_id))]);
      const ofThisMoment = support.every((r) => {
        const c = JSON.parse(r.content) as TypedContent;
        return (
          c.kind === 'message' &&
          c.thread === thread &&
          r.occurred_ms <= record.occurred_ms &&
          r.occurred_ms >= record.occurred_ms - saidInsteadReachMs
        );
      });
      if (!ofThisMoment) continue;
      await uow.memories.update(m.id, { retracted_by: record.id });
      lineages.add(m.lineage);
    }
  }
  for (const l of lineages) await settleLineage(uow.memories, l, seq);
}
