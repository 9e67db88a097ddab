import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import { open, rememberReady, tempDir, tenant, withBrain } from './local-helpers.ts';

// Every accepted Record either derives or shows why not.
describe('no Record loses its derivation silently', () => {
  for (const [name, content] of [
    ['a string', '\u0000\u0000I live in Porto.'],
    ['a message', { kind: 'message', speaker: 'Ana', text: '\u0000\u0000I live in Porto.' }],
    ['a document', { kind: 'document', title: '\u0000', text: '\u0000\u0000I live in Porto.' }],
    ['a fact', { kind: 'fact', subject: 'Ana', predicate: 'lives in', value: '\u0000\u0000Porto' }],
  ] as const) {
    it(`${name} led by U+0000 derives, citing an exact substring`, async () => {
      const { engine, remember } = await withBrain({ deriveRetryDelaysMs: [] });
      const r = await remember({ content } as never);
      assert.equal(r.memory_ids.length, 1, JSON.stringify(r));
      const m = await engine.getMemory(tenant, 'b', r.memory_ids[0]!);
      const text = typeof content === 'string' ? content : 'text' in content ? content.text : null;
      for (const c of m.citations) {
        assert.ok(c.quote.length > 0 && !c.quote.startsWith('\u0000'), JSON.stringify(c.quote));
        if (text !== null) assert.ok(text.includes(c.quote), JSON.stringify(c.quote));
      }
      assert.deepEqual(
        (await engine.getCensus(tenant, 'b')).noise.filter((n) => n.kind === 'derivation_failed'),
        [],
      );
    });
  }

  it('a Record of U+0000 alone is kept as sent and yields nothing, with no failure', async () => {
    const { engine, remember } = await withBrain({ deriveRetryDelaysMs: [] });
    const r = await remember({ content: '\u0000' });
    assert.equal(r.status, 'ready');
    assert.deepEqual(r.content, { kind: 'document', text: '\u0000' });
    assert.deepEqual((await engine.getCensus(tenant, 'b')).noise, []);
  });

  it('a job that fails is tried again, and when it never succeeds Census names its Record', async () => {
    const rules = createRuleDeriver();
    let calls = 0;
    const failing: Deriver = {
      ...rules,
      derive(record, self) {
        if (record.text.includes('boom')) {
          calls++;
          throw new Error('the deriver broke');
        }
        return rules.derive(record, self);
      },
    };
    const warned: string[] = [];
    const failed: Record<string, unknown>[] = [];
    const { engine, remember } = await withBrain({
      deriver: failing,
      deriveRetryDelaysMs: [5, 5],
      logger: {
        info() {},
        warn: (m) => warned.push(m),
        error: (m, f) => failed.push({ m, ...f }),
      },
    });
    const bad = await remember({ content: 'boom. I live in Porto.' });
    const good = await remember({ content: 'I work at the library.' });
    assert.equal(calls, 3);
    assert.equal(warned.filter((w) => w.startsWith('derivation failed')).length, 2);
    assert.equal(failed.length, 1);
    assert.equal(failed[0]!.record_id, bad.id);
    assert.equal(failed[0]!.attempts, 3);
    assert.equal(good.memory_ids.length, 1);
    const census = await engine.getCensus(tenant, 'b');
    const noise = census.noise.find((n) => n.kind === 'derivation_failed');
    assert.deepEqual(noise && { count: noise.count, examples: noise.examples }, {
      count: 1,
      examples: [bad.id],
    });
    // Forgetting the Record takes its failure with it.
    await engine.forgetRecord(tenant, 'b', bad.id);
    assert.equal(
      (await engine.getCensus(tenant, 'b')).noise.find((n) => n.kind === 'derivation_failed'),
      undefined,
    );
  });
  it('a Memory that a Record led by U+0000 shares with another outlives forgetting the other', async () => {
    // No self: the notes are nobody's statements (with one, "I live in Porto." is her home's slot).
    const { engine, remember } = await withBrain({ deriveRetryDelaysMs: [] }, false);
    const led = await remember({ content: '\u0000\u0000I live in Porto.' });
    const plain = await remember({ content: 'I live in Porto.' });
    assert.equal(led.memory_ids.length, 1);
    assert.deepEqual(plain.memory_ids, led.memory_ids);
    await engine.forgetRecord(tenant, 'b', plain.id);
    await engine.idle();
    const after = await engine.getRecord(tenant, 'b', led.id);
    assert.deepEqual(after.memory_ids, led.memory_ids);
    const m = await engine.getMemory(tenant, 'b', led.memory_ids[0]!);
    assert.deepEqual(
      m.citations.map((c) => c.record_id),
      [led.id],
    );
  });

  it('newer rules that derive a failed Record take its failure out of Census', async () => {
    const rules = createRuleDeriver();
    const broken: Deriver = {
      name: 'broken-rules',
      derive: () => {
        throw new Error('the deriver broke');
      },
    };
    const dir = tempDir();
    const quiet = { info() {}, warn() {}, error() {} };
    const first = await open(dir, { deriver: broken, deriveRetryDelaysMs: [], logger: quiet });
    await first.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const failed = await rememberReady(first, { content: 'I live in Porto.' });
    assert.deepEqual(failed.memory_ids, []);
    const before = (await first.getCensus(tenant, 'b')).noise.find((n) => n.kind === 'derivation_failed');
    assert.deepEqual(before?.examples, [failed.id]);
    await first.close();

    const fixed = await open(dir, { deriver: rules, logger: quiet });
    try {
      await fixed.idle();
      assert.equal((await fixed.getRecord(tenant, 'b', failed.id)).memory_ids.length, 1);
      assert.equal(
        (await fixed.getCensus(tenant, 'b')).noise.find((n) => n.kind === 'derivation_failed'),
        undefined,
      );
    } finally {
      await fixed.close();
    }
  });
});
