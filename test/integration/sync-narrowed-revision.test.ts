import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordCreate, Visibility } from '../../engine/contract/index.ts';
import {
  allRecords,
  convergeAna,
  hubAndTwoDevices,
  pairAnaOnBoth,
  type HubAndDevices,
} from './sync-helpers.ts';

/** A note imported from a file: one item of the markdown source, at the visibility given. */
const note = (path: string, text: string, visibility: Visibility): RecordCreate => ({
  content: { kind: 'document', text, title: path },
  source: { name: 'markdown', external_id: path },
  visibility,
});

describe('an item written again with a narrower visibility on a synced Brain', () => {
  let nodes: HubAndDevices;
  before(async () => {
    nodes = await hubAndTwoDevices();
    await pairAnaOnBoth(nodes);
  });
  after(() => nodes.stop());

  const texts = async (n: HubAndDevices['h']) =>
    (await allRecords(n.client, 'ana')).map((r) => JSON.stringify(r.content));

  it('takes its earlier shareable revision back from the hub and the other device', async () => {
    const { h, a, b } = nodes;
    const text = 'Blood test results: cholesterol HIGHCHOL-277 mg/dL. Doctor: Dr. Ferreira.';
    const shared = (await a.client.rememberRecord('ana', note('health.md', text, 'shareable'))).record;
    await convergeAna(nodes);
    for (const n of [h, b])
      assert.ok(
        (await texts(n)).some((t) => t.includes('HIGHCHOL')),
        n.name,
      );

    const kept = (await a.client.rememberRecord('ana', note('health.md', text, 'local_only'))).record;
    await a.server.engine.idle();
    // On the device the item is the local_only revision alone: the shareable one is forgotten.
    await assert.rejects(a.client.getRecord('ana', shared.id), { code: 'record_not_found' });
    assert.equal((await a.client.getRecord('ana', kept.id)).visibility, 'local_only');

    await convergeAna(nodes);
    for (const n of [h, b])
      assert.deepEqual(
        (await texts(n)).filter((t) => t.includes('HIGHCHOL')),
        [],
        n.name,
      );
    const { context } = await h.client.createContext('ana', { query: 'cholesterol blood test' });
    assert.equal(context.status, 'ready');
    assert.doesNotMatch(context.status === 'ready' ? (context.text ?? '') : '', /HIGHCHOL/);
  });

  it('a shareable revision of another item, and one written again as shareable, stay', async () => {
    const { h, a } = nodes;
    const first = (
      await a.client.rememberRecord(
        'ana',
        note('recipes.md', 'Bolo de bolacha: 200 g Maria biscuits.', 'shareable'),
      )
    ).record;
    const second = (
      await a.client.rememberRecord(
        'ana',
        note('recipes.md', 'Bolo de bolacha: 250 g Maria biscuits.', 'shareable'),
      )
    ).record;
    await a.server.engine.idle();
    await convergeAna(nodes);
    for (const id of [first.id, second.id]) {
      assert.equal((await a.client.getRecord('ana', id)).id, id);
      assert.equal((await h.client.getRecord('ana', id)).id, id);
    }
  });
});
