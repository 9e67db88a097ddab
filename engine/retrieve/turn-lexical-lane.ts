import type { Lane, LaneCandidate, LaneInput } from './lane.ts';
import { hidesRecords } from '../core/retrieve/hides-records.ts';
import { matchedTerms } from '../core/retrieve/query-terms.ts';
import { withOtherForms } from '../core/retrieve/other-forms.ts';
import { holdsOtherCareWord } from '../core/retrieve/practice-words.ts';
import { foldText } from '../core/shared/fold-text.ts';
import type { LexicalHit, SearchScope } from '../ports/index.ts';
import { laneRepeatKeys, repeatsBehind } from './repeats-behind.ts';

export interface TurnSearch {
  terms: string[];
  limit: number;
  /** Only Records that occurred in [fromMs, toMs). */
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** How much deeper a search looks when a page of it repeats itself (repeatsBehind). */
const repeatDepth = 4;

/** One Record the lexical index found, with its text, speaker and time. */
export type TurnRow = LexicalHit;

/**
 * One search of the lexical index under the eligibility rules, run once per request for the same
 * words and window (the lexical, entity, time, recency and when lanes share it).
 */
export function searchTurns(input: LaneInput, s: TurnSearch): Promise<TurnRow[]> {
  if (s.terms.length === 0) return Promise.resolve([]);
  const key = JSON.stringify(['turns', s]);
  const hit = input.memo?.get(key) as Promise<TurnRow[]> | undefined;
  if (hit) return hit;
  const found = search(input, s);
  input.memo?.set(key, found);
  return found;
}

async function search(input: LaneInput, s: TurnSearch): Promise<TurnRow[]> {
  const e = input.eligibility;
  const scope: SearchScope = { ...e, fromMs: s.fromMs, toMs: s.toMs };
  // A window (the search's own, or since/until/as_of) that holds none of the Brain's Records would have
  // the ranked search score every lexical match of the Brain only to discard them all (at 100,000
  // Records a "last month" before the first Record cost a full BM25 pass, ~20 ms); one probe answers it.
  const windowed =
    s.fromMs !== undefined ||
    s.toMs !== undefined ||
    e.sinceMs !== undefined ||
    e.untilMs !== undefined ||
    e.asOfMs !== undefined;
  if (windowed && !(await input.lexical.anyInWindow(scope))) return [];
  // Filters that may reject many of the best rows get a deeper cut (10 x limit): a filter keeping
  // almost nothing in a huge Brain then finds only what is among those, a bounded cost.
  const deep = s.fromMs !== undefined || s.toMs !== undefined || hidesRecords(e);
  const searched = (terms: readonly string[], limit: number) =>
    input.lexical.search({ terms, scope, cut: deep ? 10 * limit : limit, limit });
  const distinctFirst = (rows: TurnRow[]) =>
    repeatsBehind(rows, laneRepeatKeys(rows, s.terms), (r) => r.occurredMs);
  let found = await searched(s.terms, s.limit);
  let ordered = distinctFirst(found);
  // A full page that repeats itself (one line written many times): a deeper one, once, so the
  // Records behind the repeats still come forward.
  if (found.length >= s.limit && ordered.distinct < s.limit) {
    found = await searched(s.terms, repeatDepth * s.limit);
    ordered = distinctFirst(found);
  }
  // A verb's forms the stemmers leave apart ("ran" for "running", verb-forms.ts), and the other words
  // for a kin ("mother" for "mom", kin-words.ts), fill the places the words as asked left: a Record
  // holding the word as asked comes first, one holding only another form after all of those.
  // Searching all the forms at once instead let every "went" and "made" of a chat compete with what
  // the question's own words found (LoCoMo dev frac@5 0.7975 -> 0.788). Searched here and not indexed,
  // so both engines' indexes stay as they are and search the same words.
  const forms = withOtherForms(s.terms);
  if (ordered.distinct >= s.limit || forms.length === s.terms.length) return ordered.rows.slice(0, s.limit);
  const more = await searched(forms, s.limit);
  const seen = new Set(found.map((r) => r.recordId));
  const out = found.slice();
  // Scores stay in order: below every Record the words as asked found.
  let floor = found.at(-1)?.score ?? Infinity;
  let added = 0;
  for (const r of more) {
    if (ordered.distinct + added >= s.limit) break;
    if (seen.has(r.recordId)) continue;
    // Found by a care's word in another sense only ("radiation therapy" for "therapist"): not the care.
    if (matchedTerms(r.text, s.terms).length === 0) {
      const lower = foldText(r.text);
      if (s.terms.some((t) => holdsOtherCareWord(lower, t))) continue;
    }
    floor = Math.min(floor, r.score);
    out.push({ ...r, score: floor });
    added += 1;
  }
  return distinctFirst(out).rows.slice(0, s.limit);
}

/** The lexical search the lexical and entity lanes share (run once per request through the memo). */
export function searchQuery(input: LaneInput): Promise<TurnRow[]> {
  return searchTurns(input, { terms: input.terms, limit: 3 * input.limit });
}

/** The reason a person checks first: the query words the Record shares, or that its neighbours do. */
export function sharedReason(text: string, terms: string[]): string {
  return sharedWordsReason(matchedTerms(text, terms));
}
const sharedWordsReason = (own: readonly string[]): string =>
  own.length > 0 ? `shared words: ${own.join(', ')}` : 'shared words in the surrounding messages';

/**
 * Lexical lane: FTS5 BM25 (porter stemming) over each Record with its speaker and thread neighbours,
 * so a reply is found through the question it answers.
 */
export function createTurnLexicalLane(): Lane {
  return {
    name: 'lexical',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const rows = (await searchQuery(input)).slice(0, input.limit);
      input.ledger.charge('processing', rows.length / 1000);
      return rows.map((r) => {
        const words = matchedTerms(r.text, input.terms);
        return { recordId: r.recordId, score: r.score, reason: sharedWordsReason(words), words };
      });
    },
  };
}
