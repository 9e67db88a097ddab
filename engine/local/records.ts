import type {
  MnemoRecord,
  RecordCreate,
  RecordListQuery,
  RecordPage,
  TypedContent,
} from '../contract/index.ts';
import { applyCorrection, checkCorrection } from '../derive/apply-correction.ts';
import { recordText } from '../core/derive/record-text.ts';
import { normalizeContent } from '../core/shared/record-text.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import { newId } from '../ids.ts';
import type { SqlParam } from '../adapters/sqlite/store.ts';
import { textKey } from '../adapters/sqlite/text-key.ts';
import type { Tenant, WriteOptions } from '../types.ts';
import { canonicalHash } from './canonical-hash.ts';
import { decodeCursor, encodeCursor } from '../core/shared/page-cursor.ts';
import { nowIso, requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';
import { recordChanges } from './sync/change-feed.ts';

export interface RecordRow {
  n: number;
  id: string;
  brain_uid: string;
  seq: number;
  kind: MnemoRecord['kind'];
  content: string;
  text: string;
  source_name: string | null;
  external_id: string | null;
  trust: 'high' | 'medium' | 'low';
  visibility: MnemoRecord['visibility'];
  occurred_at: string;
  occurred_ms: number;
  created_at: string;
}

export function toRecord(ctx: LocalCtx, r: Omit<RecordRow, 'n'>): MnemoRecord {
  const processing = ctx.store.get("SELECT 1 FROM derive_queue WHERE record_id = ? AND job = 'derive'", r.id);
  const memoryIds = processing
    ? []
    : ctx.store
        .all<{ memory_id: string }>(
          'SELECT memory_id FROM citations WHERE record_id = ? ORDER BY memory_id',
          r.id,
        )
        .map((m) => m.memory_id);
  return recordOf(r, processing ? 'processing' : 'ready', memoryIds);
}

/** A Record just written and queued for derivation: what toRecord would read of it, without the reads. */
function newRecord(r: Omit<RecordRow, 'n'>): MnemoRecord {
  return recordOf(r, 'processing', []);
}

function recordOf(r: Omit<RecordRow, 'n'>, status: MnemoRecord['status'], memoryIds: string[]): MnemoRecord {
  return {
    id: r.id,
    object: 'record',
    status,
    kind: r.kind,
    content: JSON.parse(r.content) as TypedContent,
    source: { name: r.source_name, external_id: r.external_id, trust: r.trust },
    visibility: r.visibility,
    erasable: r.external_id === null,
    occurred_at: r.occurred_at,
    memory_ids: memoryIds,
    created_at: r.created_at,
  };
}

/**
 * Appends a Record (immutable from then on) and queues its derivation, returning at once with
 * status processing and the watermark after the write. A correction is checked and applied inside
 * the same transaction instead (nothing is written if it fails), so it returns ready. An
 * Idempotency-Key replays the original Record for the identical body, even after a restart.
 */
export function rememberRecord(
  ctx: LocalCtx,
  t: Tenant,
  brainId: string,
  body: RecordCreate,
  opts: WriteOptions,
): { record: MnemoRecord; watermark: string; replayed: boolean } {
  const b = requireBrain(ctx, t, brainId);
  const { store } = ctx;
  const visibility = body.visibility ?? 'shareable';
  if (visibility === 'local_only' && ctx.deployment === 'hosted') {
    throw new MnemoError(
      'local_only_record',
      'visibility: local_only Records are not accepted by a hosted deployment',
    );
  }
  const content: TypedContent = normalizeContent(body.content);
  const hash = canonicalHash(body);
  const out = store.tx(() => {
    if (opts.idempotencyKey !== undefined) {
      const prior = store.get<{ body_hash: string; record_id: string }>(
        "SELECT body_hash, record_id FROM idempotency WHERE brain_uid = ? AND operation = 'rememberRecord' AND key = ?",
        b.uid,
        opts.idempotencyKey,
      );
      if (prior) {
        if (prior.body_hash !== hash) {
          throw new MnemoError('idempotency_conflict', 'Idempotency-Key: already used with a different body');
        }
        const r = store.get<RecordRow>('SELECT * FROM records WHERE id = ?', prior.record_id)!;
        return { row: r, seq: r.seq, queued: false, replayed: true };
      }
    }
    const target =
      content.kind === 'correction'
        ? checkCorrection(
            store,
            b.uid,
            content.corrects,
            content.statement === undefined,
            ctx.clock().getTime(),
            ctx.deployment === 'hosted',
          )
        : null;
    const seq = store.nextSeq(b.uid);
    const id = newId('rec');
    const now = nowIso(ctx);
    const occurredAt = body.occurred_at ?? now;
    const text = recordText(content);
    // The row as written, not read back: the Record is immutable and nothing in this transaction
    // changes it. (n, the rowid, is not part of a Record and is left out.)
    const row: Omit<RecordRow, 'n'> = {
      id,
      brain_uid: b.uid,
      seq,
      kind: content.kind,
      content: JSON.stringify(content),
      text,
      source_name: body.source?.name ?? null,
      external_id: body.source?.external_id ?? null,
      trust: body.source?.trust ?? 'medium',
      visibility,
      occurred_at: occurredAt,
      occurred_ms: Date.parse(occurredAt),
      created_at: now,
    };
    store.run(
      `INSERT INTO records (id, brain_uid, seq, kind, content, text, text_key, source_name, external_id, trust,
           visibility, occurred_at, occurred_ms, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.id,
      row.brain_uid,
      row.seq,
      row.kind,
      row.content,
      row.text,
      textKey(text),
      row.source_name,
      row.external_id,
      row.trust,
      row.visibility,
      row.occurred_at,
      row.occurred_ms,
      row.created_at,
    );
    if (target && content.kind === 'correction') {
      applyCorrection(store, target, { id, text }, content.statement, seq, now);
    } else {
      store.run(
        "INSERT INTO derive_queue (brain_uid, job, record_id, record_seq) VALUES (?, 'derive', ?, ?)",
        b.uid,
        id,
        seq,
      );
    }
    if (opts.idempotencyKey !== undefined) {
      store.run(
        "INSERT INTO idempotency (brain_uid, operation, key, body_hash, record_id) VALUES (?, 'rememberRecord', ?, ?, ?)",
        b.uid,
        opts.idempotencyKey,
        hash,
        id,
      );
    }
    return { row, seq, queued: target === null, replayed: false };
  });
  // Queued for derivation (in this same transaction, which nothing could run between): processing,
  // no Memory yet, as toRecord would read it. A correction was applied at once: its citations are read.
  const record = out.queued ? newRecord(out.row) : toRecord(ctx, out.row);
  if (out.queued) ctx.worker.kick();
  return { record, watermark: watermarkOf(ctx, b, out.seq), replayed: out.replayed };
}

export function getRecord(ctx: LocalCtx, t: Tenant, brainId: string, recordId: string): MnemoRecord {
  const b = requireBrain(ctx, t, brainId);
  const r = ctx.store.get<RecordRow>('SELECT * FROM records WHERE id = ? AND brain_uid = ?', recordId, b.uid);
  if (!r)
    throw new MnemoError('record_not_found', `record_id: no Record ${shortened(recordId)} in this Brain`);
  if (r.visibility === 'local_only' && ctx.deployment === 'hosted') {
    throw new MnemoError(
      'local_only_record',
      `record_id: ${recordId} is local_only and not served by a hosted deployment`,
    );
  }
  return toRecord(ctx, r);
}

/** Newest first, filtered; the cursor is the last id seen. */
export function listRecords(ctx: LocalCtx, t: Tenant, brainId: string, q: RecordListQuery): RecordPage {
  const b = requireBrain(ctx, t, brainId);
  if (q.since_watermark !== undefined) return recordChanges(ctx, b, q);
  const { sql, params } = recordPageSql(b.uid, ctx.deployment === 'hosted', q);
  const rows = ctx.store.all<RecordRow>(sql, ...params);
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  return {
    data: page.map((r) => toRecord(ctx, r)),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

/** One page of listRecords (limit + 1 rows, to tell whether more follow), newest id first. */
export function recordPageSql(
  brainUid: string,
  hosted: boolean,
  q: RecordListQuery,
): { sql: string; params: SqlParam[] } {
  const conds = ['r.brain_uid = ?'];
  const params: SqlParam[] = [brainUid];
  const add = (cond: string, ...p: SqlParam[]) => {
    conds.push(cond);
    params.push(...p);
  };
  if (hosted) add("r.visibility <> 'local_only'");
  if (q.kind) add('r.kind = ?', q.kind);
  if (q.source) add('r.source_name = ?', q.source);
  if (q.visibility) add('r.visibility = ?', q.visibility);
  if (q.status === 'processing')
    add("EXISTS (SELECT 1 FROM derive_queue d WHERE d.record_id = r.id AND d.job = 'derive')");
  if (q.status === 'ready')
    add("NOT EXISTS (SELECT 1 FROM derive_queue d WHERE d.record_id = r.id AND d.job = 'derive')");
  if (q.since) add('r.occurred_ms >= ?', Date.parse(q.since));
  if (q.until) add('r.occurred_ms <= ?', Date.parse(q.until));
  if (q.cursor) add('r.id < ?', decodeCursor(q.cursor));
  return {
    sql: `SELECT r.* FROM records r WHERE ${conds.join(' AND ')} ORDER BY r.id DESC LIMIT ?`,
    params: [...params, q.limit + 1],
  };
}
