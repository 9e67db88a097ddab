import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { asksWhen, statesTime } from '../core/retrieve/time-expressions.ts';
import { searchQuery } from './turn-lexical-lane.ts';

/**
 * When lane: a question asking when something happened is answered by a Record that says when
 * ("last week", "yesterday", "in May", "since 2019"). Among the query's lexical matches, those that
 * state a time, in BM25 order. On the LoCoMo dev half it lifts temporal questions' frac@10 by ~0.03
 * (docs/decisions/retrieval.md).
 */
export function createWhenLane(): Lane {
  return {
    name: 'when',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      if (!asksWhen(input.query)) return [];
      const out: LaneCandidate[] = [];
      for (const r of await searchQuery(input)) {
        const said = statesTime(r.text);
        if (said === null) continue;
        out.push({
          recordId: r.recordId,
          score: r.score,
          reason: `says when ("${said}"); the question asks when`,
        });
        if (out.length >= input.limit) break;
      }
      input.ledger.charge('processing', out.length / 1000);
      return out;
    },
  };
}
