import type { TypedContent } from '../../contract/index.ts';
import type { Claim } from './deriver.ts';
import { createRuleDeriver } from './rule-deriver.ts';
import { recordText } from './record-text.ts';

const rules = createRuleDeriver();

/** The rules' claims of one Record of `content`, said on 1 March 2026, in a Brain whose person is `self`. */
export function deriveContent(content: TypedContent, self = 'Ana', id = 'rec_1'): Claim[] {
  const record = {
    id,
    content,
    text: recordText(content),
    sourceName: null,
    occurredAt: '2026-03-01T10:00:00Z',
  };
  return rules.derive(record, { self: { type: 'person', name: self } });
}

/** The rules' claims of one message in a thread, by `speaker`, in a Brain whose person is Ana. */
export function deriveInThread(text: string, speaker: string): Claim[] {
  return deriveContent({ kind: 'message', text, speaker, thread: 't' }, 'Ana', 'rec_2');
}
