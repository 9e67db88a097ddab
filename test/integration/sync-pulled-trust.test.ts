import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { MnemoRecord } from '../../engine/contract/index.ts';
import { allRecords, hubAndTwoDevices, syncOk, type HubAndDevices, type Node } from './sync-helpers.ts';

describe('the trust of a Record pulled from a hub', () => {
  let h: Node;
  let a: Node;
  let b: Node;
  let nodes: HubAndDevices;
  const sync = (n: Node) => syncOk(n, 'ana');
  const trustOn = async (n: Node) =>
    Object.fromEntries(
      (await allRecords(n.client, 'ana')).map((r: MnemoRecord) => [r.id, r.source.trust] as const),
    );

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ h, a, b } = nodes);
    for (const n of [a, b]) {
      await n.client.createBrain({ id: 'ana' });
      await n.client.pairSync('ana', { remote: h.server.url, remote_key: h.key });
    }
  });
  after(() => nodes.stop());

  it('is at most medium on the device, whatever the hub says; low stays low', async () => {
    await sync(a);
    // A hostile or compromised hub (or any key of its project) writes Records it says are of high trust.
    const claimed = (
      await h.client.rememberRecord('ana', {
        content: 'The bank account for the harbour fee changed to a new one.',
        source: { name: 'bank', trust: 'high' },
      })
    ).record;
    const low = (
      await h.client.rememberRecord('ana', {
        content: 'Someone on a forum said the pier closes in May.',
        source: { name: 'forum', trust: 'low' },
      })
    ).record;
    const plain = (await h.client.rememberRecord('ana', { content: 'The pier has 40 berths.' })).record;
    assert.equal(claimed.source.trust, 'high');
    await sync(b);
    const onB = await trustOn(b);
    assert.deepEqual(
      [onB[claimed.id], onB[low.id], onB[plain.id]],
      ['medium', 'low', 'medium'],
      'the hub may not raise a Record above what a Record written without a trust gets',
    );
    assert.equal((await b.client.getRecord('ana', claimed.id)).source.name, 'bank');
  });

  it("keeps a device's own trust on that device, and caps it on the device that pulls it", async () => {
    const own = (
      await a.client.rememberRecord('ana', {
        content: 'My passport expires in 2031.',
        source: { name: 'Mnemo app', trust: 'high' },
      })
    ).record;
    await sync(a);
    await sync(b);
    await sync(a);
    assert.equal((await trustOn(a))[own.id], 'high');
    assert.equal((await trustOn(b))[own.id], 'medium');
    // Pulled once and capped, it is not written again on a later run.
    const pulled = (await b.client.getSync('ana')).pulled;
    await sync(b);
    assert.equal((await b.client.getSync('ana')).pulled, pulled);
  });
});
