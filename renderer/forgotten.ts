import type { DeletionReceipt } from '../engine/contract/index.ts';
import { oneLine, plural } from './format.ts';

/**
 * What forgetting a Record did, from its receipt: the Memories that rested only on it went with it;
 * those other Records also support are worked out again.
 */
export function recordForgotten(summary: string, r: DeletionReceipt): string {
  const gone = r.deleted.memories;
  const again = r.rederiving.memories;
  return (
    `Forgot the Record “${oneLine(summary)}”` +
    (gone ? `, and ${plural(gone, 'Memory', 'Memories')} that rested only on it` : '') +
    (again
      ? `; ${plural(again, 'Memory', 'Memories')} that other Records also support ${again === 1 ? 'is' : 'are'} being worked out again`
      : '') +
    '.'
  );
}

/** One Record of a forget the person confirmed: its words and the receipt, or why it was not forgotten. */
export type RecordForgetResult =
  { summary: string; receipt: DeletionReceipt } | { summary: string; error: string; alreadyGone?: boolean };

/** A sentence ended with a full stop, unless it ends with one already (or ! or ?). */
const withStop = (s: string): string => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

/** “a”, “b” and “c”: Records named by their words, cut to one line. */
const namedList = (summaries: readonly string[]): string => {
  const quoted = summaries.map((s) => `“${oneLine(s)}”`);
  return quoted.length < 2 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)!}`;
};

/**
 * What forgetting a Record and the other Records the person chose with it did, one forget after
 * another, the first being the Record the dialog was opened for. Each Memory is deleted once, so the
 * receipts' deleted Memories add up. A Memory one forget left to be worked out again may be deleted by
 * a later one (its last other support): being worked out again is said only when an earlier receipt
 * counts more of them than the later ones deleted, so some certainly are. A Record that could not be
 * forgotten is named with the reason, after what was forgotten.
 */
export function recordsForgotten(results: readonly RecordForgetResult[]): string {
  const done = results.filter(
    (r): r is Extract<RecordForgetResult, { receipt: DeletionReceipt }> => 'receipt' in r,
  );
  const failed = results.filter((r): r is Extract<RecordForgetResult, { error: string }> => 'error' in r);
  let said: string;
  const only = done.length === 1 ? done[0] : undefined;
  if (only && only === results[0]) said = recordForgotten(only.summary, only.receipt);
  else {
    const gone = done.reduce((n, r) => n + r.receipt.deleted.memories, 0);
    const again = Math.max(
      0,
      ...done.map(
        (r, i) =>
          r.receipt.rederiving.memories -
          done.slice(i + 1).reduce((n, l) => n + l.receipt.deleted.memories, 0),
      ),
    );
    said =
      `Forgot ${plural(done.length, 'Record')}: ${namedList(done.map((r) => r.summary))}` +
      (gone ? `, and ${plural(gone, 'Memory', 'Memories')} that rested only on them` : '') +
      (again > 0 ? '; Memories that other Records also support are being worked out again' : '') +
      '.';
  }
  for (const f of failed)
    said += f.alreadyGone
      ? ` “${oneLine(f.summary)}” was no longer in this Brain: it had been forgotten already.`
      : ` Could not forget “${oneLine(f.summary)}”: ${withStop(f.error)} It is still in this Brain.`;
  return said;
}

/**
 * What forgetting a Brain did, from its receipt. `importersOwn`: how many of its Objects were the
 * importer's own (read before it was forgotten; the receipt counts every Object alike), which the person
 * did not accept; null when that is not known, and no Object is then called accepted.
 */
export function brainForgotten(name: string, r: DeletionReceipt, importersOwn: number | null): string {
  const { records, memories, objects } = r.deleted;
  const own = importersOwn === null ? 0 : Math.min(importersOwn, objects);
  const parts = [
    plural(records, 'Record'),
    plural(memories, 'Memory', 'Memories'),
    importersOwn === null ? plural(objects, 'Object') : plural(objects - own, 'accepted Object'),
    ...(own > 0 ? [`${plural(own, 'Object')} Mnemo kept for its imports`] : []),
  ];
  return (
    `Forgot the Brain “${oneLine(name)}” and everything in it: ` +
    `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}.`
  );
}
