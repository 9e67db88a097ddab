import type { AcceptedObject, ObjectAccept, ObjectListQuery, ObjectPage } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import type { ObjectVersionRow } from '../ports/index.ts';
import type { Tenant, WriteOptions } from '../types.ts';
import { canonicalHash } from './canonical-hash.ts';
import { nowIso, requireBrain, watermarkAt, type EngineCtx } from './local-ctx.ts';

function toObject(brainId: string, v: ObjectVersionRow): AcceptedObject {
  return {
    object: 'object',
    brain_id: brainId,
    type: v.type,
    key: v.key,
    version: v.version,
    value: JSON.parse(v.value) as AcceptedObject['value'],
    accepted_at: v.accepted_at,
  };
}

/**
 * Appends a version of the application's own truth at (type, key). if_version (0 = must not exist
 * yet) is optimistic concurrency: a mismatch is stale_version with current_version. An
 * Idempotency-Key replays the original version for the identical body. Accepting advances the Brain's
 * sequence, so it returns the watermark after it (after the original accept, for a replay), as every
 * write does.
 */
export async function acceptObject(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  body: ObjectAccept,
  opts: WriteOptions,
): Promise<{ object: AcceptedObject; watermark: string; replayed: boolean }> {
  const b = await requireBrain(ctx, t, brainId);
  const hash = canonicalHash(body);
  const out = await ctx.units.write(b.uid, async (u) => {
    if (opts.idempotencyKey !== undefined) {
      const prior = await u.idempotency.find('acceptObject', opts.idempotencyKey);
      if (prior) {
        if (prior.bodyHash !== hash) {
          throw new MnemoError('idempotency_conflict', 'Idempotency-Key: already used with a different body');
        }
        const row = 'objectN' in prior.target ? await u.objects.get(prior.target.objectN) : null;
        return { row: row!, replayed: true };
      }
    }
    const current = (await u.objects.current(body.type, body.key))?.version ?? 0;
    if (body.if_version !== undefined && body.if_version !== null && body.if_version !== current) {
      throw new MnemoError(
        'stale_version',
        `if_version: ${body.if_version} is not the current version of ${body.type}/${body.key} (${current})`,
        { current_version: current },
      );
    }
    const seq = await u.sequence.next();
    const row = await u.objects.insert({
      brain_uid: b.uid,
      type: body.type,
      key: body.key,
      version: current + 1,
      value: JSON.stringify(body.value),
      accepted_at: nowIso(ctx),
      seq,
    });
    if (opts.idempotencyKey !== undefined) {
      await u.idempotency.remember('acceptObject', opts.idempotencyKey, {
        bodyHash: hash,
        target: { objectN: row.n },
      });
    }
    return { row, replayed: false };
  });
  return {
    object: toObject(brainId, out.row),
    watermark: watermarkAt(ctx, b, out.row.seq),
    replayed: out.replayed,
  };
}

export async function getObject(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  type: string,
  key: string,
): Promise<AcceptedObject> {
  const b = await requireBrain(ctx, t, brainId);
  const v = await ctx.units.read(b.uid, (u) => u.objects.current(type, key));
  if (!v)
    throw new MnemoError(
      'object_not_found',
      `object: nothing accepted at ${shortened(type)}/${shortened(key)}`,
    );
  return toObject(brainId, v);
}

/**
 * The current version of every Object of the Brain, by type then key (`type` narrows to one), paged by
 * an opaque cursor.
 */
export async function listObjects(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  q: ObjectListQuery,
): Promise<ObjectPage> {
  const b = await requireBrain(ctx, t, brainId);
  const page = await ctx.units.read(b.uid, (u) =>
    u.objects.list({ type: q.type, limit: q.limit, cursor: q.cursor }),
  );
  return {
    data: page.rows.map((r) => toObject(b.id, r)),
    has_more: page.next !== null,
    next_cursor: page.next,
  };
}
