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
import { afterForget, nowIso, watermarkAt, type BrainRow, type LocalCtx } from '../local-ctx.ts';
import type { RecordRow } from '../../ports/index.ts';
import { textKey } from '../../adapters/sqlite/text-key.ts';

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

export interface ReplicateOptions {
  /** Set when the Records come from a pull: each is marked so it is never pushed back. */
  pulled?: boolean;
}

/**
 * Writes Records under the ids their first device gave them, in one transaction: a Record already here
 * with the same content is `unchanged`, with other content (or in another Brain) `conflict`; an id
 * forgotten here is `forgotten` and stays so. `local_only` never travels: the whole call is refused.
 * Each new Record is derived here, as a written one is.
 */
export function replicateRecords(
  ctx: LocalCtx,
  b: BrainRow,
  replicas: readonly RecordReplica[],
  opts: ReplicateOptions = {},
): ReplicateResult & { created: number } {
  const { store } = ctx;
  if (replicas.some((r) => r.visibility === 'local_only')) {
    throw new MnemoError('local_only_record', 'records: a local_only Record never leaves its device');
  }
  let created = 0;
  const out = store.tx(() => {
    const data: { id: string; outcome: ReplicaOutcome }[] = [];
    let seq: number | null = null;
    for (const r of replicas) {
      const gone = store.get(
        'SELECT 1 FROM record_tombstones WHERE brain_uid = ? AND record_id = ?',
        b.uid,
        r.id,
      );
      if (gone) {
        data.push({ id: r.id, outcome: 'forgotten' });
        continue;
      }
      const here = store.get<RecordRow>('SELECT * FROM records WHERE id = ?', r.id);
      if (here) {
        const same =
          here.brain_uid === b.uid &&
          fingerprint({ ...here, content: JSON.parse(here.content) }) === fingerprint(replicaRow(r));
        data.push({ id: r.id, outcome: same ? 'unchanged' : 'conflict' });
        continue;
      }
      seq = store.nextSeq(b.uid);
      const row = replicaRow(r);
      const text = recordText(r.content);
      store.run(
        `INSERT INTO records (id, brain_uid, seq, kind, content, text, text_key, source_name, external_id, trust,
             visibility, occurred_at, occurred_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        r.id,
        b.uid,
        seq,
        r.content.kind,
        JSON.stringify(r.content),
        text,
        textKey(text),
        row.source_name,
        row.external_id,
        row.trust,
        row.visibility,
        r.occurred_at,
        Date.parse(r.occurred_at),
        nowIso(ctx),
      );
      store.run(
        "INSERT INTO derive_queue (brain_uid, job, record_id, record_seq) VALUES (?, 'derive', ?, ?)",
        b.uid,
        r.id,
        seq,
      );
      if (opts.pulled) {
        store.run(
          "INSERT OR REPLACE INTO sync_records (brain_uid, record_id, fate, remote_id) VALUES (?, ?, 'pulled', ?)",
          b.uid,
          r.id,
          r.id,
        );
      }
      created += 1;
      data.push({ id: r.id, outcome: 'created' });
    }
    return { data, seq };
  });
  if (created > 0) ctx.worker.kick();
  return {
    object: 'replication',
    data: out.data,
    watermark: watermarkAt(ctx, b, out.seq ?? ctx.store.currentSeq(b.uid)),
    created,
  };
}

/**
 * Forgets the named Records of this Brain (reconciled ones too: removing an import travels as the ids
 * it removed) with forgetRecord's cascade, and keeps a tombstone of every id, known here or not, so the
 * id is refused from now on. On a device, an id that is the redacted copy of one of its Records
 * forgets that original too.
 */
export async function applyTombstones(
  ctx: LocalCtx,
  b: BrainRow,
  ids: readonly string[],
): Promise<TombstoneResult> {
  const { result, settle } = ctx.store.tx(() => writeTombstones(ctx, b, ids));
  await settle();
  return result;
}

/**
 * applyTombstones' writes, in the caller's transaction; `settle` does what must wait until it
 * committed (dropping cached traces and Contexts, the checkpoint, waking the deriver).
 */
export function writeTombstones(
  ctx: LocalCtx,
  b: BrainRow,
  ids: readonly string[],
): { result: TombstoneResult; settle: () => Promise<void> } {
  const { store } = ctx;
  const result = (() => {
    const rows = new Map<string, { id: string; n: number }>();
    const fresh: string[] = [];
    for (const id of new Set(ids)) {
      const known = store.get(
        'SELECT 1 FROM record_tombstones WHERE brain_uid = ? AND record_id = ?',
        b.uid,
        id,
      );
      if (!known) fresh.push(id);
      const targets = store.all<{ id: string; n: number }>(
        `SELECT id, n FROM records WHERE brain_uid = ? AND (id = ? OR id IN
           (SELECT record_id FROM sync_records WHERE brain_uid = ? AND remote_id = ?))`,
        b.uid,
        id,
        b.uid,
        id,
      );
      for (const r of targets) rows.set(r.id, r);
    }
    if (rows.size === 0 && fresh.length === 0) return { forgotten: [] as string[], seq: null, pending: 0 };
    const counts = rows.size > 0 ? forgetRecordRows(ctx, b.uid, [...rows.keys()]) : null;
    const seq = counts?.seq ?? store.nextSeq(b.uid);
    for (const id of fresh) {
      store.run(
        'INSERT OR IGNORE INTO record_tombstones (brain_uid, record_id, seq, forgotten_at) VALUES (?, ?, ?, ?)',
        b.uid,
        id,
        seq,
        nowIso(ctx),
      );
    }
    return { forgotten: [...rows.keys()], seq, pending: counts?.pending ?? 0 };
  })();
  return {
    result: {
      object: 'tombstones',
      forgotten: result.forgotten.length,
      watermark: watermarkAt(ctx, b, result.seq ?? ctx.store.currentSeq(b.uid)),
    },
    settle: async () => {
      if (result.forgotten.length > 0) {
        await afterForget(ctx, b.uid, result.forgotten);
        await store.exclusive(() => store.checkpoint());
      }
      if (result.pending > 0) ctx.worker.kick();
    },
  };
}
