import { sameWordsKey, wordsKey } from '../core/context/same-words.ts';

/** How much of a Record's text a lane reads (a LexicalHit's `text`): a longer one is cut there. */
export const laneTextChars = 2000;

/** What a lane knows of a Record it found, to tell one that repeats another's words. */
export interface LaneText {
  recordId: string;
  text: string;
  kind: string;
  speakerNorm: string | null;
  occurredMs: number;
}

/**
 * The words a lane's Record shares with the others of a repeat, as the evidence step compares them
 * (sameWordsKey: found by the question's `terms`; wordsKey: found by its meaning, `terms` null), or
 * null for one no other repeats. A text cut at what a lane reads may go on differently, so it repeats
 * nothing. A document's title is not read here: two notes of one body under two titles are still two
 * things, which only costs the later one its place in the lane.
 */
export function laneRepeatKey(r: LaneText, terms: readonly string[] | null): string | null {
  if (r.text.length >= laneTextChars) return null;
  return terms === null
    ? wordsKey(r.kind, r.speakerNorm, r.text)
    : sameWordsKey(r.kind, r.speakerNorm, r.text, terms);
}

/**
 * laneRepeatKey for these rows, read only for a row whose kind, speaker and last characters another
 * row shares: the same words end the same way, and most of a lane's rows repeat nothing (a lane reads
 * 150 rows a Context, and the key parses a mail's header and matches the question's words).
 */
export function laneRepeatKeys<T extends LaneText>(
  rows: readonly T[],
  terms: readonly string[] | null,
): (row: T) => string | null {
  const endOf = new Map(
    rows.map((r) => [r, `${r.kind}\u0000${r.speakerNorm ?? ''}\u0000${r.text.trimEnd().slice(-endChars)}`]),
  );
  const ends = new Map<string, number>();
  for (const end of endOf.values()) ends.set(end, (ends.get(end) ?? 0) + 1);
  return (r) => ((ends.get(endOf.get(r) ?? '') ?? 0) > 1 ? laneRepeatKey(r, terms) : null);
}

/**
 * How many of a text's last characters laneRepeatKeys compares first: a mail's body shorter than this
 * under headers that differ is not told a repeat.
 */
const endChars = 12;

/**
 * A lane's rows, best first, with the Records that repeat another's words behind every Record that
 * does not: an agent that wrote one line eighty times would otherwise fill a lane's fifty places
 * with it, and the one Record that answers the question would never reach the fusion. Each repeat
 * keeps one row in place, its newest Record (the one the evidence step quotes of the same words),
 * with the score of the first row of it; the others follow, scored no higher than the last row in
 * place, so the order stays best first. `timeOf`: when a row's Record happened. `distinct`: how many
 * rows stayed in place.
 */
export function repeatsBehind<T extends { score: number }>(
  rows: readonly T[],
  keyOf: (row: T) => string | null,
  timeOf: (row: T) => number,
): { rows: T[]; distinct: number } {
  const placed: T[] = [];
  const behind: T[] = [];
  const placeOf = new Map<string, number>();
  for (const row of rows) {
    const key = keyOf(row);
    const at = key === null ? undefined : placeOf.get(key);
    if (at === undefined) {
      if (key !== null) placeOf.set(key, placed.length);
      placed.push(row);
      continue;
    }
    const kept = placed[at]!;
    if (timeOf(row) > timeOf(kept)) {
      placed[at] = { ...row, score: kept.score };
      behind.push(kept);
    } else behind.push(row);
  }
  if (behind.length === 0) return { rows: placed, distinct: placed.length };
  const floor = placed.at(-1)!.score;
  return {
    rows: [...placed, ...behind.map((r) => ({ ...r, score: Math.min(floor, r.score) }))],
    distinct: placed.length,
  };
}
