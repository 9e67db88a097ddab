import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordReplica } from '../../engine/contract/index.ts';
import { runLimits } from '../../server/sync/run-sync.ts';
import { allRecords, startNode, tempRoot, type Node } from './sync-helpers.ts';

describe('a step of the change feed too large for one answer', () => {
  const { root, remove } = tempRoot();
  let h: Node;
  let a: Node;
  // An answer of 8 KiB holds some twenty Records of this test, or a hundred removals.
  const maxResponseBytes = 8 * 1024;
  before(async () => {
    [h, a] = await Promise.all([
      startNode(root, 'h', { deployment: 'hosted' }),
      startNode(root, 'a', {
        sync: { debounceMs: 3_600_000, intervalMs: 3_600_000, limits: { maxResponseBytes } },
      }),
    ]);
  });
  after(async () => {
    await Promise.all([h.stop(), a.stop()]);
    remove();
  });

  it('is pulled in several pages: a forgotten import larger than an answer reaches the device', async () => {
    await h.client.createBrain({ id: 'ana' });
    const chat: string[] = [];
    for (let i = 0; i < 150; i++)
      chat.push(
        (await h.client.rememberRecord('ana', { content: `Line ${i}`, source: { name: 'chat' } })).record.id,
      );
    await a.client.createBrain({ id: 'ana' });
    await a.client.pairSync('ana', { remote: h.server.url, remote_key: h.key });
    const first = await a.client.runSync('ana');
    assert.equal(first.last_error, null);
    assert.equal((await allRecords(a.client, 'ana')).length, 150);

    // One forget on the hub: 150 ids at one step, some 12 KB of removals.
    await h.client.forgetSource('ana', 'chat');
    const whole = await h.client.listRecords('ana', { since_watermark: 'start', limit: 200 });
    assert.equal(whole.removed?.length, 150);
    assert.ok(Buffer.byteLength(JSON.stringify(whole)) > maxResponseBytes);

    const status = await a.client.runSync('ana');
    assert.equal(status.last_error, null);
    // Every page's removals reached the device: past the guard, held whole until the person confirms
    // (docs/sync.md, "Forgets the remote asks for").
    assert.equal(status.forgets_held, 150);
    await a.client.acceptSyncForgets('ana', 150);
    assert.deepEqual(await allRecords(a.client, 'ana'), []);
  });

  it('never holds one Record over a run’s answer limit: the widest the API takes is some 6 MB', async () => {
    await h.client.createBrain({ id: 'wide' });
    // 1,000,000 characters (the most a text takes), each written as six bytes of JSON (\u0001).
    const replica: RecordReplica = {
      id: 'rec_01M8GA4DNAKFBAD9VVVCSJ3164',
      content: { kind: 'message', text: '\u0001'.repeat(1_000_000), speaker: 'x'.repeat(2_000) },
      source: { name: 'y'.repeat(2_000), external_id: 'z'.repeat(2_000) },
      visibility: 'shareable',
      occurred_at: '2024-05-01T12:00:00.000Z',
    };
    assert.deepEqual((await h.client.replicateRecords('wide', [replica])).data, [
      { id: replica.id, outcome: 'created' },
    ]);
    const res = await fetch(`${h.server.url}/brains/wide/records?since_watermark=start&limit=1`, {
      headers: { authorization: `Bearer ${h.key}` },
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    assert.equal(res.status, 200);
    assert.ok(bytes > 6_000_000 && bytes < 6_100_000, `${bytes} bytes`);
    assert.ok(bytes < runLimits.maxResponseBytes / 5);
  });
});
