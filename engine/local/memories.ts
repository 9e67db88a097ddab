import { refuseFullReadInDelta } from '../core/shared/memory-delta-read.ts';
import { decodeIdCursor } from '../core/shared/page-cursor.ts';
import type {
  Evidence,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MemoryRemoval,
  MemoryRevision,
  Owner,
} from '../contract/index.ts';
import { statusAt, timesOf } from '../core/temporal/memory-time.ts';
import { citationsByMemory, toMemory } from '../core/shared/memory-shape.ts';
import { searchWords } from '../core/shared/fold-text.ts';
import { isOwnerState } from '../core/shared/owner-state.ts';
import { namedBy } from '../core/shared/person-names.ts';
import { slotValueAsSaid } from '../core/derive/slot-value.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import type { MemoryFilter, MemoryReads, MemoryVersionRow, TombstoneRepository } from '../ports/index.ts';
import type { Tenant } from '../types.ts';
import type { MemoryPlace, MemoryStepPlace } from '../watermark.ts';
import { brainNames } from './brain-names.ts';
import { requireBrain, type EngineCtx } from './local-ctx.ts';

/** What the Memories' reads need of a Brain's unit of work (any backend's). */
type MemoryUnit = { readonly memories: MemoryReads; readonly tombstones: TombstoneRepository };

/** One item of a delta read: a changed Memory, or one that left the served set (a tombstone). */
type DeltaEntry = { seq: number; row?: MemoryVersionRow; removal?: MemoryRemoval };

/**
 * Memories of a Brain. Default: current ones (in force now and, for a slot value, begun: a value
 * scheduled to start later does not replace the one that holds until then). `as_of`: versions valid at
 * that world time. `status` widens or narrows, read at now (`active` = current, `scheduled` = a slot
 * value in force that starts later); `since_watermark`: everything changed after that transaction
 * sequence, oldest change first (all statuses unless `status` says otherwise), and in `removed` the
 * Memories that left the served set since (deleted, or pending re-derivation), in the same order.
 * Pending re-derivation is never served. A hosted deployment serves only Memories with a supporting Record that is not
 * local_only, and cites only such Records: the filter is part of the query, so pages, cursors,
 * has_more and delta watermarks count only what is served (and `removed` only what it could serve).
 */
export async function listMemories(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  q: MemoryListQuery,
): Promise<MemoryPage> {
  const b = await requireBrain(ctx, t, brainId);
  refuseFullReadInDelta(q);
  if (q.cursor !== undefined) decodeIdCursor(q.cursor, 'mem_', 'listMemories');
  const since =
    q.since_watermark !== undefined ? ctx.codec.decodeMemoryPlace(q.since_watermark, b.uid) : undefined;
  const nowMs = ctx.clock().getTime();
  const hosted = ctx.deployment === 'hosted';
  return ctx.units.read(b.uid, async (u) => {
    const named = await whomNamed(brainNames(ctx, b.uid, u), q, b.self_name);
    if (since !== undefined) {
      const delta = await memoryChanges(u, memoryFilter(q, nowMs, hosted, true, named), since, q.limit);
      const { end } = delta;
      return {
        data: await toMemories(u, delta.rows, nowMs, hosted),
        has_more: delta.hasMore,
        next_cursor: null,
        watermark:
          end === undefined
            ? ctx.codec.encode(b.uid, await u.sequence.current())
            : ctx.codec.encodeMemoryPlace(b.uid, end.seq, end.within),
        removed: delta.removed,
      };
    }
    const page = await u.memories.list({
      ...memoryFilter(q, nowMs, hosted, false, named),
      limit: q.limit,
      cursor: q.cursor,
      order: q.order,
    });
    return {
      data: await toMemories(u, page.rows, nowMs, hosted),
      has_more: page.next !== null,
      next_cursor: page.next,
    };
  });
}

/** The subjects and owners listMemories' `subject` and `owner` name in one Brain (whomNamed). */
export type Named = Pick<MemoryFilter, 'subjects' | 'owner'>;

/**
 * What `subject` and `owner` name in this Brain: each subject and each owner's name of its Memories
 * that they name as a person's name is named (person-names.ts: every word typed a whole word of it,
 * case and accents ignored), so "marko" is Marko Babić and the other Marko alike; with the Brain's own
 * person's name when they name her, whose facts about "me" are kept under it. An owner's state word
 * (`self`, `other`, `unresolved`) is that state, as the spec has it.
 */
export async function whomNamed(
  memories: Pick<MemoryReads, 'subjectNames' | 'ownerNames'>,
  q: Pick<MemoryListQuery, 'subject' | 'owner'>,
  selfName: string | null,
): Promise<Named> {
  const self = selfName !== null ? [selfName] : [];
  const subjects =
    q.subject === undefined
      ? undefined
      : [q.subject, ...namedBy(q.subject, self), ...namedBy(q.subject, await memories.subjectNames())];
  const owner =
    q.owner === undefined
      ? undefined
      : isOwnerState(q.owner)
        ? { state: q.owner as Owner['state'] }
        : { folded: namedBy(q.owner, await memories.ownerNames()) };
  return { subjects, owner };
}

/**
 * What a listMemories read serves: the Brain's Memories not pending re-derivation, as the deployment
 * serves them, at `as_of`, of the status asked (by default current; every status for a delta read or
 * at `as_of`), of the subjects and owner named (whomNamed), slot and words asked.
 */
export function memoryFilter(
  q: MemoryListQuery,
  nowMs: number,
  hosted: boolean,
  delta: boolean,
  named: Named,
): MemoryFilter {
  return {
    nowMs,
    asOfMs: q.as_of !== undefined ? Date.parse(q.as_of) : undefined,
    status: q.status ?? (q.as_of !== undefined || delta ? 'all' : 'current'),
    subjects: named.subjects,
    owner: named.owner,
    contested: q.contested === 'true',
    slot: q.slot,
    // Every word of the search, in any order, case and accents ignored in every script.
    words: q.q !== undefined ? searchWords(q.q) : undefined,
    shareableOnly: hosted,
  };
}

/**
 * The changes and removals after `since`, as one stream by step (within a step, the removals by Memory
 * id, then the changes in write order), `limit` entries at most. A step with more goes on in the next
 * page: one forgetSource removes every Memory of its source at one step, which no single answer may
 * be able to hold. `end` is where the page stops when more follow: its last step, and the place of its
 * last entry within that step when the next entry is of the same step.
 */
async function memoryChanges(
  u: MemoryUnit,
  filter: MemoryFilter,
  since: MemoryPlace,
  limit: number,
): Promise<{ rows: MemoryVersionRow[]; removed: MemoryRemoval[]; hasMore: boolean; end?: MemoryPlace }> {
  // Removals (tombstones: deleted, or pending re-derivation) carry no content, so the content filters
  // do not narrow them; a hosted deployment reports only Memories it could have served.
  const shareableOnly = filter.shareableOnly;
  // Within a step the removals come before the changes: a place at a change has read its step's
  // removals, and a place at a removal none of its changes.
  const { seq, within } = since;
  const changesFrom = !within
    ? { afterSeq: seq }
    : within.removal
      ? { afterSeq: seq - 1 }
      : { afterSeq: seq, afterN: within.n };
  const gone = await u.tombstones.since(seq, limit + 1, {
    shareableOnly,
    afterId: within?.removal ? within.id : undefined,
  });
  const changed = await u.memories.changes({ ...filter, ...changesFrom, limit: limit + 1 });
  // Each side stops at limit + 1 in the stream's order, so the first limit + 1 of both are among them;
  // the sort is stable, so a step keeps each side's order.
  const entries = [
    ...gone.map((r): DeltaEntry => ({ seq: r.seq, removal: { id: r.memory_id, reason: r.reason } })),
    ...changed.map((row): DeltaEntry => ({ seq: row.seq, row })),
  ]
    .sort((x, y) => x.seq - y.seq || (x.removal ? 0 : 1) - (y.removal ? 0 : 1))
    .slice(0, limit + 1);
  const hasMore = entries.length > limit;
  const page = entries.slice(0, limit);
  const rows = page.flatMap((e) => (e.row ? [e.row] : []));
  // A Memory removed and served again within the page (re-derived) is reported once, as it is now.
  const served = new Set(rows.map((r) => r.id));
  const removed = page.flatMap((e) => (e.removal && !served.has(e.removal.id) ? [e.removal] : []));
  if (!hasMore) return { rows, removed, hasMore };
  const last = page[page.length - 1]!;
  if (entries[limit]!.seq !== last.seq) return { rows, removed, hasMore, end: { seq: last.seq } };
  const place: MemoryStepPlace = last.row
    ? { removal: false, n: last.row.n }
    : { removal: true, id: last.removal!.id };
  return { rows, removed, hasMore, end: { seq: last.seq, within: place } };
}

/** Versions as the contract shows them at nowMs; hosted, citing only Records that are not local_only. */
export async function toMemories(
  u: Pick<MemoryUnit, 'memories'>,
  rows: MemoryVersionRow[],
  nowMs: number,
  hosted: boolean,
) {
  const cites = citationsByMemory(
    await u.memories.citations(
      rows.map((r) => r.id),
      { shareableOnly: hosted },
    ),
  );
  return rows.map((r) => toMemory(r, statusAt(timesOf(r), nowMs), cites.get(r.id) ?? []));
}

const speakerOf = (content: string) => (JSON.parse(content) as { speaker?: string }).speaker ?? null;

/**
 * One Memory with every version of its slot and the Records citing it. On a hosted deployment a
 * Memory supported only by local_only Records is refused as getRecord refuses such a Record
 * (local_only_record): it exists, but this deployment does not serve it. A Memory with other support
 * is served with only that support: citations, evidence, and the versions of its slot that have some.
 */
export async function getMemory(
  ctx: EngineCtx,
  t: Tenant,
  brainId: string,
  memoryId: string,
): Promise<MemoryDetail> {
  const b = await requireBrain(ctx, t, brainId);
  const nowMs = ctx.clock().getTime();
  const hosted = ctx.deployment === 'hosted';
  return ctx.units.read(b.uid, async (u) => {
    const row = await u.memories.get(memoryId);
    if (!row)
      throw new MnemoError('memory_not_found', `memory_id: no Memory ${shortened(memoryId)} in this Brain`);
    if (row.pending) {
      throw new MnemoError(
        'memory_pending_rederivation',
        `memory_id: ${memoryId} lost some of its Records and is excluded until it is derived again`,
      );
    }
    const cites = await u.memories.citations([row.id], { shareableOnly: hosted });
    if (hosted && cites.length === 0) {
      throw new MnemoError(
        'local_only_record',
        `memory_id: ${memoryId} is derived only from local_only Records, which a hosted deployment does not serve`,
      );
    }
    const memory = toMemory(row, statusAt(timesOf(row), nowMs), citationsByMemory(cites).get(row.id) ?? []);
    const revisions = (await u.memories.lineage(row.lineage, { shareableOnly: hosted })).map(
      (r): MemoryRevision => ({
        id: r.id,
        version: r.version,
        statement: r.statement,
        status: statusAt(timesOf(r), nowMs),
        valid_from: r.valid_from,
        valid_to: r.valid_to,
        learned_at: r.learned_at,
        cause: r.cause,
      }),
    );
    // Citations come by Record id, the order evidence is shown in.
    const evidence: Evidence[] = [];
    for (const c of cites) {
      const r = await u.records.get(c.record_id);
      if (!r) continue;
      evidence.push({
        record_id: c.record_id,
        quote: c.quote,
        text: r.text,
        kind: r.kind,
        speaker: speakerOf(r.content),
        source_name: r.source_name,
        occurred_at: r.occurred_at,
      });
    }
    // What withdrew it, as the person reads it on the Memory's page ("wait no, it's march 14").
    const by = row.retracted_by === null ? null : await u.records.get(row.retracted_by);
    const withdrawn_by =
      by === null || (hosted && by.visibility === 'local_only')
        ? null
        : {
            record_id: by.id,
            kind: by.kind,
            text: by.text.slice(0, 500),
            speaker: speakerOf(by.content),
            occurred_at: by.occurred_at,
          };
    return { ...memory, revisions, evidence, value: slotValueAsSaid(row), withdrawn_by };
  });
}
