import type { RecordListQuery, RecordPage } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { watermarkAt, type BrainRow, type EngineCtx } from '../local-ctx.ts';
import { toRecord } from '../records.ts';
import type { RecordRow, StepRange } from '../../ports/index.ts';

/** A Record written, or an id forgotten, at a step of the Brain. */
interface FeedItem {
  seq: number;
  id: string;
  record?: RecordRow;
  forgottenAt?: string;
}

const itemKey = (i: FeedItem) => `${i.record ? 'record' : 'removal'}:${i.id}`;

/** By step; within one, the Records written before the ids forgotten, each by id (bytewise: ids are ASCII). */
function inFeedOrder(items: FeedItem[]): FeedItem[] {
  return items.sort(
    (x, y) =>
      x.seq - y.seq || (x.record ? 0 : 1) - (y.record ? 0 : 1) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  );
}

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
export async function recordChanges(ctx: EngineCtx, b: BrainRow, q: RecordListQuery): Promise<RecordPage> {
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
    const read = async (range: StepRange): Promise<FeedItem[]> =>
      inFeedOrder([
        ...(await u.records.changes({ ...range, hideLocalOnly: true })).map((r) => ({
          seq: r.seq,
          id: r.id,
          record: r,
        })),
        ...(await u.records.removals(range)).map((t) => ({
          seq: t.seq,
          id: t.id,
          forgottenAt: t.forgotten_at,
        })),
      ]);
    // Each side stops at limit + 1 in feed order, so the first limit + 1 of both are among them.
    const items = (await read({ afterSeq: since, limit: q.limit + 1 })).slice(0, q.limit + 1);
    let page = items;
    let hasMore = false;
    if (items.length > q.limit) {
      hasMore = true;
      const lastSeq = items[q.limit - 1]!.seq;
      page = items.slice(0, q.limit);
      // The rest of the last step, however many: a watermark inside a step would lose its remainder.
      const rest = await read({ afterSeq: lastSeq - 1, throughSeq: lastSeq });
      const seen = new Set(page.map(itemKey));
      page = [...page, ...rest.filter((i) => !seen.has(itemKey(i)))];
    }
    const rows = page.flatMap((i) => (i.record ? [i.record] : []));
    const states = await u.records.states(rows.map((r) => r.id));
    const data = rows.map((r, i) => toRecord(r, states[i]!));
    const removed = page.flatMap((i) =>
      i.forgottenAt !== undefined ? [{ id: i.id, forgotten_at: i.forgottenAt }] : [],
    );
    return {
      data,
      has_more: hasMore,
      next_cursor: null,
      watermark: watermarkAt(ctx, b, hasMore ? page[page.length - 1]!.seq : await u.sequence.current()),
      removed,
    };
  });
}
