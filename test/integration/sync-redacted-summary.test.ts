// What a hosted Mnemo holds of "Summary only" Records after a device syncs them: the use round's three
// (use7, S1), which went up with the street, the landlord, the rent and the prescription as written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { escapeRegExp } from '../../engine/core/shared/escape-reg-exp.ts';
import { allRecords, startNode, storeText, tempRoot, type Node } from './sync-helpers.ts';

const keys =
  'Picked up the keys for Vlaška 17, 3rd floor, 10000 Zagreb; landlord Goran Babić, call him on 091 234 5678.';
const money = 'Marko and Lea argued about money; my rent is 850 EUR and my Infobip salary is 3,200 EUR.';
const health = 'Doctor Ivana Kovač prescribed sertraline 50 mg for anxiety.';
// A first name alone with no cue beside it, and a firm after "a call with", which is no one.
const back = 'Goran is back from Split after a call with Infobip.';
// Nothing of these is on the hub, in any table: not in its Records, Memories, or search indexes.
const secrets = [
  'Vlaška',
  '10000',
  'Goran',
  'Babić',
  '5678',
  '850',
  '3,200',
  'Kovač',
  'sertraline',
  'anxiety',
];

describe('redacted_summary Records on the hub after a sync', () => {
  const { root, remove } = tempRoot('mnemo-sync-summary-');
  let hub: Node;
  let device: Node;
  before(async () => {
    [hub, device] = await Promise.all([
      startNode(root, 'hub', { deployment: 'hosted' }),
      startNode(root, 'device', { sync: { debounceMs: 3_600_000, intervalMs: 3_600_000 } }),
    ]);
  });
  after(async () => {
    await Promise.all([hub, device].map((n) => n.stop().catch(() => {})));
    remove();
  });

  it('holds copies without addresses, unknown names, amounts or health; the health note is held back with why', async () => {
    await device.client.createBrain({ id: 'lea', self: { type: 'person', name: 'Lea Horvat' } });
    // Marko is known to the Brain as a speaker.
    await device.client.rememberRecord('lea', {
      content: { kind: 'message', speaker: 'Marko', text: 'I will bring the boxes.' },
    });
    const written: Record<string, string> = {};
    for (const text of [keys, money, health, back]) {
      const { record } = await device.client.rememberRecord('lea', {
        content: { kind: 'message', speaker: 'user', text },
        visibility: 'redacted_summary',
      });
      written[text] = record.id;
    }
    await device.client.pairSync('lea', { remote: hub.server.url, remote_key: hub.key });
    const status = await device.client.runSync('lea');
    assert.equal(status.last_error, null);
    assert.deepEqual([status.pushed, status.held_back], [4, 1]);
    assert.deepEqual(status.held_back_examples, [written[health]]);
    assert.equal(status.held_back_reasons.length, 1);
    assert.equal(status.held_back_reasons[0]!.record_id, written[health]);
    assert.match(status.held_back_reasons[0]!.reason ?? '', /^it speaks of health \(".+"\)/);

    const texts = (await allRecords(hub.client, 'lea'))
      .map((r) => (r.content as { text?: string }).text ?? '')
      .sort();
    assert.equal(texts.length, 4);
    assert.ok(texts.includes('I will bring the boxes.'));
    assert.ok(
      texts.some((t) =>
        /^Picked up the keys for \[address\] Zagreb; landlord \[person-\w{4}\], call him on \[phone\]\.$/.test(
          t,
        ),
      ),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) =>
        /^\[person-\w{4}\] and \[self\] argued about money; my rent is \[amount\] and my Infobip salary is \[amount\]\.$/.test(
          t,
        ),
      ),
      texts.join('\n'),
    );

    assert.ok(
      texts.some((t) => /^\[person-\w{4}\] is back from Split after a call with Infobip\.$/.test(t)),
      texts.join('\n'),
    );

    await hub.stop();
    const held = storeText(root, 'hub');
    // Each as a word of its own: a number's digits may sit inside a timestamp or an id by chance.
    const alone = (secret: string) =>
      new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(secret)}(?![\\p{L}\\p{N}])`, 'u');
    for (const secret of secrets)
      assert.ok(!alone(secret).test(held), `the hub holds ${JSON.stringify(secret)}`);
  });
});
