import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { redactedCopyId } from '../../engine/local/sync/replica-id.ts';
import {
  allRecords,
  hubAndTwoDevices,
  syncOk,
  writeTo,
  type HubAndDevices,
  type Node,
} from './sync-helpers.ts';

/** The ids of every tombstone request (`{"ids": [...]}`) that went through the proxy since `from`. */
function tombstonesSent(bodies: readonly string[], from = 0): string[] {
  return bodies.slice(from).flatMap((body) => {
    try {
      const parsed = JSON.parse(body) as { ids?: unknown };
      return Array.isArray(parsed.ids) ? (parsed.ids as string[]) : [];
    } catch {
      return [];
    }
  });
}

describe('a removal a device learnt from its hub', () => {
  let h: Node;
  let a: Node;
  let b: Node;
  let nodes: HubAndDevices;
  let proxy: HubAndDevices['proxy'];
  const write = (n: Node, body: RecordCreate) => writeTo(n, 'ana', body);
  const sync = (n: Node) => syncOk(n, 'ana');
  const held = async (n: Node) => (await allRecords(n.client, 'ana')).map((r) => r.id);

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ h, a, b, proxy } = nodes);
    for (const n of [a, b]) {
      await n.client.createBrain({ id: 'ana' });
      await n.client.pairSync('ana', { remote: proxy.url, remote_key: h.key });
    }
  });
  after(() => nodes.stop());

  it('is not sent back to the hub, by the device that wrote the Record or one that pulled it', async () => {
    const boat = await write(a, { content: 'The boat is moored at pier 4.' });
    const summary = await write(a, {
      content: 'The harbour fee is due in March.',
      visibility: 'redacted_summary',
    });
    await sync(a);
    await sync(b);
    assert.ok((await held(b)).includes(boat.id));

    // Forgotten on the hub (by another agent of the project): the Record, and the redacted copy.
    await h.client.forgetRecord('ana', boat.id);
    await h.client.forgetRecord('ana', redactedCopyId(summary.id));
    const from = proxy.bodies.length;
    // The first runs pull the removals and forget; the next ones would send them back.
    for (const n of [a, b, a, b]) await sync(n);
    for (const n of [a, b]) {
      const left = await held(n);
      assert.ok(!left.includes(boat.id) && !left.includes(summary.id), `${n.name} forgot them`);
    }
    assert.deepEqual(tombstonesSent(proxy.bodies, from), []);
    assert.equal((await a.client.getSync('ana')).pending, 0);
  });

  it('is not sent back when the hub answered a push `forgotten`', async () => {
    const early = await write(b, { content: 'A note the hub forgot before it arrived.' });
    // The hub forgets the id before the device pushes it (a tombstone wins forever there).
    await h.client.forgetReplicas('ana', [early.id]);
    const from = proxy.bodies.length;
    await sync(b);
    // Answered `forgotten` on its first send, then named in the feed's removals: it never travelled,
    // so neither forgets it here (docs/sync.md, "Forgets the remote asks for").
    assert.ok((await held(b)).includes(early.id), 'the device keeps what it never sent before');
    await sync(b);
    assert.deepEqual(tombstonesSent(proxy.bodies, from), []);
  });

  it('still leaves a forget done on a device to travel, of a Record it wrote or pulled', async () => {
    const own = await write(a, { content: 'The crane at the harbour is blue.' });
    const theirs = await write(a, { content: 'The sailing club meets on Fridays.' });
    await sync(a);
    await sync(b);
    await a.client.forgetRecord('ana', own.id);
    await b.client.forgetRecord('ana', theirs.id);
    const from = proxy.bodies.length;
    await sync(a);
    await sync(b);
    assert.deepEqual(tombstonesSent(proxy.bodies, from).sort(), [own.id, theirs.id].sort());
    const onH = (await allRecords(h.client, 'ana')).map((r) => r.id);
    assert.ok(!onH.includes(own.id) && !onH.includes(theirs.id));
    // And each device learns the other's forget, without sending it back.
    const back = proxy.bodies.length;
    for (const n of [a, b, a, b]) await sync(n);
    for (const n of [a, b]) {
      const left = await held(n);
      assert.ok(!left.includes(own.id) && !left.includes(theirs.id), `${n.name} forgot both`);
    }
    assert.deepEqual(tombstonesSent(proxy.bodies, back), []);
  });
});
