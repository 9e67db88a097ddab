import type { DeletionReceipt } from '../contract/index.ts';
import { settleLineage } from '../derive/settle-lineage.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import type { Tenant } from '../types.ts';
import { nowIso, requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';

/**
 * Forgets one API-origin Record and cascades: Memories it alone supported are deleted; Memories that
 * keep other support become pending re-derivation (hidden from every read) and are re-derived in the
 * background from the survivors; lineages it touched (supersession, corrections, retractions) are
 * settled again, so what it had closed re-opens. Its bytes are removed from the table, the full-text
 * index (secure-delete) and, by a WAL checkpoint, from the log.
 */
export function forgetRecord(ctx: LocalCtx, t: Tenant, brainId: string, recordId: string): DeletionReceipt {
  const b = requireBrain(ctx, t, brainId);
  const { store } = ctx;
  const r = store.get<{ n: number; external_id: string | null; visibility: string }>(
    'SELECT n, external_id, visibility FROM records WHERE id = ? AND brain_uid = ?',
    recordId,
    b.uid,
  );
  if (!r) throw new MnemoError('record_not_found', `record_id: no Record ${recordId} in this Brain`);
  if (r.visibility === 'local_only' && ctx.deployment === 'hosted') {
    throw new MnemoError(
      'local_only_record',
      `record_id: ${recordId} is local_only and not served by a hosted deployment`,
    );
  }
  if (r.external_id !== null) {
    throw new MnemoError(
      'record_not_erasable',
      `record_id: ${recordId} was reconciled from an external source; remove it at the source or forget the import`,
    );
  }
  const result = store.tx(() => {
    const seq = store.nextSeq(b.uid);
    const cited = store.all<{ id: string; lineage: string; others: number }>(
      `SELECT m.id, m.lineage,
         (SELECT count(*) FROM citations o WHERE o.memory_id = m.id AND o.record_id <> c.record_id) AS others
       FROM citations c JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ?`,
      recordId,
    );
    const lineages = new Set<string>();
    let deleted = 0;
    let pending = 0;
    const due = ctx.clock().getTime() + ctx.rederiveDelayMs;
    for (const m of cited) {
      lineages.add(m.lineage);
      if (m.others === 0) {
        store.run('DELETE FROM memories WHERE id = ?', m.id);
        deleted += 1;
      } else {
        store.run('UPDATE memories SET pending = 1, seq = ? WHERE id = ?', seq, m.id);
        store.run('DELETE FROM citations WHERE memory_id = ? AND record_id = ?', m.id, recordId);
        store.run(
          "INSERT INTO derive_queue (brain_uid, job, memory_id, record_seq, not_before_ms) VALUES (?, 'rederive', ?, ?, ?)",
          b.uid,
          m.id,
          seq,
          due,
        );
        pending += 1;
      }
    }
    for (const m of store.all<{ lineage: string }>(
      'SELECT lineage FROM memories WHERE retracted_by = ?',
      recordId,
    )) {
      lineages.add(m.lineage);
    }
    store.run('DELETE FROM records_fts WHERE rowid = ?', r.n);
    store.run('DELETE FROM records WHERE id = ?', recordId);
    for (const l of lineages) settleLineage(store, l, seq);
    return { deleted, pending, seq };
  });
  store.checkpoint();
  if (result.pending > 0) ctx.worker.kick();
  return {
    object: 'deletion_receipt',
    target: { type: 'record', id: recordId },
    deleted: { records: 1, memories: result.deleted, objects: 0 },
    rederiving: { memories: result.pending },
    watermark: watermarkOf(ctx, b, result.seq),
    deleted_at: nowIso(ctx),
  };
}
