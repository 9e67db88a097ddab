import type {
  Evidence,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MemoryRevision,
} from '../contract/index.ts';
import { normalizeStatement } from '../derive/record-text.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import {
  currentSql,
  memoryColumns,
  servedSql,
  shareableSql,
  statusAt,
  statusSql,
  toMemories,
  type MemoryRow,
} from '../store/memory-view.ts';
import type { SqlParam } from '../store/store.ts';
import type { Tenant } from '../types.ts';
import { decodeCursor, encodeCursor } from '../shared/page-cursor.ts';
import { requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';

/**
 * Memories of a Brain. Default: current ones (in force now and, for a slot value, begun: a value
 * scheduled to start later does not replace the one that holds until then). `as_of`: versions valid at
 * that world time. `status` widens or narrows, read at now (`active` = in force, current or
 * scheduled); `since_watermark`: everything changed after that transaction sequence, oldest change
 * first (all statuses unless `status` says otherwise). Pending re-derivation is never served. A hosted
 * deployment serves only Memories with a supporting Record that is not local_only, and cites only such
 * Records: the filter is part of the query, so pages, cursors, has_more and delta watermarks count only
 * what is served.
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
  const nowMs = ctx.clock().getTime();
  const hosted = ctx.deployment === 'hosted';
  const conds = ['m.brain_uid = ?', 'm.pending = 0'];
  const params: SqlParam[] = [b.uid];
  const add = (cond: string, ...p: SqlParam[]) => {
    conds.push(cond);
    params.push(...p);
  };
  if (hosted) add(shareableSql());
  if (q.as_of !== undefined) {
    const s = servedSql(Date.parse(q.as_of));
    add(s.sql, ...s.params);
  }
  const status = q.status ?? (q.as_of !== undefined || sinceSeq !== undefined ? 'all' : 'current');
  if (status !== 'all') {
    const s = status === 'current' ? currentSql(nowMs) : statusSql(status, nowMs);
    add(s.sql, ...s.params);
  }
  if (q.subject !== undefined) {
    // Supersession keys a slot by its normalized subject (case, spacing, trailing punctuation), so
    // "Bob"/age and "bob"/Age are one lineage, and one filter: slot values match on the slot's subject
    // part (a range on the (brain, slot) index); other Memories compare the subject case-insensitively
    // (ASCII, as lower() does, like the owner filter) through seeks on the (brain, subject) index.
    const norm = `${normalizeStatement(q.subject)}\u001f`;
    add(
      `m.id IN (SELECT s.id FROM memories s WHERE s.brain_uid = ? AND s.slot >= ? AND s.slot < ?
                UNION ALL
                SELECT s.id FROM json_each(?) j
                  JOIN memories s ON s.brain_uid = ? AND s.subject BETWEEN j.value ->> 0 AND j.value ->> 1
                WHERE s.slot IS NULL AND lower(s.subject) = lower(?))`,
      b.uid,
      norm,
      `${norm.slice(0, -1)}\u0020`,
      JSON.stringify(caseRanges(q.subject)),
      b.uid,
      q.subject,
    );
  }
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
      data: toMemories(ctx.store, rows, { nowMs, shareableOnly: hosted }),
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
    data: toMemories(ctx.store, page, { nowMs, shareableOnly: hosted }),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

/**
 * One Memory with every version of its slot and the Records citing it. On a hosted deployment a
 * Memory supported only by local_only Records is refused as getRecord refuses such a Record
 * (local_only_record): it exists, but this deployment does not serve it. A Memory with other support
 * is served with only that support: citations, evidence, and the versions of its slot that have some.
 */
export function getMemory(ctx: LocalCtx, t: Tenant, brainId: string, memoryId: string): MemoryDetail {
  const b = requireBrain(ctx, t, brainId);
  const nowMs = ctx.clock().getTime();
  const hosted = ctx.deployment === 'hosted';
  const row = ctx.store.get<MemoryRow & { shareable: number }>(
    `SELECT ${memoryColumns}, ${shareableSql()} AS shareable FROM memories m WHERE m.id = ? AND m.brain_uid = ?`,
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
  if (hosted && !row.shareable) {
    throw new MnemoError(
      'local_only_record',
      `memory_id: ${memoryId} is derived only from local_only Records, which a hosted deployment does not serve`,
    );
  }
  const [memory] = toMemories(ctx.store, [row], { nowMs, shareableOnly: hosted });
  const revisions = ctx.store
    .all<MemoryRow>(
      `SELECT ${memoryColumns} FROM memories m WHERE m.lineage = ?${hosted ? ` AND ${shareableSql()}` : ''}
       ORDER BY m.version`,
      row.lineage,
    )
    .map((r): MemoryRevision => ({
      id: r.id,
      version: r.version,
      statement: r.statement,
      status: statusAt(r, nowMs),
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
       FROM citations c JOIN records r ON r.id = c.record_id
       WHERE c.memory_id = ?${hosted ? " AND r.visibility <> 'local_only'" : ''} ORDER BY r.id`,
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

const upper = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase());
const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * Byte ranges of the (brain, subject) index that hold every ASCII-case variant of `s`, so a
 * case-insensitive match seeks instead of scanning the Brain: with a fixed prefix, the variants of
 * the rest lie between its all-upper and all-lower forms (upper-case letters sort first). The first
 * few letters are fixed both ways (at most 2^6 ranges), which keeps each range narrow.
 */
export function caseRanges(s: string, fixedLetters = 6): [string, string][] {
  let prefixes = [''];
  let i = 0;
  for (let letters = 0; i < s.length && letters < fixedLetters; i += 1) {
    const c = s[i]!;
    const both = upper(c) !== lower(c);
    if (both) letters += 1;
    prefixes = prefixes.flatMap((p) => (both ? [p + upper(c), p + lower(c)] : [p + c]));
  }
  const rest = s.slice(i);
  return prefixes.map((p) => [p + upper(rest), p + lower(rest)]);
}
