import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { citableClaims } from '../../engine/core/derive/citable-claims.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import { recordText } from '../../engine/core/derive/record-text.ts';
import type { TypedContent } from '../../engine/contract/index.ts';
import { syntheticRecord } from '../../server/bench/synthetic.ts';
import { createDeriverThread, sharedDeriverThread } from '../../engine/derive/deriver-thread.ts';
import type { ThreadItem } from '../../engine/derive/derive-thread.ts';

const rules = createRuleDeriver();

const item = (content: TypedContent, i: number, ctx: ThreadItem['ctx']): ThreadItem => ({
  input: {
    id: `rec_${i}`,
    content,
    text: recordText(content),
    sourceName: null,
    occurredAt: '2026-03-01T10:00:00Z',
  },
  ctx,
});

const maya = { type: 'person' as const, name: 'Maya Costa' };
const items: ThreadItem[] = [
  ...Array.from({ length: 40 }, (_, i) =>
    item(syntheticRecord(i).content as TypedContent, i, { self: null }),
  ),
  item(
    { kind: 'message', speaker: 'Maya', text: 'I moved to Porto last week. My new number is 912 345 678.' },
    40,
    {
      self: maya,
      selfFirstName: 'self',
    },
  ),
  item({ kind: 'message', speaker: 'Tom', text: 'Marko works at Sonae now, he quit Acme.' }, 41, {
    self: maya,
    knownFirstNames: new Map([['marko', 'Marko Babić']]),
  }),
  item(
    { kind: 'document', title: 'About me', text: 'I live in Braga.\n\nI work as a nurse at Santa Maria.' },
    42,
    {
      self: maya,
    },
  ),
  item({ kind: 'fact', subject: 'Maya Costa', predicate: 'home_city', value: 'Lisbon' }, 43, { self: maya }),
];

describe('the derive thread', () => {
  it('derives the claims the rules derive in place, Brain context included, in order', async () => {
    const thread = createDeriverThread({ deriverName: rules.name });
    try {
      const results = await thread.derive(items);
      assert.equal(results.length, items.length);
      results.forEach((r, i) => {
        const { input, ctx } = items[i]!;
        assert.deepEqual(r, { claims: citableClaims(rules, input, ctx) }, input.text);
      });
      assert.ok(
        results.some((r) => 'claims' in r && r.claims.some((c) => c.subject === 'Marko Babić')),
        'a known whole name reached the thread',
      );
    } finally {
      await thread.close();
    }
  });

  it('stops when idle and starts again when asked', async () => {
    const thread = createDeriverThread({ deriverName: rules.name, idleMs: 30 });
    try {
      await thread.derive(items.slice(0, 2));
      assert.equal(thread.running, true);
      await sleep(300);
      assert.equal(thread.running, false);
      const [again] = await thread.derive(items.slice(0, 1));
      assert.deepEqual(again, { claims: citableClaims(rules, items[0]!.input, items[0]!.ctx) });
      assert.equal(thread.running, true, 'started again');
    } finally {
      await thread.close();
    }
  });

  it('is one per process for its rules, shared by the engines that open it', async () => {
    const first = sharedDeriverThread({ deriverName: rules.name });
    const second = sharedDeriverThread({ deriverName: rules.name });
    try {
      await second.derive(items.slice(0, 1));
      assert.equal(first.running, true, 'the first handle sees the thread the second started');
      await first.close();
      await assert.rejects(first.derive(items.slice(0, 1)), /closed/);
      const [r] = await second.derive(items.slice(1, 2));
      assert.deepEqual(r, { claims: citableClaims(rules, items[1]!.input, items[1]!.ctx) });
    } finally {
      await first.close();
      await second.close();
    }
  });

  describe('that cannot serve', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-derive-thread-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('fails once, is told once, and is not started again', async () => {
      const entry = join(dir, 'broken-entry.mjs');
      writeFileSync(entry, "throw new Error('no rules here');\n");
      const told: string[] = [];
      const thread = createDeriverThread({
        deriverName: rules.name,
        entry: pathToFileURL(entry),
        onFailure: (e) => told.push(e.message),
      });
      try {
        await assert.rejects(thread.derive(items.slice(0, 1)), /no rules here/);
        assert.equal(thread.failed, true);
        const again = thread.derive(items.slice(0, 1));
        // A start would be under way now: the thread is made as soon as it is asked.
        assert.equal(thread.running, false, 'not started again');
        await assert.rejects(again, /no rules here/);
        assert.deepEqual(told, ['no rules here']);
      } finally {
        await thread.close();
      }
    });

    it('is ended as failed when it hangs, its caller told within its wait', async () => {
      const entry = join(dir, 'silent-entry.mjs');
      writeFileSync(
        entry,
        "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => {});\n",
      );
      const told: string[] = [];
      const thread = createDeriverThread({
        deriverName: rules.name,
        entry: pathToFileURL(entry),
        answerMs: 200,
        onFailure: (e) => told.push(e.message),
      });
      try {
        await assert.rejects(thread.derive(items.slice(0, 2)), /did not answer in 0 s/);
        assert.equal(thread.failed, true);
        assert.equal(thread.running, false);
        assert.equal(told.length, 1);
      } finally {
        await thread.close();
      }
    });

    it('is not used when it derives by other rules than the engine', async () => {
      const thread = createDeriverThread({ deriverName: 'rules-v0' });
      try {
        await assert.rejects(
          thread.derive(items.slice(0, 1)),
          /derives by rules-v\d+, the engine by rules-v0/,
        );
        assert.equal(thread.failed, true);
      } finally {
        await thread.close();
      }
    });
  });
});
