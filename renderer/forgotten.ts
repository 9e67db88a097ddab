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

/** What forgetting a Brain did, from its receipt. */
export function brainForgotten(name: string, r: DeletionReceipt): string {
  const { records, memories, objects } = r.deleted;
  return (
    `Forgot the Brain “${oneLine(name)}” and everything in it: ${plural(records, 'Record')}, ` +
    `${plural(memories, 'Memory', 'Memories')} and ${plural(objects, 'accepted Object')}.`
  );
}
