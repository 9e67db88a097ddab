import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MemoryPage, RecordCreate } from '../../engine/contract/index.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import type { Engine } from '../../engine/types.ts';
import { key, open, rememberReady, tempDir, tenant } from './local-helpers.ts';

const said = (text: string, visibility?: RecordCreate['visibility']): RecordCreate => ({
  content: { kind: 'message', text, speaker: 'user' },
  ...(visibility ? { visibility } : {}),
});

/** The spec's delta loop from `since` to the end, one page at a time. */
async function drain(engine: Engine, since: string, limit = 50) {
  const pages: MemoryPage[] = [];
  let mark = since;
  for (let i = 0; i < 50; i += 1) {
    const page = await engine.listMemories(tenant, 'b', { limit, since_watermark: mark });
    pages.push(page);
    mark = page.watermark!;
    if (!page.has_more) {
      return {
        watermark: mark,
        pages: pages.map((p) => ({ data: p.data.map((m) => m.id), removed: p.removed ?? [] })),
        data: pages.flatMap((p) => p.data.map((m) => m.id)),
        removed: pages.flatMap((p) => p.removed ?? []),
      };
    }
  }
  throw new Error('the delta read did not end');
}

function tombstones(dir: string) {
  const db = openDatabase({ file: join(dir, 'mnemo.db'), key });
  try {
    return db.prepare('SELECT * FROM memory_removals ORDER BY seq, memory_id').all() as Record<
      string,
      unknown
    >[];
  } finally {
    db.close();
  }
}

describe('local engine: delta reads report removals', () => {
  it('pending re-derivation is a removal until the Memory is served again under the same id', async () => {
    const dir = tempDir();
    const engine = await open(dir, { rederiveDelayMs: 60_000 });
    let mark: string;
    let delta: Awaited<ReturnType<typeof drain>>;
    let shared: string;
    let lost: string;
    try {
      const { watermark: start } = await engine.createBrain(tenant, {
        id: 'b',
        self: { type: 'person', name: 'Ana' },
      });
      const a = await rememberReady(engine, said('I like sailing. The locker code is 7731.'));
      const b = await rememberReady(engine, said('I like sailing.'));
      shared = b.memory_ids[0]!;
      lost = a.memory_ids.find((id) => id !== shared)!;
      mark = (await drain(engine, start)).watermark;

      const receipt = await engine.forgetRecord(tenant, 'b', a.id);
      assert.deepEqual(receipt.rederiving, { memories: 1 });
      delta = await drain(engine, mark);
      assert.deepEqual(delta.data, []);
      const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : 1);
      assert.deepEqual(
        [...delta.removed].sort(byId),
        [
          { id: shared, reason: 'pending_rederivation' },
          { id: lost, reason: 'deleted' },
        ].sort(byId),
      );
    } finally {
      await engine.close();
    }
    // Tombstones hold ids and steps only: no statement, subject or quote survives the forget.
    const rows = tombstones(dir);
    assert.deepEqual(Object.keys(rows[0]!).sort(), ['brain_uid', 'memory_id', 'reason', 'seq', 'shareable']);
    assert.ok(!JSON.stringify(rows).includes('7731') && !JSON.stringify(rows).includes('sailing'));

    // Once re-derived (the delay has passed), the Memory is a change again, under the same id.
    const later = await open(dir, { clock: () => new Date(Date.now() + 120_000) });
    try {
      await later.idle();
      const after = await drain(later, delta.watermark);
      assert.deepEqual(after.data, [shared]);
      assert.deepEqual(after.removed, []);
      // A reader from before the forget: in one page, each id once, as it is now (the shared one
      // served, the lost one removed); page by page, the removal step comes before the re-derivation.
      const net = await drain(later, mark);
      assert.deepEqual(net.data, [shared]);
      assert.deepEqual(net.removed, [{ id: lost, reason: 'deleted' }]);
      const stepwise = await drain(later, mark, 1);
      assert.deepEqual(stepwise.data, [shared]);
      assert.equal(stepwise.removed.length, 2);
      assert.deepEqual(stepwise.pages[0]!.data, [], 'the forget step first');
      assert.deepEqual(stepwise.pages.at(-1)!.data, [shared], 'then the re-derivation');
      await later.forgetBrain(tenant, 'b');
    } finally {
      await later.close();
    }
    assert.deepEqual(tombstones(dir), [], 'forgetBrain removes the tombstones');
  });

  it('hosted: reports removals of Memories it served, never of local_only-only ones', async () => {
    const dir = tempDir();
    const local = await open(dir);
    const { watermark: start } = await local.createBrain(tenant, {
      id: 'b',
      self: { type: 'person', name: 'Ana' },
    });
    const shared = await rememberReady(local, said('I like sailing.'));
    const twin = await rememberReady(local, said('I like sailing.', 'local_only'));
    const pin = await rememberReady(local, said('My bank PIN is 9911.', 'local_only'));
    const mixed = shared.memory_ids[0]!;
    assert.deepEqual(twin.memory_ids, [mixed]);
    await local.close();

    const hosted = await open(dir, { deployment: 'hosted' });
    try {
      const mark = (await drain(hosted, start)).watermark;
      await hosted.forgetRecord(tenant, 'b', pin.id);
      assert.deepEqual((await drain(hosted, mark)).removed, [], 'never served here, never reported');
      await hosted.forgetRecord(tenant, 'b', shared.id);
      await hosted.idle();
      // Re-derived from the local_only twin alone: served locally, still gone from this deployment.
      const delta = await drain(hosted, mark);
      assert.deepEqual(delta.data, []);
      assert.deepEqual(delta.removed, [{ id: mixed, reason: 'pending_rederivation' }]);
    } finally {
      await hosted.close();
    }
  });
});
