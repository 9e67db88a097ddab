import { topicsOf } from '../core/retrieve/topic-words.ts';
import { matchedTerms } from '../core/retrieve/query-terms.ts';
import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { searchTurns } from './turn-lexical-lane.ts';

/**
 * Topic lane: a query that names a topic ("dietary restrictions", "allergies", "family") finds the
 * Records that speak of its members ("I'm vegetarian", "allergic to peanuts", "my sister"), which share
 * no word with it (topic-words.ts). Lexical, in BM25 order over the members; nothing for other queries.
 */
export function createTopicLane(): Lane {
  return {
    name: 'topic',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const named = topicsOf(input.terms);
      if (named.length === 0) return [];
      const members = [...new Set(named.flatMap((t) => t.members))];
      const rows = await searchTurns(input, { terms: members, limit: input.limit });
      input.ledger.charge('processing', rows.length / 1000);
      const names = named.map((t) => t.name).join(', ');
      return rows.map((r) => {
        const own = matchedTerms(r.text, members);
        return {
          recordId: r.recordId,
          score: r.score,
          reason:
            own.length > 0
              ? `speaks of ${names}: ${own.join(', ')}`
              : `speaks of ${names} in the surrounding messages`,
        };
      });
    },
  };
}
