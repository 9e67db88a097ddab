import type { Brain, BrainCreate, DeletionReceipt } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import { newId } from '../ids.ts';
import type { Tenant } from '../types.ts';
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
