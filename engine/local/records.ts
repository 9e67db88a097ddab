import { decodeIdCursor } from '../core/shared/page-cursor.ts';
import { sourceFilterAgrees } from '../core/shared/source-filter.ts';
import { searchWords } from '../core/shared/fold-text.ts';
import type {
  MnemoRecord,
  RecordCreate,
  RecordListQuery,
  RecordPage,
  TypedContent,
} from '../contract/index.ts';
import { applyCorrection, checkCorrection, correctionStart } from '../derive/apply-correction.ts';
import { correctionTarget } from '../derive/travelled-correction.ts';
import { recordText } from '../core/derive/record-text.ts';
import { isErasable } from '../core/shared/erasable.ts';
import { isoInZone } from '../core/retrieve/time-zone.ts';
import { normalizeContent } from '../core/shared/record-text.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import { newId } from '../ids.ts';
import type { BrainUnitOfWork, RecordRow, RecordState } from '../ports/index.ts';
import type { Tenant, WriteOptions } from '../types.ts';
import { canonicalHash } from './canonical-hash.ts';
import { forgetRecordRows } from './forget-cascade.ts';
import { narrowedRevisions } from './narrowed-revisions.ts';
import { afterForget, requireBrain, watermarkAt, type EngineCtx } from './local-ctx.ts';
import { recordChanges } from './sync/change-feed.ts';

/** A Record as its readers see it: its row and its state (RecordRepository.states). */
export function toRecord(r: Omit<RecordRow, 'n'>, state: RecordState): MnemoRecord {
  return recordOf(r, state.processing ? 'processing' : 'ready', state.processing ? [] : state.memoryIds);
}

/**
 * The Records with `erasable` true for those that came from a sync remote (EngineCtx.fromRemote): no
 * item of an import of this device, each is forgotten on its own, whatever source it names.
 */
async function withPulledErasable(
  ctx: EngineCtx,
  brainUid: string,
  records: MnemoRecord[],
): Promise<MnemoRecord[]> {
  const pinned = records.filter((r) => !r.erasable).map((r) => r.id);
  if (pinned.length === 0) return records;
  const pulled = new Set(await ctx.fromRemote(brainUid, pinned));
  return pulled.size === 0 ? records : records.map((r) => (pulled.has(r.id) ? { ...r, erasable: true } : r));
}

/** A Record just written and queued for derivation: what toRecord would read of it, without the reads. */
function newRecord(r: Omit<RecordRow, 'n'>): MnemoRecord {
  return recordOf(r, 'processing', []);
}

/**
 * A Record's content as the API shows it: a correction that came from another side is shown as the
 * correction it was written as, without the target it travelled with (the change feed serves that:
 * change-feed.ts). Its `corrects` names the Memory where it was written.
 */
function apiContent(stored: string): TypedContent {
  const content = JSON.parse(stored) as TypedContent & { target?: unknown };
  if (content.kind !== 'correction' || content.target === undefined) return content;
  const { target: _travelled, ...written } = content;
  return written;
}

/**
 * The Records of a page with what each correction that came from another side did here
 * (correction_outcome), once it was derived: read for those alone.
 */
async function withOutcomes(
  u: Pick<BrainUnitOfWork, 'corrections'>,
  records: MnemoRecord[],
): Promise<MnemoRecord[]> {
  const ids = records.filter((r) => r.kind === 'correction' && r.status === 'ready').map((r) => r.id);
  if (ids.length === 0) return records;
  const outcomes = new Map((await u.corrections.of(ids)).map((o) => [o.record_id, o]));
  return records.map((r) => {
    const o = outcomes.get(r.id);
    if (!o) return r;
    const { record_id: _id, missing: _missing, unmatched: _unmatched, ...outcome } = o;
    return { ...r, correction_outcome: outcome };
  });
}

function recordOf(r: Omit<RecordRow, 'n'>, status: MnemoRecord['status'], memoryIds: string[]): MnemoRecord {
  return {
    id: r.id,
    object: 'record',
    status,
    kind: r.kind,
    content: apiContent(r.content),
    source: { name: r.source_name, external_id: r.external_id, trust: r.trust },
    visibility: r.visibility,
    erasable: isErasable({ name: r.source_name, external_id: r.external_id }),
    occurred_at: r.occurred_at,
    memory_ids: memoryIds,
    created_at: r.created_at,
  };
}

/**
 * Appends a Record (immutable from then on) and queues its derivation, returning with status
 * processing and the watermark after the write. A correction is checked and applied inside the same
 * unit of work instead (nothing is written if it fails), so it returns ready. An Idempotency-Key
 * replays the original Record for the identical body, even after a restart. Appends arriving together
 * share one commit (the unit asks to be batched).
 */
export async function rememberRecord(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  body: RecordCreate,
  opts: WriteOptions,
): Promise<{ record: MnemoRecord; watermark: string; replayed: boolean }> {
  return ctx.brainUids.withUid(t, brainId, (uid) => appendRecord(ctx, uid, body, opts));
}

async function appendRecord(
  ctx: EngineCtx,
  uid: string,
  body: RecordCreate,
  opts: WriteOptions,
): Promise<{ record: MnemoRecord; watermark: string; replayed: boolean }> {
  const visibility = body.visibility ?? 'shareable';
  if (visibility === 'local_only' && ctx.deployment === 'hosted') {
    throw new MnemoError(
      'local_only_record',
      'visibility: local_only Records are not accepted by a hosted deployment: they stay on the ' +
        "person's device. Write it there, or, if it may leave the device, as redacted_summary or shareable",
    );
  }
  const content: TypedContent = normalizeContent(body.content);
  const hash = canonicalHash(body);
  // A hosted deployment keeps no local_only Record and serves redacted_summary as it is: a revision
  // there travels no less far than another, so it takes nothing back.
  const narrows = ctx.deployment !== 'hosted';
  const out = await ctx.units.write(
    uid,
    async (u) => {
      if (opts.idempotencyKey !== undefined) {
        const prior = await u.idempotency.find('rememberRecord', opts.idempotencyKey);
        if (prior) {
          if (prior.bodyHash !== hash) {
            throw new MnemoError(
              'idempotency_conflict',
              'Idempotency-Key: already used with a different body',
            );
          }
          const r = 'record' in prior.target ? await u.records.get(prior.target.record) : null;
          // Replayed, it still says the item's visibility: a wider revision written since (a shareable
          // one after the local_only one this key wrote) goes, as it would for a new revision.
          const wider = narrows && r!.kind !== 'correction' ? await narrowedRevisions(u, r!) : [];
          const narrowed =
            wider.length > 0 ? { ids: wider, ...(await forgetRecordRows(ctx, u, wider)) } : null;
          const [state] = await u.records.states([r!.id]);
          return {
            record: toRecord(r!, state!),
            seq: narrowed?.seq ?? r!.seq,
            queued: false,
            replayed: true,
            narrowed,
          };
        }
      }
      const start = content.kind === 'correction' ? correctionStart(content) : undefined;
      const target =
        content.kind === 'correction'
          ? await checkCorrection(
              u.memories,
              content.corrects,
              content.statement,
              ctx.clock().getTime(),
              ctx.deployment === 'hosted',
              start,
            )
          : null;
      // What another side needs to find its own Memory of the same Records (travelled-correction.ts),
      // kept as the correction is written: read at push time instead, it is lost when the Records the
      // Memory rests on are forgotten before the next run, and the correction would stay home for ever.
      // Only for one that may travel; shown without it (apiContent), as a pulled correction is.
      const travels =
        target && content.kind === 'correction' && visibility === 'shareable'
          ? await correctionTarget(u, content.corrects)
          : null;
      const seq = await u.sequence.next();
      const id = newId('rec');
      const at = ctx.clock();
      const now = at.toISOString();
      const occurredAt = body.occurred_at ?? isoInZone(ctx.zone, at.getTime());
      const text = recordText(content);
      const row = await u.records.insert({
        id,
        brain_uid: uid,
        seq,
        kind: content.kind,
        content: JSON.stringify(travels ? { ...content, target: travels } : content),
        text,
        source_name: body.source?.name ?? null,
        external_id: body.source?.external_id ?? null,
        trust: body.source?.trust ?? 'medium',
        visibility,
        occurred_at: occurredAt,
        occurred_ms: Date.parse(occurredAt),
        created_at: now,
      });
      if (target && content.kind === 'correction') {
        await applyCorrection(u.memories, target, { id, text }, content.statement, seq, now, start);
      } else {
        await u.jobs.enqueue({ job: 'derive', brainUid: uid, recordId: id, recordSeq: seq });
      }
      if (opts.idempotencyKey !== undefined) {
        await u.idempotency.remember('rememberRecord', opts.idempotencyKey, {
          bodyHash: hash,
          target: { record: id },
        });
      }
      const wider = !narrows || content.kind === 'correction' ? [] : await narrowedRevisions(u, row);
      const narrowed = wider.length > 0 ? { ids: wider, ...(await forgetRecordRows(ctx, u, wider)) } : null;
      // Queued for derivation in this unit: processing, no Memory yet, as toRecord would read it. A
      // correction was applied at once: its citations are read.
      const record = target === null ? newRecord(row) : toRecord(row, (await u.records.states([id]))[0]!);
      return { record, seq: narrowed?.seq ?? seq, queued: target === null, replayed: false, narrowed };
    },
    {
      batch: true,
      idempotencyKey:
        opts.idempotencyKey !== undefined
          ? { operation: 'rememberRecord', key: opts.idempotencyKey }
          : undefined,
    },
  );
  if (out.narrowed) {
    await afterForget(ctx, uid, out.narrowed.ids);
    await ctx.emptyLog();
  }
  if (out.queued) ctx.worker.kick({ dueNow: true });
  else if ((out.narrowed?.pending ?? 0) > 0) ctx.worker.kick();
  return { record: out.record, watermark: watermarkAt(ctx, { uid }, out.seq), replayed: out.replayed };
}

export async function getRecord(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  recordId: string,
): Promise<MnemoRecord> {
  const b = await requireBrain(ctx, t, brainId);
  return ctx.units.read(b.uid, async (u) => {
    const r = await u.records.get(recordId);
    if (!r)
      throw new MnemoError('record_not_found', `record_id: no Record ${shortened(recordId)} in this Brain`);
    if (r.visibility === 'local_only' && ctx.deployment === 'hosted') {
      throw new MnemoError(
        'local_only_record',
        `record_id: ${recordId} is local_only and not served by a hosted deployment`,
      );
    }
    const [state] = await u.records.states([r.id]);
    return (await withPulledErasable(ctx, b.uid, await withOutcomes(u, [toRecord(r, state!)])))[0]!;
  });
}

/** Engine.sourceExternalIds: one indexed read, without the Records' content or state. */
export async function sourceExternalIds(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  sourceName: string,
): Promise<string[]> {
  const b = await requireBrain(ctx, t, brainId);
  return ctx.units.read(b.uid, (u) =>
    u.records.externalIdsOfSource(sourceName, { hideLocalOnly: ctx.deployment === 'hosted' }),
  );
}

/** Newest first, filtered; the cursor names the last Record seen. */
export async function listRecords(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  q: RecordListQuery,
): Promise<RecordPage> {
  const b = await requireBrain(ctx, t, brainId);
  if (q.since_watermark !== undefined) return recordChanges(ctx, b, q);
  if (q.cursor !== undefined) decodeIdCursor(q.cursor, 'rec_', 'listRecords');
  sourceFilterAgrees(q);
  return ctx.units.read(b.uid, async (u) => {
    const page = await u.records.list({
      limit: q.limit,
      cursor: q.cursor,
      kind: q.kind,
      sourceName: q.source,
      hasSource: q.has_source === undefined ? undefined : q.has_source === 'true',
      visibility: q.visibility,
      status: q.status,
      sinceMs: q.since ? Date.parse(q.since) : undefined,
      untilMs: q.until ? Date.parse(q.until) : undefined,
      words: q.q !== undefined ? searchWords(q.q) : undefined,
      ids: q.ids?.split(','),
      hideLocalOnly: ctx.deployment === 'hosted',
    });
    const states = await u.records.states(page.rows.map((r) => r.id));
    return {
      data: await withPulledErasable(
        ctx,
        b.uid,
        await withOutcomes(
          u,
          page.rows.map((r, i) => toRecord(r, states[i]!)),
        ),
      ),
      has_more: page.next !== null,
      next_cursor: page.next,
    };
  });
}
