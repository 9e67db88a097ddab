import type { RecordCreate, TypedContent } from '../../contract/index.ts';

/** A plain string is stored as a document and loses structure (spec: RecordCreate.content). */
export function normalizeContent(content: RecordCreate['content']): TypedContent {
  return typeof content === 'string' ? { kind: 'document', text: content } : content;
}
