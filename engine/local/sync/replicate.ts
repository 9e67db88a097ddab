import type {
  RecordReplica,
  ReplicaOutcome,
  ReplicateResult,
  TombstoneResult,
} from '../../contract/index.ts';
import { recordText } from '../../core/derive/record-text.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { canonicalHash } from '../canonical-hash.ts';
import { forgetRecordRows } from '../forget-cascade.ts';
import {
  afterForget,
  nowIso,
  watermarkAt,
  watermarkOf,
  type BrainRow,
  type EngineCtx,
} from '../local-ctx.ts';
import type { BrainUnitOfWork, RecordRow } from '../../ports/index.ts';

/** What makes two copies of a Record the same Record: everything but when each side stored it. */
function fingerprint(r: {
  content: unknown;
  source_name: string | null;
  external_id: string | null;
  trust: string;
  visibility: string;
  occurred_at: string;
}): string {
  return canonicalHash({
    content: r.content,
    source: [r.source_name, r.external_id, r.trust],
    visibility: r.visibility,
    occurred_ms: Date.parse(r.occurred_at),
  });
}

const replicaRow = (r: RecordReplica) => ({
  content: r.content,
  source_name: r.source?.name ?? null,
  external_id: r.source?.external_id ?? null,
  trust: r.source?.trust ?? 'medium',
  visibility: r.visibility,
  occurred_at: r.occurred_at,
});

/**
 * Writes Records under the ids their first device gave them, in one unit of work: a Record already here
 * with the same content is `unchanged`, with other content (or in another Brain) `conflict`; an id
 * forgotten here is `forgotten` and stays so. `local_only` never travels: the whole call is refused.
 * Each new Record is derived here, as a written one is.
 */
export async function replicateRecords(
  ctx: EngineCtx,
  b: BrainRow,
  replicas: readonly RecordReplica[],
): Promise<ReplicateResult & { created: number }> {
  const out = await ctx.units.write(b.uid, (u) => replicateInto(u, replicas, nowIso(ctx)));
  if (out.created > 0) ctx.worker.kick();
  return {
    object: 'replication',
    data: out.data,
    watermark: out.seq !== null ? watermarkAt(ctx, b, out.seq) : await watermarkOf(ctx, b),
    created: out.created,
  };
}

/**
 * replicateRecords' writes, in the caller's unit of work; `onCreated` runs for each Record written
 * (in the unit too: a pull marks it pulled). Each Record written takes a step of its own.
 */
export async function replicateInto(
  u: BrainUnitOfWork,
  replicas: readonly RecordReplica[],
  createdAt: string,
  onCreated?: (id: string) => Promise<void>,
): Promise<{ data: { id: string; outcome: ReplicaOutcome }[]; seq: number | null; created: number }> {
  if (replicas.some((r) => r.visibility === 'local_only')) {
    throw new MnemoError('local_only_record', 'records: a local_only Record never leaves its device');
  }
  const ids = [...new Set(replicas.map((r) => r.id))];
  const forgotten = new Set(await u.records.forgotten(ids));
  const elsewhere = new Set(await u.records.idsHeldElsewhere(ids));
  const here = new Map<string, Omit<RecordRow, 'n'>>((await u.records.getMany(ids)).map((r) => [r.id, r]));
  const data: { id: string; outcome: ReplicaOutcome }[] = [];
  let seq: number | null = null;
  let created = 0;
  for (const r of replicas) {
    if (forgotten.has(r.id)) {
      data.push({ id: r.id, outcome: 'forgotten' });
      continue;
    }
    const known = here.get(r.id);
    if (known || elsewhere.has(r.id)) {
      const same =
        known !== undefined &&
        fingerprint({ ...known, content: JSON.parse(known.content) }) === fingerprint(replicaRow(r));
      data.push({ id: r.id, outcome: same ? 'unchanged' : 'conflict' });
      continue;
    }
    seq = await u.sequence.next();
    const row = replicaRow(r);
    const written = await u.records.insert({
      id: r.id,
      brain_uid: u.brainUid,
      seq,
      kind: r.content.kind,
      content: JSON.stringify(r.content),
      text: recordText(r.content),
      source_name: row.source_name,
      external_id: row.external_id,
      trust: row.trust,
      visibility: row.visibility,
      occurred_at: r.occurred_at,
      occurred_ms: Date.parse(r.occurred_at),
      created_at: createdAt,
    });
    here.set(r.id, written);
    await u.jobs.enqueue({ job: 'derive', brainUid: u.brainUid, recordId: r.id, recordSeq: seq });
    await onCreated?.(r.id);
    created += 1;
    data.push({ id: r.id, outcome: 'created' });
  }
  // A correction from another side that found none of the Records it names (travelled-correction.ts)
  // is derived again once one of them is here, after it: a correction of a correction's version may
  // come before the correction it names did. So is one that found some of them and no Memory of theirs
  // to correct (unmatched): the Memory it corrected may rest on the one that came now.
  const written = data.flatMap((d) => (d.outcome === 'created' ? [d.id] : []));
  if (seq !== null) {
    const waiting = new Set([
      ...(await u.corrections.missing(written)),
      ...(await u.corrections.unmatched(written)),
    ]);
    for (const id of [...waiting].sort())
      await u.jobs.enqueue({ job: 'derive', brainUid: u.brainUid, recordId: id, recordSeq: seq });
  }
  return { data, seq, created };
}

/**
 * Forgets the named Records of this Brain (reconciled ones too: removing an import travels as the ids
 * it removed) with forgetRecord's cascade, and keeps a tombstone of every id, known here or not, so the
 * id is refused from now on. On a device, an id that is the redacted copy of one of its Records
 * forgets that original too.
 */
export async function applyTombstones(
  ctx: EngineCtx,
  b: BrainRow,
  ids: readonly string[],
): Promise<TombstoneResult> {
  const { result, settle } = await ctx.units.write(b.uid, (u) => writeTombstones(ctx, b, u, ids));
  await settle();
  return result;
}

/**
 * applyTombstones' writes, in the caller's unit of work `uow`; `tombstoned` names the ids whose
 * tombstones it wrote (the Records it forgot, and ids not held here); `settle` does what must wait until
 * it committed (dropping cached traces and Contexts, the checkpoint, waking the deriver).
 *
 * `travelledOnly` (a pulled page's removals): only Records that went to or came from a remote are
 * forgotten, found by the ids they have there. A remote's change feed may name any id, and a Record
 * that never left this device (local_only, a correction that stayed home, one held back or not pushed
 * yet, one whose first send the remote refused and never took since) is not the remote's to forget:
 * such an id is left alone, without a tombstone. An id not held
 * here at all still gets one, so the Record it names is refused if it ever arrives.
 */
export async function writeTombstones(
  ctx: EngineCtx,
  b: BrainRow,
  uow: BrainUnitOfWork,
  ids: readonly string[],
  { travelledOnly = false }: { travelledOnly?: boolean } = {},
): Promise<{ result: TombstoneResult; tombstoned: string[]; settle: () => Promise<void> }> {
  const result = await (async () => {
    const wanted = [...new Set(ids)];
    const known = new Set(await uow.records.forgotten(wanted));
    const held = new Set((await uow.records.getMany(wanted)).map((r) => r.id));
    const fresh = wanted.filter((id) => !known.has(id) && !(travelledOnly && held.has(id)));
    const rows = travelledOnly ? new Set<string>() : held;
    for (const id of await ctx.originalsOfPushedCopies(b.uid, wanted, travelledOnly)) rows.add(id);
    if (rows.size === 0 && fresh.length === 0)
      return { forgotten: [] as string[], fresh, seq: null, pending: 0 };
    const counts = rows.size > 0 ? await forgetRecordRows(ctx, uow, [...rows]) : null;
    const seq = counts?.seq ?? (await uow.sequence.next());
    if (fresh.length > 0) await uow.records.tombstone(fresh, seq, nowIso(ctx));
    return { forgotten: [...rows], fresh, seq, pending: counts?.pending ?? 0 };
  })();
  return {
    tombstoned: [...result.forgotten, ...result.fresh],
    result: {
      object: 'tombstones',
      forgotten: result.forgotten.length,
      watermark: watermarkAt(ctx, b, result.seq ?? (await uow.sequence.current())),
    },
    settle: async () => {
      if (result.forgotten.length > 0) {
        await afterForget(ctx, b.uid, result.forgotten);
        await ctx.emptyLog();
      }
      if (result.pending > 0) ctx.worker.kick();
    },
  };
}
