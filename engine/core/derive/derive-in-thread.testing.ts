import type { Claim } from './deriver.ts';
import { createRuleDeriver } from './rule-deriver.ts';
import { recordText } from './record-text.ts';

const rules = createRuleDeriver();

/** The rules' claims of one message in a thread, by `speaker`, in a Brain whose person is Ana. */
export function deriveInThread(text: string, speaker: string): Claim[] {
  const content = { kind: 'message' as const, text, speaker, thread: 't' };
  const record = {
    id: 'rec_2',
    content,
    text: recordText(content),
    sourceName: null,
    occurredAt: '2026-03-01T10:00:00Z',
  };
  return rules.derive(record, { self: { type: 'person', name: 'Ana' } });
}
