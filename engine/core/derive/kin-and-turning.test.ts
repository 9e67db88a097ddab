import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TypedContent } from '../../contract/index.ts';
import { recordText } from './record-text.ts';
import { createRuleDeriver } from './rule-deriver.ts';

/** Each claim of Rui's own message (or note) as [statement, subject, owner, slot, quote, ends]. */
const claims = (content: TypedContent) =>
  createRuleDeriver()
    .derive(
      {
        id: 'rec_1',
        content,
        text: recordText(content),
        sourceName: null,
        occurredAt: '2026-03-01T10:00:00Z',
      },
      { self: { type: 'person', name: 'Rui' } },
    )
    .map((c) => [c.statement, c.subject, c.owner.state, c.predicate, c.quote, c.ends ?? null]);
const ofMessage = (text: string) => claims({ kind: 'message', text, speaker: 'Rui' });

test('moving out of a place ends the home there; out of a flat, or for a while, ends nothing', () => {
  for (const said of ['I moved out of Porto.', 'Just moved away from Porto.'])
    assert.deepEqual(ofMessage(said), [
      ['Rui no longer lives in Porto', 'Rui', 'self', 'lives in', said, 'Porto'],
    ]);
  for (const said of [
    'I moved out of my flat.',
    'I moved out of Porto for the summer.',
    'My sister moved out of Porto.',
    'If I moved out of Porto I would miss it.',
  ])
    assert.ok(
      ofMessage(said).every((c) => c[3] === null),
      said,
    );
});
