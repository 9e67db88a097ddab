import type { MemoryRevision } from '../engine/contract/index.ts';
import { heldNoTime, validitySpan } from './format.ts';
import { replacedBy } from './withdrawal.ts';

/**
 * What made a version hold for no time, said as what happened rather than as "never true", which is
 * accurate but reads as a fault: withdrawn, or replaced from its start, by a correction (the usual
 * case) or by another version. `by`: the version that took its place from its start, when one did.
 * Null for a version that held for some time.
 */
export function replacedAtStart(
  revisions: readonly MemoryRevision[],
  shown: Pick<MemoryRevision, 'id' | 'status' | 'valid_from' | 'valid_to'>,
): { text: string; by: MemoryRevision | undefined } | null {
  if (!heldNoTime(shown)) return null;
  if (shown.status === 'retracted') return { text: 'withdrawn from its start', by: undefined };
  const by = replacedBy(revisions, shown.id);
  if (!by) return { text: 'replaced from its start', by };
  return {
    text: `replaced from its start by ${by.cause === 'correction' ? 'a correction' : 'a newer version'}`,
    by,
  };
}

/**
 * A list's "True" cell: when the version held, or what made it hold for no time (a list has no history
 * at hand to name the version that took its place; the Memory's page does).
 */
export function truthCell(
  m: Pick<MemoryRevision, 'id' | 'status' | 'valid_from' | 'valid_to'>,
  inUtc: boolean,
): string {
  return replacedAtStart([], m)?.text ?? validitySpan(m.valid_from, m.valid_to, inUtc, m.status);
}

/**
 * truthCell's dates, each to be laid out whole, where the cell is one date or a span of two ("since Nov
 * 23, 2026", "Nov 2, 2026 – Nov 9, 2026"): beside long statements and subjects the Memories table gave
 * its "True" column a word's width, and every row read "since / Nov 23, / 2026" over four lines. The
 * word before a date ("since", "from", "on") is its `lead`, free to stand on the line above where the
 * column is narrow: held to its date, the column took room the statement keeps. Null where the cell is
 * a phrase, free to wrap ("replaced from its start by a correction", "now (about …, still to come)").
 */
export function truthCellDates(
  m: Pick<MemoryRevision, 'id' | 'status' | 'valid_from' | 'valid_to'>,
  inUtc: boolean,
): { lead: string; date: string }[] | null {
  if (replacedAtStart([], m) !== null) return null;
  if (m.status === 'active' && Date.parse(m.valid_from) > Date.now()) return null;
  return truthCell(m, inUtc)
    .split(' – ')
    .map((piece) => {
      const [, lead = '', date = piece] = /^((?:since|from|on) )?(.*)$/u.exec(piece) ?? [];
      return { lead, date };
    });
}
