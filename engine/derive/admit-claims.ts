import { newId } from '../ids.ts';
import type { Claim } from '../core/derive/deriver.ts';
import type { MemoryCause, MemoryRepository, MemoryVersionRow, SameStatement } from '../ports/index.ts';
import { insertMemory, nextVersion, placeMemory } from './insert-memory.ts';
import { inForceAt, timesOf } from '../core/temporal/memory-time.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { closedOnOlderRevisions, saidAgain } from './said-again.ts';
import { endedValue, sameSlotValue } from '../core/derive/slot-value.ts';
import { saidBy } from '../core/derive/slot-statement.ts';
import { settleLineage } from './settle-lineage.ts';
import { holdsThen, placeEndings } from './place-endings.ts';
import { callOffPlans, planAhead } from './called-off-plans.ts';
import { agentSpeaker } from '../core/derive/agent-words.ts';
import { changedPlanOf, type PlanRecords } from './changed-plans.ts';
import { doneTaskOf } from './done-tasks.ts';
import { saidOverOf } from './ended-tastes.ts';
import { admitAsNextOf, type NextOf } from './next-statement.ts';
import { citationsOfCity, inHomeHeld } from './home-held.ts';
import { tiedToEndedOf } from './tied-statements.ts';

export interface AdmittedRecord {
  id: string;
  occurredAt: string;
  occurredMs: number;
  sourceName: string | null;
  /** The ids of the older revisions of the same item (source name, external id), if any. */
  olderRevisions?: readonly string[];
}

/** What a statement is looked up by: its words, its subject and its owner (a claim's, or a correction's). */
type StatementOf = Pick<Claim, 'statement' | 'subject' | 'owner'>;

/**
 * What a claim of no slot looks up: a current statement of the same key (statement-key.ts, every
 * Memory's `norm` since the stores' statement-keys migration) with the same owner and subject.
 */
export const sameStatementOf = (claim: StatementOf): SameStatement => ({
  norm: statementKey(claim.statement),
  subject: claim.subject,
  owner_state: claim.owner.state,
  owner_entity: claim.owner.entity ?? null,
});

/** A statement of no slot to admit: a claim's, or a correction's from another side stated here. */
export interface StatementAdmission {
  claim: StatementOf;
  /** The Record whose world time a Memory of its own starts at, kept under its source. */
  from: Omit<AdmittedRecord, 'id'>;
  /** What supports it: a quote of a Record. */
  citation: { recordId: string; quote: string };
  /** Why a Memory of its own is written (MemoryCause). */
  cause: MemoryCause;
  /** The Memory whose row a Memory of its own is written into, keeping its id (placeMemory). */
  adopt?: string | undefined;
}

/**
 * Admits a statement of no slot: it adds a citation to a current Memory of the same statement
 * (sameStatementOf), else starts a lineage of its own (one version, nothing to settle). The Memory's id,
 * and whether it was written now.
 */
export async function admitStatement(
  memories: MemoryRepository,
  brainUid: string,
  s: StatementAdmission,
  seq: number,
  now: string,
): Promise<{ id: string; made: boolean }> {
  const lookup = sameStatementOf(s.claim);
  const same = await memories.sameStatement(lookup);
  if (same) {
    await memories.addCitation(
      { memory_id: same, record_id: s.citation.recordId, quote: s.citation.quote },
      seq,
    );
    return { id: same, made: false };
  }
  const id = await placeMemory(
    memories,
    {
      brainUid,
      lineage: newId('lin'),
      slot: null,
      version: 1,
      statement: s.claim.statement,
      norm: lookup.norm,
      subject: s.claim.subject,
      predicate: null,
      owner: s.claim.owner,
      sourceKey: s.from.sourceName ?? '',
      validFrom: s.from.occurredAt,
      validFromMs: s.from.occurredMs,
      corrects: null,
      seq,
      learnedAt: now,
      cause: s.cause,
      citations: [s.citation],
    },
    s.adopt,
  );
  return { id, made: true };
}

/**
 * Whether a value of the slot other than the claim's holds it at `ms` (an ending holds none): where an
 * agent's restatement (`restated`) is its own statement, not a version of the slot.
 */
export function anotherValueHolds(
  versions: Awaited<ReturnType<MemoryRepository['slotVersions']>>,
  claim: Claim,
  ms: number,
): boolean {
  return versions.some(
    (v) =>
      v.status !== 'retracted' &&
      endedValue(v) === null &&
      inForceAt(timesOf(v), ms) &&
      !sameSlotValue(v, claim),
  );
}

/**
 * Whether an agent's restatement (`restated`) is its own statement of no slot at `ms`: where another
 * value holds the slot then, or (`joinsOnly`) where its own value does not (the same value joins it
 * before this is asked, at admission).
 */
export function restatesOnly(
  versions: Awaited<ReturnType<MemoryRepository['slotVersions']>>,
  claim: Claim,
  ms: number,
): boolean {
  if (anotherValueHolds(versions, claim, ms)) return true;
  return (
    claim.joinsOnly === true &&
    !versions.some(
      (v) =>
        v.status !== 'retracted' &&
        endedValue(v) === null &&
        inForceAt(timesOf(v), ms) &&
        sameSlotValue(v, claim),
    )
  );
}

/**
 * Before a new value of a slot is admitted at an instant: where another source restated the value holding
 * the slot then at that very instant (a fact from the phone saying Lisbon at 10:00, joined as a citation
 * to the home "I moved to Lisbon" gave a month before), that restatement becomes a version of its own
 * there, so the new value (the laptop's Porto at 10:00) meets it as a rival and the two are a conflict,
 * as when Porto had come first. Without it, Porto started later than the month-old Lisbon and replaced it.
 */
async function splitRestatement(
  memories: MemoryRepository,
  versions: readonly MemoryVersionRow[],
  at: { brainUid: string; from: { at: string; ms: number }; sourceKey: string; seq: number; now: string },
  version: number,
): Promise<void> {
  const holder = versions.find(
    (v) =>
      v.status === 'active' &&
      v.valid_from_ms < at.from.ms &&
      endedValue(v) === null &&
      inForceAt(timesOf(v), at.from.ms),
  );
  if (!holder) return;
  // An agent's read-back ("Noted: Ana lives in Lisbon.") is no independent evidence (agent-words.ts).
  const rivals = (await memories.citedAt(holder.id, at.from.ms)).filter(
    (c) => c.source_key !== at.sourceKey && !agentSpeaker(c.speaker ?? undefined, c.source_key || null),
  );
  // Only another source's, and never all of the holder's support: a version keeps a citation.
  const bySource = rivals.filter((c) => c.source_key === rivals[0]?.source_key);
  if (bySource.length === 0 || bySource.length >= bySource[0]!.total) return;
  await insertMemory(memories, {
    brainUid: at.brainUid,
    lineage: holder.lineage,
    slot: holder.slot,
    version,
    statement: holder.statement,
    norm: holder.norm,
    subject: holder.subject,
    predicate: holder.predicate,
    owner: {
      state: holder.owner_state,
      ...(holder.owner_entity !== null ? { entity: holder.owner_entity } : {}),
    },
    sourceKey: bySource[0]!.source_key,
    validFrom: at.from.at,
    validFromMs: at.from.ms,
    corrects: null,
    seq: at.seq,
    learnedAt: at.now,
    cause: 'derived',
    citations: bySource.map((c) => ({ recordId: c.record_id, quote: c.quote })),
  });
  await memories.dropCitations(
    holder.id,
    bySource.map((c) => c.record_id),
  );
}

/**
 * Turns a Record's claims into Memory versions:
 * - a slot claim (fact) joins the slot's lineage: the same value at the same world time, or the same
 *   value as the one holding the slot at the Record's world time, only adds a citation (the same value
 *   in whatever form: a fact's "me home city: Lisbon" and "I live in Lisbon" are one, slot-value.ts);
 *   a different value is a new version, and the lineage is settled (supersession by world time, or a
 *   conflict); an ending ("I no longer work at Acme") is one only where the value it ends holds then,
 *   and a value admitted out of order moves the endings after it into or out of the lineage
 *   (place-endings.ts); an agent's restatement of a value (`restated`) is its own statement of no slot
 *   where another value holds the slot then;
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
  /**
   * Whether a plan said off or given another day withdraws the plan before it (called-off-plans.ts), and
   * a plan of no slot said moved or called off is superseded (changed-plans.ts), an open task said
   * done is done (done-tasks.ts), a taste said over is superseded (ended-tastes.ts), and a statement
   * tied to a value the sentence ends is closed with it (tied-statements.ts):
   * on a Record's first derivation, in write order. Not when the upgrade pass derives one again, when
   * plans said after it may be stored already.
   */
  withdrawsPlans = true,
  /**
   * Claims whose Memory, where admission writes one of its own, is written into an existing
   * Memory's row, keeping its id (placeMemory): the upgrade pass's re-owned Memories. Where the claim
   * joins another Memory instead, the returned ids say so (the adopted id is not among them).
   */
  adopt: ReadonlyMap<Claim, string> = new Map(),
  /** The Brain's Records, where the caller has them: the thread a plan's booking was said in. */
  records?: PlanRecords,
): Promise<string[]> {
  const ids: string[] = [];
  const sourceKey = record.sourceName ?? '';
  const closed = await closedOnOlderRevisions(memories, record.olderRevisions ?? []);
  for (const said of claims) {
    let claim = said;
    const citation = { recordId: record.id, quote: claim.quote };
    // Said again by a newer revision of its item, a Memory closed since stays closed, citing it too.
    const again = saidAgain(closed, claim);
    if (again !== null) {
      await memories.addCitation({ memory_id: again.id, record_id: record.id, quote: claim.quote }, seq);
      ids.push(again.id);
      continue;
    }
    if (claim.predicate === null) {
      const admitFound = async (found: NextOf | null) =>
        found === null ? null : admitAsNextOf(memories, { brainUid, record, claim, seq, now }, found);
      // "I renewed my passport": the open task's next version, done, where the task is found.
      const done = withdrawsPlans
        ? await admitFound(await doneTaskOf(memories, claim, record.occurredMs))
        : null;
      if (done !== null) ids.push(done);
      // "The dentist moved my appointment to Friday": the plan's next version, where the plan is found.
      const changed = withdrawsPlans
        ? await admitFound(await changedPlanOf(memories, claim, record.occurredMs, records))
        : null;
      if (changed !== null) ids.push(changed);
      // "I don't drink tea anymore": the next version of her statement of that taste, where found.
      // "We are not doing SQLite after all", "Turns out I'm not allergic to walnuts": likewise.
      const ended =
        withdrawsPlans && done === null && changed === null
          ? await admitFound(await saidOverOf(memories, claim, record.occurredMs))
          : null;
      if (ended !== null) ids.push(ended);
      // "Petra and I broke up": closes "We've been together three years." said with her as the partner.
      const tied =
        withdrawsPlans && done === null && changed === null && ended === null
          ? await admitFound(await tiedToEndedOf(memories, claim, claims, record.occurredMs))
          : null;
      if (tied !== null) ids.push(tied);
      if (done !== null || changed !== null || ended !== null || tied !== null) continue;
      const s = { claim, from: record, citation, cause: 'derived' as const, adopt: adopt.get(said) };
      ids.push((await admitStatement(memories, brainUid, s, seq, now)).id);
      if (withdrawsPlans) await callOffPlans(memories, record, claim, seq);
      continue;
    }
    // "Change of plans, I live in Porto now": the plan's day must not end what holds now.
    if (withdrawsPlans && claim.plansChanged)
      await callOffPlans(memories, record, { ...claim, callsOff: { predicate: claim.predicate } }, seq);
    const slot = slotKey(claim.subject, claim.predicate, claim.owner);
    const versions = await memories.slotVersions(slot);
    // A value said to start later ("I'm starting at Revolut on Monday") holds from that day.
    const from =
      claim.startsAt === undefined
        ? { at: record.occurredAt, ms: record.occurredMs }
        : { at: claim.startsAt, ms: Date.parse(claim.startsAt) };
    // An address said alone is in the city the home holds then, and that city said again is that home.
    const home = inHomeHeld(claim, versions, from.ms);
    claim = home.claim;
    // The same plan given another day ("starting at revolut on the 23rd now"): the day it had is
    // withdrawn, retracted by this Record, as a plan called off is. So is a plan that came early, said
    // to hold now ("I live in Lisbon now" before the move's day): left, the plan's later start closed
    // what she says holds now. A plan the same Record says beside it is no earlier word to replace,
    // nor one another value of the slot begins before (an old message imported late: "I live in Lisbon
    // now" from before she moved to Porto and planned to go back).
    const between = (v: MemoryVersionRow) =>
      versions.some(
        (w) =>
          !sameSlotValue(w, claim) &&
          w.status !== 'retracted' &&
          w.retracted_by === null &&
          w.valid_from_ms > record.occurredMs &&
          w.valid_from_ms < v.valid_from_ms,
      );
    const moved = !withdrawsPlans
      ? []
      : versions.filter(
          (v) =>
            sameSlotValue(v, claim) &&
            planAhead(v, record.occurredMs) &&
            v.valid_from_ms !== from.ms &&
            (claim.startsAt !== undefined || (!ids.includes(v.id) && !between(v))),
        );
    for (const v of moved) await memories.update(v.id, { retracted_by: record.id });
    // Her own word never joins what someone else said of her ("Rui says Ana lives in Porto"): it is a
    // version of its own, which closes that one (settle-lineage.ts); else his words stayed her value's.
    const joins = (v: MemoryVersionRow) =>
      sameSlotValue(v, claim) && (saidBy(claim) !== null || saidBy(v) === null);
    // Said again after someone contested it ("Rui says Ana's birthday is May 3rd"), her value is a
    // version of its own from then, which closes his: she answered him.
    const answers = (v: MemoryVersionRow) =>
      saidBy(claim) === null &&
      versions.some(
        (h) =>
          h.status === 'active' &&
          saidBy(h) !== null &&
          h.valid_from_ms > v.valid_from_ms &&
          h.valid_from_ms <= from.ms,
      );
    const same = (
      versions.find((v) => joins(v) && v.valid_from_ms === from.ms && v.status !== 'retracted') ??
      versions.find((v) => joins(v) && !moved.includes(v) && inForceAt(timesOf(v), from.ms) && !answers(v))
    )?.id;
    if (same) {
      await memories.addCitation({ memory_id: same, record_id: record.id, quote: claim.quote }, seq);
      if (moved.length > 0) await settleLineage(memories, versions[0]!.lineage, seq);
      ids.push(same);
      continue;
    }
    // An agent's restatement ("Noted: Ana lives in Braga.") holds no slot that another value holds then:
    // it is not independent evidence against what the person said. It is the agent's statement instead.
    if (claim.restated !== undefined && restatesOnly(versions, claim, from.ms)) {
      const s = {
        claim: claim.restated,
        from: record,
        citation,
        cause: 'derived' as const,
        adopt: adopt.get(said),
      };
      ids.push((await admitStatement(memories, brainUid, s, seq, now)).id);
      continue;
    }
    // "I no longer work at Acme" ends Acme, not whatever holds the job: "I moved to Porto" then "I don't
    // live in Lisbon anymore" leaves Porto current, the sentence a Memory of its own.
    if (claim.ends !== undefined && !holdsThen(versions, claim, claim.ends, record.occurredMs)) {
      const s = { claim, from: record, citation, cause: 'derived' as const, adopt: adopt.get(said) };
      ids.push((await admitStatement(memories, brainUid, s, seq, now)).id);
      continue;
    }
    // A slot claim joins its slot's lineage (a new version), or starts it.
    const lineage = versions[0]?.lineage ?? newId('lin');
    if (claim.ends === undefined)
      await splitRestatement(
        memories,
        versions,
        { brainUid, from, sourceKey, seq, now },
        nextVersion(versions),
      );
    const latest = claim.ends === undefined ? await memories.slotVersions(slot) : versions;
    ids.push(
      await placeMemory(
        memories,
        {
          brainUid,
          lineage,
          slot,
          version: nextVersion(latest),
          statement: claim.statement,
          norm: statementKey(claim.statement),
          subject: claim.subject,
          predicate: claim.predicate,
          owner: claim.owner,
          sourceKey,
          validFrom: from.at,
          validFromMs: from.ms,
          corrects: null,
          seq,
          learnedAt: now,
          cause: latest.length > 0 ? 'superseded_by_record' : 'derived',
          citations: [
            citation,
            ...(home.cityOf === undefined ? [] : await citationsOfCity(memories, home.cityOf, record.id)),
          ],
        },
        adopt.get(said),
      ),
    );
    await settleLineage(memories, lineage, seq);
    // A value admitted out of order may change where an ending of a later time belongs.
    if (claim.ends === undefined) {
      const value = { ...claim, owner_state: claim.owner.state, owner_entity: claim.owner.entity ?? null };
      await placeEndings(memories, value, slot, lineage, from.ms, async () => seq);
    }
  }
  return [...new Set(ids)];
}
