import type {
  Evidence,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MemoryRevision,
} from '../contract/index.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { memoryColumns, servedSql, toMemories, type MemoryRow } from '../store/memory-view.ts';
import type { SqlParam } from '../store/store.ts';
import type { Tenant } from '../types.ts';
import { decodeCursor, encodeCursor } from '../shared/page-cursor.ts';
import { requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';

/**
 * Memories of a Brain. Default: current ones (active, open). `as_of`: versions valid at that world
 * time. `status` widens or narrows; `since_watermark`: everything changed after that transaction
 * sequence, oldest change first (all statuses unless `status` says otherwise). Pending re-derivation
 * is never served.
 */
export function listMemories(ctx: LocalCtx, t: Tenant, brainId: string, q: MemoryListQuery): MemoryPage {
  const b = requireBrain(ctx, t, brainId);
  if (q.since_watermark !== undefined && q.cursor !== undefined) {
    throw new MnemoError(
      'conflicting_parameters',
      'since_watermark, cursor: a delta read and a full read cannot be combined',
    );
  }
  const sinceSeq = q.since_watermark !== undefined ? ctx.codec.decode(q.since_watermark, b.uid) : undefined;
  const conds = ['m.brain_uid = ?', 'm.pending = 0'];
  const params: SqlParam[] = [b.uid];
  const add = (cond: string, ...p: SqlParam[]) => {
    conds.push(cond);
    params.push(...p);
  };
  if (q.as_of !== undefined) {
    const s = servedSql(Date.parse(q.as_of));
    add(s.sql, ...s.params);
  }
  const status = q.status ?? (q.as_of !== undefined || sinceSeq !== undefined ? 'all' : 'current');
  if (status === 'current') add("m.status = 'active' AND m.valid_to IS NULL");
  else if (status !== 'all') add('m.status = ?', status);
  if (q.subject !== undefined) add('m.subject = ?', q.subject);
  if (q.owner !== undefined) add('(m.owner_state = ? OR lower(m.owner_entity) = lower(?))', q.owner, q.owner);
  if (q.q !== undefined) add('instr(lower(m.statement), lower(?)) > 0', q.q);

  if (sinceSeq !== undefined) {
    add('m.seq > ?', sinceSeq);
    const where = conds.join(' AND ');
    let rows = ctx.store.all<MemoryRow>(
      `SELECT ${memoryColumns} FROM memories m WHERE ${where} ORDER BY m.seq, m.n LIMIT ?`,
      ...params,
      q.limit + 1,
    );
    if (rows.length > q.limit) {
      // A page must end on a whole sequence step, or the next page (seq > last) would skip the rest
      // of that step: drop the split step, or if the page is one step only, take all of it.
      const last = rows[q.limit - 1]!.seq;
      const split = rows[q.limit]!.seq === last;
      rows = rows.slice(0, q.limit);
      if (split) {
        const whole = rows.filter((r) => r.seq !== last);
        rows =
          whole.length > 0
            ? whole
            : ctx.store.all<MemoryRow>(
                `SELECT ${memoryColumns} FROM memories m WHERE ${where} AND m.seq <= ? ORDER BY m.seq, m.n`,
                ...params,
                last,
              );
      }
    }
    const lastSeq = rows[rows.length - 1]?.seq;
    const hasMore =
      lastSeq !== undefined &&
      ctx.store.get(`SELECT 1 FROM memories m WHERE ${where} AND m.seq > ? LIMIT 1`, ...params, lastSeq) !==
        undefined;
    return {
      data: toMemories(ctx.store, rows),
      has_more: hasMore,
      next_cursor: null,
      watermark: hasMore ? watermarkOf(ctx, b, lastSeq) : watermarkOf(ctx, b),
    };
  }
  if (q.cursor !== undefined) add('m.id > ?', decodeCursor(q.cursor));
  const rows = ctx.store.all<MemoryRow>(
    `SELECT ${memoryColumns} FROM memories m WHERE ${conds.join(' AND ')} ORDER BY m.id LIMIT ?`,
    ...params,
    q.limit + 1,
  );
  const hasMore = rows.length > q.limit;
  const page = rows.slice(0, q.limit);
  return {
    data: toMemories(ctx.store, page),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

export function getMemory(ctx: LocalCtx, t: Tenant, brainId: string, memoryId: string): MemoryDetail {
  const b = requireBrain(ctx, t, brainId);
  const row = ctx.store.get<MemoryRow>(
    `SELECT ${memoryColumns} FROM memories m WHERE m.id = ? AND m.brain_uid = ?`,
    memoryId,
    b.uid,
  );
  if (!row) throw new MnemoError('memory_not_found', `memory_id: no Memory ${memoryId} in this Brain`);
  if (row.pending) {
    throw new MnemoError(
      'memory_pending_rederivation',
      `memory_id: ${memoryId} lost some of its Records and is excluded until it is derived again`,
    );
  }
  const [memory] = toMemories(ctx.store, [row]);
  const revisions = ctx.store
    .all<MemoryRow>(
      `SELECT ${memoryColumns} FROM memories m WHERE m.lineage = ? ORDER BY m.version`,
      row.lineage,
    )
    .map((r): MemoryRevision => ({
      id: r.id,
      version: r.version,
      statement: r.statement,
      status: r.status,
      valid_from: r.valid_from,
      valid_to: r.valid_to,
      learned_at: r.learned_at,
      cause: r.cause,
    }));
  const evidence = ctx.store
    .all<{
      record_id: string;
      quote: string;
      text: string;
      kind: string;
      content: string;
      source_name: string | null;
      occurred_at: string;
    }>(
      `SELECT c.record_id, c.quote, r.text, r.kind, r.content, r.source_name, r.occurred_at
       FROM citations c JOIN records r ON r.id = c.record_id WHERE c.memory_id = ? ORDER BY r.id`,
      memoryId,
    )
    .map((e): Evidence => ({
      record_id: e.record_id,
      quote: e.quote,
      text: e.text,
      kind: e.kind,
      speaker: (JSON.parse(e.content) as { speaker?: string }).speaker ?? null,
      source_name: e.source_name,
      occurred_at: e.occurred_at,
    }));
  return { ...memory!, revisions, evidence };
}
