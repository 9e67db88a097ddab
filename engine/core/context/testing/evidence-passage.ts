import type { EvidencePassage } from '../evidence.ts';

/**
 * A message's passage for the tests of what orders and selects evidence: every field set, the text its
 * id, and `over` the fields a test is about.
 */
export const evidencePassage = (recordId: string, over: Partial<EvidencePassage> = {}): EvidencePassage => ({
  recordId,
  passage: recordId,
  wide: recordId,
  kind: 'message',
  title: null,
  speaker: 'Ana',
  visibility: 'shareable',
  thread: 't',
  asksOnly: false,
  source: 'chat',
  occurredAt: '2024-05-01T10:00:00Z',
  memoryIds: [],
  lanes: ['lexical'],
  score: 1,
  rerankScore: null,
  ...over,
});
