import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  allRecords,
  fakeRemote,
  hubAnswer,
  json,
  startNode,
  tempRoot,
  type Node,
} from '../../test/integration/sync-helpers.ts';

describe('a Record pulled from a remote that names one of this device’s import sources', () => {
  const { root, remove } = tempRoot('mnemo-pulled-source-');
  const ctx = {} as { node: Node; remote: Awaited<ReturnType<typeof fakeRemote>> };
  before(async () => {
    ctx.node = await startNode(root, 'pulled-source');
    ctx.remote = await fakeRemote();
  });
  after(async () => {
    await ctx.remote.close();
    await ctx.node.stop();
    remove();
  });

  it('is no item of that import: erasable on its own, and left by the import’s removal', async () => {
    const { node, remote } = ctx;
    await node.client.createBrain({ id: 'lea' });
    const own = await node.client.rememberRecord('lea', {
      content: { kind: 'document', text: 'My own diary page.' },
      source: { name: 'obsidian', external_id: 'Diary/own.md' },
    });
    const injected = 'rec_01JINJECTED00000000000000';
    remote.answer = (seen, res) => {
      if (
        seen.method === 'GET' &&
        seen.path.endsWith('/records') &&
        seen.query.get('since_watermark') === 'start'
      )
        return json(res, {
          data: [
            {
              id: injected,
              object: 'record',
              content: { kind: 'document', text: 'A page the hub says is in the vault.' },
              source: { name: 'obsidian', external_id: 'Diary/2026-01-01.md' },
              visibility: 'shareable',
              occurred_at: '2026-01-01T00:00:00.000Z',
            },
          ],
          has_more: false,
          next_cursor: null,
          watermark: 'wm_1',
          removed: [],
        });
      hubAnswer(seen, res);
    };
    await node.client.pairSync('lea', { remote: remote.url, remote_key: 'sk_test_hub_secret' });
    assert.equal((await node.client.runSync('lea')).pulled, 1);

    const pulled = await node.client.getRecord('lea', injected);
    assert.deepEqual([pulled.source.name, pulled.erasable], ['obsidian', true]);
    assert.equal((await node.client.getRecord('lea', own.record.id)).erasable, false);
    const sources = (await node.client.listSources('lea')).data;
    assert.deepEqual(
      sources.map((s) => [s.name, s.records]),
      [['obsidian', 1]],
    );
    const receipt = await node.client.forgetSource('lea', 'obsidian');
    assert.equal(receipt.deleted.records, 1);
    assert.equal((await node.client.getRecord('lea', injected)).id, injected);
    await assert.rejects(node.client.forgetSource('lea', 'obsidian'), { code: 'source_not_found' });
    await node.client.forgetRecord('lea', injected);
    assert.deepEqual(await allRecords(node.client, 'lea'), []);
  });
});
