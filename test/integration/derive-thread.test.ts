import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import type { LocalEngineOptions } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { syntheticRecord } from '../../server/bench/synthetic.ts';
import { open, tempDir, tenant, withBrain } from './local-helpers.ts';

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

/** What the engine's log said: whether the rules ran on their thread. */
function listening() {
  const said: string[] = [];
  const logger = { info: (m: string) => said.push(m), warn: () => {}, error: () => {} };
  return { logger, threadStarted: () => said.some((m) => /derive them on a thread/.test(m)) };
}

async function memoriesOf(deriveInPlace: boolean) {
  const { logger, threadStarted } = listening();
  const { engine } = await withBrain({ deriveInPlace, logger });
  // Sent together: written in a few batches, derived after.
  await Promise.all(stream.map((body) => engine.rememberRecord(tenant, 'b', body, {})));
  await engine.idle();
  return { threadStarted: threadStarted(), memories: await memoriesIn(engine) };
}

/** The Brain's Memories as derivation left them, in one order, without their ids. */
async function memoriesIn(engine: Engine) {
  const memories = [];
  for (let cursor: string | undefined; ;) {
    const page = await engine.listMemories(tenant, 'b', { limit: 200, ...(cursor ? { cursor } : {}) });
    memories.push(...page.data);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return memories
    .map((m) => ({
      statement: m.statement,
      subject: m.subject,
      owner: m.owner,
      status: m.status,
      valid_from: m.valid_from,
      valid_to: m.valid_to,
      quotes: m.citations.map((c) => c.quote),
    }))
    .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

/** The stream derived by the rules under an older name, then the store opened by the current rules. */
async function upgradedMemories(deriveInPlace: boolean) {
  const dir = tempDir();
  const older = await open(dir, { deriver: { ...createRuleDeriver(), name: 'rules-v1' } });
  await older.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
  for (const body of stream) await older.rememberRecord(tenant, 'b', body, {});
  await older.idle();
  await older.close();
  const { logger, threadStarted } = listening();
  const options: Partial<LocalEngineOptions> = { deriveInPlace, logger };
  const engine = await open(dir, options);
  try {
    await engine.idle();
    return { threadStarted: threadStarted(), memories: await memoriesIn(engine) };
  } finally {
    await engine.close();
  }
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

  it("gives an upgrade's pass the Memories it gives in place", async () => {
    const onThread = await upgradedMemories(false);
    const inPlace = await upgradedMemories(true);
    assert.equal(onThread.threadStarted, true, 'the pass derived on the thread');
    assert.equal(inPlace.threadStarted, false);
    assert.deepEqual(onThread.memories, inPlace.memories);
  });
});
