import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import type { MnemoRecord, RecordCreate } from '../../engine/contract/index.ts';
import { redactedCopyId } from '../../engine/local/sync/replica-id.ts';
import {
  allRecords,
  rawFiles,
  hubAndTwoDevices,
  storeText,
  syncOk,
  writeTo,
  type HubAndDevices,
  type Node,
} from './sync-helpers.ts';

const run = promisify(execFile);
const mnemo = join(import.meta.dirname, '..', '..', 'bin', 'mnemo.mjs');

const localCanary = 'CANARY-LOCAL-7f3a';
const redactedCanary = 'canary.redacted.9b1c@example.org';

const ids = (rs: MnemoRecord[]) => rs.map((r) => r.id).sort();
const shareable = (rs: MnemoRecord[]) => ids(rs.filter((r) => r.visibility === 'shareable'));

describe('two devices and a hosted Mnemo, each its own server and data dir', () => {
  let h: Node;
  let a: Node;
  let b: Node;
  let nodes: HubAndDevices;
  let proxy: HubAndDevices['proxy'];
  const write = (n: Node, body: RecordCreate) => writeTo(n, 'ana', body);
  const sync = (n: Node) => syncOk(n, 'ana');

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ h, a, b, proxy } = nodes);
    await a.client.createBrain({ id: 'ana', self: { type: 'person', name: 'Ana Lima' } });
    await b.client.createBrain({ id: 'ana', self: { type: 'person', name: 'Ana Lima' } });
  });
  after(() => nodes.stop());

  let porto: MnemoRecord;
  let redacted: MnemoRecord;

  it('pairs A through the CLI and B through the API; A and B converge on the shareable Records', async () => {
    porto = await write(a, {
      content: { kind: 'message', speaker: 'Ana Lima', text: 'I moved to Porto in 2021.' },
    });
    await write(a, { content: 'The boat is moored at pier 4.' });
    redacted = await write(a, {
      content: { kind: 'message', speaker: 'Bob Stone', text: `Mail me at ${redactedCanary}, Ana.` },
      visibility: 'redacted_summary',
    });
    await write(a, { content: `My PIN is ${localCanary}.`, visibility: 'local_only' });
    await write(a, { content: 'ping @bobby about the regatta', visibility: 'redacted_summary' });
    await write(b, { content: 'B remembers the sailing club meets on Fridays.' });

    const env = { ...process.env, MNEMO_URL: a.server.url, MNEMO_KEY: a.key, MNEMO_LOG: 'silent' };
    await run(
      process.execPath,
      [
        mnemo,
        'sync',
        'add',
        '--brain',
        'ana',
        '--remote',
        proxy.url,
        '--remote-brain',
        'shared',
        '--remote-key',
        h.key,
      ],
      { env },
    );
    await b.client.pairSync('ana', { remote: proxy.url, remote_brain: 'shared', remote_key: h.key });
    await sync(a);
    await sync(b);
    await sync(a);
    const { stdout } = await run(process.execPath, [mnemo, 'sync', 'status', '--brain', 'ana', '--json'], {
      env,
    });
    const status = JSON.parse(stdout) as Record<string, unknown>;
    assert.deepEqual(
      [status.remote, status.remote_brain, status.pending, status.pushed, status.pulled, status.held_back],
      [proxy.url, 'shared', 0, 3, 1, 1],
    );
    assert.ok(typeof status.last_success_at === 'string' && status.last_error === null);
    assert.ok(!stdout.includes(h.key), 'the status never shows the key');

    const onA = await allRecords(a.client, 'ana');
    const onB = await allRecords(b.client, 'ana');
    assert.deepEqual(shareable(onA), shareable(onB));
    assert.equal(shareable(onA).length, 3);
    const copy = onB.find((r) => r.id === redactedCopyId(redacted.id));
    assert.ok(copy, 'B holds the redacted copy');
    assert.doesNotMatch(JSON.stringify(copy.content), /canary|Bob|Stone|Ana/);
    assert.ok(!onB.some((r) => JSON.stringify(r.content).includes('@bobby')), 'held back');
    const texts = onB.map((r) => JSON.stringify([r.content, r.occurred_at]));
    assert.equal(new Set(texts).size, texts.length, 'no duplicates');
    // B derives its own Memories from what it pulled.
    await b.server.engine.idle();
    const ctx = await b.client.createContext('ana', { query: 'Where did I move?' });
    assert.ok(ctx.context.citations.some((c) => c.record_id === porto.id));
  });

  it('forgetting travels both ways, and the original takes its redacted copy', async () => {
    const pulledOnB = (await allRecords(b.client, 'ana')).find((r) => r.id === porto.id)!;
    await b.client.forgetRecord('ana', pulledOnB.id);
    await a.client.forgetRecord('ana', redacted.id);
    await sync(b);
    await sync(a);
    await sync(b);
    for (const n of [a, b]) {
      const left = ids(await allRecords(n.client, 'ana'));
      assert.ok(!left.includes(porto.id), `${n.name} forgot the Porto Record`);
      assert.ok(!left.includes(redactedCopyId(redacted.id)), `${n.name} holds no redacted copy`);
    }
    const onH = ids(await allRecords(h.client, 'shared'));
    assert.ok(!onH.includes(porto.id) && !onH.includes(redactedCopyId(redacted.id)));
    // A stale device sending the forgotten Record again is answered `forgotten`: it never comes back.
    const back = await h.client.replicateRecords('shared', [
      {
        id: porto.id,
        content: porto.content as never,
        visibility: 'shareable',
        occurred_at: porto.occurred_at,
      },
    ]);
    assert.equal(back.data[0]!.outcome, 'forgotten');
  });

  it('resumes after the remote was unreachable and after each server restarted', async () => {
    proxy.down = true;
    const late = await write(a, { content: 'Written while the hosted server was away.' });
    const failed = await a.client.runSync('ana');
    assert.ok(failed.last_error !== null && failed.pending === 1);
    await a.restart();
    await b.restart();
    await h.restart();
    proxy.down = false;
    await sync(a);
    await sync(b);
    assert.ok(ids(await allRecords(b.client, 'ana')).includes(late.id));
    const after = await a.client.getSync('ana');
    assert.equal(after.pending, 0);
  });

  it('removing an import travels as its ids, and a run cut by a stop resumes', async () => {
    const imported = [];
    for (let i = 0; i < 3; i += 1) {
      imported.push(
        await write(a, {
          content: { kind: 'document', title: `Note ${i}`, text: `Harbour note ${i}: the crane is blue.` },
          source: { name: 'notes', external_id: `notes:${i}` },
        }),
      );
    }
    // A run in flight when A stops is cut; the next start resumes it.
    const cut = a.client.runSync('ana').catch(() => null);
    await a.restart();
    await cut;
    await sync(a);
    await sync(b);
    const onB = ids(await allRecords(b.client, 'ana'));
    for (const r of imported) assert.ok(onB.includes(r.id), 'B holds the imported Records');
    await a.client.forgetSource('ana', 'notes');
    await sync(a);
    await sync(b);
    const left = ids(await allRecords(b.client, 'ana'));
    for (const r of imported) assert.ok(!left.includes(r.id), 'B forgot the removed import');
  });

  it('counts what a second Brain of the device cannot take from the hub Brain the first syncs with', async () => {
    // A Record id is unique across the device's store: those the first Brain holds are not written to
    // the second, which must not be told all went well while it received none of them.
    await a.client.createBrain({ id: 'ana-too', self: { type: 'person', name: 'Ana Lima' } });
    await a.client.pairSync('ana-too', { remote: proxy.url, remote_brain: 'shared', remote_key: h.key });
    const s = await syncOk(a, 'ana-too');
    const held = await allRecords(h.client, 'shared');
    assert.ok(s.skipped > 0);
    assert.equal(s.pulled + s.skipped, held.length, 'each of the hub Brain is pulled or counted');
    await a.client.unpairSync('ana-too');
  });

  it('never lets a local_only or unredacted redacted_summary canary reach the hosted server', async () => {
    assert.ok(proxy.bodies.length > 5);
    for (const body of proxy.bodies) {
      assert.ok(
        !body.includes(localCanary) && !body.includes(redactedCanary),
        'a request body held a canary',
      );
    }
    for (const r of await allRecords(h.client, 'shared')) {
      assert.ok(r.visibility !== 'local_only');
      assert.ok(!JSON.stringify(r).includes(redactedCanary));
    }
    await h.stop();
    const held = storeText(nodes.root, 'h');
    assert.ok(held.includes('pier 4'), 'the scan reads the decrypted store');
    assert.ok(!held.includes(localCanary) && !held.includes(redactedCanary), "a canary in H's store");
    const raw = rawFiles(h.dataDir);
    assert.ok(!raw.includes(localCanary) && !raw.includes(redactedCanary));
    await h.restart();
  });
});
