import type { CorrectionTarget, ReplicaCorrection, TypedContent } from '../contract/index.ts';
import { deriveContext } from './derive-context.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { claimOwner, type ClaimOwner } from '../core/derive/claim-owner.ts';
import { matchCorrected } from '../core/derive/correction-match.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import type { BrainUnitOfWork, CorrectionOutcomeRow, MemoryVersionRow, RecordRow } from '../ports/index.ts';
import { admitStatement } from './admit-claims.ts';
import {
  applyCorrection,
  checkCorrection,
  correctionStart,
  inForce,
  type CorrectionStart,
} from './apply-correction.ts';
import { recordRemoval } from './memory-removal.ts';
import { WaitsForDerivation } from './waits-for-derivation.ts';

/*
 * A correction travels (docs/sync.md, "Corrections"): its `corrects` names a Memory of the side it was
 * written on, and each side derives Memories of its own, under ids of its own. What every side shares
 * is the Records, under the same ids: a correction goes with the ids of the Records its Memory cites
 * and that Memory's statement (its target), and each side corrects its own Memory of those Records that
 * says the same. Where none says it in those words (the same Records derived in other words: a deriver
 * upgraded on one side only, a hub's other engine), the Memory of those Records that holds the same slot
 * or says it in the closest words is corrected; failing that, the correction's statement stands as a
 * Memory of its own, as the person said it. What it did is kept (correction_outcomes) and shown with
 * the Record.
 */

/**
 * The target of a correction of Memory `corrects`, read in the unit `u`; null when the Memory is gone or
 * cites a Record that does not travel as it is (a local_only one, or a redacted_summary one, which goes
 * only as a copy whose words differ): no other side could find that Memory, and its statement would
 * tell the remote what the Records do not.
 */
export async function correctionTarget(
  u: Pick<BrainUnitOfWork, 'memories' | 'records'>,
  corrects: string,
): Promise<CorrectionTarget | null> {
  const m = await u.memories.get(corrects);
  if (!m) return null;
  const ids = [
    ...new Set((await u.memories.citations([m.id], { shareableOnly: false })).map((c) => c.record_id)),
  ];
  const records = await u.records.getMany(ids);
  if (ids.length === 0 || records.length !== ids.length) return null;
  if (records.some((r) => r.visibility !== 'shareable')) return null;
  return { records: ids.sort(), statement: m.statement };
}

/** A stored correction's content, with its target when it came from another side. */
const correctionOf = (r: Pick<RecordRow, 'kind' | 'content'>): Partial<ReplicaCorrection> | null =>
  r.kind === 'correction' ? (JSON.parse(r.content) as Partial<ReplicaCorrection>) : null;

type Outcome = Omit<CorrectionOutcomeRow, 'record_id' | 'missing' | 'unmatched'> & {
  missing?: string[];
  unmatched?: boolean;
};

const notApplied = (reason: string, missing: string[] = []): Outcome => ({
  state: 'not_applied',
  matched_by: null,
  memory_id: null,
  reason,
  missing,
});

/** Keeps what correction `r` did here. */
const keep = (uow: BrainUnitOfWork, r: Pick<RecordRow, 'id'>, o: Outcome): Promise<void> =>
  uow.corrections.put({ record_id: r.id, ...o, missing: o.missing ?? [], unmatched: o.unmatched ?? false });

/**
 * Applies a correction that came from another side, in the unit of its derivation, and keeps what it
 * did (CorrectionOutcomeRepository). The Memories of this Brain that cite the target's Records
 * (shareable ones), one per lineage (its version in force, else its latest), are matched in turn:
 * - by statement: the one that says the target's statement (compared as Memories are, by key);
 * - by slot, then by closest statement (core/derive/correction-match.ts): none says it in those words;
 * and the one found is corrected as a correction written here corrects it. With none found, a
 * correction with a statement states it as a Memory of its own, citing the correction Record (a
 * withdrawal has nothing to state). Nothing is changed when more than one lineage says the statement,
 * when the Memory found no longer takes a correction here (a newer value is in force:
 * correction_conflict), or when none of the Records is here: the correction Record is kept, supporting
 * nothing, and its outcome says why. One not applied for want of Records it names that are not here
 * (nor forgotten here) is derived again when one of them arrives (replicate.ts): a correction of a
 * correction's version names that correction, which may come later. One that changed something here
 * is never applied twice, however often it is derived.
 */
export async function applyTravelledCorrection(
  uow: BrainUnitOfWork,
  r: Pick<RecordRow, 'id' | 'kind' | 'content' | 'text' | 'occurred_at' | 'occurred_ms' | 'source_name'>,
  seq: number,
  now: string,
): Promise<void> {
  const c = correctionOf(r);
  if (!c?.target) return;
  const [before] = await uow.corrections.of([r.id]);
  // Derived again because a Record it names arrived after it (replicate.ts): its Memory may be here now.
  if (before?.unmatched) return rematch(uow, r.id, now, { waitForRecords: true });
  if (before && before.state !== 'not_applied') return;
  await keep(uow, r, await correctHere(uow, r, { ...c, target: c.target }, seq, now));
}

async function correctHere(
  uow: BrainUnitOfWork,
  r: Pick<RecordRow, 'id' | 'text' | 'occurred_at' | 'occurred_ms' | 'source_name'>,
  c: Partial<ReplicaCorrection> & Pick<ReplicaCorrection, 'target'>,
  seq: number,
  now: string,
): Promise<Outcome> {
  // Only Records that travel under the same id, as they are: shareable ones, all a target names where
  // it is made (correctionTarget). Another side never had a local_only one, nor a redacted_summary
  // one (only a copy of it, under another id and in other words): a remote that guessed such an id and
  // its Memory's words would otherwise correct what it never saw.
  const held = await uow.records.getMany(c.target.records);
  const named = held.filter((x) => x.visibility === 'shareable');
  // Not yet: a named Record still to be derived (its job failed once, or another process holds it),
  // or the Memory hidden until it is derived again (one of its Records forgotten). Applied now, the
  // correction would find nothing and be dropped for good; thrown, the worker tries it again later
  // (and, should that never settle, Census lists it as derivation_failed rather than nothing at all).
  if ((await uow.records.states(named.map((x) => x.id))).some((s) => s.processing))
    throw new WaitsForDerivation(
      'a correction from another side waits for the Records it names to be derived',
    );
  if (named.length === 0) {
    // Not here, and not forgotten here: still to come (a correction of a correction that stayed home
    // until now), or never to come. It waits for them.
    const here = new Set(held.map((x) => x.id));
    const absent = [...new Set(c.target.records)].filter((id) => !here.has(id));
    const gone = new Set(await uow.records.forgotten(absent));
    const missing = absent.filter((id) => !gone.has(id)).sort();
    if (missing.length > 0)
      return notApplied(
        `the Records it corrects are not in this Brain (${missing.length} of them): nothing was changed; it is applied once they arrive`,
        missing,
      );
    // Every one forgotten here, none held in another form: where it was written, its statement outlived
    // them (a correction's version rests on its correction Record), and there it is what the person
    // says now. Forgotten after it was written, or before this side took it (a device away meanwhile,
    // one paired later), it stands here as said, not dropped: only what it corrected went.
    if (held.length === 0 && absent.length > 0 && c.statement !== undefined)
      return stateForgotten(uow, r, c.statement, correctionStart(c), seq, now);
    return notApplied(
      'none of the Records it corrects is in this Brain (forgotten here, or never shared with it): nothing was changed',
    );
  }
  const m = await matchHere(uow, c.target, named, now);
  if (m === 'wait')
    throw new WaitsForDerivation('a correction from another side waits for its Memory to be derived again');
  if ('outcome' in m) return m.outcome;
  if ('memory' in m) return correct(uow, r, c, m.memory, m.by, seq, now);
  // Unmatched: a Memory its Records have here once derived again may say what it withdrew.
  if (c.statement === undefined)
    return { ...notApplied(`${m.none}: nothing was withdrawn`), unmatched: true };
  return stateAsSaid(uow, r, c.statement, correctionStart(c), m.lineages, named, m.none, seq, now);
}

/** What matching a target found here: a Memory, a reason nothing is changed, or none (and why). */
type Match =
  | { memory: MemoryVersionRow; by: 'statement' | 'slot' | 'closest_statement' }
  | { outcome: Outcome }
  | { none: string; lineages: MemoryVersionRow[] };

/**
 * Matches a correction's target among the Memories citing its Records `named` (shareable ones, here),
 * one per lineage, leaving out lineage `besides` (a Memory of the correction's own): by statement,
 * then by slot and closest statement. 'wait' while one of them is pending re-derivation.
 */
async function matchHere(
  uow: BrainUnitOfWork,
  target: CorrectionTarget,
  named: readonly RecordRow[],
  now: string,
  besides?: string,
): Promise<Match | 'wait'> {
  // Said again in other words is said (statement-key.ts), as a Memory's own repeats are.
  const key = statementKey(target.statement);
  const ids = [...new Set((await uow.memories.citing(named.map((x) => x.id))).map((m) => m.id))];
  const cited = (await Promise.all(ids.map((id) => uow.memories.get(id)))).filter(
    (m): m is MemoryVersionRow => m !== null && m.lineage !== besides,
  );
  if (cited.some((m) => m.pending)) return 'wait';
  const nowMs = Date.parse(now);
  const exact = cited.filter((m) => m.norm === key);
  const said = [...new Set(exact.map((m) => m.lineage))];
  if (said.length > 1)
    return {
      outcome: notApplied(
        `more than one Memory of its Records here says what it corrected (${said.length} lineages): nothing was changed`,
      ),
    };
  if (said.length === 1) return { memory: representative(exact, nowMs), by: 'statement' };
  const lineages = new Map<string, MemoryVersionRow>();
  for (const lineage of new Set(cited.map((m) => m.lineage)))
    lineages.set(
      lineage,
      representative(
        cited.filter((m) => m.lineage === lineage),
        nowMs,
      ),
    );
  const found = matchCorrected(target.statement, [...lineages.values()]);
  if (found) return { memory: lineages.get(found.lineage)!, by: found.by };
  const none =
    lineages.size === 0
      ? 'its Records hold no Memory here'
      : `no Memory of its Records here (${lineages.size}) says what it corrected, holds its slot, or says it in close enough words`;
  return { none, lineages: [...lineages.values()] };
}

/**
 * Matches again, in the unit `uow`, the corrections from another side whose target matched no Memory of
 * their Records here (`unmatched`) and names one of `recordIds`, Records just derived again (a deriver
 * upgrade: their Memories may say now what the correction corrected, as where it was written): one
 * stated as a Memory of its own, or a withdrawal that withdrew nothing. One that now finds a Memory of
 * its Records (by statement, slot or closest statement, as on arrival) corrects or withdraws it as a
 * correction written here would, and its outcome says what it did now. A stated one's Memory of its own
 * goes (deleted, as any Memory no Record supports; or, when it was a Memory that said its statement
 * already, it no longer cites the correction). Left as it is: one that still finds none, or more than
 * one, whose Memory found no longer takes a correction (correction_conflict), whose Records or Memories
 * are still to be derived, or whose Memory of its own a person has corrected since (theirs is the last
 * word). Corrections not applied for another reason are not unmatched, and never looked at here.
 */
export async function rematchUnmatched(
  uow: BrainUnitOfWork,
  recordIds: readonly string[],
  now: string,
): Promise<void> {
  for (const id of await uow.corrections.unmatched(recordIds)) await rematch(uow, id, now);
}

/**
 * Matches unmatched correction `id` again (rematchUnmatched). `waitForRecords`: called by its own
 * derive job, after a Record it names arrived (replicate.ts), which fails while one of them or their
 * Memories is still to be derived, so the worker tries it again rather than the chance being lost.
 */
async function rematch(
  uow: BrainUnitOfWork,
  id: string,
  now: string,
  { waitForRecords = false }: { waitForRecords?: boolean } = {},
): Promise<void> {
  const nowMs = Date.parse(now);
  const [o] = await uow.corrections.of([id]);
  const [r] = await uow.records.getMany([id]);
  const c = r ? correctionOf(r) : null;
  if (!r || !c?.target || !o?.unmatched) return;
  // What arrival did with one that matched nothing: a withdrawal was not applied; a statement stated.
  const withdrawal = c.statement === undefined;
  let own: MemoryVersionRow | null = null;
  if (withdrawal) {
    if (o.state !== 'not_applied') return;
  } else {
    if (o.matched_by !== 'stated' || !o.memory_id) return;
    own = await uow.memories.get(o.memory_id);
    if (!own || own.pending) return;
    // Its Memory of its own as stated: one version, no person's correction of it since.
    if ((await uow.memories.lineage(own.lineage, { shareableOnly: false })).length !== 1) return;
  }
  const named = (await uow.records.getMany(c.target.records)).filter((x) => x.visibility === 'shareable');
  if (named.length === 0) return;
  if ((await uow.records.states(named.map((x) => x.id))).some((s) => s.processing)) {
    if (waitForRecords)
      throw new WaitsForDerivation(
        'a correction from another side waits for the Records it names to be derived',
      );
    return;
  }
  const m = await matchHere(uow, c.target, named, now, own?.lineage);
  if (m === 'wait' && waitForRecords)
    throw new WaitsForDerivation('a correction from another side waits for its Memory to be derived again');
  if (m === 'wait' || !('memory' in m)) return;
  try {
    await checkCorrection(uow.memories, m.memory.id, c.statement, nowMs, false, correctionStart(c));
  } catch (e) {
    if (e instanceof MnemoError) return;
    throw e;
  }
  const seq = await uow.sequence.next();
  if (own) await unstate(uow, own, r.id, seq);
  const note = own
    ? `, once its Records were derived again here, in place of Memory ${own.id} that stated it`
    : ', once its Records were derived again here';
  await keep(uow, r, await correct(uow, r, c, m.memory, m.by, seq, now, note));
}

/** Takes back what stating correction `recordId` did: its Memory of its own `own`, or its citation there. */
async function unstate(
  uow: BrainUnitOfWork,
  own: MemoryVersionRow,
  recordId: string,
  seq: number,
): Promise<void> {
  const cites = await uow.memories.citations([own.id], { shareableOnly: false });
  if (cites.every((x) => x.record_id === recordId)) {
    await recordRemoval(uow, own.id, seq, 'deleted');
    await uow.memories.remove([own.id]);
    return;
  }
  // A Memory that said its statement already, and cited it: it rests on its own Records again.
  const wasShared = await uow.memories.shareable(own.id);
  await uow.memories.dropCitations(own.id, [recordId]);
  await uow.memories.update(own.id, { seq });
  if (wasShared && !(await uow.memories.shareable(own.id)))
    await recordRemoval(uow, own.id, seq, 'deleted', true);
}

/** Of versions of one lineage, the one a correction corrects: the one in force now, else the latest. */
function representative(versions: readonly MemoryVersionRow[], nowMs: number): MemoryVersionRow {
  const byVersion = [...versions].sort((x, y) => y.version - x.version);
  return byVersion.find((v) => inForce(v, nowMs)) ?? byVersion[0]!;
}

const found: Record<'statement' | 'slot' | 'closest_statement', (id: string) => string> = {
  statement: (id) => `Memory ${id} of its Records here says what it corrected`,
  slot: (id) =>
    `no Memory of its Records here says what it corrected in those words; Memory ${id} holds its slot (subject and predicate)`,
  closest_statement: (id) =>
    `no Memory of its Records here says what it corrected in those words or holds its slot; Memory ${id} says it in the closest words`,
};

/** Corrects `corrected` as a correction written here would, or says why it does not take one. */
async function correct(
  uow: BrainUnitOfWork,
  r: Pick<RecordRow, 'id' | 'text'>,
  c: Partial<ReplicaCorrection>,
  corrected: MemoryVersionRow,
  by: 'statement' | 'slot' | 'closest_statement',
  seq: number,
  now: string,
  note = '',
): Promise<Outcome> {
  const how = found[by](corrected.id);
  let target: MemoryVersionRow;
  let over = '';
  try {
    target = await checkCorrection(
      uow.memories,
      corrected.id,
      c.statement,
      Date.parse(now),
      false,
      correctionStart(c),
    );
  } catch (e) {
    if (!(e instanceof MnemoError)) throw e;
    // Corrected on two sides at once: each had applied its own first, and they disagreed for good. The
    // correction written later wins on every side, whichever arrives first.
    const rival = e.code === 'correction_conflict' ? await earlierRival(uow, r.id, corrected, now) : null;
    if (rival === null) return notApplied(`${how}, but ${e.message.replace(/^content\.corrects: /, '')}`);
    target = rival.memory;
    over = `; it had been corrected here by correction ${rival.recordId} (Memory ${rival.memory.id}), written earlier than this one, which wins on every side`;
  }
  const [made] = await applyCorrection(
    uow.memories,
    target,
    { id: r.id, text: r.text },
    c.statement,
    seq,
    now,
    correctionStart(c),
  );
  return {
    state: by === 'statement' ? 'applied' : 'applied_by_fallback',
    matched_by: by,
    memory_id: made ?? target.id,
    reason: (made ? `${how}: corrected, as Memory ${made}` : `${how}: withdrawn`) + over + note,
  };
}

/**
 * The Memory in force at the end of the corrections made of the very version `corrected` (each
 * correcting the one before: a device's, then the hub's over it), where every one of them was written
 * before correction `recordId` (by occurred_at, then id: the same order on every side), with the
 * latest of those corrections' ids; else null.
 */
async function earlierRival(
  uow: BrainUnitOfWork,
  recordId: string,
  corrected: MemoryVersionRow,
  now: string,
): Promise<{ memory: MemoryVersionRow; recordId: string } | null> {
  const nowMs = Date.parse(now);
  const versions = await uow.memories.lineage(corrected.lineage, { shareableOnly: false });
  const chain: MemoryVersionRow[] = [];
  for (let at = corrected; chain.length < versions.length;) {
    const next = versions.find((v) => v.corrects === at.id && v.cause === 'correction' && !v.pending);
    if (!next) break;
    chain.push(next);
    at = next;
  }
  const end = chain.at(-1);
  if (!end || !inForce(end, nowMs)) return null;
  const cited = (
    await uow.memories.citations(
      chain.map((v) => v.id),
      { shareableOnly: false },
    )
  ).map((x) => x.record_id);
  const records = await uow.records.getMany([recordId, ...new Set(cited)]);
  const self = records.find((x) => x.id === recordId);
  const others = records.filter((x) => x.id !== recordId && x.kind === 'correction');
  if (!self || others.length === 0) return null;
  const before = (a: RecordRow, b: RecordRow) =>
    a.occurred_ms < b.occurred_ms || (a.occurred_ms === b.occurred_ms && a.id < b.id);
  if (!others.every((o) => before(o, self))) return null;
  const latest = others.reduce((x, y) => (before(x, y) ? y : x));
  return { memory: end, recordId: latest.id };
}

/**
 * The correction's statement as a Memory of its own, citing the correction Record, as the person said
 * it: owned as the Memories of its Records here are when they agree, else as the rules own its earliest
 * Record's claims (claim-owner.ts); from that Record's world time (a correction says what was always
 * so), or from the correction's valid_from (`start`) when it gave one. A current Memory that says it
 * already, of the same subject and owner, cites it instead.
 */
async function stateAsSaid(
  uow: BrainUnitOfWork,
  r: Pick<RecordRow, 'id' | 'text'>,
  statement: string,
  start: CorrectionStart | undefined,
  others: readonly MemoryVersionRow[],
  named: readonly RecordRow[],
  none: string,
  seq: number,
  now: string,
): Promise<Outcome> {
  const first = [...named].sort((x, y) => x.occurred_ms - y.occurred_ms || (x.id < y.id ? -1 : 1))[0]!;
  const content = JSON.parse(first.content) as TypedContent;
  const who =
    agreed(others) ??
    claimOwner({ content, sourceName: first.source_name }, await deriveContext(uow, [content]));
  const from = {
    occurredAt: start?.at ?? first.occurred_at,
    occurredMs: start?.ms ?? first.occurred_ms,
    sourceName: first.source_name,
  };
  const citation = { recordId: r.id, quote: r.text };
  const s = { claim: { statement, ...who }, from, citation, cause: 'correction' as const };
  return { ...stated(none, await admitStatement(uow.memories, uow.brainUid, s, seq, now)), unmatched: true };
}

/** The outcome of a correction stated as a Memory of its own, for the reason `none` says. */
function stated(none: string, { id, made }: { id: string; made: boolean }): Outcome {
  return {
    state: 'applied_by_fallback',
    matched_by: 'stated',
    memory_id: id,
    reason: made
      ? `${none}: its statement stands as Memory ${id} of its own`
      : `${none}: Memory ${id} says its statement already, and cites it`,
  };
}

/**
 * The statement of a correction whose corrected Records were all forgotten here, as a Memory of its own
 * citing it: owned as the rules own a correction's claims (claim-owner.ts; no Record of what it
 * corrected is left to say whose it was), from the correction's world time, or its valid_from (`start`)
 * when it gave one. Nothing is left to match it again, so it is not `unmatched`.
 */
async function stateForgotten(
  uow: BrainUnitOfWork,
  r: Pick<RecordRow, 'id' | 'text' | 'occurred_at' | 'occurred_ms' | 'source_name'>,
  statement: string,
  start: CorrectionStart | undefined,
  seq: number,
  now: string,
): Promise<Outcome> {
  const who = claimOwner(
    { content: { kind: 'correction', corrects: '' }, sourceName: r.source_name },
    { self: await uow.self() },
  );
  const s = {
    claim: { statement, ...who },
    from: {
      occurredAt: start?.at ?? r.occurred_at,
      occurredMs: start?.ms ?? r.occurred_ms,
      sourceName: r.source_name,
    },
    citation: { recordId: r.id, quote: r.text },
    cause: 'correction' as const,
  };
  return stated(
    'every Record it corrects was forgotten here',
    await admitStatement(uow.memories, uow.brainUid, s, seq, now),
  );
}

/** The subject and owner every one of these Memories has, or null (none, or not one). */
function agreed(ms: readonly MemoryVersionRow[]): ClaimOwner | null {
  const whos = new Set(ms.map((m) => JSON.stringify([m.subject, m.owner_state, m.owner_entity])));
  if (whos.size !== 1) return null;
  const m = ms[0]!;
  return {
    subject: m.subject,
    owner:
      m.owner_entity !== null ? { state: m.owner_state, entity: m.owner_entity } : { state: m.owner_state },
  };
}
