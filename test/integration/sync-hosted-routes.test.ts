import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordReplica } from '../../engine/contract/index.ts';
import { createServer } from 'node:http';
import { createMnemoClient, MnemoApiError } from '../../server/client/index.ts';
import { onLoopback, startNode, tempRoot, type Node } from './sync-helpers.ts';

const replica = (
  id: string,
  text: string,
  visibility: RecordReplica['visibility'] = 'shareable',
): RecordReplica => ({
  id,
  content: { kind: 'message', text, speaker: 'Ana' },
  visibility,
  occurred_at: '2024-05-01T12:00:00.000Z',
});

async function refused(p: Promise<unknown>): Promise<MnemoApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MnemoApiError) return e;
    throw e;
  }
  assert.fail('expected an error');
}

describe('the replication routes and the Record change feed of a hosted server', () => {
  const { root, remove } = tempRoot();
  let h: Node;
  before(async () => {
    h = await startNode(root, 'h', { deployment: 'hosted' });
    await h.client.createBrain({ id: 'shared' });
  });
  after(async () => {
    await h.stop();
    remove();
  });

  it('writes a Record under its own id once, and says when an id holds other content', async () => {
    const id = 'rec_01M8GA4DNAKFBAD9VVVCSJ3164';
    const first = await h.client.replicateRecords('shared', [replica(id, 'I moved to Porto.')]);
    assert.deepEqual(first.data, [{ id, outcome: 'created' }]);
    const again = await h.client.replicateRecords('shared', [replica(id, 'I moved to Porto.')]);
    assert.deepEqual(again.data, [{ id, outcome: 'unchanged' }]);
    const other = await h.client.replicateRecords('shared', [replica(id, 'I moved to Braga.')]);
    assert.deepEqual(other.data, [{ id, outcome: 'conflict' }]);
    const record = await h.client.getRecord('shared', id);
    assert.equal(record.occurred_at, '2024-05-01T12:00:00.000Z');
    assert.deepEqual(record.content, { kind: 'message', text: 'I moved to Porto.', speaker: 'Ana' });
  });

  it('refuses the sync routes to a key without their scope or bound to another Brain', async () => {
    const clientOf = (key: string) => createMnemoClient({ baseUrl: h.server.url, apiKey: key });
    const readOnly = clientOf(
      (await h.server.registry!.create({ env: 'test', project: 'home', scopes: ['records:read'] })).key,
    );
    const writeRefused = await refused(
      readOnly.replicateRecords('shared', [replica('rec_01M8GA4DNAKFBAD9VVVCSJ3199', 'x')]),
    );
    assert.equal(writeRefused.code, 'missing_scope');
    assert.match(writeRefused.message, /records:write/);
    const bound = clientOf(
      (await h.server.registry!.create({ env: 'test', project: 'home', brain: 'elsewhere' })).key,
    );
    const hidden = await refused(
      bound.replicateRecords('shared', [replica('rec_01M8GA4DNAKFBAD9VVVCSJ3198', 'x')]),
    );
    assert.equal(hidden.code, 'brain_not_found');
    assert.equal(
      (await refused(bound.forgetReplicas('shared', ['rec_01M8GA4DNAKFBAD9VVVCSJ3198']))).code,
      'brain_not_found',
    );
    assert.equal(
      (await refused(h.client.getRecord('shared', 'rec_01M8GA4DNAKFBAD9VVVCSJ3198'))).code,
      'record_not_found',
    );
  });

  it('refuses a local_only Record with 403 local_only_record and writes nothing of the call', async () => {
    const ok = 'rec_01M8GA4DNAKFBAD9VVVCSJ3165';
    const e = await refused(
      h.client.replicateRecords('shared', [
        replica(ok, 'fine'),
        replica('rec_01M8GA4DNAKFBAD9VVVCSJ3166', 'PIN 1234', 'local_only'),
      ]),
    );
    assert.equal(e.status, 403);
    assert.equal(e.code, 'local_only_record');
    assert.equal((await refused(h.client.getRecord('shared', ok))).code, 'record_not_found');
  });

  it('refuses a correction without its target: its Memory id names a Memory of another side', async () => {
    const e = await refused(
      h.client.replicateRecords('shared', [
        {
          ...replica('rec_01M8GA4DNAKFBAD9VVVCSJ3167', 'x'),
          content: { kind: 'correction', corrects: 'mem_1' },
        } as never,
      ]),
    );
    assert.equal(e.code, 'invalid_request_body');
  });

  it('keeps a tombstone of every forgotten id: the id never comes back, also one it never held', async () => {
    const id = 'rec_01M8GA4DNAKFBAD9VVVCSJ3168';
    const never = 'rec_01M8GA4DNAKFBAD9VVVCSJ3169';
    await h.client.replicateRecords('shared', [replica(id, 'My dentist is Dr. Costa.')]);
    const receipt = await h.client.forgetReplicas('shared', [id, never]);
    assert.equal(receipt.forgotten, 1);
    const back = await h.client.replicateRecords('shared', [
      replica(id, 'My dentist is Dr. Costa.'),
      replica(never, 'anything'),
    ]);
    assert.deepEqual(
      back.data.map((d) => d.outcome),
      ['forgotten', 'forgotten'],
    );
    assert.equal((await refused(h.client.getRecord('shared', id))).code, 'record_not_found');
  });

  it('serves Records and removals in sequence order, a page at most limit of them, with a watermark to resume', async () => {
    await h.client.createBrain({ id: 'feed' });
    const ids = Array.from({ length: 5 }, (_, i) => `rec_01M8GB00000000000000000${i}A`);
    await h.client.replicateRecords(
      'feed',
      ids.map((id, i) => replica(id, `note ${i}`)),
    );
    await h.client.forgetReplicas('feed', [ids[1]!, ids[3]!]);
    const seen: string[] = [];
    const removed: string[] = [];
    let watermark = 'start';
    for (let pages = 0; ; pages += 1) {
      assert.ok(pages < 10);
      const page = await h.client.listRecords('feed', { since_watermark: watermark, limit: 2 });
      seen.push(...page.data.map((r) => r.id));
      removed.push(...(page.removed ?? []).map((r) => r.id));
      watermark = page.watermark!;
      if (!page.has_more) break;
    }
    assert.deepEqual(seen, [ids[0], ids[2], ids[4]]);
    assert.deepEqual(removed.sort(), [ids[1], ids[3]]);
    const empty = await h.client.listRecords('feed', { since_watermark: watermark });
    assert.deepEqual([empty.data, empty.removed, empty.has_more], [[], [], false]);
    await h.client.forgetReplicas('feed', [ids[0]!]);
    const next = await h.client.listRecords('feed', { since_watermark: watermark });
    assert.deepEqual(
      next.removed?.map((r) => r.id),
      [ids[0]],
    );
  });

  it('refuses a feed read with a filter or a cursor, and a watermark it did not issue', async () => {
    const mixed = await refused(h.client.listRecords('feed', { since_watermark: 'start', kind: 'message' }));
    assert.equal(mixed.code, 'conflicting_parameters');
    const forged = await refused(h.client.listRecords('feed', { since_watermark: 'wm_abc' }));
    assert.equal(forged.code, 'invalid_watermark');
  });

  it('refuses the device routes of sync to every key: a hosted server pairs with nothing', async () => {
    await h.client.createBrain({ id: 'device' });
    const admin = createMnemoClient({
      baseUrl: h.server.url,
      apiKey: await h.server.mintSessionKey('test admin'),
    });
    for (const client of [h.client, admin]) {
      for (const call of [
        () => client.getSync('device'),
        () => client.pairSync('device', { remote: 'http://127.0.0.1:9/v1', remote_key: 'sk_test_x_y' }),
        () => client.runSync('device'),
        () => client.unpairSync('device'),
      ]) {
        const e = await refused(call());
        assert.equal(e.status, 501);
        assert.equal(e.code, 'not_implemented');
        assert.match(e.message, /not served on a hosted deployment/);
      }
    }
  });
});

describe('the device routes of sync on a local server', () => {
  const { root, remove } = tempRoot();
  let d: Node;
  let h: Node;
  before(async () => {
    [d, h] = await Promise.all([startNode(root, 'd'), startNode(root, 'h', { deployment: 'hosted' })]);
    await d.client.createBrain({ id: 'device' });
    await d.client.createBrain({ id: 'other' });
  });
  after(async () => {
    await Promise.all([d.stop(), h.stop()]);
    remove();
  });
  const clientOf = async (o: {
    scopes?: ('records:read' | 'records:write')[];
    brain?: string;
    admin?: boolean;
  }) =>
    createMnemoClient({
      baseUrl: d.server.url,
      apiKey: (await d.server.registry!.create({ env: 'test', project: 'home', ...o })).key,
    });
  const pairing = () => ({ remote: h.server.url, remote_key: h.key });

  it('answers an unpaired Brain: not paired, and sync_not_paired to run', async () => {
    const s = await d.client.getSync('device');
    assert.equal(s.paired, false);
    assert.equal((await refused(d.client.runSync('device'))).code, 'sync_not_paired');
    const bad = await refused(
      d.client.pairSync('device', { remote: 'http://127.0.0.1:1/api', remote_key: 'sk_test_x_y' }),
    );
    assert.equal(bad.code, 'invalid_request_body');
    const plain = await refused(
      d.client.pairSync('device', { remote: 'http://mnemo.example.org/v1', remote_key: 'sk_test_x_y' }),
    );
    assert.equal(plain.status, 400);
    assert.equal(plain.code, 'invalid_request_body');
    assert.match(plain.message, /remote: must be https: plain http is for a loopback host only/);
    assert.equal((await d.client.getSync('device')).paired, false);
  });

  it('keeps a key the remote refuses later out of the status it reports', async () => {
    const { key, record } = await h.server.registry!.create({ env: 'test', project: 'home' });
    await d.client.pairSync('device', { remote: h.server.url, remote_key: key });
    await h.server.registry!.revoke(record.id);
    const s = await d.client.runSync('device');
    assert.match(s.last_error ?? '', /key_revoked/);
    assert.ok(!JSON.stringify(s).includes(key));
    await d.client.unpairSync('device');
  });

  it('lets a read-only key read the status and nothing else', async () => {
    const readOnly = await clientOf({ scopes: ['records:read'] });
    assert.equal((await readOnly.getSync('device')).paired, false);
    for (const call of [
      () => readOnly.pairSync('device', pairing()),
      () => readOnly.runSync('device'),
      () => readOnly.unpairSync('device'),
    ]) {
      const e = await refused(call());
      assert.equal(e.code, 'missing_scope');
      assert.match(e.message, /"records:write"/);
    }
    assert.equal((await d.client.getSync('device')).paired, false);
  });

  it('refuses to pair with a key that cannot read the Records pairing brings in and sends out', async () => {
    const writeOnly = await clientOf({ scopes: ['records:write'] });
    const e = await refused(writeOnly.pairSync('device', pairing()));
    assert.equal(e.code, 'missing_scope');
    assert.match(e.message, /"records:read" that pairSync/);
    assert.equal((await refused(writeOnly.getSync('device'))).code, 'missing_scope');
    assert.equal((await d.client.getSync('device')).paired, false);
    await d.client.pairSync('device', pairing());
    // Running and unpairing a pairing made by a key that reads and writes need records:write only.
    assert.equal((await writeOnly.runSync('device')).last_error, null);
    assert.equal((await writeOnly.unpairSync('device')).paired, false);
  });

  it("pairs only by the app's admin key, with a remote on this machine too", async () => {
    // hub.invalid never resolves: a refused pairing is refused before it is asked, an allowed one fails there.
    const beyond = { remote: 'https://hub.invalid/v1', remote_key: 'sk_live_elsewhere_secret' };
    // A listener on this machine that is no hub of the person's (another user's program, on a shared
    // machine): an agent's key must not point the Brain's Records at it.
    const heard: string[] = [];
    const squatter = await onLoopback(
      createServer((req, res) => {
        heard.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        res.writeHead(404).end();
      }),
    );
    try {
      const agent = await clientOf({});
      for (const remote of [beyond, { remote: squatter.url, remote_key: 'sk_live_x_caught' }, pairing()]) {
        const e = await refused(agent.pairSync('device', remote));
        assert.deepEqual([e.status, e.code], [403, 'http_403'], remote.remote);
        assert.match(e.message, /pairing a Brain needs the app's admin key .*mnemo keys create --admin/);
      }
      assert.deepEqual(heard, [], 'nothing was sent to the listener');
      assert.equal((await d.client.getSync('device')).paired, false);
      const person = await clientOf({ admin: true });
      const unreachable = await refused(person.pairSync('device', beyond));
      assert.equal(unreachable.code, 'sync_remote_unavailable');
      assert.equal((await person.pairSync('device', pairing())).paired, true);
      // Nor is a pairing in place moved by an agent.
      assert.equal((await refused(agent.pairSync('device', beyond))).code, 'http_403');
      assert.equal((await d.client.getSync('device')).remote, h.server.url);
      await d.client.unpairSync('device');
    } finally {
      await squatter.close();
    }
  });

  it('keeps a key bound to another Brain away from this one', async () => {
    const bound = await clientOf({ brain: 'other' });
    for (const call of [
      () => bound.getSync('device'),
      () => bound.pairSync('device', pairing()),
      () => bound.runSync('device'),
      () => bound.unpairSync('device'),
    ]) {
      assert.equal((await refused(call())).code, 'brain_not_found');
    }
    assert.equal((await d.client.getSync('device')).paired, false);
    assert.equal((await bound.getSync('other')).paired, false);
  });
});
