import type { RecordCreate, TypedContent } from '../contract/index.ts';

/** A plain string is stored as a document and loses structure (spec: RecordCreate.content). */
export function normalizeContent(content: RecordCreate['content']): TypedContent {
  return typeof content === 'string' ? { kind: 'document', text: content } : content;
}

/**
 * The searchable, quotable text of a Record. Citations quote exact substrings of this text, so it must be
 * a pure function of the stored content.
 */
export function recordText(content: TypedContent): string {
  switch (content.kind) {
    case 'message':
    case 'document':
      return content.text;
    case 'event': {
      const parts = [content.title];
      if (content.starts_at) parts.push(`starts ${content.starts_at}`);
      if (content.ends_at) parts.push(`ends ${content.ends_at}`);
      if (content.place) parts.push(`at ${content.place}`);
      if (content.participants?.length) parts.push(`with ${content.participants.join(', ')}`);
      return parts.join('; ');
    }
    case 'fact':
      return `${content.subject} ${content.predicate}: ${String(content.value)}`;
    case 'correction':
      return content.statement ?? `retract ${content.corrects}`;
  }
}

/** Who said it, when the content names a speaker. */
export function speakerOf(content: TypedContent): string | null {
  return content.kind === 'message' ? (content.speaker ?? null) : null;
}
