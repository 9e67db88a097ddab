// What a hosted Mnemo holds of "Summary only" Records that say a date of birth, a password, a door's
// code and a home address in the shapes that went up as written: a fact whose predicate names a birth
// or a secret, and sentences with words between the cue and the date; and in the shapes near those
// ("to", "'s", an ordinal day, `lives in`).
// Each hub engine in turn: SQLite and PostgreSQL (PGlite), the device being the desktop's (SQLite).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { escapeRegExp } from '../../engine/core/shared/escape-reg-exp.ts';
import {
  allRecords,
  hostedHubs,
  startNode,
  storeText,
  syncOk,
  tempRoot,
  writeTo,
  type Node,
} from './sync-helpers.ts';

const hubs = await hostedHubs();

const fact = (predicate: string, value: string | number): RecordCreate['content'] => ({
  kind: 'fact',
  subject: 'Lea Horvat',
  predicate,
  value,
});
const message = (text: string): RecordCreate['content'] => ({ kind: 'message', speaker: 'user', text });
const summaries: RecordCreate['content'][] = [
  fact('date of birth', '1990-05-03'),
  fact('wifi password', 'Tr0ub4dor&3'),
  fact('door code', 48),
  message('My birthday is 3.5.1990 and my wifi password is Tr0ub4dor&3.'),
  message('I was born in Zagreb on 3 May 1990; the door code is 4 8 2 1.'),
  message('I live at 42 Ilica now.'),
  // Shapes near those.
  fact('lives in', '42 Ilica'),
  fact('gate', 48),
  message("I changed my password to hunter2; the gate code's 4821; I was born on the 3rd of May 1990."),
  // What a narrower reading of them let through.
  fact("mother's birthday", '3 May 1962'),
  message('The wifi password is lightning; lozinka je zeleni-konj-baterija; I live on 42 ilica.'),
];
// Nothing of these is on the hub: not in its Records, nor in its Memories (nor, on SQLite, any table).
const secrets = [
  '1990',
  'Tr0ub4dor',
  '48',
  '4 8 2 1',
  '3.5',
  '3 May',
  'Ilica',
  'hunter2',
  '4821',
  '3rd of May',
  '1962',
  'lightning',
  'zeleni',
  'ilica',
];
const alone = (secret: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(secret)}(?![\\p{L}\\p{N}])`, 'u');

for (const [engine, options] of hubs)
  describe(`a date of birth, secrets and an address said as the review found them, on a hub on ${engine}`, () => {
    const { root, remove } = tempRoot('mnemo-sync-secrets-');
    const nodes: Node[] = [];
    after(async () => {
      await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
      remove();
    });

    it('go up as [date], [secret] and [address], and the hub derives no date of birth', async () => {
      const [hub, desk] = await Promise.all([startNode(root, 'hub', options), startNode(root, 'desk')]);
      nodes.push(hub, desk);
      await desk.client.createBrain({ id: 'lea', self: { type: 'person', name: 'Lea Horvat' } });
      for (const content of summaries)
        await writeTo(desk, 'lea', { content, visibility: 'redacted_summary' });
      await desk.server.engine.idle();
      await desk.client.pairSync('lea', { remote: hub.server.url, remote_key: hub.key });
      const status = await syncOk(desk, 'lea');
      assert.deepEqual([status.pushed, status.held_back], [summaries.length, 0]);
      await hub.server.engine.idle();

      const held = (await allRecords(hub.client, 'lea')).map((r) => r.content);
      assert.deepEqual(
        held.flatMap((c) => (c.kind === 'fact' ? [`${c.predicate}: ${String(c.value)}`] : [])).sort(),
        [
          'date of birth: [date]',
          'door code: [secret]',
          'gate: [secret]',
          'lives in: [address]',
          "mother's birthday: [date]",
          'wifi password: [secret]',
        ],
      );
      const texts = held.flatMap((c) => (c.kind === 'message' ? [c.text] : [])).sort();
      assert.deepEqual(texts, [
        "I changed my password to [secret]; the gate code's [secret]; I was born on the [date].",
        'I live at [address] now.',
        'I was born in Zagreb on [date]; the door code is [secret].',
        'My birthday is [date] and my wifi password is [secret].',
        'The wifi password is [secret]; lozinka je [secret]; I live on [address].',
      ]);
      const statements = (await hub.client.listMemories('lea', { limit: 100 })).data.map((m) => m.statement);
      const said = JSON.stringify([held, statements]);
      for (const secret of secrets) assert.ok(!alone(secret).test(said), `the hub holds ${secret}: ${said}`);
      if (options.openDatabase) return;
      await hub.stop();
      const stored = storeText(root, 'hub');
      // Not the code of two digits: a time in a stored timestamp ("12:48") may hold it by chance.
      for (const secret of secrets.filter((s) => s.length > 2))
        assert.ok(!alone(secret).test(stored), `the hub's store holds ${JSON.stringify(secret)}`);
    });
  });
