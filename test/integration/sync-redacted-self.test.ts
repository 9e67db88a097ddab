// Whose a hosted Mnemo takes the "Summary only" Records of Lea's desktop for: an agent's message
// spoken by `user` is hers on the device, and went up spoken by a pseudonym, another person's; her
// mother's name typed in lower case went up as "snježana [self]", and a name joined to hers by a
// hyphen as "[self]-Kovačević". Each hub engine in turn: SQLite and PostgreSQL (PGlite), the device
// being the desktop's (SQLite).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  allRecords,
  hostedHubs,
  owners,
  startNode,
  syncOk,
  tempRoot,
  writeTo,
  type Node,
} from './sync-helpers.ts';

const hubs = await hostedHubs();

for (const [engine, options] of hubs)
  describe(`Lea's own redacted words, on a hub on ${engine}`, () => {
    const { root, remove } = tempRoot('mnemo-sync-redacted-self-');
    const nodes: Node[] = [];
    after(async () => {
      await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
      remove();
    });

    it('go up spoken by [self], hers on the hub as on the device, with "user" and "me" as words', async () => {
      const [hub, desk] = await Promise.all([startNode(root, 'hub', options), startNode(root, 'desk')]);
      nodes.push(hub, desk);
      await desk.client.createBrain({ id: 'lea', self: { type: 'person', name: 'Lea Horvat' } });
      // The speakers an agent and an import write for her, known to the store as every speaker is.
      for (const speaker of ['self', 'me'])
        await writeTo(desk, 'lea', {
          content: { kind: 'message', speaker, text: 'Good morning.' },
          visibility: 'local_only',
        });
      const said = 'I moved to Porto last week; the user asked me about self-care.';
      await writeTo(desk, 'lea', {
        content: { kind: 'message', speaker: 'user', text: said },
        visibility: 'redacted_summary',
      });
      await desk.server.engine.idle();
      await desk.client.pairSync('lea', { remote: hub.server.url, remote_key: hub.key });
      const status = await syncOk(desk, 'lea');
      assert.deepEqual([status.pushed, status.held_back], [1, 0]);
      await hub.server.engine.idle();

      const held = await allRecords(hub.client, 'lea');
      assert.deepEqual(
        held.map((r) => r.content),
        [{ kind: 'message', speaker: '[self]', text: said }],
      );
      assert.deepEqual(await owners(desk, 'lea', 'Porto'), ['self: Lea Horvat']);
      assert.deepEqual(await owners(hub, 'lea', 'Porto'), ['self: Lea Horvat']);
    });

    it("go up with her mother's name whole, in lower case too, and a name joined to hers held back", async () => {
      const [hub, desk] = await Promise.all([startNode(root, 'hub2', options), startNode(root, 'desk2')]);
      nodes.push(hub, desk);
      await desk.client.createBrain({ id: 'lea', self: { type: 'person', name: 'Lea Horvat' } });
      // Typed so on the desktop only: her mother shares her surname.
      await writeTo(desk, 'lea', {
        content: { kind: 'fact', subject: 'Lea Horvat', predicate: 'mother', value: 'snježana horvat' },
        visibility: 'local_only',
      });
      await writeTo(desk, 'lea', {
        content: { kind: 'fact', subject: 'snježana horvat', predicate: 'favourite colour', value: 'green' },
        visibility: 'redacted_summary',
      });
      const dinner = await writeTo(desk, 'lea', {
        content: {
          kind: 'event',
          title: 'Dinner at the Horvat-Kovačević place',
          participants: ['Lea Horvat'],
        },
        visibility: 'redacted_summary',
      });
      await desk.server.engine.idle();
      await desk.client.pairSync('lea', { remote: hub.server.url, remote_key: hub.key });
      const status = await syncOk(desk, 'lea');
      assert.deepEqual([status.pushed, status.held_back, status.held_back_examples], [1, 1, [dinner.id]]);
      assert.match(status.held_back_reasons[0]!.reason ?? '', /"Kovačević" beside it/);
      await hub.server.engine.idle();

      const held = await allRecords(hub.client, 'lea');
      assert.equal(held.length, 1);
      const { subject } = held[0]!.content as { subject: string };
      assert.match(subject, /^\[person-\w{4}\]$/u);
      assert.deepEqual(await owners(hub, 'lea', 'green'), [`other: ${subject}`]);
      for (const name of ['snje', 'Snje', 'orvat', 'Kova'])
        assert.ok(!JSON.stringify(held).includes(name), `the hub holds ${name}`);
    });
  });
