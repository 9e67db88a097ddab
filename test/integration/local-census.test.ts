import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Census, RecordCreate } from '../../engine/contract/index.ts';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import { key, open, rememberReady, tempDir, tenant } from './local-helpers.ts';

const said = (text: string, extra: Partial<RecordCreate> = {}): RecordCreate => ({
  content: { kind: 'message', text, speaker: 'user' },
  ...extra,
});

const noise = (c: Census, kind: Census['noise'][number]['kind']) => c.noise.find((n) => n.kind === kind);

/**
 * The census counts and names, through indexes of what it looks for, exactly what the plain
 * definitions say; served locally and by a hosted deployment of the same data dir.
 */
describe('local engine: the census', () => {
  it('counts duplicates, low-trust Records, retracted and unowned Memories, and their first examples', async () => {
    const dir = tempDir();
    const local = await open(dir);
    await local.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const write = (body: RecordCreate) => rememberReady(local, body);
    const first = await write(said('I like sailing.'));
    const again = await write(said('I like sailing.'));
    const privately = await write(said('I like sailing.', { visibility: 'local_only' }));
    // Differs only in case and a trailing space: not word for word, even when its key is made equal.
    const near = await write(said('I like Sailing. '));
    // A repeat of a local_only Record: hosted, it repeats nothing it serves.
    await write(said('I row on Sundays.', { visibility: 'local_only' }));
    const rowing = await write(said('I row on Sundays.'));
    const rumour = await write(said('Ben moved to Oslo.', { source: { name: 'forum', trust: 'low' } }));
    const pin = await write(said('My bank PIN is 9911.'));
    await write({ content: { kind: 'correction', corrects: pin.memory_ids[0]! } });
    const anon = await write({ content: { kind: 'message', text: 'The meeting moved to Friday.' } });
    const raw = openDatabase({ file: join(dir, 'mnemo.db'), key });
    raw
      .prepare('UPDATE records SET text_key = (SELECT text_key FROM records WHERE id = ?) WHERE id = ?')
      .run(first.id, near.id);
    raw.close();
    try {
      const c = await local.getCensus(tenant, 'b');
      assert.equal(c.counts.records, 10);
      assert.deepEqual(noise(c, 'duplicates'), {
        kind: 'duplicates',
        count: 3,
        description: 'Records whose text repeats an earlier Record word for word',
        examples: [again.id, privately.id, rowing.id].sort(),
      });
      assert.deepEqual(noise(c, 'low_trust_source')?.examples, [rumour.id]);
      assert.deepEqual(noise(c, 'retracted')?.examples, pin.memory_ids);
      assert.deepEqual(noise(c, 'unresolved_owner')?.examples, anon.memory_ids);
      assert.equal(noise(c, 'unresolved_owner')?.count, 1);
      assert.equal(noise(c, 'pending_rederivation'), undefined, 'a kind with nothing is left out');
      const listed = await local.listMemories(tenant, 'b', { limit: 100 });
      assert.equal(c.counts.memories_active, listed.data.length);
    } finally {
      await local.close();
    }

    const hosted = await open(dir, { deployment: 'hosted' });
    try {
      const c = await hosted.getCensus(tenant, 'b');
      assert.equal(c.counts.records, 8, 'the local_only Records are not counted');
      assert.deepEqual(noise(c, 'duplicates')?.examples, [again.id]);
    } finally {
      await hosted.close();
    }
  });

  it('many examples: the count is whole, the examples the first five by id', async () => {
    const local = await open(tempDir());
    await local.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await rememberReady(local, said('ok'))).id);
    for (let i = 0; i < 7; i++)
      await rememberReady(local, { content: { kind: 'message', text: `Nobody said ${i}.` } });
    try {
      const c = await local.getCensus(tenant, 'b');
      assert.deepEqual(noise(c, 'duplicates')?.examples, ids.slice(1).sort().slice(0, 5));
      assert.equal(noise(c, 'duplicates')?.count, 7);
      assert.equal(noise(c, 'unresolved_owner')?.count, 7);
      assert.equal(noise(c, 'unresolved_owner')?.examples.length, 5);
      assert.deepEqual(
        c.noise.map((n) => n.kind),
        ['duplicates', 'unresolved_owner'],
        'noisiest first; ties keep their order',
      );
    } finally {
      await local.close();
    }
  });
});
