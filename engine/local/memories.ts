import type {
  Evidence,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MemoryRemoval,
  MemoryRevision,
} from '../contract/index.ts';
import { statusAt, timesOf } from '../core/temporal/memory-time.ts';
import { citationsByMemory, toMemory } from '../core/shared/memory-shape.ts';
import { searchWords } from '../core/shared/fold-text.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import type { MemoryFilter, MemoryReads, MemoryVersionRow, TombstoneRepository } from '../ports/index.ts';
import type { Tenant } from '../types.ts';
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
  if (q.since_watermark !== undefined && q.cursor !== undefined) {
    throw new MnemoError(
      'conflicting_parameters',
      'since_watermark, cursor: a delta read and a full read cannot be combined',
    );
  }
  const sinceSeq = q.since_watermark !== undefined ? ctx.codec.decode(q.since_watermark, b.uid) : undefined;
  const nowMs = ctx.clock().getTime();
  const hosted = ctx.deployment === 'hosted';
  return ctx.units.read(b.uid, async (u) => {
    if (sinceSeq !== undefined) {
      const delta = await memoryChanges(u, memoryFilter(q, nowMs, hosted, true), sinceSeq, q.limit);
      return {
        data: await toMemories(u, delta.rows, nowMs, hosted),
        has_more: delta.hasMore,
        next_cursor: null,
        watermark: ctx.codec.encode(b.uid, delta.throughSeq ?? (await u.sequence.current())),
        removed: delta.removed,
      };
    }
    const page = await u.memories.list({
      ...memoryFilter(q, nowMs, hosted, false),
      limit: q.limit,
      cursor: q.cursor,
    });
    return {
      data: await toMemories(u, page.rows, nowMs, hosted),
      has_more: page.next !== null,
      next_cursor: page.next,
    };
  });
}

/**
 * What a listMemories read serves: the Brain's Memories not pending re-derivation, as the deployment
 * serves them, at `as_of`, of the status asked (by default current; every status for a delta read or
 * at `as_of`), of the subject, owner, slot and words asked.
 */
export function memoryFilter(
  q: MemoryListQuery,
  nowMs: number,
  hosted: boolean,
  delta: boolean,
): MemoryFilter {
  return {
    nowMs,
    asOfMs: q.as_of !== undefined ? Date.parse(q.as_of) : undefined,
    status: q.status ?? (q.as_of !== undefined || delta ? 'all' : 'current'),
    subject: q.subject,
    owner: q.owner,
    contested: q.contested === 'true',
    slot: q.slot,
    // Every word of the search, in any order, case and accents ignored in every script.
    words: q.q !== undefined ? searchWords(q.q) : undefined,
    shareableOnly: hosted,
  };
}

/**
 * The changes and removals after step `sinceSeq`, as one stream by step (removals of a step first),
 * ending on a whole step; `throughSeq` is the page's last step when more follow.
 */
async function memoryChanges(
  u: MemoryUnit,
  filter: MemoryFilter,
  sinceSeq: number,
  limit: number,
): Promise<{ rows: MemoryVersionRow[]; removed: MemoryRemoval[]; hasMore: boolean; throughSeq?: number }> {
  // Removals (tombstones: deleted, or pending re-derivation) carry no content, so the content filters
  // do not narrow them; a hosted deployment reports only Memories it could have served.
  const shareableOnly = filter.shareableOnly;
  const changed = async (o: { afterSeq: number; throughSeq?: number; limit?: number }) =>
    (await u.memories.changes({ ...filter, ...o })).map((row): DeltaEntry => ({ seq: row.seq, row }));
  const gone = async (o: { afterSeq: number; throughSeq?: number; limit?: number }) =>
    (await u.tombstones.since(o.afterSeq, o.limit, { shareableOnly, throughSeq: o.throughSeq })).map(
      (r): DeltaEntry => ({ seq: r.seq, removal: { id: r.memory_id, reason: r.reason } }),
    );
  // Each side stops at limit + 1 in step order; merged by step, removals of a step first.
  const merge = (a: DeltaEntry[], c: DeltaEntry[]) =>
    [...a, ...c].sort((x, y) => x.seq - y.seq || (x.removal ? 0 : 1) - (y.removal ? 0 : 1));
  const first = { afterSeq: sinceSeq, limit: limit + 1 };
  let entries = merge(await gone(first), await changed(first)).slice(0, limit + 1);
  // Whether anything follows the page is known from what was read, except after a page that is one
  // whole step longer than the limit: only then is there something left to ask.
  let hasMore = entries.length > limit;
  if (hasMore) {
    // A page must end on a whole sequence step, or the next page (seq > last) would skip the rest
    // of that step: drop the split step, or if the page is one step only, take all of it.
    const last = entries[limit - 1]!.seq;
    const split = entries[limit]!.seq === last;
    entries = entries.slice(0, limit);
    if (split) {
      const whole = entries.filter((e) => e.seq !== last);
      if (whole.length > 0) entries = whole;
      else {
        const step = { afterSeq: sinceSeq, throughSeq: last };
        entries = merge(await gone(step), await changed(step));
        const after = { afterSeq: last, limit: 1 };
        hasMore = (await changed(after)).length > 0 || (await gone(after)).length > 0;
      }
    }
  }
  const rows = entries.flatMap((e) => (e.row ? [e.row] : []));
  // A Memory removed and served again within the page (re-derived) is reported once, as it is now.
  const served = new Set(rows.map((r) => r.id));
  return {
    rows,
    removed: entries.flatMap((e) => (e.removal && !served.has(e.removal.id) ? [e.removal] : [])),
    hasMore,
    ...(hasMore ? { throughSeq: entries[entries.length - 1]!.seq } : {}),
  };
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
        speaker: (JSON.parse(r.content) as { speaker?: string }).speaker ?? null,
        source_name: r.source_name,
        occurred_at: r.occurred_at,
      });
    }
    return { ...memory, revisions, evidence };
  });
}
