import type {
  Evidence,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MemoryRemoval,
  MemoryRevision,
} from '../contract/index.ts';
import { statusAt } from '../core/temporal/memory-time.ts';
import { slotPrefix } from '../core/derive/slot-key.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { shortened } from '../errors/shown-value.ts';
import {
  currentSql,
  memoryColumns,
  servedSql,
  shareableSql,
  statusSql,
  toMemories,
  type MemoryRow,
} from '../adapters/sqlite/memory-view.ts';
import type { RemovalReason } from '../adapters/sqlite/memory-removals.ts';
import type { SqlParam } from '../adapters/sqlite/store.ts';
import type { Tenant } from '../types.ts';
import { decodeCursor, encodeCursor } from '../core/shared/page-cursor.ts';
import { requireBrain, watermarkOf, type LocalCtx } from './local-ctx.ts';
import { searchWords } from '../core/shared/fold-text.ts';

/** One item of a delta read: a changed Memory, or one that left the served set (a tombstone). */
type DeltaEntry = { seq: number; row?: MemoryRow; removal?: MemoryRemoval };

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
  if (sinceSeq !== undefined) {
    const { conds, params } = memoryFilter(b.uid, hosted, q, nowMs, true);
    const where = [...conds, 'm.seq > ?'].join(' AND ');
    params.push(sinceSeq);
    // Removals (tombstones: deleted, or pending re-derivation) are one stream with the changes, by
    // transaction time. They carry no content, so the content filters do not narrow them; a hosted
    // deployment reports only Memories it could have served.
    const gone = `r.brain_uid = ? AND r.seq > ?${hosted ? ' AND r.shareable = 1' : ''}`;
    const goneParams: SqlParam[] = [b.uid, sinceSeq];
    const changedRows = (extra: string, p: SqlParam[], limit?: number) =>
      ctx.store
        .all<MemoryRow>(
          `SELECT ${memoryColumns} FROM memories m WHERE ${where}${extra} ORDER BY m.seq, m.n${limit ? ' LIMIT ?' : ''}`,
          ...params,
          ...p,
          ...(limit ? [limit] : []),
        )
        .map((row): DeltaEntry => ({ seq: row.seq, row }));
    const goneRows = (extra: string, p: SqlParam[], limit?: number) =>
      ctx.store
        .all<{ memory_id: string; seq: number; reason: RemovalReason }>(
          `SELECT r.memory_id, r.seq, r.reason FROM memory_removals r WHERE ${gone}${extra}
           ORDER BY r.seq, r.memory_id${limit ? ' LIMIT ?' : ''}`,
          ...goneParams,
          ...p,
          ...(limit ? [limit] : []),
        )
        .map((r): DeltaEntry => ({ seq: r.seq, removal: { id: r.memory_id, reason: r.reason } }));
    // Each side stops at limit + 1 on its (brain, seq) index; merged by step, removals of a step first.
    const merge = (a: DeltaEntry[], c: DeltaEntry[]) =>
      [...a, ...c].sort((x, y) => x.seq - y.seq || (x.removal ? 0 : 1) - (y.removal ? 0 : 1));
    let entries = merge(goneRows('', [], q.limit + 1), changedRows('', [], q.limit + 1)).slice(
      0,
      q.limit + 1,
    );
    // Whether anything follows the page is known from what was read, except after a page that is one
    // whole step longer than the limit: only then is there something left to ask.
    let hasMore = entries.length > q.limit;
    if (hasMore) {
      // A page must end on a whole sequence step, or the next page (seq > last) would skip the rest
      // of that step: drop the split step, or if the page is one step only, take all of it.
      const last = entries[q.limit - 1]!.seq;
      const split = entries[q.limit]!.seq === last;
      entries = entries.slice(0, q.limit);
      if (split) {
        const whole = entries.filter((e) => e.seq !== last);
        if (whole.length > 0) entries = whole;
        else {
          entries = merge(goneRows(' AND r.seq <= ?', [last]), changedRows(' AND m.seq <= ?', [last]));
          hasMore =
            ctx.store.get(
              `SELECT 1 FROM memories m WHERE ${where} AND m.seq > ? LIMIT 1`,
              ...params,
              last,
            ) !== undefined ||
            ctx.store.get(
              `SELECT 1 FROM memory_removals r WHERE ${gone} AND r.seq > ? LIMIT 1`,
              ...goneParams,
              last,
            ) !== undefined;
        }
      }
    }
    const lastSeq = entries[entries.length - 1]?.seq;
    const rows = entries.flatMap((e) => (e.row ? [e.row] : []));
    // A Memory removed and served again within the page (re-derived) is reported once, as it is now.
    const served = new Set(rows.map((r) => r.id));
    return {
      data: toMemories(ctx.store, rows, { nowMs, shareableOnly: hosted }),
      has_more: hasMore,
      next_cursor: null,
      watermark: hasMore ? watermarkOf(ctx, b, lastSeq) : watermarkOf(ctx, b),
      removed: entries.flatMap((e) => (e.removal && !served.has(e.removal.id) ? [e.removal] : [])),
    };
  }
  const page = memoryPageSql(b.uid, hosted, q, nowMs);
  const rows = ctx.store.all<MemoryRow>(page.sql, ...page.params);
  const hasMore = rows.length > q.limit;
  const shown = rows.slice(0, q.limit);
  return {
    data: toMemories(ctx.store, shown, { nowMs, shareableOnly: hosted }),
    has_more: hasMore,
    next_cursor: hasMore ? encodeCursor(shown[shown.length - 1]!.id) : null,
  };
}

/**
 * What a listMemories read serves, as SQL over memories (alias m): the Brain's Memories not pending
 * re-derivation, as the deployment serves them, at `as_of`, of the status asked (by default current;
 * every status for a delta read or at `as_of`), of the subject, owner and words asked.
 */
export function memoryFilter(
  brainUid: string,
  hosted: boolean,
  q: MemoryListQuery,
  nowMs: number,
  delta: boolean,
): { conds: string[]; params: SqlParam[] } {
  const conds = ['m.brain_uid = ?', 'm.pending = 0'];
  const params: SqlParam[] = [brainUid];
  const add = (cond: string, ...p: SqlParam[]) => {
    conds.push(cond);
    params.push(...p);
  };
  if (hosted) add(shareableSql());
  if (q.as_of !== undefined) {
    const s = servedSql(Date.parse(q.as_of), nowMs);
    add(s.sql, ...s.params);
  }
  const status = q.status ?? (q.as_of !== undefined || delta ? 'all' : 'current');
  if (status !== 'all') {
    const s = status === 'current' ? currentSql(nowMs) : statusSql(status, nowMs);
    add(s.sql, ...s.params);
  }
  if (q.subject !== undefined) {
    // Supersession keys a slot by its normalized subject (case, spacing, trailing punctuation; the
    // Brain's own name for "me"), so "Bob"/age and "bob"/Age are one lineage, and one filter: slot values
    // match on the slot's subject part (a range on the (brain, slot) index); every Memory also matches
    // its own subject case-insensitively (ASCII, as lower() does, like the owner filter) on the
    // (brain, subject NOCASE) index, so `subject=me` still finds the facts written about "me".
    const norm = slotPrefix(q.subject);
    add(
      `m.id IN (SELECT s.id FROM memories s WHERE s.brain_uid = ? AND s.slot >= ? AND s.slot < ?
                UNION ALL
                SELECT s.id FROM memories s
                WHERE s.brain_uid = ? AND s.subject = ? COLLATE NOCASE)`,
      brainUid,
      norm,
      `${norm.slice(0, -1)}\u0020`,
      brainUid,
      q.subject,
    );
  }
  if (q.owner !== undefined) add('(m.owner_state = ? OR lower(m.owner_entity) = lower(?))', q.owner, q.owner);
  if (q.contested === 'true') {
    // A conflict: current now, and another value of its slot current too (as the census counts them;
    // hosted, the other value must be one hosted serves).
    const mine = currentSql(nowMs, 'm');
    const other = currentSql(nowMs, 'o');
    add(
      `m.slot IS NOT NULL AND ${mine.sql} AND EXISTS (SELECT 1 FROM memories o WHERE o.lineage = m.lineage
         AND o.id <> m.id AND ${other.sql} ${hosted ? `AND ${shareableSql('o')}` : ''})`,
      ...mine.params,
      ...other.params,
    );
  }
  // A lineage is exactly the versions of one slot (migration 014): its id is the slot's key. Read on
  // the (lineage, version) index, not by walking the Brain.
  if (q.slot !== undefined) {
    add('m.id IN (SELECT s.id FROM memories s WHERE s.lineage = ? AND s.slot IS NOT NULL)', q.slot);
  }
  // Every word of the search, in any order, case and accents ignored in every script.
  if (q.q !== undefined) {
    const words = searchWords(q.q);
    if (words.length > 0) add('mnemo_has_words(m.statement, ?) = 1', words.join('\u0000'));
  }

  return { conds, params };
}

/** One page of a full listMemories read (limit + 1 rows, to tell whether more follow), by id. */
export function memoryPageSql(
  brainUid: string,
  hosted: boolean,
  q: MemoryListQuery,
  nowMs: number,
): { sql: string; params: SqlParam[] } {
  const { conds, params } = memoryFilter(brainUid, hosted, q, nowMs, false);
  if (q.cursor !== undefined) {
    conds.push('m.id > ?');
    params.push(decodeCursor(q.cursor));
  }
  return {
    sql: `SELECT ${memoryColumns} FROM memories m WHERE ${conds.join(' AND ')} ORDER BY m.id LIMIT ?`,
    params: [...params, q.limit + 1],
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
  if (!row)
    throw new MnemoError('memory_not_found', `memory_id: no Memory ${shortened(memoryId)} in this Brain`);
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
