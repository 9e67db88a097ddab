import { firstAndWhole } from '../core/derive/known-first-name.ts';
import type {
  BrainUnitOfWork,
  CitedMemory,
  MemoryVersionRow,
  Storage,
  UpgradeList,
  UpgradeRecord,
  UpgradeUnit,
} from '../ports/index.ts';
import { admitClaims, restatesOnly, sameStatementOf } from './admit-claims.ts';
import { deriveContext } from './derive-context.ts';
import { claimsOf, sameValueOf, type OnRestated } from './derive-jobs.ts';
import { withdrawSlips } from './replies.ts';
import { deriverInput, type RecordRow } from './deriver-input.ts';
import type { Claim, Deriver } from '../core/derive/deriver.ts';
import { recordRemoval } from './memory-removal.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { endedValue, sameSlotValue } from '../core/derive/slot-value.ts';
import { newId } from '../ids.ts';
import { nextVersion } from './insert-memory.ts';
import { settleLineage } from './settle-lineage.ts';
import { placeEndings } from './place-endings.ts';
import { settlement } from '../core/derive/settle-lineage.ts';
import { supersedeOlderRevisions } from './supersede-revisions.ts';
import { rematchUnmatched } from './travelled-correction.ts';
import { isDoneBy } from '../core/derive/task-done.ts';
import { changedPlanOf, eventsAheadOf } from './changed-plans.ts';
import { saidOverOf, saysOver } from './ended-tastes.ts';
import { tiedToEndedOf } from './tied-statements.ts';
import { admitNextStatement } from './next-statement.ts';
import type { EarlyClaims } from './early-claims.ts';

/** What deriving a Record again did. */
export type Rederived =
  /** The same claims: only the mark (and a quote that changed) was written. */
  | 'same'
  /** Memories it no longer states lost it; what it states now was admitted. */
  | 'changed'
  /** A person corrected or retracted one of its Memories: theirs is the last word, left as it is. */
  | 'kept'
  /** One of its Memories waits for re-derivation after a forget: left for the next pass. */
  | 'deferred';

/**
 * Derives a stored Record again under `deriver`, in the caller's transaction, and reconciles its
 * Memories with what it states now, matched by statement (by key, the Memory's `norm`:
 * statement-key.ts): a Memory it still states keeps its id and history (moved into the slot the rules
 * key it by now, when that changed: slotMoves); one it no longer states loses this Record's support
 * (deleted when nothing else supports it, else it rests on the Records that still do); a statement
 * that is new is admitted as any new claim is (joining an equal current Memory or a slot's lineage).
 * A Memory a person corrected or retracted keeps what they said: that Record is left. A Memory whose
 * claim the rules now give another owner, the Record saying the same thing of it, keeps its id
 * (reown): only where that cannot be (it becomes one with another Memory) does it go as any lost one.
 */
export async function rederiveRecord(
  rows: UpgradeUnit,
  uow: BrainUnitOfWork,
  deriver: Deriver,
  r: RecordRow,
  now: () => string,
  onRestated?: OnRestated,
  early?: Pick<EarlyClaims, 'take'>,
): Promise<Rederived> {
  const cited = await rows.cited(r.id);
  if (cited.some((m) => m.pending)) return 'deferred';
  const input = deriverInput(r);
  const claims = await claimsOf(uow, deriver, r, await deriveContext(uow, [input.content]), input, early);
  const keyOf = new Map(claims.map((c) => [c, statementKey(c.statement)]));
  const stated = new Map<string, Claim>();
  for (const [c, key] of keyOf) if (!stated.has(key)) stated.set(key, c);
  // A claim states a Memory by its key (statement-key.ts), holding a slot as the Memory does or not,
  // or, for a slot, by giving its value in other words. A sentence that holds the home in its own words
  // (rules-v28) does not state the Memory of no slot it was before, which outlived the home.
  // An ended value ("Ana no longer works at Acme") is a Memory of no slot where the value did not hold.
  // Not by a claim the rules now give nobody known, though in the same words, a Memory of the self's:
  // "Maya"'s "I love hiking." is no longer hers once a "Maya Silva" speaks in the Brain (namesake.ts),
  // and the self's Profile must not keep what may be another's. Nor by one the rules now give another
  // person from a note: "People/Rui Sousa.md" in her words gave her his "Allergic to peanuts!" before
  // rules-v51. Nor a note's Memory of nobody's by a claim the rules now give someone: an agent's
  // untitled "Sam prefers the window seat." or "Maya prefers tea." was the source's ("mcp") before
  // rules-v52. Nor a Memory of another person's or nobody's by a claim the rules now give the self: a
  // Brain made without a self (a hub's, by a device's first sync) that is given one (updateBrain,
  // which lists its Records) has "Lea Horvat"'s and "user"'s words derived as another's and nobody's;
  // they are hers now. (Other changes of owner keep the Memory's, as written: a self renamed keeps
  // what she said under her old name.)
  const ofNote = input.content.kind === 'document';
  // Nor a Memory of "Marko" by a claim of the one Marko the Brain knows, "Marko Babić" (rules-v79,
  // known-first-name.ts), or back where a second Marko is known since: his slot, not the name's, and
  // his "Marko called to ask how it went." though its words are the same.
  const ownedOtherwiseNow = (c: Claim, m: CitedMemory) =>
    (m.owner_state === 'self' && (c.owner.state === 'unresolved' || (ofNote && c.owner.state === 'other'))) ||
    (m.owner_state !== 'self' && c.owner.state === 'self') ||
    (ofNote && m.owner_state === 'unresolved' && c.owner.state !== 'unresolved') ||
    ((m.slot !== null) === (c.predicate !== null) && firstAndWhole(m.subject, c.subject));
  // An agent's restatement states its own statement where another value holds the slot then, as
  // admission makes it (admit-claims.ts): kept as it is, not derived again on each upgrade.
  const restatedKey = new Map<Claim, string>();
  for (const c of claims) {
    if (c.restated === undefined || c.predicate === null) continue;
    const versions = await uow.memories.slotVersions(slotKey(c.subject, c.predicate, c.owner));
    if (restatesOnly(versions, c, r.occurred_ms)) restatedKey.set(c, statementKey(c.restated.statement));
  }
  // A deed said done states the task it did ("I renewed my passport today!": "Done: renew passport",
  // done-tasks.ts), which admission made of it in other words.
  const states = (c: Claim, m: CitedMemory) =>
    !ownedOtherwiseNow(c, m) &&
    ((keyOf.get(c) === m.norm && ((c.predicate === null) === (m.slot === null) || c.ends !== undefined)) ||
      sameValueOf(c, m) ||
      (m.slot === null && restatedKey.get(c) === m.norm) ||
      (m.slot === null && c.doesTask !== undefined && isDoneBy(m.statement, c.doesTask)));
  const lost = cited.filter((m) => !claims.some((c) => states(c, m)));
  const fresh = claims.filter((c) => !cited.some((m) => states(c, m)));
  const moves = slotMoves(cited, stated);
  const twins = [
    ...(await valueTwins(uow, cited, claims, states, moves)),
    ...(await wordTwins(uow, cited, claims, states, lost)),
  ];
  let seq: number | null = null;
  const step = async () => (seq ??= await uow.sequence.next());

  // A Memory still stated takes the quote the rules now give it ("I live in Porto" rather than the whole
  // sentence that also named the dentist), as a Record derived afresh would.
  const requote = async () => {
    for (const m of cited) {
      const same = stated.get(m.norm);
      const quote = (
        same !== undefined && !ownedOtherwiseNow(same, m) ? same : claims.find((c) => states(c, m))
      )?.quote;
      if (quote === undefined || quote === m.quote) continue;
      await rows.requote(m.id, r.id, quote);
      await rows.moveTo(m.id, await step());
    }
  };
  if (lost.length === 0 && fresh.length === 0 && moves.length === 0 && twins.length === 0) {
    await requote();
    await settleEndings(uow, cited, step);
    await joinChangedPlans(rows, uow, r, keyOf, step, now);
    return 'same';
  }
  if (await rows.personSaid([...new Set(cited.map((m) => m.lineage))])) return 'kept';
  const claimed = [...fresh];

  // What the Record says of a Memory is the same, only whose it is changed: the Memory keeps its id.
  const pairs = reownPairs(lost, fresh, keyOf, ownedOtherwiseNow, new Set(moves.map((x) => x.memory)));
  for (const { memory, claim } of pairs) {
    lost.splice(lost.indexOf(memory), 1);
    fresh.splice(fresh.indexOf(claim), 1);
  }

  // Its support goes to the earlier version that holds the same value from the same instant, as a
  // claim's would now.
  for (const { memory, claim } of twins) {
    lost.push(memory);
    fresh.push(claim);
  }

  for (const { memory: m, slot, claim } of moves) {
    const versions = await uow.memories.slotVersions(slot);
    // The slot holds this very statement from the same instant already (admitted under the new key
    // before this Record's turn): this Record's support goes to that one, as a claim's would.
    if (
      versions.some(
        (v) => sameSlotValue(v, m) && v.valid_from_ms === m.valid_from_ms && v.status !== 'retracted',
      )
    ) {
      lost.push(m);
      fresh.push(claim);
      continue;
    }
    const lineage = versions[0]?.lineage ?? newId('lin');
    await rows.reslot(m.id, { slot, lineage, version: nextVersion(versions), seq: await step() });
    await settleLineage(uow.memories, m.lineage, await step());
    await settleLineage(uow.memories, lineage, await step());
  }

  const loses = async (m: CitedMemory) => {
    // Whether this Record is its only support: at most two citations read, however many it has.
    const support = await rows.supportUpTo2(m.id);
    if (support <= 1) {
      await recordRemoval(uow, m.id, await step(), 'deleted');
      await rows.deleteMemory(m.id);
      await settleLineage(uow.memories, m.lineage, await step());
      return;
    }
    const wasShared = await rows.shared(m.id);
    await rows.dropCitation(m.id, r.id);
    await restOnOthers(rows, uow, m, r, await step(), now);
    // Served to hosted readers until now through this Record alone: they are told it went.
    if (wasShared && !(await rows.shared(m.id)))
      await recordRemoval(uow, m.id, await step(), 'deleted', true);
  };
  for (const m of lost) await loses(m);
  const record = {
    id: r.id,
    occurredAt: r.occurred_at,
    occurredMs: r.occurred_ms,
    sourceName: r.source_name,
  };
  await admitClaims(uow.memories, uow.brainUid, record, fresh, await step(), now(), false);
  for (const { memory, claim } of pairs) {
    const done = await reown(rows, uow, r, memory, claim, step, now, onRestated);
    if (done === 'reowned') continue;
    // Its id cannot be kept (reown says why): it loses this Record as a Memory no longer stated does,
    // and the claim is admitted as a new one is, unless reown admitted it already.
    await loses(memory);
    if (done === 'untouched')
      await admitClaims(uow.memories, uow.brainUid, record, [claim], await step(), now(), false);
  }
  await withdrawSlips(uow, r, claimed, await step());
  await requote();
  await settleEndings(uow, cited, step);
  await joinChangedPlans(rows, uow, r, keyOf, step, now);
  return 'changed';
}

/**
 * A Memory this Record states that changes a plan (changed-plans.ts), ends a taste (ended-tastes.ts,
 * rules-v72) or ends a partner beside what was said of the couple (tied-statements.ts, rules-v92),
 * still a lineage of its own because the rules that read the change came after the Record's
 * first derivation: it becomes the plan's (the taste's) next version, closing the plan where it begins, as a first derivation admits it now. Only a
 * version alone in its lineage: one a correction, a mend or another change already placed stays.
 */
async function joinChangedPlans(
  rows: UpgradeUnit,
  uow: BrainUnitOfWork,
  r: RecordRow,
  /** The Record's claims now, each with its statement's key. */
  keyOf: ReadonlyMap<Claim, string>,
  step: () => Promise<number>,
  now: () => string,
): Promise<void> {
  const claims = [...keyOf.keys()];
  // "Petra and I broke up last night.": the sentence beside its ending, which closes what was said of
  // the couple (tied-statements.ts, rules-v89); a store derived before kept that open.
  const tied = (c: Claim) =>
    c.predicate === null &&
    claims.some((e) => e.ends !== undefined && e.predicate !== null && e.quote === c.quote);
  const changes = [...keyOf].filter(([c]) => c.changesPlan !== undefined || saysOver(c) || tied(c));
  if (changes.length === 0) return;
  for (const m of await rows.cited(r.id)) {
    if (m.slot !== null || m.status !== 'active') continue;
    const claim = changes.find(([, key]) => key === m.norm)?.[0];
    if (claim === undefined) continue;
    if ((await uow.memories.lineage(m.lineage, { shareableOnly: false })).length > 1) {
      // Placed already (the note's "Dentist on Thursday …" it moved), it takes the calendar's events
      // still to come it names as their next version, as admission gives them now (rules-v84; her own
      // event beside her plan said before it, rules-v85).
      for (const lineage of await eventsAheadOf(uow.memories, claim, r.occurred_ms))
        if (lineage !== m.lineage)
          await admitNextStatement(uow.memories, {
            brainUid: uow.brainUid,
            lineage,
            statement: m.statement,
            record: {
              id: r.id,
              occurredAt: r.occurred_at,
              occurredMs: r.occurred_ms,
              sourceName: r.source_name,
            },
            claim: {
              ...claim,
              owner: { state: m.owner_state, ...(m.owner_entity !== null ? { entity: m.owner_entity } : {}) },
            },
            seq: await step(),
            now: now(),
          });
      continue;
    }
    const plan =
      claim.changesPlan !== undefined
        ? await changedPlanOf(uow.memories, claim, r.occurred_ms, uow.records)
        : saysOver(claim)
          ? await saidOverOf(uow.memories, claim, r.occurred_ms)
          : await tiedToEndedOf(uow.memories, claim, claims, r.occurred_ms);
    if (plan === null || plan.lineage === m.lineage) continue;
    const versions = await uow.memories.lineage(plan.lineage, { shareableOnly: false });
    await uow.memories.update(m.id, {
      lineage: plan.lineage,
      version: nextVersion(versions),
      cause: 'superseded_by_record',
      owner_state: plan.owner.state,
      owner_entity: plan.owner.entity ?? null,
      seq: await step(),
    });
    await settleLineage(uow.memories, plan.lineage, await step());
    // The unowned event of the same plan takes the change as its next version, as admission gives it.
    for (const lineage of plan.also)
      await admitNextStatement(uow.memories, {
        brainUid: uow.brainUid,
        lineage,
        statement: m.statement,
        record: { id: r.id, occurredAt: r.occurred_at, occurredMs: r.occurred_ms, sourceName: r.source_name },
        claim: { ...claim, owner: plan.owner },
        seq: await step(),
        now: now(),
      });
  }
}

/**
 * The lineages of the slot values this Record supports, settled again and their endings placed as
 * admission places them now (place-endings.ts, rules-v35): an ending written before the value it
 * ends, or one beside another value at one instant (a conflict before), is where it belongs in a
 * store derived before. A step is taken only where something changes.
 */
async function settleEndings(
  uow: BrainUnitOfWork,
  cited: readonly CitedMemory[],
  step: () => Promise<number>,
): Promise<void> {
  for (const c of cited) {
    const m = await uow.memories.get(c.id);
    if (m === null || m.slot === null || m.status === 'retracted' || endedValue(m) !== null) continue;
    if (settlement(await uow.memories.settling(m.lineage)).length > 0)
      await settleLineage(uow.memories, m.lineage, await step());
    await placeEndings(uow.memories, m, m.slot, m.lineage, m.valid_from_ms, step);
  }
}

/**
 * Memories the Record still states whose slot the rules now key otherwise (a fact's `home_city` is the
 * "lives in" of a message since `rules-v9`): matched by statement alone, they would keep the old slot,
 * beside the one sentences hold, for ever. Only the predicate's reading moves a Memory: its owner and
 * subject stay as written, so a slot that is now another person's (a self renamed) is not taken.
 */
function slotMoves(
  cited: readonly CitedMemory[],
  stated: ReadonlyMap<string, Claim>,
): { memory: CitedMemory; slot: string; claim: Claim }[] {
  return cited.flatMap((memory) => {
    const claim = stated.get(memory.norm);
    if (!claim || claim.predicate === null || memory.slot === null) return [];
    const slot = slotKey(claim.subject, claim.predicate, claim.owner);
    const who = (key: string) => key.slice(0, key.indexOf('\u001f') + 1);
    return slot !== memory.slot && who(slot) === who(memory.slot) ? [{ memory, slot, claim }] : [];
  });
}

/**
 * Slot Memories of this Record that hold, from the same instant, a value an earlier version of their
 * slot already holds in other words: a fact's "me home city: Lisbon" and "I live in Lisbon", admitted
 * before `rules-v15` as two values of one slot, shown as a conflict that agreed with itself. Each
 * with the claim of this Record that states it. Moves are settled by slotMoves, corrections are the
 * person's.
 */
async function valueTwins(
  uow: BrainUnitOfWork,
  cited: readonly CitedMemory[],
  claims: readonly Claim[],
  states: (c: Claim, m: CitedMemory) => boolean,
  moves: readonly { memory: CitedMemory }[],
): Promise<{ memory: CitedMemory; claim: Claim }[]> {
  const twins: { memory: CitedMemory; claim: Claim }[] = [];
  for (const m of cited) {
    if (m.slot === null || m.cause === 'correction' || moves.some((x) => x.memory === m)) continue;
    const claim = claims.find((c) => states(c, m));
    if (!claim) continue;
    const versions = await uow.memories.slotVersions(m.slot);
    const me = versions.find((v) => v.id === m.id);
    if (
      me &&
      versions.some(
        (v) =>
          v.n < me.n &&
          v.status !== 'retracted' &&
          v.valid_from_ms === me.valid_from_ms &&
          sameSlotValue(v, me),
      )
    )
      twins.push({ memory: m, claim });
  }
  return twins;
}

/**
 * Memories of no slot of this Record that say, by their key, what an earlier current Memory of the same
 * subject and owner says: "I love hiking." and "I really love hiking!", two Memories before
 * `rules-v16`, or a paraphrase written while a pass had not reached the first yet, keyed alike by the
 * stores' statement-keys migration (which lists its Records). Each with the claim of this Record that
 * states it; the earlier one is found as a claim finds it (sameStatement: the first written).
 */
async function wordTwins(
  uow: BrainUnitOfWork,
  cited: readonly CitedMemory[],
  claims: readonly Claim[],
  states: (c: Claim, m: CitedMemory) => boolean,
  lost: readonly CitedMemory[],
): Promise<{ memory: CitedMemory; claim: Claim }[]> {
  const twins: { memory: CitedMemory; claim: Claim }[] = [];
  for (const m of cited) {
    if (m.slot !== null || m.status !== 'active' || m.cause === 'correction' || lost.includes(m)) continue;
    const claim = claims.find((c) => states(c, m));
    if (!claim) continue;
    const earlier = await keyHolder(uow, m);
    // One change placed as the next version of several lineages (the plan, its booking, an agent's
    // note of it: changed-plans.ts `also`) says the same words in each by design: no twins.
    const placedTogether =
      earlier !== null &&
      m.cause === 'superseded_by_record' &&
      cited.some((c) => c.id === earlier.id && c.cause === 'superseded_by_record');
    if (earlier !== null && earlier.n < m.n && !placedTogether) twins.push({ memory: m, claim });
  }
  return twins;
}

/**
 * The Memory a claim of `m`'s key finds for its subject and owner (sameStatement: the first written),
 * when it is another than `m`, or null.
 */
async function keyHolder(uow: BrainUnitOfWork, m: CitedMemory): Promise<MemoryVersionRow | null> {
  const id = await uow.memories.sameStatement({
    norm: m.norm,
    subject: m.subject,
    owner_state: m.owner_state,
    owner_entity: m.owner_entity,
  });
  return id === null || id === m.id ? null : uow.memories.get(id);
}

/**
 * The Memories this Record no longer states only because the rules give their claim another owner
 * now (ownedOtherwiseNow: a self set or changed, a namesake, a whole name known), each with the claim
 * that says the same thing of it: the claim of its key, else the one claim of its very quote ("I work
 * at Infobip." of the agent's user, "Lea Horvat works at Infobip" once the user is she). One claim to
 * one Memory, both ways; a Memory a slot move or a correction made is not one of them.
 */
function reownPairs(
  lost: readonly CitedMemory[],
  fresh: readonly Claim[],
  keyOf: ReadonlyMap<Claim, string>,
  ownedOtherwiseNow: (c: Claim, m: CitedMemory) => boolean,
  moved: ReadonlySet<CitedMemory>,
): { memory: CitedMemory; claim: Claim }[] {
  const candidates = (m: CitedMemory): Claim[] => {
    if (m.cause === 'correction' || moved.has(m)) return [];
    const owned = fresh.filter((c) => ownedOtherwiseNow(c, m));
    const byKey = owned.filter((c) => keyOf.get(c) === m.norm);
    return byKey.length > 0 ? byKey : owned.filter((c) => c.quote === m.quote);
  };
  const of = new Map(lost.map((m) => [m, candidates(m)]));
  return lost.flatMap((memory) => {
    const [claim, ...more] = of.get(memory)!;
    if (claim === undefined || more.length > 0) return [];
    const rivals = lost.filter((m) => of.get(m)!.includes(claim));
    return rivals.length === 1 ? [{ memory, claim }] : [];
  });
}

/**
 * Re-owns the Memory `m` by the claim `c` of the Record `r`, keeping its id: the ids an agent cited,
 * a correction or the app holds, and a delta reader's, stay good (a `deleted` removal and a new id
 * before). Where the claim holds the slot the Memory holds (hers by the name she had) or, as it, none,
 * the Memory stays where it is with its history and world time: its words, subject and owner are the
 * claim's, a revision `rederived` learned now. Where it holds another slot, or one where the Memory held
 * none, the claim is admitted as a first derivation would admit it, into the Memory's own row
 * (placeMemory), and the lineage it left is settled. What keeps the id from being kept: another Record
 * citing it that was derived again already (it stays stated there as it was), or an equal Memory the
 * claim joins instead ('admitted': the claim went there; the caller lets `m` lose this Record), or, for
 * a Memory that moves, another Record citing it at all ('untouched': nothing written).
 */
async function reown(
  rows: UpgradeUnit,
  uow: BrainUnitOfWork,
  r: RecordRow,
  m: CitedMemory,
  c: Claim,
  step: () => Promise<number>,
  now: () => string,
  onRestated: OnRestated | undefined,
): Promise<'reowned' | 'admitted' | 'untouched'> {
  if (await rows.supportOffList(m.id, r.id)) return 'untouched';
  const slot = c.predicate === null ? null : slotKey(c.subject, c.predicate, c.owner);
  const owner = { owner_state: c.owner.state, owner_entity: c.owner.entity ?? null };
  if (slot === m.slot) {
    if (slot === null) {
      const same = await uow.memories.sameStatement(sameStatementOf(c));
      if (same !== null && same !== m.id) return 'untouched';
    } else if (!sameSlotValue(c, m)) return 'untouched';
    await uow.memories.update(m.id, {
      statement: c.statement,
      norm: statementKey(c.statement),
      subject: c.subject,
      predicate: c.predicate,
      ...owner,
      cause: 'rederived',
      learned_at: now(),
      seq: await step(),
    });
    if (slot !== null) await settleLineage(uow.memories, m.lineage, await step());
  } else {
    if ((await rows.supportUpTo2(m.id)) > 1) return 'untouched';
    const ids = await admitClaims(
      uow.memories,
      uow.brainUid,
      { id: r.id, occurredAt: r.occurred_at, occurredMs: r.occurred_ms, sourceName: r.source_name },
      [c],
      await step(),
      now(),
      false,
      new Map([[c, m.id]]),
    );
    if (!ids.includes(m.id)) return 'admitted';
    await settleLineage(uow.memories, m.lineage, await step());
  }
  if (c.quote !== m.quote) await rows.requote(m.id, r.id, c.quote);
  if (c.statement !== m.statement) await onRestated?.(uow, m.n);
  return 'reowned';
}

/**
 * A Memory that lost the Record `r` rests on the Records still citing it. They keep their citations:
 * each is judged on its own turn, and one a person corrected never is (restOnSurvivors would judge them
 * all now, and read every one: a Memory cited by thousands of Records made the pass quadratic). Its
 * world time restarts at the earliest of them when `r` was where it began.
 */
async function restOnOthers(
  rows: UpgradeUnit,
  uow: BrainUnitOfWork,
  m: CitedMemory,
  r: RecordRow,
  seq: number,
  now: () => string,
): Promise<void> {
  if (m.cause !== 'correction') {
    const first = m.valid_from_ms < r.occurred_ms ? undefined : await rows.firstCiting(m.id);
    if (first) await rows.restartValidFrom(m.id, first);
    await rows.markRederived(m.id, now());
  }
  await rows.moveTo(m.id, seq);
  await settleLineage(uow.memories, m.lineage, seq);
}

export interface UpgradeStep {
  /** Records looked at in this step. */
  ran: number;
  /** Of those, Records whose Memories changed. */
  changed: number;
  /** Records remain for a later step. */
  more: boolean;
}

export interface DerivationUpgrade {
  /**
   * Derives Records again, in the order they were written, while `keepGoing()` says so, each Record
   * (with its item's other revisions) in a unit of work of its own, a page of them sharing one commit.
   * Rejects when the store failed: what the step did may be partly kept, and reset() looks again.
   */
  step(keepGoing: () => boolean): Promise<UpgradeStep>;
  /**
   * Before a step: the rules derive the next page's Records on the derive thread, where the engine has
   * one (early-claims.ts), so the step's units take their claims instead of deriving them.
   */
  ahead(): Promise<void>;
  /** The last steps were rolled back: look again from the first Record. */
  reset(): void;
  /**
   * After the pass ended, looks at the list again from the first Record: on PostgreSQL the list is every
   * process's, and another may have listed Records there (a namesake's arrival) and died before
   * deriving them; a Record deferred then may be ready now. Records whose upgrade failed in this
   * process are passed over until it restarts. False, and nothing changes, while a pass is under way.
   */
  again(): boolean;
  /** Whether the pass ended with Records it left listed (deferred, or failed): again() may reach them. */
  leftBehind(): boolean;
  /**
   * In the unit `uow` of the derive job of a namesake's first message (derive/namesake.ts): lists the
   * Brain's Records written before step `beforeSeq` that name the self's first name `first` alone, to
   * be derived again by this pass, which then looks again from the first Record. How many were listed.
   */
  relistNaming(uow: BrainUnitOfWork, first: string, beforeSeq: number): Promise<number>;
  /**
   * In the unit `uow` that set or changed the Brain's self (updateBrain): lists every Record of the
   * Brain written before step `beforeSeq` to be derived again by this pass, which then looks again
   * from the first Record. How many were listed.
   */
  relistBrain(uow: BrainUnitOfWork, beforeSeq: number): Promise<number>;
}

export interface DerivationUpgradeOptions {
  /** The Records still to derive again, and their rows. */
  list: UpgradeList;
  /** The store's units of work, whose batched writes share one commit. */
  units: Pick<Storage, 'write'>;
  /** The storage's own failures (the pass starts over), told apart from a Record's. */
  storeFailure: (e: unknown) => boolean;
  deriver: Deriver;
  /** The same rules on the derive thread (early-claims.ts). */
  early?: EarlyClaims | undefined;
  now: () => string;
  /** A Memory's words changed in place (a re-owned one's): a storage that does not re-embed it by itself says how. */
  onRestated?: OnRestated;
  /**
   * Where the pass says that a Record failed on its own (rolled back alone, left for the next pass),
   * and that a pass that found Records to derive again ended. Its own shape: engine/derive may not
   * import the engine's Logger from engine/local (engine/folder-cycles.test.ts).
   */
  log: {
    info(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
}

const pageSize = 32;

/** Thrown by a unit the step's slice had no time left for: it rolls back, and the Record waits. */
class OutOfTime extends Error {}

/**
 * The background pass that brings every Record to the current deriver (see rederiveRecord). When the
 * deriver's name differs from the one the store last listed Records for (SQLite's `meta.derived_by`,
 * none in a store older than its migration 015; PostgreSQL's `mnemo_meta.derived_by`, one list for
 * every process on the database), every Record is listed in `derive_upgrade` (from an index: no
 * Record is read) and the name is stored, in one transaction at start. The pass takes the list in the
 * order written, a page of numbers at a time, and removes each Record it has done. An item's revisions
 * (one source and external id) are derived again together, oldest first, each closing what the older
 * ones stated as a first derivation does, so the store ends as one derived under the new rules from the
 * start would. Corrections are applied at write time and are not derived, but one from another side
 * that found no Memory of its Records to correct (stated as a Memory of its own, or a withdrawal that
 * withdrew nothing) is matched again when one of them changed (travelled-correction.ts,
 * rematchUnmatched); a Record whose first
 * derivation is still queued gets the new rules from that. A Record left for later (deferred, or failed)
 * stays listed and is looked at again at the next start, or when the caller asks for again(): a
 * deferred one once the Memory it waited for rests (derivation.ts), or a minute later on PostgreSQL; a
 * failed one then only in another process. The caller runs each step after its queued
 * jobs, so a Record just written is never made to wait for the pass.
 */
export function createDerivationUpgrade(opts: DerivationUpgradeOptions): DerivationUpgrade {
  const { list, deriver, units } = opts;
  // SQLite's list takes effect (and throws) here; a step waits for an adapter's that has not yet.
  const listed = list.listFor(deriver.name);
  listed.catch(() => {});
  let after = 0;
  let done = false;
  /** Records whose upgrade failed here: looked at again by the next start, not by again(). */
  const failedHere = new Set<number>();
  const counts = { looked: 0, changed: 0, kept: 0, left: 0 };
  const tally = (outcome: Rederived | 'failed') => {
    counts.looked += 1;
    if (outcome === 'changed') counts.changed += 1;
    else if (outcome === 'kept') counts.kept += 1;
    else if (outcome === 'deferred' || outcome === 'failed') counts.left += 1;
  };

  /** One listed Record, or every revision of its item, in its Brain's unit `uow`: what each came to. */
  const upgrade = async (uow: BrainUnitOfWork, n: number): Promise<Rederived[]> => {
    const rows = list.within(uow);
    const r = await rows.record(n);
    const queued = r !== undefined && (await rows.queued(r.id));
    if (!r || r.kind === 'correction' || queued) {
      await rows.unlist(n);
      return [];
    }
    const revisions: UpgradeRecord[] = r.external_id === null ? [r] : await rows.revisions(r);
    let changedSoFar = false;
    const outcomes: Rederived[] = [];
    for (const rev of revisions) {
      const outcome = await rederiveRecord(rows, uow, deriver, rev, opts.now, opts.onRestated, opts.early);
      changedSoFar ||= outcome === 'changed';
      // What older revisions state now and this one does not is closed by it, as at its first
      // derivation (also when this one itself is unchanged).
      if (rev.external_id !== null && changedSoFar)
        await supersedeOlderRevisions(
          uow.memories,
          { id: rev.id, n: rev.n, sourceName: rev.source_name, externalId: rev.external_id },
          await uow.sequence.next(),
        );
      if (outcome !== 'deferred') {
        await rows.unlist(rev.n);
        await uow.failures.clearRecord(rev.id);
      }
      outcomes.push(outcome);
    }
    // A correction from another side that found no Memory of these Records stood as a Memory of its
    // own, or withdrew nothing: one of theirs may now say what it corrected (this side words them as
    // the writer's did).
    const changed = revisions.filter((_, i) => outcomes[i] === 'changed').map((x) => x.id);
    if (changed.length > 0) await rematchUnmatched(uow, changed, opts.now());
    return outcomes;
  };

  /**
   * Records were listed behind where the pass is (or after it ended): it looks again from the first
   * Record. A unit that rolls back leaves nothing listed, and the pass finds nothing more.
   */
  const lookAgainIf = (listedNow: number): number => {
    if (listedNow > 0) {
      after = 0;
      done = false;
    }
    return listedNow;
  };

  const rewind = () => {
    after = 0;
    done = false;
    Object.assign(counts, { looked: 0, changed: 0, kept: 0, left: 0 });
  };

  return {
    async ahead() {
      if (done || opts.early === undefined) return;
      await listed;
      const page = await list.page(after, pageSize);
      await opts.early.prepareRecords(
        page.flatMap(({ brainUid, id, n }) =>
          brainUid === null || id === null || failedHere.has(n) ? [] : [{ brainUid, recordId: id }],
        ),
      );
    },
    async step(keepGoing) {
      await listed;
      let ran = 0;
      let changed = 0;
      let begun = 0;
      // With the derive thread, a step takes the one page ahead() had derived.
      const pagesAStep = opts.early === undefined ? Infinity : 1;
      for (let pages = 0; !done && keepGoing() && pages < pagesAStep; pages++) {
        const page = await list.page(after, pageSize);
        if (page.length === 0) {
          done = true;
          if (counts.looked > 0)
            opts.log.info('Records derived by an earlier deriver were derived again', {
              deriver: opts.deriver.name,
              ...counts,
            });
          break;
        }
        // Submitted together, so the page's units share one commit; each starts only if the slice has
        // time left, and those after the first that has none roll back and wait, in order. The step's
        // first unit runs however long it waited for its Brain (on PostgreSQL, behind other processes'
        // writes): a step always moves.
        let late = false;
        const settled = await Promise.allSettled(
          page.map(({ n, brainUid }) =>
            brainUid === null
              ? list.unlist(n).then((): Rederived[] => [])
              : failedHere.has(n)
                ? Promise.resolve<Rederived[]>([])
                : units.write(
                    brainUid,
                    async (uow) => {
                      if (late || (begun > 0 && !keepGoing())) {
                        late = true;
                        throw new OutOfTime();
                      }
                      begun++;
                      return upgrade(uow, n);
                    },
                    { batch: true },
                  ),
          ),
        );
        // The next step starts at the first unit that had no time. A storage that runs a page's Brains at
        // once (PostgreSQL) may have committed units of another Brain after it: they count now, and the
        // next step finds their Records off the list; one that failed there is looked at again then.
        let cut = false;
        for (const [i, s] of settled.entries()) {
          if (s.status === 'rejected' && s.reason instanceof OutOfTime) {
            cut = true;
            continue;
          }
          // The store's failure, not the Record's: the caller starts the pass over and tries later.
          if (s.status === 'rejected' && opts.storeFailure(s.reason)) throw s.reason;
          if (cut && s.status === 'rejected') continue;
          if (!cut) after = page[i]!.n;
          let outcomes: (Rederived | 'failed')[];
          if (s.status === 'fulfilled') outcomes = s.value;
          else {
            failedHere.add(page[i]!.n);
            opts.log.error('deriving a Record again failed; it is left as it was', {
              record_id: page[i]!.id ?? `#${page[i]!.n}`,
              error: String(s.reason),
            });
            outcomes = ['failed'];
          }
          for (const o of outcomes) tally(o);
          ran += outcomes.length;
          changed += outcomes.filter((o) => o === 'changed').length;
        }
      }
      return { ran, changed, more: !done };
    },
    reset: rewind,
    again() {
      if (!done) return false;
      rewind();
      return true;
    },
    // The counts stand from the pass's end until it is rewound.
    leftBehind: () => done && counts.left > 0,
    async relistNaming(uow, first, beforeSeq) {
      await listed;
      return lookAgainIf(await list.within(uow).listNaming(first, beforeSeq));
    },
    async relistBrain(uow, beforeSeq) {
      await listed;
      return lookAgainIf(await list.within(uow).listBrain(beforeSeq));
    },
  };
}
