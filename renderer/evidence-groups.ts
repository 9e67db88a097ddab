import type { Evidence } from '../engine/contract/index.ts';

/** A Memory's evidence of one wording: each Record that says it, in the order the evidence lists them. */
export interface EvidenceGroup {
  /** The first of them, shown for all: the same words, kind, speaker and source. */
  first: Evidence;
  all: Evidence[];
}

/**
 * A Memory's evidence with the Records that say the same words (the same quote in the same text, of
 * the same kind, speaker and source) as one: an agent that writes "My sister Lea is vegetarian." on
 * every session cited it thirty times, thirty rows that differ only in their date and id, and the
 * Memory's other sources sat below them. Each group keeps the place of its first Record.
 */
export function sameEvidenceGroups(evidence: readonly Evidence[]): EvidenceGroup[] {
  const groups: EvidenceGroup[] = [];
  const byWords = new Map<string, EvidenceGroup>();
  for (const e of evidence) {
    const key = JSON.stringify([
      e.kind,
      e.speaker?.trim().toLowerCase() ?? null,
      e.source_name,
      e.quote,
      e.text,
    ]);
    const group = byWords.get(key);
    if (group) group.all.push(e);
    else {
      const made = { first: e, all: [e] };
      byWords.set(key, made);
      groups.push(made);
    }
  }
  return groups;
}

/** The earliest and the latest of a group's Records, by when each happened. */
export function groupSpan(group: EvidenceGroup): { earliest: Evidence; latest: Evidence } {
  let earliest = group.first;
  let latest = group.first;
  for (const e of group.all) {
    if (Date.parse(e.occurred_at) < Date.parse(earliest.occurred_at)) earliest = e;
    if (Date.parse(e.occurred_at) > Date.parse(latest.occurred_at)) latest = e;
  }
  return { earliest, latest };
}
