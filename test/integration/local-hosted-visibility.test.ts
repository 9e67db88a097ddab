import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryDetail, type Memory, type RecordCreate } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine } from '../../engine/types.ts';
import { open, rememberReady, tempDir, tenant } from './local-helpers.ts';

const said = (text: string, visibility?: RecordCreate['visibility']): RecordCreate => ({
  content: { kind: 'message', text, speaker: 'user' },
  ...(visibility ? { visibility } : {}),
});

/**
 * The same data dir served locally, then by a hosted deployment (`mnemo serve --deployment hosted`):
 * the hosted one must not serve local_only content through Memories either.
 */
async function localThenHosted() {
  const dir = tempDir();
  const local = await open(dir);
  const { watermark: start } = await local.createBrain(tenant, {
    id: 'b',
    self: { type: 'person', name: 'Ana' },
  });
  const write = (body: RecordCreate) => rememberReady(local, body);
  // Order matters for the delta read below: the last changes are local_only only.
  const shared = await write(said('I like sailing.'));
  const privateTwin = await write(said('I like sailing.', 'local_only'));
  const pin = await write(said('My bank PIN is 9911.', 'local_only'));
  const mixedId = shared.memory_ids[0]!;
  assert.deepEqual(privateTwin.memory_ids, [mixedId], 'one Memory supported by both Records');
  const pinMemory = pin.memory_ids[0]!;
  await local.close();
  const hosted = await open(dir, { deployment: 'hosted' });
  return { dir, hosted, start, shared, privateTwin, pin, mixedId, pinMemory };
}

const statements = (ms: Memory[]) => ms.map((m) => m.statement);

async function readAll(engine: Engine, q: { since_watermark?: string }) {
  const seen: Memory[] = [];
  let cursor: string | undefined;
  let since = q.since_watermark;
  for (let i = 0; i < 10; i += 1) {
    const page = await engine.listMemories(tenant, 'b', {
      limit: 1,
      ...(since !== undefined ? { since_watermark: since } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    seen.push(...page.data);
    if (!page.has_more) return seen;
    if (since !== undefined) since = page.watermark;
    else cursor = page.next_cursor!;
  }
  throw new Error('paging did not end');
}

describe('local engine: a hosted deployment serves no local_only content through Memories', () => {
  it('listMemories (current, q, full and delta reads), getMemory, profile and census leave it out', async () => {
    const { hosted, start, shared, pin, mixedId, pinMemory } = await localThenHosted();
    try {
      await assert.rejects(
        hosted.getRecord(tenant, 'b', pin.id),
        (e: MnemoError) => e.code === 'local_only_record',
      );

      const current = await hosted.listMemories(tenant, 'b', { limit: 50 });
      assert.deepEqual(statements(current.data), ['I like sailing.']);
      assert.deepEqual(
        current.data[0]!.citations.map((c) => c.record_id),
        [shared.id],
        'a Memory with mixed support cites only its shareable Record',
      );
      assert.deepEqual((await hosted.listMemories(tenant, 'b', { q: 'PIN', limit: 50 })).data, []);
      assert.deepEqual(
        (await hosted.listMemories(tenant, 'b', { status: 'all', limit: 50 })).data.map((m) => m.id),
        [mixedId],
      );

      // Pages, cursors and has_more count only what is served: no empty last page, no PIN on any.
      const full = await readAll(hosted, {});
      assert.deepEqual(statements(full), ['I like sailing.']);
      const delta = await readAll(hosted, { since_watermark: start });
      assert.deepEqual(statements(delta), ['I like sailing.']);
      const one = await hosted.listMemories(tenant, 'b', { since_watermark: start, limit: 1 });
      assert.equal(one.has_more, false, 'the later local_only-only change is not announced');

      await assert.rejects(
        hosted.getMemory(tenant, 'b', pinMemory),
        (e: MnemoError) => e.code === 'local_only_record' && e.message.includes(pinMemory),
      );
      const detail = MemoryDetail.parse(await hosted.getMemory(tenant, 'b', mixedId));
      assert.deepEqual(
        detail.evidence.map((e) => e.record_id),
        [shared.id],
      );
      assert.deepEqual(
        detail.citations.map((c) => c.record_id),
        [shared.id],
      );
      assert.ok(!JSON.stringify(detail).includes('9911'));

      const profile = await hosted.getProfile(tenant, 'b', { limit: 50 });
      assert.deepEqual(
        profile.lines.map((l) => l.statement),
        ['I like sailing.'],
      );
      assert.deepEqual(
        profile.lines[0]!.citations.map((c) => c.record_id),
        [shared.id],
      );

      const census = await hosted.getCensus(tenant, 'b');
      assert.equal(census.counts.records, 1, 'local_only Records are not counted');
      assert.equal(census.counts.memories_active, 1);
      // Both "I like sailing." Records have the same text: on hosted only one of them is visible.
      assert.ok(!census.noise.some((n) => n.kind === 'duplicates'));

      const ctx = await hosted.createContext(tenant, 'b', { query: 'bank PIN' }, { requestId: 'req_1' });
      assert.ok(ctx.status === 'ready');
      assert.ok(!ctx.citations.some((c) => c.record_id === pin.id));
      assert.ok(!(ctx.text ?? '').includes('9911'));
    } finally {
      await hosted.close();
    }
  });

  it('the same reads on the local deployment still show everything', async () => {
    const { dir, hosted, pin, pinMemory } = await localThenHosted();
    await hosted.close();
    const local = await open(dir);
    try {
      const current = await local.listMemories(tenant, 'b', { limit: 50 });
      assert.deepEqual(statements(current.data).sort(), ['I like sailing.', 'My bank PIN is 9911.']);
      const detail = await local.getMemory(tenant, 'b', pinMemory);
      assert.deepEqual(
        detail.evidence.map((e) => e.record_id),
        [pin.id],
      );
      assert.equal((await local.getCensus(tenant, 'b')).counts.records, 3);
      // Served to a local agent, and marked as the person's to keep here, passage by passage.
      const ctx = await local.createContext(
        tenant,
        'b',
        { query: 'What is my bank PIN?' },
        { requestId: 'req_pin' },
      );
      assert.ok(ctx.status === 'ready');
      const text = ctx.text ?? '';
      const header = text.split('\n').find((l) => l.includes('local_only')) ?? '';
      assert.ok(header.startsWith('#mnemo-'), text);
      assert.match(header, / · visibility: local_only$/);
      assert.ok(text.includes('My bank PIN is 9911.'));
    } finally {
      await local.close();
    }
  });

  it('a hosted deployment erases a local_only Record when asked (erasure shows nothing of it)', async () => {
    const { dir, hosted, pin, pinMemory } = await localThenHosted();
    try {
      const receipt = await hosted.forgetRecord(tenant, 'b', pin.id);
      assert.deepEqual(receipt.deleted, { records: 1, memories: 1, objects: 0 });
    } finally {
      await hosted.close();
    }
    const local = await open(dir);
    try {
      await assert.rejects(
        local.getRecord(tenant, 'b', pin.id),
        (e: MnemoError) => e.code === 'record_not_found',
      );
      await assert.rejects(
        local.getMemory(tenant, 'b', pinMemory),
        (e: MnemoError) => e.code === 'memory_not_found',
      );
    } finally {
      await local.close();
    }
  });

  it('a hosted deployment cannot correct what it does not serve, nor learn the id of a hidden newer value', async () => {
    const dir = tempDir();
    const local = await open(dir);
    await local.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const fact = (value: string, at: string, visibility?: RecordCreate['visibility']) =>
      rememberReady(local, {
        content: { kind: 'fact', subject: 'Ana', predicate: 'phone', value },
        occurred_at: at,
        ...(visibility ? { visibility } : {}),
      });
    const shared = await fact('+351 111', '2020-01-01T00:00:00Z');
    const hidden = await fact('+351 222', '2023-01-01T00:00:00Z', 'local_only');
    await local.close();
    const hosted = await open(dir, { deployment: 'hosted' });
    try {
      const correct = (corrects: string) =>
        hosted.rememberRecord(tenant, 'b', { content: { kind: 'correction', corrects } }, {});
      await assert.rejects(
        correct(hidden.memory_ids[0]!),
        (e: MnemoError) => e.code === 'local_only_record' && /Nothing was written/.test(e.message),
      );
      await assert.rejects(
        correct(shared.memory_ids[0]!),
        (e: MnemoError) =>
          e.code === 'correction_conflict' &&
          !e.message.includes(hidden.memory_ids[0]!) &&
          /does not serve/.test(e.message),
      );
    } finally {
      await hosted.close();
    }
    const again = await open(dir);
    try {
      assert.equal((await again.getMemory(tenant, 'b', hidden.memory_ids[0]!)).status, 'active');
      assert.equal((await again.getCensus(tenant, 'b')).counts.records, 2, 'nothing was written');
    } finally {
      await again.close();
    }
  });
});
