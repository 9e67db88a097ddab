import { whenWords } from '../../contract/all-day.ts';
import { factLine } from '../../contract/fact-line.ts';
import type { TypedContent } from '../../contract/index.ts';

/**
 * The citable text of a Record: what is indexed, shown as evidence, and what every citation's quote
 * is an exact substring of. Free-text kinds keep their text verbatim; structured kinds get one
 * deterministic line.
 */
export function recordText(content: TypedContent): string {
  switch (content.kind) {
    case 'message':
    case 'document':
      return content.text;
    case 'fact':
      return factLine(content);
    case 'event': {
      const parts = [content.title];
      // An all-day event's days as dates (engine/contract/all-day.ts), not as UTC midnights.
      if (content.starts_at) parts.push(`when: ${whenWords(content.starts_at, content.ends_at)}`);
      else if (content.ends_at) parts.push(`until: ${content.ends_at}`);
      if (content.place) parts.push(`where: ${content.place}`);
      if (content.participants && content.participants.length > 0)
        parts.push(`who: ${content.participants.join(', ')}`);
      return parts.join('; ');
    }
    case 'correction':
      return (
        content.statement ?? `retracted ${content.corrects}${content.reason ? `: ${content.reason}` : ''}`
      );
  }
}

/** Lower-case, single-spaced, without trailing punctuation: how duplicate statements are recognised. */
export function normalizeStatement(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(?<![\s.!;,:])[\s.!;,:]+$/u, '');
}
