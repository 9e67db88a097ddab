import type { MnemoRecord, RecordListQuery, RecordPage, ReplicaCorrection } from '../../contract/index.ts';
import { correctionTarget } from '../../derive/travelled-correction.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import { watermarkAt, type BrainRow, type EngineCtx } from '../local-ctx.ts';
import type { FeedPlace } from '../../watermark.ts';
import { toRecord } from '../records.ts';
import type { BrainUnitOfWork, RecordRow, StepRange } from '../../ports/index.ts';

/** A Record written, or an id forgotten, at a step of the Brain. */
interface FeedItem {
  seq: number;
  id: string;
  record?: RecordRow;
  forgottenAt?: string;
}

/** By step; within one, the Records written before the ids forgotten, each by id (bytewise: ids are ASCII). */
function inFeedOrder(items: FeedItem[]): FeedItem[] {
  return items.sort(
    (x, y) =>
      x.seq - y.seq || (x.record ? 0 : 1) - (y.record ? 0 : 1) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0),
  );
}

/**
 * A correction as the feed serves it: with its target (travelled-correction.ts), the one it came with
 * from another side or was written with here, or, written here by an earlier version, one read now from
 * the Memory it corrected, so that a
 * reader can find its own Memory of the same Records. One whose Memory is gone or rests on Records that
 * do not travel as they are is served without one, which a reader does not take.
 */
async function withTarget(
  u: Pick<BrainUnitOfWork, 'memories' | 'records'>,
  row: RecordRow,
  r: MnemoRecord,
): Promise<MnemoRecord> {
  if (row.kind !== 'correction' || row.visibility !== 'shareable') return r;
  const stored = JSON.parse(row.content) as Partial<ReplicaCorrection>;
  const target = stored.target ?? (await correctionTarget(u, stored.corrects!));
  return target ? { ...r, content: { ...stored, target } as MnemoRecord['content'] } : r;
}

/** Reads the feed from the Brain's beginning. */
export const feedStart = 'start';

const filters = [
  'kind',
  'source',
  'has_source',
  'visibility',
  'status',
  'since',
  'until',
  'q',
  'ids',
  'cursor',
] as const;

/**
 * The change feed of a Brain's Records (listRecords with since_watermark): Records written and Records
 * forgotten after the boundary, in the Brain's sequence, oldest first, `limit` of them a page at most.
 * A page that ends inside a step (a forgotten import is one step, and may hold more ids than fit in
 * any answer a reader takes) gets a watermark naming its last entry, from which the next page reads on
 * within that step; else its watermark is the step's, and the last page's the Brain's current
 * boundary. No deployment serves a local_only Record here: a device's local server may be another
 * device's remote.
 */
export async function recordChanges(ctx: EngineCtx, b: BrainRow, q: RecordListQuery): Promise<RecordPage> {
  const given = filters.filter((f) => q[f] !== undefined);
  if (given.length > 0) {
    throw new MnemoError(
      'conflicting_parameters',
      `since_watermark, ${given.join(', ')}: the change feed is read whole, without filters or a cursor`,
    );
  }
  const since: FeedPlace =
    q.since_watermark === feedStart ? { seq: 0 } : ctx.codec.decodePlace(q.since_watermark!, b.uid);
  // Within a step the Records come before the removals: a place at a removal has read the step's
  // Records, and a place at a Record none of its removals.
  const { seq, within } = since;
  const recordsFrom: StepRange =
    within && !within.removal ? { afterSeq: seq, afterId: within.id } : { afterSeq: seq };
  const removalsFrom: StepRange = !within
    ? { afterSeq: seq }
    : within.removal
      ? { afterSeq: seq, afterId: within.id }
      : { afterSeq: seq - 1 };
  // One snapshot: a Record the page names is still there when it is read.
  return ctx.units.read(b.uid, async (u) => {
    // Each side stops at limit + 1 in feed order, so the first limit + 1 of both are among them.
    const items = inFeedOrder([
      ...(await u.records.changes({ ...recordsFrom, limit: q.limit + 1, hideLocalOnly: true })).map(
        (r): FeedItem => ({ seq: r.seq, id: r.id, record: r }),
      ),
      ...(await u.records.removals({ ...removalsFrom, limit: q.limit + 1 })).map((t): FeedItem => ({
        seq: t.seq,
        id: t.id,
        forgottenAt: t.forgotten_at,
      })),
    ]).slice(0, q.limit + 1);
    const hasMore = items.length > q.limit;
    const page = items.slice(0, q.limit);
    const rows = page.flatMap((i) => (i.record ? [i.record] : []));
    const states = await u.records.states(rows.map((r) => r.id));
    const data = await Promise.all(rows.map(async (r, i) => withTarget(u, r, toRecord(r, states[i]!))));
    const removed = page.flatMap((i) =>
      i.forgottenAt !== undefined ? [{ id: i.id, forgotten_at: i.forgottenAt }] : [],
    );
    let watermark: string;
    if (!hasMore) watermark = watermarkAt(ctx, b, await u.sequence.current());
    else {
      const last = page[page.length - 1]!;
      // The next entry in the same step: the page stops inside it, where the next one reads on.
      watermark =
        items[q.limit]!.seq === last.seq
          ? ctx.codec.encode(b.uid, last.seq, { removal: last.record === undefined, id: last.id })
          : watermarkAt(ctx, b, last.seq);
    }
    return { data, has_more: hasMore, next_cursor: null, watermark, removed };
  });
}
