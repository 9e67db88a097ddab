import type { MemoryListQuery } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';

/**
 * listMemories: a delta read is read by transaction time, oldest first, from its watermark; a full
 * read's `cursor` or `order` (by id) would say another place or order than the one it reads in.
 */
export function refuseFullReadInDelta(
  q: Pick<MemoryListQuery, 'since_watermark' | 'cursor' | 'order'>,
): void {
  if (q.since_watermark === undefined) return;
  const given = (['cursor', 'order'] as const).filter((k) => q[k] !== undefined);
  if (given.length > 0)
    throw new MnemoError(
      'conflicting_parameters',
      `since_watermark, ${given.join(', ')}: a delta read and a full read cannot be combined`,
    );
}
