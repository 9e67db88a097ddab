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
