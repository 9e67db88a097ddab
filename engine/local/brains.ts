import type { Brain, BrainCreate, DeletionReceipt } from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import { newId } from '../ids.ts';
import type { Tenant } from '../types.ts';
import {
  afterForget,
  nowIso,
  requireBrain,
  toBrain,
  watermarkOf,
  type BrainRow,
  type LocalCtx,
} from './local-ctx.ts';

export function listBrains(ctx: LocalCtx, t: Tenant): Brain[] {
  return ctx.store
    .all<BrainRow>('SELECT * FROM brains WHERE project = ? AND env = ? ORDER BY id', t.project, t.env)
    .map(toBrain);
}

/** Creates a Brain at sequence 0 and returns it with the watermark of that first boundary. */
export function createBrain(
  ctx: LocalCtx,
  t: Tenant,
  body: BrainCreate,
): { brain: Brain; watermark: string } {
  return ctx.store.tx(() => {
    const exists = ctx.store.get(
      'SELECT 1 FROM brains WHERE project = ? AND env = ? AND id = ?',
      t.project,
      t.env,
      body.id,
    );
    if (exists) throw new MnemoError('brain_exists', `id: a Brain ${shortened(body.id)} already exists`);
    // A fresh uid per incarnation: watermarks of a deleted Brain with the same id are refused.
    const uid = newId('brn');
    ctx.store.run(
      `INSERT INTO brains (uid, project, env, id, name, self_type, self_name, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      uid,
      t.project,
      t.env,
      body.id,
      body.name ?? null,
      body.self?.type ?? null,
      body.self?.name ?? null,
      nowIso(ctx),
    );
    const row = ctx.store.get<BrainRow>('SELECT * FROM brains WHERE uid = ?', uid)!;
    return { brain: toBrain(row), watermark: watermarkOf(ctx, row, row.seq) };
  });
}

/**
 * Removes the Brain and everything derived from it: Records (and their index entries), Memories,
 * Objects, idempotency keys, queued work, traces. The WAL is then checkpointed so the bytes are gone.
 */
export function forgetBrain(ctx: LocalCtx, t: Tenant, brainId: string): DeletionReceipt {
  const b = requireBrain(ctx, t, brainId);
  const { store } = ctx;
  const counts = store.tx(() => {
    const c = {
      records: store.get<{ c: number }>('SELECT count(*) AS c FROM records WHERE brain_uid = ?', b.uid)!.c,
      memories: store.get<{ c: number }>('SELECT count(*) AS c FROM memories WHERE brain_uid = ?', b.uid)!.c,
      objects: store.get<{ c: number }>(
        'SELECT count(*) AS c FROM (SELECT DISTINCT type, key FROM object_versions WHERE brain_uid = ?)',
        b.uid,
      )!.c,
    };
    // Memories before Records: a live Memory may never lose its last citation.
    store.run('DELETE FROM memories WHERE brain_uid = ?', b.uid);
    store.run('DELETE FROM brains WHERE uid = ?', b.uid);
    return c;
  });
  afterForget(ctx, b.uid, null);
  store.checkpoint();
  return {
    object: 'deletion_receipt',
    target: { type: 'brain', id: brainId },
    deleted: counts,
    rederiving: { memories: 0 },
    watermark: null,
    deleted_at: nowIso(ctx),
  };
}
