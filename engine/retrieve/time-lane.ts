import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { timeIntent } from './time-expressions.ts';
import { searchQuery, searchTurns, sharedReason } from './turn-lexical-lane.ts';

/**
 * Time lane: a query that names a time ("in May 2023", "last week", "yesterday") is searched inside
 * that window of world time; one that asks for the latest or the first gets the matching Records in
 * that order. Relative times count from `as_of` when the request sets it, else from now.
 */
export function createTimeLane(now: () => Date): Lane {
  return {
    name: 'time',
    search(input: LaneInput): LaneCandidate[] {
      const ref = input.eligibility.asOfMs ?? now().getTime();
      const intent = timeIntent(input.query, ref);
      if (!intent) return [];
      const terms = input.terms.filter((t) => !intent.timeWords.includes(t));
      // The query's own lexical matches (shared with the other lanes) filtered to the window are
      // exact when they are all the matches there are; only a saturated pool needs its own search.
      const pool = searchQuery(input);
      const inWindow = pool.filter(
        (r) =>
          (intent.fromMs === undefined || r.occurredMs >= intent.fromMs) &&
          (intent.toMs === undefined || r.occurredMs < intent.toMs),
      );
      let rows =
        pool.length < 3 * input.limit || inWindow.length >= input.limit
          ? inWindow.slice(0, input.limit)
          : searchTurns(input, {
              terms: terms.length > 0 ? terms : input.terms,
              limit: input.limit,
              fromMs: intent.fromMs,
              toMs: intent.toMs,
            });
      if (intent.order) {
        const when = new Map(
          input.store
            .all<{ id: string; ms: number }>(
              'SELECT id, occurred_ms AS ms FROM records WHERE id IN (SELECT value FROM json_each(?))',
              JSON.stringify(rows.map((r) => r.id)),
            )
            .map((r) => [r.id, r.ms]),
        );
        const dir = intent.order === 'newest' ? -1 : 1;
        rows = [...rows].sort((a, b) => dir * ((when.get(a.id) ?? 0) - (when.get(b.id) ?? 0)));
      }
      input.ledger.charge('processing', rows.length / 1000);
      return rows.map((r, i) => ({
        recordId: r.id,
        score: intent.order ? rows.length - i : r.score,
        reason: `${intent.label}; ${sharedReason(r.text, input.terms)}`,
      }));
    },
  };
}
