import type { CorrectionTarget, ReplicaCorrection } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import type { BrainUnitOfWork, MemoryVersionRow, RecordRow } from '../ports/index.ts';
import { applyCorrection, checkCorrection, inForce } from './apply-correction.ts';

/*
 * A correction travels (docs/sync.md, "Corrections"): its `corrects` names a Memory of the side it was
 * written on, and each side derives Memories of its own, under ids of its own. What every side shares
 * is the Records, under the same ids: a correction goes with the ids of the Records its Memory cites
 * and that Memory's statement (its target), and each side corrects its own Memory of those Records that
 * says the same.
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

/**
 * Applies a correction that came from another side, in the unit of its derivation: the Memory of this
 * Brain that cites the target's Records (shareable ones) and says its statement (one lineage; the version in force, else
 * the latest) is corrected as a correction written here corrects it. Nothing is done when there is no
 * such Memory (derived from other words here, or gone), when more than one lineage says it, or when the
 * correction no longer applies here (a newer value is in force: correction_conflict): the correction
 * Record is kept, supporting nothing.
 */
export async function applyTravelledCorrection(
  uow: BrainUnitOfWork,
  r: Pick<RecordRow, 'id' | 'kind' | 'content' | 'text'>,
  seq: number,
  now: string,
): Promise<void> {
  const c = correctionOf(r);
  if (!c?.target) return;
  const norm = normalizeStatement(c.target.statement);
  // Only Records that travel under the same id, as they are: shareable ones, all a target names where
  // it is made (correctionTarget). Another side never had a local_only one, nor a redacted_summary
  // one (only a copy of it, under another id and in other words): a remote that guessed such an id and
  // its Memory's words would otherwise correct what it never saw.
  const named = (await uow.records.getMany(c.target.records)).filter((x) => x.visibility === 'shareable');
  // Not yet: a named Record still to be derived (its job failed once, or another process holds it),
  // or the Memory hidden until it is derived again (one of its Records forgotten). Applied now, the
  // correction would find nothing and be dropped for good; thrown, the worker tries it again later
  // (and, should that never settle, Census lists it as derivation_failed rather than nothing at all).
  if ((await uow.records.states(named.map((x) => x.id))).some((s) => s.processing))
    throw new Error('a correction from another side waits for the Records it names to be derived');
  const ids = [...new Set((await uow.memories.citing(named.map((x) => x.id))).map((m) => m.id))];
  const versions = (await Promise.all(ids.map((id) => uow.memories.get(id)))).filter(
    (m): m is MemoryVersionRow => m !== null && m.norm === norm,
  );
  if (versions.some((m) => m.pending))
    throw new Error('a correction from another side waits for its Memory to be derived again');
  if (new Set(versions.map((v) => v.lineage)).size !== 1) return;
  const nowMs = Date.parse(now);
  const byVersion = versions.sort((x, y) => y.version - x.version);
  const corrected = byVersion.find((v) => inForce(v, nowMs)) ?? byVersion[0]!;
  let target: MemoryVersionRow;
  try {
    target = await checkCorrection(uow.memories, corrected.id, c.statement === undefined, nowMs, false);
  } catch (e) {
    if (e instanceof MnemoError) return;
    throw e;
  }
  await applyCorrection(uow.memories, target, { id: r.id, text: r.text }, c.statement, seq, now);
}
