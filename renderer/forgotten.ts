import type { DeletionReceipt } from '../engine/contract/index.ts';
import { plural } from './format.ts';

/** Up to `max` characters of a line, cut at a space where one is near, with "…" where cut. */
function cut(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  const head = line.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/**
 * What forgetting a Record did, from its receipt: the Memories that rested only on it went with it;
 * those other Records also support are worked out again.
 */
export function recordForgotten(summary: string, r: DeletionReceipt): string {
  const gone = r.deleted.memories;
  const again = r.rederiving.memories;
  return (
    `Forgot the Record “${cut(summary)}”` +
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
    `Forgot the Brain “${cut(name)}” and everything in it: ${plural(records, 'Record')}, ` +
    `${plural(memories, 'Memory', 'Memories')} and ${plural(objects, 'accepted Object')}.`
  );
}
