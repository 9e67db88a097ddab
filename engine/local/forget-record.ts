import type { DeletionReceipt } from '../contract/index.ts';
import { isErasable } from '../core/shared/erasable.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import type { Tenant } from '../types.ts';
import { forgetRecordRows } from './forget-cascade.ts';
import { afterForget, nowIso, requireBrain, watermarkAt, type EngineCtx } from './local-ctx.ts';

/**
 * Forgets one API-origin Record and cascades: Memories it alone supported are deleted; Memories that
 * keep other support become pending re-derivation (hidden from every read) and are re-derived in the
 * background from the survivors; lineages it touched (supersession, corrections, retractions) are
 * settled again, so what it had closed re-opens. Its bytes are removed from the table, the full-text
 * index (secure-delete) and, by a WAL checkpoint, from the log. A local_only Record is erased on a
 * hosted deployment too.
 */
export async function forgetRecord(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  recordId: string,
): Promise<DeletionReceipt> {
  const b = await requireBrain(ctx, t, brainId);
  const result = await ctx.units.write(b.uid, async (u) => {
    const r = await u.records.get(recordId);
    if (!r)
      throw new MnemoError('record_not_found', `record_id: no Record ${shortened(recordId)} in this Brain`);
    // A hosted deployment does not serve a local_only Record, but it erases one when asked: erasing
    // shows nothing of it (the receipt carries counts only) and the person's right to have it gone wins
    // over where the request came from.
    // A Record pulled from a sync remote is no item of an import of this device, whatever source it
    // names: a hub must not pin one to the person's own import (docs/sync.md).
    const pulled = async () => (await ctx.fromRemote(b.uid, [recordId])).length > 0;
    if (!isErasable({ name: r.source_name, external_id: r.external_id }) && !(await pulled())) {
      throw new MnemoError(
        'record_not_erasable',
        `record_id: ${recordId} was reconciled from an external source; remove it at the source, or remove ` +
          `the whole import with DELETE /v1/brains/${brainId}/sources/${encodeURIComponent(r.source_name!)}`,
      );
    }
    return forgetRecordRows(ctx, u, [recordId]);
  });
  await afterForget(ctx, b.uid, [recordId]);
  await ctx.emptyLog();
  if (result.pending > 0) ctx.worker.kick();
  return {
    object: 'deletion_receipt',
    target: { type: 'record', id: recordId },
    deleted: { records: 1, memories: result.deleted, objects: 0 },
    rederiving: { memories: result.pending },
    watermark: watermarkAt(ctx, b, result.seq),
    deleted_at: nowIso(ctx),
  };
}
