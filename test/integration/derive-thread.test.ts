import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { syntheticRecord } from '../../server/bench/synthetic.ts';
import { tenant, withBrain } from './local-helpers.ts';

/**
 * A stream written at once, so derivation takes it in batches: a friend's whole name said in the middle
 * of it, and his first name alone after it, in the same batch (his Records' context changes while the
 * batch is derived).
 */
const stream: RecordCreate[] = [
  ...Array.from({ length: 30 }, (_, i) => syntheticRecord(i)),
  {
    content: { kind: 'message', speaker: 'Ana', text: 'My friend Marko Babić lives in Zagreb.' },
    occurred_at: '2026-03-01T10:00:00Z',
  },
  {
    content: { kind: 'message', speaker: 'Ana', text: 'Marko moved to Split last month.' },
    occurred_at: '2026-03-02T10:00:00Z',
  },
  {
    content: { kind: 'message', speaker: 'Ana', text: 'I live in Porto and work at Sonae.' },
    occurred_at: '2026-03-03T10:00:00Z',
  },
  {
    content: { kind: 'message', speaker: 'Ana', text: 'We cancelled the trip to Vienna.' },
    occurred_at: '2026-03-04T10:00:00Z',
  },
  ...Array.from({ length: 30 }, (_, i) => syntheticRecord(100 + i)),
];

async function memoriesOf(deriveInPlace: boolean) {
  const said: string[] = [];
  const logger = { info: (m: string) => said.push(m), warn: () => {}, error: () => {} };
  const { engine } = await withBrain({ deriveInPlace, logger });
  // Sent together: written in a few batches, derived after.
  await Promise.all(stream.map((body) => engine.rememberRecord(tenant, 'b', body, {})));
  await engine.idle();
  const memories = [];
  for (let cursor: string | undefined; ;) {
    const page = await engine.listMemories(tenant, 'b', { limit: 200, ...(cursor ? { cursor } : {}) });
    memories.push(...page.data);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  const threadStarted = said.some((m) => /derive them on a thread/.test(m));
  return {
    threadStarted,
    memories: memories
      .map((m) => ({
        statement: m.statement,
        subject: m.subject,
        owner: m.owner,
        status: m.status,
        valid_from: m.valid_from,
        valid_to: m.valid_to,
        quotes: m.citations.map((c) => c.quote),
      }))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
  };
}

describe('derivation on the derive thread', () => {
  it('gives the Memories derivation in place gives, where a Record before it changed what it knows', async () => {
    const onThread = await memoriesOf(false);
    const inPlace = await memoriesOf(true);
    assert.equal(onThread.threadStarted, true, 'the stream was derived on the thread');
    assert.equal(inPlace.threadStarted, false);
    assert.ok(
      inPlace.memories.some(
        (m) => m.subject === 'Marko Babić' && m.quotes.includes('Marko moved to Split last month.'),
      ),
      'the move is read as the whole name known from the Record before it',
    );
    assert.deepEqual(onThread.memories, inPlace.memories);
  });
});
