import type { Brain, BrainCreate, BrainUpdate, DeletionReceipt, SelfEntity } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import { newId } from '../ids.ts';
import type { Tenant } from '../types.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';
import { noSuchBrain } from './brain-uids.ts';
import { afterForget, nowIso, requireBrain, toBrain, watermarkAt, type EngineCtx } from './local-ctx.ts';

/** The tenant's Brains, by id. */
export async function listBrains(ctx: EngineCtx, t: Tenant): Promise<Brain[]> {
  return (await ctx.brains.list(t)).map(toBrain);
}

/** Creates a Brain at sequence 0 and returns it with the watermark of that first boundary. */
export async function createBrain(
  ctx: EngineCtx,
  t: Tenant,
  body: BrainCreate,
): Promise<{ brain: Brain; watermark: string }> {
  const row = await ctx.brains.create({
    // A fresh uid per incarnation: watermarks of a deleted Brain with the same id are refused.
    uid: newId('brn'),
    project: t.project,
    env: t.env,
    id: body.id,
    name: body.name ?? null,
    self_type: body.self?.type ?? null,
    self_name: body.self?.name ?? null,
    created_at: nowIso(ctx),
  });
  if (!row) throw new MnemoError('brain_exists', `id: a Brain ${shortened(body.id)} already exists`);
  return { brain: toBrain(row), watermark: watermarkAt(ctx, row, row.seq) };
}

/**
 * Sets the Brain's name or self. A self set where there was none, or changed, lists every Record of
 * the Brain to be derived again by the upgrade pass, in the unit that changes it: what the self said
 * under its name, or as "user", was derived as another person's or nobody's, and is the self's now
 * (upgrade-derivation.ts, ownedOtherwiseNow). It takes a step, so the Brain's watermark moves (a
 * Context kept for an older one is not served again; the app reads the Profile again).
 */
export async function updateBrain(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  body: BrainUpdate,
): Promise<{ brain: Brain; watermark: string }> {
  const b = await requireBrain(ctx, t, brainId);
  let listed = 0;
  const seq = await ctx.units.write(b.uid, async (uow) => {
    const was = await uow.self();
    const selfChanged = body.self !== undefined && !sameSelf(was, body.self);
    if (body.name !== undefined) await uow.setBrain({ name: body.name });
    if (!selfChanged) return uow.sequence.current();
    const set = await setSelfIn(ctx, uow, body.self!);
    listed = set.listed;
    return set.step;
  });
  // Woken once the change committed: a pass that looked before would find nothing listed.
  if (listed > 0) ctx.worker.kick({ upkeep: true });
  ctx.logger.info('a Brain was changed', {
    brain_id: brainId,
    ...(listed > 0 ? { records_to_derive_again: listed } : {}),
  });
  return { brain: toBrain(await requireBrain(ctx, t, brainId)), watermark: watermarkAt(ctx, b, seq) };
}

/**
 * Sets the Brain's self in `uow` and lists every Record of the Brain for the upgrade pass, at a step of
 * its own; the caller wakes the worker (`upkeep`) once the unit committed, when `listed` > 0. Also how a
 * device Brain without a self takes its hub's (device-sync.ts, takeRemoteSelf).
 */
export async function setSelfIn(
  ctx: Pick<EngineCtx, 'upkeep'>,
  uow: BrainUnitOfWork,
  self: SelfEntity,
): Promise<{ step: number; listed: number }> {
  await uow.setBrain({ self });
  const step = await uow.sequence.next();
  return { step, listed: await ctx.upkeep.relistBrain(uow, step) };
}

const sameSelf = (a: SelfEntity | null, b: SelfEntity) =>
  a !== null && a.type === b.type && a.name === b.name;

/**
 * Removes the Brain and everything derived from it: Records (and their index entries), Memories,
 * Objects, idempotency keys, queued work, traces; the storage keeps none of its bytes.
 */
export async function forgetBrain(ctx: EngineCtx, t: Tenant, brainId: string): Promise<DeletionReceipt> {
  const b = await requireBrain(ctx, t, brainId);
  const counts = await ctx.brains.remove(b.uid);
  // Another forget of it removed it after requireBrain found it: that one has the receipt.
  if (!counts) throw noSuchBrain(brainId);
  await afterForget(ctx, b.uid, null);
  return {
    object: 'deletion_receipt',
    target: { type: 'brain', id: brainId },
    deleted: counts,
    rederiving: { memories: 0 },
    watermark: null,
    deleted_at: nowIso(ctx),
  };
}
