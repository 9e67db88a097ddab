import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DeletionReceipt, MemoryPage } from '../../engine/contract/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { assertShape, eventually, type Client, type ServerFactory } from './harness.ts';
import { brainWithKey, ready, remember, type EngineTraits } from './suite-records.ts';

/** Follows the spec's delta loop from `since` to the end: every page, and the watermark to keep. */
async function drain(api: Client, since: string, limit = 50) {
  const pages: MemoryPage[] = [];
  let mark = since;
  for (let i = 0; i < 50; i += 1) {
    const page = assertShape(
      MemoryPage,
      (await api.get(`/brains/b/memories?limit=${limit}&since_watermark=${encodeURIComponent(mark)}`)).body,
    );
    assert.ok(Array.isArray(page.removed), 'a delta read always carries removed');
    pages.push(page);
    mark = page.watermark!;
    if (!page.has_more) {
      return {
        pages,
        watermark: mark,
        data: pages.flatMap((p) => p.data),
        removed: pages.flatMap((p) => p.removed ?? []),
      };
    }
  }
  throw new Error('the delta read did not end');
}

async function forget(api: Client, path: string) {
  const r = await api.del(path);
  assert.equal(r.status, 200, r.text);
  return assertShape(DeletionReceipt, r.body);
}

const said = (text: string) => ({ content: { kind: 'message', text, speaker: 'user' } });

/**
 * Removals in delta reads (additive `removed`): a sync client that follows the spec's delta loop must
 * learn that a Memory it holds left the served set, or it keeps a forgotten Memory for ever.
 */
export function deltaRemovalChecks(factory: ServerFactory, traits: EngineTraits): void {
  describe('delta reads: removals', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('a Memory whose last supporting Record is forgotten is reported once in removed (deleted)', async () => {
      const api = await brainWithKey(server);
      const kept = await remember(api, 'b', { content: 'The canoe stays in the barn.' });
      await ready(api, 'b', kept.record.id);
      const gone = await remember(api, 'b', { content: 'The spare key is under the third pot.' });
      const done = await ready(api, 'b', gone.record.id);
      const mark = (await drain(api, kept.watermark)).watermark;

      const receipt = await forget(api, `/brains/b/records/${gone.record.id}`);
      assert.equal(receipt.deleted.memories, done.memory_ids.length);
      const delta = await drain(api, mark);
      assert.deepEqual(delta.removed.map((x) => x.id).sort(), [...done.memory_ids].sort());
      for (const x of delta.removed) assert.deepEqual(Object.keys(x).sort(), ['id', 'reason']);
      assert.ok(delta.removed.every((x) => x.reason === 'deleted'));
      assert.ok(!delta.data.some((m) => done.memory_ids.includes(m.id)));

      // Once applied, it is not reported again: neither from the page's watermark nor the receipt's.
      assert.deepEqual((await drain(api, delta.watermark)).removed, []);
      assert.deepEqual((await drain(api, receipt.watermark!)).removed, []);
      const full = assertShape(MemoryPage, (await api.get('/brains/b/memories')).body);
      assert.equal(full.removed, undefined, 'a full read lists what is served, not what went');
      assert.ok(!full.data.some((m) => done.memory_ids.includes(m.id)));
    });

    it('removals and changes come in one transaction-time order, page by page', async () => {
      const api = await brainWithKey(server);
      const a = await remember(api, 'b', { content: 'Alpha: the red kite is in the attic.' });
      const ra = await ready(api, 'b', a.record.id);
      const b = await remember(api, 'b', { content: 'Bravo: the green kite is in the garage.' });
      const rb = await ready(api, 'b', b.record.id);
      const mark = (await drain(api, a.watermark)).watermark;

      await forget(api, `/brains/b/records/${a.record.id}`);
      const c = await remember(api, 'b', { content: 'Charlie: the blue kite is at the beach.' });
      const rc = await ready(api, 'b', c.record.id);
      await forget(api, `/brains/b/records/${b.record.id}`);

      const delta = await drain(api, mark, 1);
      const events = delta.pages.flatMap((p) => [
        ...(p.removed ?? []).map((x) => `-${x.id}`),
        ...p.data.map((m) => `+${m.id}`),
      ]);
      assert.deepEqual(events, [
        ...ra.memory_ids.map((id) => `-${id}`),
        ...rc.memory_ids.map((id) => `+${id}`),
        ...rb.memory_ids.map((id) => `-${id}`),
      ]);
      assert.ok(delta.pages.length >= 3, 'limit=1 pages through each step');
      assert.ok(delta.pages.slice(0, -1).every((p) => p.has_more));
    });

    it('a step with more entries than the limit is split across pages of at most limit, none lost or repeated', async () => {
      const api = await brainWithKey(server);
      const limit = 3;
      // An older value of a slot: an engine that supersedes it brings it back when the trip goes, a
      // change at the very step of the removals.
      const cat = await remember(api, 'b', {
        content: { kind: 'fact', subject: 'user', predicate: 'pet', value: 'cat' },
        occurred_at: '2020-01-01T00:00:00Z',
      });
      const catIds = (await ready(api, 'b', cat.record.id)).memory_ids;
      const first = await remember(api, 'b', { content: 'Before the trip: the tent is in the loft.' });
      const firstIds = (await ready(api, 'b', first.record.id)).memory_ids;
      const trip: { content: unknown }[] = [
        { content: { kind: 'fact', subject: 'user', predicate: 'pet', value: 'dog' } },
      ];
      for (let day = 1; day <= 12; day += 1)
        trip.push({ content: `Day ${day} of the trip: we walked to cove ${day}.` });
      const ids: string[] = [];
      for (const { content } of trip) {
        const body = { content, source: { name: 'trip' }, occurred_at: '2022-01-01T00:00:00Z' };
        const r = await remember(api, 'b', body);
        ids.push(...(await ready(api, 'b', r.record.id)).memory_ids);
      }
      assert.ok(ids.length >= 4 * limit, `${ids.length} Memories: the step must outnumber the limit`);
      const mark = (await drain(api, first.watermark)).watermark;
      const receipt = await forget(api, '/brains/b/sources/trip');
      assert.equal(receipt.deleted.memories, ids.length);

      const read = async (since: string) =>
        assertShape(
          MemoryPage,
          (await api.get(`/brains/b/memories?limit=${limit}&since_watermark=${encodeURIComponent(since)}`))
            .body,
        );
      const pages: MemoryPage[] = [await read(mark)];
      // Writes between pages, at later steps: a new Memory, and a removal.
      const later = await remember(api, 'b', { content: 'After the trip: the kayak needs a new seat.' });
      const laterIds = (await ready(api, 'b', later.record.id)).memory_ids;
      await forget(api, `/brains/b/records/${first.record.id}`);
      while (pages.at(-1)!.has_more) {
        pages.push(await read(pages.at(-1)!.watermark!));
        assert.ok(pages.length < 50, 'the delta read ends');
      }

      for (const [i, p] of pages.entries()) {
        const removed = (p.removed ?? []).map((x) => x.id);
        assert.ok(p.data.length + removed.length <= limit, `page ${i}: ${p.data.length} + ${removed.length}`);
        assert.ok(!p.data.some((m) => removed.includes(m.id)), `page ${i}: an id in data or removed`);
      }
      // Removals by step, then id within one; the later forget after the forgotten import.
      const bytewise = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      const removed = pages.flatMap((p) => (p.removed ?? []).map((x) => x.id));
      assert.deepEqual(removed, [...[...ids].sort(bytewise), ...firstIds]);
      assert.equal(new Set(removed).size, removed.length);
      const data = pages.flatMap((p) => p.data.map((m) => m.id));
      const reopened = catIds.filter((id) => data.includes(id));
      assert.deepEqual(data, [...reopened, ...laterIds]);
      // A change at the import's step comes after its removals: in the page of the last, or later.
      const lastGone = pages.findIndex((p) =>
        p.removed?.some((x) => x.id === [...ids].sort(bytewise).at(-1)),
      );
      for (const id of reopened)
        assert.ok(pages.findIndex((p) => p.data.some((m) => m.id === id)) >= lastGone, id);
      assert.ok(pages.length >= 5, `${pages.length} pages`);

      // A watermark inside the step reads on from there again, and every reader takes it for a boundary.
      const within = pages[0]!.watermark!;
      assert.deepEqual(await read(within), pages[1]);
      const context = await api.post('/brains/b/context', { query: 'kayak' }, { 'Brain-Watermark': within });
      assert.ok([200, 202].includes(context.status), context.text);
      if (traits.replicaIds !== undefined) {
        const feed = await api.get(`/brains/b/records?since_watermark=${encodeURIComponent(within)}`);
        assert.equal(feed.status, 200, feed.text);
      }
    });

    it('the changes of one step are split across pages too, none lost or repeated', async () => {
      const api = await brainWithKey(server);
      const start = (await remember(api, 'b', { content: 'The shed is green.' })).watermark;
      // One Record, one step: an engine that derives several Memories from it writes them together.
      const r = await remember(api, 'b', said('I cook pasta. I run daily. I read novels. I play chess.'));
      const memoryIds = (await ready(api, 'b', r.record.id)).memory_ids;
      const delta = await drain(api, start, 1);
      for (const p of delta.pages) assert.ok(p.data.length + (p.removed?.length ?? 0) <= 1);
      const seen = delta.data.map((m) => m.id);
      assert.equal(new Set(seen).size, seen.length, 'none repeated');
      assert.deepEqual(seen.filter((id) => memoryIds.includes(id)).sort(), [...memoryIds].sort());
    });

    it('a Memory that keeps other support is reported as pending_rederivation, and comes back under its id', async () => {
      const api = await brainWithKey(server);
      const a = await remember(api, 'b', said('I like sailing. The locker code is 7731.'));
      const ra = await ready(api, 'b', a.record.id);
      const b = await remember(api, 'b', said('I like sailing.'));
      const rb = await ready(api, 'b', b.record.id);
      const mark = (await drain(api, a.watermark)).watermark;

      const receipt = await forget(api, `/brains/b/records/${a.record.id}`);
      const delta = await drain(api, mark);
      const shared = ra.memory_ids.filter((id) => rb.memory_ids.includes(id));
      // Where it cannot happen, the test checks only the plain deletions.
      assert.equal(shared.length > 0, traits.sharesMemories, 'the two Records share a Memory');
      // An engine that re-derives at once may already serve it again: then it is a change, not a removal.
      const rederived = shared.filter((id) => delta.data.some((m) => m.id === id));
      for (const id of ra.memory_ids) {
        const x = delta.removed.find((r) => r.id === id);
        if (rederived.includes(id)) assert.equal(x, undefined, `${id}: reported once, as it is now`);
        else if (shared.includes(id)) assert.equal(x?.reason, 'pending_rederivation', id);
        else assert.equal(x?.reason, 'deleted', id);
      }
      assert.equal(shared.length, receipt.rederiving.memories);
      for (const id of shared) {
        await eventually(`${id} served again`, async () =>
          (await drain(api, receipt.watermark!)).data.some((m) => m.id === id),
        );
      }
    });
  });
}
