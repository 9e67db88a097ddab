import { withEchoesJoined } from './echoes.ts';
import { withHeldEndings } from './held-endings.ts';
import { withReplies, withdrawSlips } from './replies.ts';
import { deriveContext } from './derive-context.ts';
import { namesakeArrives } from './namesake.ts';
import { wholeNameFirsts } from '../core/derive/known-first-name.ts';
import { foldName } from '../core/derive/resolve-owner.ts';
import type { BrainUnitOfWork, QueuedJob } from '../ports/index.ts';
import { deriverInput, type RecordRow } from './deriver-input.ts';
import { admitClaims } from './admit-claims.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import type { Claim, DerivableRecord, DeriveContext, Deriver } from '../core/derive/deriver.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { recordRemoval } from './memory-removal.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import { sameSlotValue } from '../core/derive/slot-value.ts';
import { settleLineage } from './settle-lineage.ts';
import { supersedeOlderRevisions } from './supersede-revisions.ts';
import { applyTravelledCorrection } from './travelled-correction.ts';
import type { EarlyClaims } from './early-claims.ts';

/**
 * What a stored Record claims, as admission reads it: the deriver's citable claims, a value said in
 * place of another or a bare answer made the claim of the slot it reads (replies.ts), and held endings made the
 * endings they reach (held-endings.ts). Its first derivation, the upgrade pass and re-derivation after
 * a forget all read a Record's claims here, so they agree.
 */
export async function claimsOf(
  uow: BrainUnitOfWork,
  deriver: Deriver,
  r: RecordRow,
  ctx: DeriveContext,
  input: DerivableRecord,
  early?: Pick<EarlyClaims, 'take'>,
): Promise<Claim[]> {
  const own = early?.take(input, ctx) ?? citableClaims(deriver, input, ctx);
  const said = await withReplies(uow, deriver, r, input, own);
  return withHeldEndings(uow.memories, await withEchoesJoined(uow.memories, said), r.occurred_ms);
}

/**
 * A Memory's words changed in place: its vector goes and it is embedded again, in the unit's
 * transaction (an adapter whose storage does this by itself passes nothing).
 */
export type OnRestated = (uow: BrainUnitOfWork, memoryN: number) => Promise<void> | void;

/**
 * A namesake of the self spoke for the first time (namesake.ts): the Records written before step
 * `beforeSeq` that name the self's first name `first` alone are to be derived again, in this unit.
 */
export type OnNamesake = (uow: BrainUnitOfWork, first: string, beforeSeq: number) => Promise<void>;

/**
 * Runs one queued job in the unit of work `uow` of its Brain (the caller completes it in the same one).
 * derive: Record -> claims -> Memories (one sequence step for the whole Record); a namesake's first
 * message has the Records that named the self's first name alone before it derived again (onNamesake).
 * rederive: a Memory that lost some support rests on its surviving Records only (restOnSurvivors).
 * `early`: claims the derive thread found for the Record beforehand (early-claims.ts).
 */
export async function runDeriveJob(
  uow: BrainUnitOfWork,
  deriver: Deriver,
  job: QueuedJob,
  now: () => string,
  onRestated?: OnRestated,
  onNamesake?: OnNamesake,
  early?: Pick<EarlyClaims, 'take'>,
): Promise<void> {
  if (job.job === 'derive') {
    const r = await uow.records.get(job.recordId);
    if (!r) return;
    // A correction written here was applied as it was written; one that came from another side is
    // applied now, once the Records it names have been derived (the queue runs in write order).
    if (r.kind === 'correction') {
      await applyTravelledCorrection(uow, r, await uow.sequence.next(), now());
      return;
    }
    const input = deriverInput(r);
    const ctx = await deriveContext(uow, [input.content]);
    const claims = await claimsOf(uow, deriver, r, ctx, input, early);
    // A whole name first known here ("Marko Babić" of a People note): what named "Marko" alone before
    // it was read without him, as his where he is the one Marko now, as nobody certain where he is a
    // second (known-first-name.ts). Read before this Record's slots are written.
    const firsts = onNamesake ? wholeNameFirsts(claims) : [];
    const knownBefore = firsts.length > 0 ? await uow.memories.subjectsFirstNamed(firsts) : [];
    const seq = await uow.sequence.next();
    // The item's revisions by write order: those before this one.
    const revisions =
      r.source_name === null || r.external_id === null
        ? []
        : await uow.records.idsOfSourceItems(r.source_name, [r.external_id]);
    const olderRevisions = revisions.slice(0, Math.max(0, revisions.indexOf(r.id)));
    await admitClaims(
      uow.memories,
      job.brainUid,
      {
        id: r.id,
        occurredAt: r.occurred_at,
        occurredMs: r.occurred_ms,
        sourceName: r.source_name,
        olderRevisions,
      },
      claims,
      seq,
      now(),
      true,
      new Map(),
      uow.records,
    );
    await withdrawSlips(uow, r, claims, seq);
    await supersedeOlderRevisions(
      uow.memories,
      { id: r.id, n: r.n, sourceName: r.source_name, externalId: r.external_id },
      seq,
    );
    if (onNamesake) {
      const first = await namesakeArrives(uow, ctx.self, input.content, job.recordSeq);
      if (first !== null) await onNamesake(uow, first, job.recordSeq);
      const known = new Set(knownBefore.map((k) => foldName(k.subject)));
      const arrived = new Set(
        claims.flatMap((c) =>
          c.owner.state === 'other' && !known.has(foldName(c.subject)) ? [foldName(c.subject)] : [],
        ),
      );
      for (const f of firsts) {
        const one = foldName(f);
        if (one !== first && [...arrived].some((w) => w.startsWith(`${one} `)))
          await onNamesake(uow, one, job.recordSeq);
      }
    }
    return;
  }
  const m = await uow.memories.get(job.memoryId);
  if (!m || !m.pending) return;
  await restOnSurvivors(uow, deriver, m, await uow.sequence.next(), now, onRestated);
}

export interface RestingMemory {
  n: number;
  id: string;
  lineage: string;
  norm: string;
  cause: string;
  statement: string;
  slot: string | null;
  subject: string;
  predicate: string | null;
}

/**
 * A Memory that lost some support is derived again from the Records still citing it: citations a
 * Record no longer supports (under the deriver as it is now) are dropped, world time restarts at the
 * earliest survivor, and it is served again (or deleted if nothing supports it any more).
 */
export async function restOnSurvivors(
  uow: BrainUnitOfWork,
  deriver: Deriver,
  m: RestingMemory,
  seq: number,
  now: () => string,
  onRestated?: OnRestated,
): Promise<void> {
  const cites = await uow.memories.citations([m.id], { shareableOnly: false });
  const records = new Map((await uow.records.getMany(cites.map((c) => c.record_id))).map((r) => [r.id, r]));
  // Each derived Record read once, for the context and for its claims.
  const inputs = new Map(
    [...records.values()].flatMap((r) => (r.kind === 'correction' ? [] : [[r.id, deriverInput(r)] as const])),
  );
  const ctx = await deriveContext(
    uow,
    [...inputs.values()].map((i) => i.content),
  );
  const kept: Array<RecordRow & { statement: string | null }> = [];
  const dropped: string[] = [];
  for (const c of cites) {
    const r = records.get(c.record_id)!;
    // A correction Record supports its version by fiat, not by derivation.
    if (r.kind === 'correction') {
      kept.push({ ...r, statement: null });
      continue;
    }
    const claims = await claimsOf(uow, deriver, r, ctx, inputs.get(r.id)!);
    // An agent's restatement supports, too, the statement of its own it was admitted as (`restated`).
    const claim =
      claims.find((x) => statementKey(x.statement) === m.norm) ??
      claims.flatMap((x) => x.restated ?? []).find((x) => statementKey(x.statement) === m.norm);
    if (claim) kept.push({ ...r, statement: claim.statement });
    // The same value of its slot in other words (a fact's line, a sentence) supports it too; the
    // Memory keeps its own words, which that Record does not say.
    else if (claims.some((x) => sameValueOf(x, m))) kept.push({ ...r, statement: null });
    else dropped.push(r.id);
  }
  if (kept.length === 0) {
    await recordRemoval(uow, m.id, seq, 'deleted');
    await uow.memories.remove([m.id]);
  } else {
    await uow.memories.dropCitations(m.id, dropped);
    // A correction version stands on its correction Record by fiat: it keeps its world time and its
    // cause. Anything else now rests on the survivors only, and its revision entry says so: cause
    // `rederived`, learned (again) now.
    // Its words are the first survivor's too: Records whose statements differ only in case or
    // punctuation share a Memory, which spoke in the words of the first, and those may be the ones
    // just forgotten.
    if (m.cause !== 'correction') {
      const first = kept.reduce((a, b) => (b.occurred_ms < a.occurred_ms ? b : a));
      const statement = first.statement ?? m.statement;
      await uow.memories.update(m.id, {
        statement,
        valid_from: first.occurred_at,
        valid_from_ms: first.occurred_ms,
        source_key: first.source_name ?? '',
        cause: 'rederived',
        learned_at: now(),
      });
      if (statement !== m.statement) await onRestated?.(uow, m.n);
    }
    await uow.memories.update(m.id, { pending: false, seq });
  }
  await settleLineage(uow.memories, m.lineage, seq);
}

/** A claim that gives a slot Memory's value in other words: one slot, one value (slot-value.ts). */
export function sameValueOf(
  c: Claim,
  m: { slot: string | null; statement: string; subject: string; predicate: string | null },
): boolean {
  return (
    m.slot !== null &&
    c.predicate !== null &&
    slotKey(c.subject, c.predicate, c.owner) === m.slot &&
    sameSlotValue(c, m)
  );
}
