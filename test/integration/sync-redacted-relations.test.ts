// What a hosted Mnemo holds of "Summary only" Records that name the people Lea's Brain knows by its
// slots alone: her wife, whose name no list of given names holds, and her dentist, by his surname. The
// rules for a name the Brain does not know let both go up as written. Each hub engine in turn: SQLite
// and PostgreSQL (PGlite), the device being the desktop's (SQLite).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { allRecords, hostedHubs, startNode, syncOk, tempRoot, writeTo, type Node } from './sync-helpers.ts';

const hubs = await hostedHubs();

// Said on the desktop only: what the Brain knows of them.
const known = ['My wife is Zvjezdana.', "Lea's dentist is Dr. Babić."];
// Sent up redacted. Neither name is a given name of the list, and no word around it says a person.
const summaries = [
  'Zvjezdana loved the coast.',
  'Babić will send the bill on Friday.',
  'Bought flowers for Zvjezdani, then paid Babiću.',
];

for (const [engine, options] of hubs)
  describe(`the people Lea's slots name, on a hub on ${engine}`, () => {
    const { root, remove } = tempRoot('mnemo-sync-relations-');
    const nodes: Node[] = [];
    after(async () => {
      await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
      remove();
    });

    it("goes up as pseudonyms: her wife's rare name and her dentist's surname, in their cases too", async () => {
      const [hub, desk] = await Promise.all([startNode(root, 'hub', options), startNode(root, 'desk')]);
      nodes.push(hub, desk);
      await desk.client.createBrain({ id: 'lea', self: { type: 'person', name: 'Lea Horvat' } });
      for (const text of known)
        await writeTo(desk, 'lea', {
          content: { kind: 'message', speaker: 'Lea Horvat', text },
          visibility: 'local_only',
        });
      for (const text of summaries)
        await writeTo(desk, 'lea', {
          content: { kind: 'message', speaker: 'Lea Horvat', text },
          visibility: 'redacted_summary',
        });
      await desk.server.engine.idle();
      await desk.client.pairSync('lea', { remote: hub.server.url, remote_key: hub.key });
      const status = await syncOk(desk, 'lea');
      assert.deepEqual([status.pushed, status.held_back], [3, 0]);

      const held = await allRecords(hub.client, 'lea');
      const texts = held.map((r) => (r.content as { text: string }).text);
      const tagOf = (re: RegExp) => texts.map((t) => re.exec(t)?.[1]).find((tag) => tag !== undefined);
      const wife = tagOf(/^(\[person-\w{4}\]) loved the coast\.$/u);
      const dentist = tagOf(/^(\[person-\w{4}\]) will send the bill on Friday\.$/u);
      assert.ok(wife && dentist && wife !== dentist, texts.join('\n'));
      // One person each, whatever the case: the same pseudonym in every copy.
      assert.ok(texts.includes(`Bought flowers for ${wife}, then paid ${dentist}.`), texts.join('\n'));
      for (const name of ['Zvjezdan', 'Babić', 'Babic'])
        assert.ok(!JSON.stringify(held).includes(name), `the hub holds ${name}`);
    });
  });
