import type { RecordListQuery, RecordPage } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { watermarkOf, type BrainRow, type LocalCtx } from '../local-ctx.ts';
import { toRecord } from '../records.ts';

/** Reads the feed from the Brain's beginning. */
export const feedStart = 'start';

const filters = ['kind', 'source', 'visibility', 'status', 'since', 'until', 'cursor'] as const;

/**
 * The change feed of a Brain's Records (listRecords with since_watermark): Records written and Records
 * forgotten after the boundary, in the Brain's sequence, oldest first. A page ends on a whole step (a
 * forgotten import is one step), so its watermark never cuts one in two; the last page's watermark is
 * the Brain's current boundary. No deployment serves a local_only Record here: a device's local
 * server may be another device's remote.
 */
export async function recordChanges(ctx: LocalCtx, b: BrainRow, q: RecordListQuery): Promise<RecordPage> {
  const given = filters.filter((f) => q[f] !== undefined);
  if (given.length > 0) {
    throw new MnemoError(
      'conflicting_parameters',
      `since_watermark, ${given.join(', ')}: the change feed is read whole, without filters or a cursor`,
    );
  }
  const since = q.since_watermark === feedStart ? 0 : ctx.codec.decode(q.since_watermark!, b.uid);
  // One snapshot: a Record the page names is still there when it is read.
  return ctx.units.read(b.uid, async (u) => {
    const items = ctx.store.all<{ kind: 'record' | 'removal'; id: string; seq: number; at: string }>(
      `SELECT * FROM (
       SELECT 'record' AS kind, id, seq, created_at AS at FROM records
        WHERE brain_uid = ? AND seq > ? AND visibility <> 'local_only'
       UNION ALL
       SELECT 'removal' AS kind, record_id AS id, seq, forgotten_at AS at FROM record_tombstones
        WHERE brain_uid = ? AND seq > ?)
     ORDER BY seq, kind, id LIMIT ?`,
      b.uid,
      since,
      b.uid,
      since,
      q.limit + 1,
    );
    let page = items;
    let hasMore = false;
    if (items.length > q.limit) {
      hasMore = true;
      const lastSeq = items[q.limit - 1]!.seq;
      page = items.slice(0, q.limit);
      // The rest of the last step, however many: a watermark inside a step would lose its remainder.
      const rest = ctx.store.all<{ kind: 'record' | 'removal'; id: string; seq: number; at: string }>(
        `SELECT 'record' AS kind, id, seq, created_at AS at FROM records
        WHERE brain_uid = ? AND seq = ? AND visibility <> 'local_only'
       UNION ALL
       SELECT 'removal' AS kind, record_id AS id, seq, forgotten_at AS at FROM record_tombstones
        WHERE brain_uid = ? AND seq = ?`,
        b.uid,
        lastSeq,
        b.uid,
        lastSeq,
      );
      const seen = new Set(page.map((i) => `${i.kind}:${i.id}`));
      page = [...page, ...rest.filter((i) => !seen.has(`${i.kind}:${i.id}`))];
    }
    const ids = page.filter((i) => i.kind === 'record').map((i) => i.id);
    const rows = await Promise.all(ids.map(async (id) => (await u.records.get(id))!));
    const states = await u.records.states(ids);
    const data = rows.map((r, i) => toRecord(r, states[i]!));
    const removed = page.filter((i) => i.kind === 'removal').map((i) => ({ id: i.id, forgotten_at: i.at }));
    return {
      data,
      has_more: hasMore,
      next_cursor: null,
      watermark: watermarkOf(ctx, b, hasMore ? page[page.length - 1]!.seq : undefined),
      removed,
    };
  });
}
