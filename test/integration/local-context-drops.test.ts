import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextReady, type Context, type RecordCreate } from '../../engine/contract/index.ts';
import { open, rememberReady, tempDir, tenant, withBrain } from './local-helpers.ts';

const ready = (c: Context) => {
  assert.equal(c.status, 'ready');
  return ContextReady.parse(c);
};
const employer = (value: string, occurred_at: string): RecordCreate => ({
  content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value },
  occurred_at,
});
const opts = { requestId: 'req_drops' };

describe('local engine: Context says why a Record is not evidence, and serves what a hosted deployment may', () => {
  it('a Record whose Memories are all scheduled is dropped as scheduled, not superseded', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-01-01T00:00:00Z') });
    const acme = await remember(employer('Acme', '2024-01-01T00:00:00Z'));
    const globex = await remember(employer('Globex', '2031-01-01T00:00:00Z'));
    const initech = await remember(employer('Initech', '2020-01-01T00:00:00Z'));
    const ctx = ready(
      await engine.createContext(tenant, 'b', { query: 'Ana employer', include: ['explain'] }, opts),
    );
    assert.deepEqual(
      ctx.citations.map((c) => c.record_id),
      [acme.id],
    );
    const explain = ctx.explain as { dropped: { record_id: string; reason: string }[] };
    const dropped = new Map(explain.dropped.map((d) => [d.record_id, d.reason]));
    assert.match(dropped.get(globex.id) ?? '', /^scheduled: every Memory it supports starts later than now$/);
    assert.match(
      dropped.get(initech.id) ?? '',
      /^superseded: /,
      'a value replaced since is still superseded',
    );
  });

  it('an edited note imported again: the newer revision is the evidence, the older one is dropped as revised', async () => {
    const { engine, remember } = await withBrain();
    const note = (text: string, occurred_at: string): RecordCreate => ({
      content: { kind: 'document', title: 'family.md', text },
      source: { name: 'notes', external_id: 'family.md' },
      occurred_at,
    });
    // The passage both versions share keeps one Memory, which cites both Records.
    const v1 = await remember(
      note('Marta lives in Lisbon.\n\nWe hike in the mountains every spring.', '2023-01-01T00:00:00Z'),
    );
    const v2 = await remember(
      note('Marta lives in Porto.\n\nWe hike in the mountains every spring.', '2024-01-01T00:00:00Z'),
    );
    const ask = async (extra: object = {}) =>
      ready(
        await engine.createContext(
          tenant,
          'b',
          { query: 'hiking in the mountains', include: ['explain'], ...extra },
          opts,
        ),
      );
    const now = await ask();
    assert.deepEqual(
      now.citations.map((c) => c.record_id),
      [v2.id],
    );
    const explain = now.explain as {
      dropped: { record_id: string; reason: string }[];
      evidence: { record_id: string; lanes: string[] }[];
    };
    assert.deepEqual(explain.dropped, [
      { record_id: v1.id, reason: `revised: ${v2.id} is a newer revision of the same item` },
    ]);
    // Before the edit, and in a window that ends before it, the older version is what there was.
    for (const extra of [{ as_of: '2023-06-01T00:00:00Z' }, { filter: { until: '2023-06-01T00:00:00Z' } }])
      assert.deepEqual(
        (await ask(extra)).citations.map((c) => c.record_id),
        [v1.id],
        JSON.stringify(extra),
      );
  });

  it('include memories serves a Memory also supported by a Record the filter excludes, citing only what it may see', async () => {
    const { engine, remember } = await withBrain({});
    const said = { kind: 'message', text: 'I like sailing.', speaker: 'user' } as const;
    const chat = await remember({ content: said, source: { name: 'chat' } });
    const mail = await remember({ content: said, source: { name: 'mail' } });
    const memoryId = chat.memory_ids[0]!;
    assert.deepEqual(mail.memory_ids, [memoryId], 'one Memory supported by both Records');
    const ctx = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'sailing', include: ['memories'], filter: { sources: ['chat'] } },
        opts,
      ),
    );
    assert.deepEqual(
      ctx.citations.map((c) => c.record_id),
      [chat.id],
    );
    assert.deepEqual(
      ctx.memories?.map((m) => [m.id, m.citations.map((c) => c.record_id)]),
      [[memoryId, [chat.id]]],
    );
  });

  it('hosted: include memories serves a Memory with mixed local_only/shareable support, citing only the shareable Record', async () => {
    const dir = tempDir();
    const local = await open(dir);
    await local.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const write = (body: RecordCreate) => rememberReady(local, body);
    const said = { kind: 'message', text: 'I like sailing.', speaker: 'user' } as const;
    const shared = await write({ content: said });
    const privateTwin = await write({ content: said, visibility: 'local_only' });
    const mixedId = shared.memory_ids[0]!;
    assert.deepEqual(privateTwin.memory_ids, [mixedId], 'one Memory supported by both Records');
    await local.close();
    const hosted = await open(dir, { deployment: 'hosted' });
    try {
      const ctx = ready(
        await hosted.createContext(tenant, 'b', { query: 'sailing', include: ['memories'] }, opts),
      );
      assert.deepEqual(
        ctx.citations.map((c) => c.record_id),
        [shared.id],
      );
      assert.deepEqual(
        ctx.memories?.map((m) => m.id),
        [mixedId],
        'the Memory is served, not dropped for its local_only support',
      );
      assert.deepEqual(
        ctx.memories![0]!.citations.map((c) => c.record_id),
        [shared.id],
        'it cites only the shareable Record',
      );
    } finally {
      await hosted.close();
    }
  });
});
