import type { DeletionReceipt, SourceList } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { quoted } from '../errors/shown-value.ts';
import type { Tenant } from '../types.ts';
import { forgetRecordRows } from './forget-cascade.ts';
import { afterForget, nowIso, requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';

/**
 * Per source.name of a Brain's Records: its counts and the span of occurred_at, by name. A hosted
 * deployment does not show local_only Records, so it does not count them either.
 */
export const sourceListSql = (hosted: boolean) =>
  `SELECT source_name AS name, count(*) AS records, count(external_id) AS reconciled,
          min(occurred_ms) AS first_ms, max(occurred_ms) AS last_ms
   FROM records WHERE brain_uid = ? AND source_name IS NOT NULL ${hosted ? "AND visibility <> 'local_only'" : ''}
   GROUP BY source_name ORDER BY source_name`;

/** The source.name values of a Brain's Records, by name, with counts and the span of occurred_at. */
export function listSources(ctx: LocalCtx, t: Tenant, brainId: string): SourceList {
  const b = requireBrain(ctx, t, brainId);
  const rows = ctx.store.all<{
    name: string;
    records: number;
    reconciled: number;
    first_ms: number;
    last_ms: number;
  }>(sourceListSql(ctx.deployment === 'hosted'), b.uid);
  return {
    data: rows.map((r) => ({
      object: 'source',
      name: r.name,
      records: r.records,
      reconciled_records: r.reconciled,
      first_occurred_at: new Date(r.first_ms).toISOString(),
      last_occurred_at: new Date(r.last_ms).toISOString(),
    })),
  };
}

/**
 * Forgets every Record whose source.name is `sourceName` (reconciled from an import or not) in one
 * transaction, with forgetRecord's cascade over the whole set: a Memory is deleted only when none of
 * its support survives outside the set, otherwise it is re-derived from what remains. The WAL is then
 * checkpointed so the forgotten bytes leave the log too.
 */
export async function forgetSource(
  ctx: LocalCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
): Promise<DeletionReceipt> {
  const b = requireBrain(ctx, t, brainId);
  const { store } = ctx;
  const result = store.tx(() => {
    const rows = store.all<{ id: string; n: number }>(
      // Erasure takes local_only Records too, also on a hosted deployment (see forgetRecord).
      'SELECT id, n FROM records WHERE brain_uid = ? AND source_name = ? ORDER BY n',
      b.uid,
      sourceName,
    );
    if (rows.length === 0) {
      throw new MnemoError(
        'source_not_found',
        `source_name: no Record in this Brain has source.name ${quoted(sourceName)}`,
      );
    }
    return { ids: rows.map((r) => r.id), records: rows.length, ...forgetRecordRows(ctx, b.uid, rows) };
  });
  await afterForget(ctx, b.uid, result.ids);
  store.checkpoint();
  if (result.pending > 0) ctx.worker.kick();
  return {
    object: 'deletion_receipt',
    target: { type: 'source', id: sourceName },
    deleted: { records: result.records, memories: result.deleted, objects: 0 },
    rederiving: { memories: result.pending },
    watermark: watermarkOf(ctx, b, result.seq),
    deleted_at: nowIso(ctx),
  };
}
