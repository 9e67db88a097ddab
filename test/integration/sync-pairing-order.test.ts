import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  fakeRemote,
  hubAnswer,
  startNode,
  tempRoot,
  within,
  type Answer,
  type Node,
} from './sync-helpers.ts';

/**
 * A remote whose check before pairing waits at its first request until `release()`: `reached` settles
 * once that request is in.
 */
async function slowRemote() {
  const remote = await fakeRemote();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const inCheck = new Promise<void>((r) => (reached = r));
  let first = true;
  const slow: Answer = (seen, res) => {
    if (!first) return hubAnswer(seen, res);
    first = false;
    reached();
    void released.then(() => hubAnswer(seen, res));
  };
  remote.answer = slow;
  return { remote, release, inCheck };
}

describe('pairing and unpairing a Brain take turns', () => {
  const { root, remove } = tempRoot('mnemo-sync-order-');
  let d: Node;
  before(async () => {
    d = await startNode(root, 'd');
    await d.client.createBrain({ id: 'ana' });
  });
  after(async () => {
    await d.stop();
    remove();
  });

  it('an unpair sent during a pairing’s check wins: the Brain ends unpaired', async () => {
    const { remote, release, inCheck } = await slowRemote();
    try {
      const pairing = d.client.pairSync('ana', { remote: remote.url, remote_key: 'sk_test_home_slow' });
      await within('the check’s first request', 5_000, inCheck);
      const unpairing = d.client.unpairSync('ana');
      // Let the unpair reach the server before the check goes on.
      await new Promise((r) => setTimeout(r, 200));
      release();
      const [paired, unpaired] = await Promise.all([pairing, unpairing]);
      assert.equal(paired.paired, true, 'the pairing sent first is made');
      assert.equal(unpaired.paired, false, 'and the unpair sent after it undoes it');
      assert.equal((await d.client.getSync('ana')).paired, false);
    } finally {
      await remote.close();
    }
  });

  it('of two pairings, the one sent last is kept, however long the first one’s check takes', async () => {
    const first = await slowRemote();
    const second = await fakeRemote();
    try {
      const a = d.client.pairSync('ana', { remote: first.remote.url, remote_key: 'sk_test_home_one' });
      await within('the first check’s first request', 5_000, first.inCheck);
      const b = d.client.pairSync('ana', { remote: second.url, remote_key: 'sk_test_home_two' });
      await new Promise((r) => setTimeout(r, 200));
      first.release();
      await Promise.all([a, b]);
      assert.equal((await d.client.getSync('ana')).remote, second.url);
      await d.client.unpairSync('ana');
    } finally {
      await Promise.all([first.remote.close(), second.close()]);
    }
  });
});
