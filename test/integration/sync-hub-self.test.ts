import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SelfEntity } from '../../engine/contract/index.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import { eventually } from '../contract/harness.ts';
import {
  fakeRemote,
  hubAnswer,
  owners,
  startNode,
  syncOk,
  tempRoot,
  writeTo,
  type Node,
} from './sync-helpers.ts';

/*
 * A desktop paired with a hosted Mnemo on PostgreSQL (PGlite), as use7 ran them: the hub's Brain is the
 * device's person's too, and tells whose words are whose by its self (docs/sync.md, "The self").
 */
const database = await pgliteDatabases({ migrated: true });
const lea: SelfEntity = { type: 'person', name: 'Lea Horvat' };

describe("a hub Brain takes the device Brain's self", () => {
  const { root, remove } = tempRoot('mnemo-hub-self-');
  let hub: Node;
  let desk: Node;
  before(async () => {
    [hub, desk] = await Promise.all([
      startNode(root, 'hub', {
        deployment: 'hosted',
        openDatabase: async (o) => postgresStorageOver(await database(), o),
      }),
      startNode(root, 'desk'),
    ]);
  });
  after(async () => {
    await Promise.all([hub, desk].map((n) => n?.stop().catch(() => {})));
    remove();
  });

  /** Brain `brain` on the desk, her self its self, paired with the hub's Brain of the same id. */
  const paired = async (brain: string) => {
    await desk.client.createBrain({ id: brain, self: lea });
    await desk.client.pairSync(brain, { remote: hub.server.url, remote_key: hub.key });
  };
  const run = async (brain: string) => {
    const s = await syncOk(desk, brain);
    await Promise.all([desk.server.engine.idle(), hub.server.engine.idle()]);
    return s;
  };

  it("the first run makes the hub's Brain with her self: her words and an agent's user's are hers there", async () => {
    await paired('first');
    await writeTo(desk, 'first', {
      content: { kind: 'message', speaker: 'Lea Horvat', text: 'I am allergic to hazelnuts.' },
    });
    await run('first');
    assert.deepEqual((await hub.client.getBrain('first')).self, lea);
    assert.deepEqual(await owners(hub, 'first', 'hazelnuts'), ['self: Lea Horvat']);
    // An agent of the hub's writes as the user: hers too, on the hub and, once pulled, here.
    await writeTo(hub, 'first', {
      content: { kind: 'message', speaker: 'user', text: 'I started a new job at Infobip.' },
    });
    await hub.server.engine.idle();
    await run('first');
    for (const n of [hub, desk]) assert.deepEqual(await owners(n, 'first', 'Infobip'), ['self: Lea Horvat']);
    const profile = await hub.client.getProfile('first');
    assert.ok(
      profile.lines.some((l) => l.statement.includes('hazelnuts')),
      JSON.stringify(profile.lines.map((l) => l.statement)),
    );
    // "Lea" names her, not the speaker of every message: a question about her cites her allergy alone.
    const { context: ctx } = await hub.client.createContext('first', { query: 'What is Lea allergic to?' });
    assert.deepEqual(
      ctx.citations.map((c) => c.quote),
      ['I am allergic to hazelnuts.'],
    );
  });

  it('a hub Brain made without a self gets hers at the next run, and what it held is derived again as hers', async () => {
    // Made by a device's first run before sync carried the self, and written to by an agent there.
    await hub.client.createBrain({ id: 'before' });
    await writeTo(hub, 'before', {
      content: { kind: 'message', speaker: 'Lea Horvat', text: 'I now live at Vlaška 17.' },
    });
    await writeTo(hub, 'before', {
      content: { kind: 'message', speaker: 'user', text: 'I love sailing.' },
    });
    await hub.server.engine.idle();
    assert.deepEqual(await owners(hub, 'before', 'Vlaška'), ['other: Lea Horvat']);
    assert.deepEqual(await owners(hub, 'before', 'sailing'), ['unresolved']);
    const held = (await hub.client.listMemories('before', { limit: 200 })).data.map((m) => m.id).sort();
    await paired('before');
    const status = await run('before');
    assert.equal(status.warning, null);
    assert.deepEqual((await hub.client.getBrain('before')).self, lea);
    await eventually('her Memories on the hub owned by her', async () =>
      (await owners(hub, 'before', 'Vlaška')).join() === 'self: Lea Horvat' &&
      (await owners(hub, 'before', 'sailing')).join() === 'self: Lea Horvat'
        ? true
        : null,
    );
    // Under the ids an agent of the hub's held: re-owned, not written anew.
    assert.deepEqual(
      (await hub.client.listMemories('before', { limit: 200 })).data.map((m) => m.id).sort(),
      held,
    );
  });

  it('a hub self that differs is left as it is, and the status says so until they agree', async () => {
    await hub.client.createBrain({ id: 'differs', self: { type: 'person', name: 'Lea H.' } });
    await paired('differs');
    const status = await run('differs');
    assert.equal(status.last_error, null);
    assert.match(status.warning ?? '', /"Lea H\." \(person\), this Brain's "Lea Horvat" \(person\)/);
    assert.deepEqual((await hub.client.getBrain('differs')).self, { type: 'person', name: 'Lea H.' });
    // Kept with the run's end: the status says it after the run too.
    assert.equal((await desk.client.getSync('differs')).warning, status.warning);
    await hub.client.updateBrain('differs', { self: lea });
    assert.equal((await run('differs')).warning, null);
  });

  it('a plan booked on the desk and moved on the hub: each side supersedes the same Memories', async () => {
    await paired('trip');
    await writeTo(desk, 'trip', {
      content: {
        kind: 'event',
        title: 'Flight to Lisbon with Marko',
        starts_at: '2026-12-12T08:00:00Z',
        ends_at: '2026-12-15T20:00:00Z',
        participants: ['Lea Horvat', 'Marko'],
      },
      occurred_at: '2026-11-26T10:00:00Z',
    });
    await writeTo(desk, 'trip', {
      content: {
        kind: 'message',
        speaker: 'Lea Horvat',
        text: 'Booked the trip to Lisbon with Marko for December 12 to 15.',
      },
      occurred_at: '2026-11-26T10:05:00Z',
    });
    await run('trip');
    await writeTo(hub, 'trip', {
      content: {
        kind: 'message',
        speaker: 'user',
        text: 'We moved the Lisbon trip: it is now January 9 to 12.',
      },
      occurred_at: '2026-12-03T09:00:00Z',
    });
    await hub.server.engine.idle();
    await run('trip');
    const superseded = async (n: Node) =>
      (await n.client.listMemories('trip', { status: 'superseded', limit: 50 })).data
        .map((m) => m.statement)
        .sort();
    const [onHub, onDesk] = [await superseded(hub), await superseded(desk)];
    assert.ok(onHub.length > 0, 'the move supersedes the plan it changes');
    assert.deepEqual(onHub, onDesk);
    // Both ways the plan was held: the booking she said and her calendar's event of it.
    for (const said of [/Booked the trip to Lisbon/u, /Flight to Lisbon/u])
      assert.ok(
        onHub.some((m) => said.test(m)),
        `${said} superseded: ${JSON.stringify(onHub)}`,
      );
  });

  it('a hosted Mnemo that refuses the self (older than updateBrain) is said, and the Records travel', async () => {
    const remote = await fakeRemote();
    try {
      remote.answer = (seen, res) =>
        seen.method === 'POST' && /^\/v1\/brains\/[^/]+$/.test(seen.path)
          ? res.writeHead(405, { 'content-type': 'application/json', allow: 'GET, DELETE' }).end(
              JSON.stringify({
                type: 'invalid_request',
                code: 'http_405',
                message: 'Method POST is not allowed here',
              }),
            )
          : hubAnswer(seen, res);
      await desk.client.createBrain({ id: 'older', self: lea });
      await writeTo(desk, 'older', { content: { kind: 'message', speaker: 'Lea Horvat', text: 'Hello.' } });
      await desk.client.pairSync('older', { remote: remote.url, remote_key: hub.key });
      const status = await syncOk(desk, 'older');
      assert.equal(status.pushed, 1);
      assert.match(
        status.warning ?? '',
        /refused \(POST \/v1\/brains\/older answered 405 http_405: a hosted Mnemo older/,
      );
      // Her self went with the request, and nothing of the key in the warning.
      const given = remote.seen.find((s) => s.method === 'POST' && s.path === '/v1/brains/older');
      assert.deepEqual(JSON.parse(given?.body ?? '{}'), { self: lea });
    } finally {
      await remote.close();
    }
  });
});
