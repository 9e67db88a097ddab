import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SelfEntity } from '../../engine/contract/index.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import { formatStatus } from '../../server/cli/commands/sync.ts';
import { eventually } from '../contract/harness.ts';
import { owners, startNode, syncOk, tempRoot, writeTo, type Node } from './sync-helpers.ts';

/*
 * Two desktops and a hosted Mnemo on PostgreSQL (PGlite): a Brain's self goes down from the hub to a
 * device Brain that has none, as it goes up to a hub Brain that has none (docs/sync.md, "The self").
 */
const database = await pgliteDatabases({ migrated: true });
const lea: SelfEntity = { type: 'person', name: 'Lea Horvat' };

describe("a device Brain without a self takes its hub Brain's", () => {
  const { root, remove } = tempRoot('mnemo-device-self-');
  let hub: Node;
  let laptop: Node;
  let desk: Node;
  before(async () => {
    [hub, laptop, desk] = await Promise.all([
      startNode(root, 'hub', {
        deployment: 'hosted',
        openDatabase: async (o) => postgresStorageOver(await database(), o),
      }),
      startNode(root, 'laptop'),
      startNode(root, 'desk'),
    ]);
  });
  after(async () => {
    await Promise.all([hub, laptop, desk].map((n) => n?.stop().catch(() => {})));
    remove();
  });

  /** Brain `brain` on `n` (with `self`, when given), paired with the hub's Brain of the same id. */
  const paired = async (n: Node, brain: string, self?: SelfEntity) => {
    await n.client.createBrain({ id: brain, ...(self ? { self } : {}) });
    await n.client.pairSync(brain, { remote: hub.server.url, remote_key: hub.key });
  };
  const run = async (n: Node, brain: string) => {
    const s = await syncOk(n, brain);
    await Promise.all([n.server.engine.idle(), hub.server.engine.idle()]);
    return s;
  };

  it('a second device paired with the hub takes the self the first gave it, and reads her words as hers', async () => {
    await paired(laptop, 'ana', lea);
    await writeTo(laptop, 'ana', {
      content: { kind: 'message', speaker: 'Lea Horvat', text: 'I am allergic to hazelnuts.' },
    });
    await run(laptop, 'ana');
    assert.deepEqual((await hub.client.getBrain('ana')).self, lea);
    // The desk's Brain, made without a self, already holds a note of hers: nobody's until it has one.
    await desk.client.createBrain({ id: 'ana' });
    await writeTo(desk, 'ana', {
      content: { kind: 'message', speaker: 'user', text: 'I love sailing.' },
    });
    await desk.server.engine.idle();
    assert.deepEqual(await owners(desk, 'ana', 'sailing'), ['unresolved']);
    await desk.client.pairSync('ana', { remote: hub.server.url, remote_key: hub.key });
    const status = await run(desk, 'ana');
    assert.equal(status.warning, null);
    assert.equal(status.pulled, 1);
    assert.deepEqual((await desk.client.getBrain('ana')).self, lea);
    // Taken before the pull: what it pulled is hers at once, what it held is derived again as hers.
    assert.deepEqual(await owners(desk, 'ana', 'hazelnuts'), ['self: Lea Horvat']);
    await eventually('the note the desk held owned by her', async () =>
      (await owners(desk, 'ana', 'sailing')).join() === 'self: Lea Horvat' ? true : null,
    );
    // And it goes on: the hub's self stays as the laptop gave it, and no run says they differ.
    assert.deepEqual((await hub.client.getBrain('ana')).self, lea);
    assert.equal((await run(laptop, 'ana')).warning, null);
  });

  it('a self set on the hub with updateBrain reaches a device Brain that has none at its next run', async () => {
    await paired(laptop, 'bo');
    await run(laptop, 'bo');
    assert.equal((await hub.client.getBrain('bo')).self, null);
    assert.equal((await laptop.client.getBrain('bo')).self, null);
    await hub.client.updateBrain('bo', { self: lea });
    const status = await run(laptop, 'bo');
    assert.equal(status.warning, null);
    assert.deepEqual((await laptop.client.getBrain('bo')).self, lea);
  });

  it('where both have one and they differ, each keeps its own, and the status and the CLI say so', async () => {
    await paired(laptop, 'cy', { type: 'person', name: 'Lea H.' });
    await run(laptop, 'cy');
    await paired(desk, 'cy', lea);
    const status = await run(desk, 'cy');
    assert.deepEqual((await desk.client.getBrain('cy')).self, lea);
    assert.deepEqual((await hub.client.getBrain('cy')).self, { type: 'person', name: 'Lea H.' });
    assert.match(
      status.warning ?? '',
      /the hosted Brain "cy"'s self is "Lea H\." \(person\), this Brain's "Lea Horvat" \(person\); sync changes neither/,
    );
    // `mnemo sync status` shows the status as read after the run (the Sync panel shows the same field).
    const after = await desk.client.getSync('cy');
    assert.equal(after.warning, status.warning);
    assert.match(formatStatus(after), /^warning: the hosted Brain "cy"'s self is "Lea H\."/m);
  });
});
