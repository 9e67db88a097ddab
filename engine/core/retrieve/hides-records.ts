import type { SearchScope } from '../../ports/index.ts';

/**
 * True when the request hides some of the Brain's Records from itself (filters, as_of, hosted
 * local_only, an off-device Context's shareable-only); without these every Record of the Brain is
 * visible, bare corrections included (they are only not evidence).
 */
export function hidesRecords(e: SearchScope): boolean {
  return (
    e.excludeLocalOnly ||
    e.shareableOnly === true ||
    e.sinceMs !== undefined ||
    e.untilMs !== undefined ||
    e.sources !== undefined ||
    e.asOfMs !== undefined
  );
}
