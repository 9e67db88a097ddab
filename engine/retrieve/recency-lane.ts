import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { queryTimeIntent } from './time-lane.ts';
import type { TimeZone } from '../core/retrieve/time-zone.ts';
import { searchQuery, sharedReason } from './turn-lexical-lane.ts';

/**
 * Recency lane: a query asking for the latest ("most recently", "currently", "these days") or the first
 * ("earliest", "originally") gets its lexical matches ordered by when they occurred.
 */
export function createRecencyLane(now: () => Date, zone: TimeZone): Lane {
  return {
    name: 'recency',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const intent = queryTimeIntent(input, now, zone);
      if (!intent?.order) return [];
      const rows = (await searchQuery(input)).slice(0, input.limit);
      const dir = intent.order === 'newest' ? -1 : 1;
      rows.sort((a, b) => dir * (a.occurredMs - b.occurredMs));
      input.ledger.charge('processing', rows.length / 1000);
      return rows.map((r, i) => ({
        recordId: r.recordId,
        score: rows.length - i,
        reason: `${intent.order === 'newest' ? 'most recent first' : 'oldest first'}; ${sharedReason(r.text, input.terms)}`,
      }));
    },
  };
}
