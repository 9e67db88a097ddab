import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MnemoRecord, RecordCreate, RecordPage } from '../../contract/index.ts';
import type { Engine, Tenant } from '../../types.ts';
import { createLocalEngine } from '../index.ts';
import { redactedCopyId } from './replica-id.ts';

const t: Tenant = { project: 'home', env: 'test' };

/** A local engine on a real store in a temp dir, closed and removed after the file. */
function engineFor(name: string): () => Engine {
  let engine: Engine;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), `mnemo-${name}-`));
    engine = await createLocalEngine({ dataDir: dir, dbKey: null, embedder: null, reranker: null });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => engine;
}

/** The whole change feed of a Brain, page by page. */
async function feed(engine: Engine, brainId: string, limit: number): Promise<RecordPage[]> {
  const pages: RecordPage[] = [];
  for (let watermark = 'start'; ;) {
    const page = await engine.listRecords(t, brainId, { since_watermark: watermark, limit });
    pages.push(page);
    watermark = page.watermark!;
    if (!page.has_more) return pages;
    assert.ok(pages.length < 100);
  }
}

/** Pairs Brain ana with a hub (no request is made: pairing only stores it) and answers the pairing. */
async function pairWithHub(sync: NonNullable<Engine['sync']>): Promise<string> {
  await sync.pair(t, 'ana', { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' });
  return (await sync.remoteOf(t, 'ana')).pairingId;
}

/** Writes a Record of `text` to Brain ana; its id. */
async function writeAna(
  e: Engine,
  text: string,
  visibility: 'shareable' | 'redacted_summary' | 'local_only' = 'shareable',
): Promise<string> {
  return (await e.rememberRecord(t, 'ana', { content: text, visibility }, {})).record.id;
}

/** Writes a fact of a person to a Brain (ana unless named). */
const writeFact = (e: Engine, subject: string, predicate: string, value: string, brain = 'ana') =>
  e.rememberRecord(t, brain, { content: { kind: 'fact', subject, predicate, value } }, {});

/** The text of each item of a Brain's outbox (ana unless named), by its local id. */
async function outboxTexts(e: Engine, brain = 'ana'): Promise<Map<string, string | undefined>> {
  return new Map(
    (await e.sync!.outbox(t, brain, 200)).items.map((i) => [
      i.localId,
      (i.replica.content as { text?: string }).text,
    ]),
  );
}

describe('the change feed of a device', () => {
  const engine = engineFor('feed');

  it('serves no local_only Record, on a local deployment too', async () => {
    const e = engine();
    await e.createBrain(t, { id: 'ana' });
    const written: Record<string, string> = {};
    for (const visibility of ['shareable', 'local_only', 'redacted_summary', 'local_only'] as const) {
      const { record } = await e.rememberRecord(
        t,
        'ana',
        { content: `a ${visibility} note`, visibility },
        {},
      );
      written[record.id] = visibility;
    }
    for (const limit of [1, 2, 200]) {
      const served = (await feed(e, 'ana', limit)).flatMap((p) => p.data.map((r) => r.id));
      assert.deepEqual(
        served.map((id) => written[id]),
        ['shareable', 'redacted_summary'],
        `pages of ${limit}`,
      );
    }
  });
});

describe('a sync run whose Brain is paired again or unpaired while it is in flight', () => {
  const engine = engineFor('repair');
  const first = { remote: 'https://hub-one.example.org/v1', remote_key: 'sk_test_home_one' };
  const second = { remote: 'https://hub-two.example.org/v1', remote_key: 'sk_test_home_two' };
  const feedPage = (watermark: string): RecordPage => ({
    data: [],
    has_more: false,
    next_cursor: null,
    watermark,
    removed: [],
  });

  it('writes no cursor, count or end into the pairing that replaced its own, and ends', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    for (const text of ['one', 'two', 'three']) await e.rememberRecord(t, 'ana', { content: text }, {});
    await sync.pair(t, 'ana', first);
    const old = await sync.remoteOf(t, 'ana');
    const batch = await sync.outbox(t, 'ana', 200);
    assert.equal(batch.items.length, 3);

    await sync.pair(t, 'ana', second);
    const now = await sync.remoteOf(t, 'ana');
    assert.notEqual(now.pairingId, old.pairingId);
    const outcomes = new Map(batch.items.map((i) => [i.replica.id, 'created' as const]));
    const ended = { code: 'sync_not_paired', message: /paired again or unpaired during this sync run/ };
    await assert.rejects(sync.markPushed(t, 'ana', old.pairingId, batch, outcomes), ended);
    await assert.rejects(
      sync.markTombstonesSent(t, 'ana', old.pairingId, { seq: 5, recordId: 'rec_x' }),
      ended,
    );
    await assert.rejects(sync.applyPulled(t, 'ana', old.pairingId, feedPage('wm_old')), ended);
    await sync.finishRun(t, 'ana', old.pairingId, { error: 'cut', catchingUp: false });

    const status = await sync.status(t, 'ana');
    assert.deepEqual(
      [status.remote, status.pending, status.pushed, status.last_error, status.last_attempt_at],
      [second.remote, 3, 0, null, null],
    );
    assert.equal((await sync.remoteOf(t, 'ana')).pullWatermark, null);
    // The new pairing's own run moves its cursors.
    await sync.markPushed(t, 'ana', now.pairingId, await sync.outbox(t, 'ana', 200), outcomes);
    assert.equal((await sync.status(t, 'ana')).pushed, 3);
  });

  it('writes nothing once its Brain is unpaired, nor into a pairing made again with the same hub', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'bob' });
    await e.rememberRecord(t, 'bob', { content: 'a note' }, {});
    await sync.pair(t, 'bob', first);
    const old = await sync.remoteOf(t, 'bob');
    const batch = await sync.outbox(t, 'bob', 200);
    await sync.unpair(t, 'bob');
    const outcomes = new Map(batch.items.map((i) => [i.replica.id, 'created' as const]));
    await assert.rejects(sync.markPushed(t, 'bob', old.pairingId, batch, outcomes), {
      code: 'sync_not_paired',
    });
    await sync.pair(t, 'bob', first);
    await assert.rejects(sync.markPushed(t, 'bob', old.pairingId, batch, outcomes), {
      code: 'sync_not_paired',
    });
    await assert.rejects(sync.applyPulled(t, 'bob', old.pairingId, feedPage('wm_old')), {
      code: 'sync_not_paired',
    });
    assert.equal((await sync.status(t, 'bob')).pending, 1);
    // A new key alone keeps the pairing, its cursors and a run of it.
    await sync.pair(t, 'bob', { ...first, remote_key: 'sk_test_home_rotated' });
    const kept = await sync.remoteOf(t, 'bob');
    await sync.markPushed(t, 'bob', kept.pairingId, batch, outcomes);
    assert.equal((await sync.status(t, 'bob')).pending, 0);
    // A key of another project reaches another Brain of that id: both cursors start again.
    await sync.pair(t, 'bob', { ...first, remote_key: 'sk_test_elsewhere_x' });
    const other = await sync.remoteOf(t, 'bob');
    assert.notEqual(other.pairingId, kept.pairingId);
    assert.equal((await sync.status(t, 'bob')).pending, 1);
  });
});

describe('the Records a device pulled, when its pairing starts over', () => {
  const engine = engineFor('pulled-again');

  it('are pushed to the new remote as they are, and not to the one they came from', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const pairingId = await pairWithHub(sync);
    const { record } = await e.rememberRecord(t, 'ana', { content: 'A shape to copy.' }, {});
    await e.forgetRecord(t, 'ana', record.id);
    const pulled = (id: string, visibility: 'shareable' | 'redacted_summary', text: string) =>
      ({ ...record, id, visibility, content: { kind: 'document', text } }) as RecordPage['data'][number];
    const page: RecordPage = {
      data: [
        pulled('rec_pulledshared', 'shareable', 'The ferry leaves at seven.'),
        pulled('rec_pulledcopy', 'redacted_summary', 'Call the plumber on [phone].'),
      ],
      has_more: false,
      next_cursor: null,
      watermark: 'wm_pulled',
      removed: [],
    };
    assert.deepEqual(await sync.applyPulled(t, 'ana', pairingId, page), {
      pulled: 2,
      skipped: 0,
      forgotten: 0,
      held: 0,
    });
    assert.equal((await sync.status(t, 'ana')).pending, 0);
    // A new key of the same project is the same pairing.
    await sync.pair(t, 'ana', { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_rotated' });
    assert.equal((await sync.status(t, 'ana')).pending, 0);

    await sync.pair(t, 'ana', { remote: 'https://other-hub.example.org/v1', remote_key: 'sk_test_home_y' });
    assert.equal((await sync.status(t, 'ana')).pending, 2);
    const batch = await sync.outbox(t, 'ana', 200);
    assert.deepEqual(
      batch.items.map((i) => [i.localId, i.replica.id, i.replica.visibility, i.replica.content]),
      [
        ['rec_pulledshared', 'rec_pulledshared', 'shareable', page.data[0]!.content],
        ['rec_pulledcopy', 'rec_pulledcopy', 'redacted_summary', page.data[1]!.content],
      ],
    );
  });
});

describe('a redacted_summary Record that did not go up as pushed', () => {
  const engine = engineFor('fates');

  it('is still named by its copy id: forgetting it sends the tombstone, and its copy is not pulled', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const conflicted = await writeAna(e, 'A quiet note.', 'redacted_summary');
    const heldBack = await writeAna(e, 'ping @bobby tomorrow', 'redacted_summary');
    const shared = await writeAna(e, 'The ferry leaves at seven.', 'shareable');
    const pairingId = await pairWithHub(sync);
    const batch = await sync.outbox(t, 'ana', 200);
    assert.deepEqual(
      batch.kept.map((k) => [k.localId, k.fate]),
      [[heldBack, 'held_back']],
    );
    const outcomes = new Map([
      [redactedCopyId(conflicted), 'conflict' as const],
      [shared, 'created' as const],
    ]);
    await sync.markPushed(t, 'ana', pairingId, batch, outcomes);
    assert.deepEqual((await sync.tombstonesToSend(t, 'ana', 1000)).ids, []);

    // The hub's copy of the held-back Record (pushed by an earlier build) comes back in its feed.
    const copy = { ...(await e.getRecord(t, 'ana', shared)), id: redactedCopyId(heldBack) };
    const pulled = await sync.applyPulled(t, 'ana', pairingId, {
      data: [copy],
      has_more: false,
      next_cursor: null,
      removed: [],
    });
    assert.equal(pulled.pulled, 0);

    for (const id of [conflicted, heldBack, shared]) await e.forgetRecord(t, 'ana', id);
    assert.deepEqual(
      (await sync.tombstonesToSend(t, 'ana', 1000)).ids.sort(),
      [redactedCopyId(conflicted), redactedCopyId(heldBack), shared].sort(),
    );
  });
});

describe('the Records the sync status names, held back and skipped', () => {
  const engine = engineFor('examples');
  const hub = { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' };
  const counted = async (e: Engine) => {
    const s = await e.sync!.status(t, 'ana');
    return { held_back: [s.held_back, s.held_back_examples], skipped: [s.skipped, s.skipped_examples] };
  };
  /** A batch of a run's push, of `limit` Records at most, each taken but those in `refused`. */
  const push = async (e: Engine, limit: number, refused: string[] = []) => {
    const { pairingId } = await e.sync!.remoteOf(t, 'ana');
    const batch = await e.sync!.outbox(t, 'ana', limit);
    const outcomes = new Map(
      batch.items.map((i) => [i.replica.id, refused.includes(i.localId) ? 'conflict' : 'created'] as const),
    );
    await e.sync!.markPushed(t, 'ana', pairingId, batch, outcomes);
  };

  it('are those the counts count, of this pairing: none from the one before, none forgotten', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const heldBack = [
      await writeAna(e, 'ping @bobby tomorrow', 'redacted_summary'),
      await writeAna(e, 'ping @carla tomorrow', 'redacted_summary'),
    ];
    await sync.pair(t, 'ana', hub);
    await push(e, 200);
    const { record } = await e.rememberRecord(t, 'ana', { content: 'A shape to copy.' }, {});
    await e.forgetRecord(t, 'ana', record.id);
    const pulled = (id: string) =>
      ({ ...record, id, content: { kind: 'document', text: `Pulled ${id}.` } }) as RecordPage['data'][number];
    const { pairingId } = await sync.remoteOf(t, 'ana');
    const page = { data: [pulled('rec_pulledkept'), pulled('rec_pulledgone')], has_more: false };
    await sync.applyPulled(t, 'ana', pairingId, { ...page, next_cursor: null, removed: [] });
    await e.forgetRecord(t, 'ana', 'rec_pulledgone');
    const both = [...heldBack].sort().reverse();
    assert.deepEqual(await counted(e), { held_back: [2, both], skipped: [0, []] });

    // Unpaired and paired again with the same hub and key, as QA did: a new pairing, whose push has
    // gone through the first Record so far.
    await sync.unpair(t, 'ana');
    await sync.pair(t, 'ana', hub);
    await push(e, 1);
    assert.deepEqual(await counted(e), { held_back: [1, [heldBack[0]]], skipped: [0, []] });

    const refused = await writeAna(e, 'The ferry leaves at seven.');
    await push(e, 200, [refused]);
    assert.deepEqual(await counted(e), { held_back: [2, both], skipped: [1, [refused]] });
  });
});

describe('a redacted_summary Record that speaks of health', () => {
  const engine = engineFor('special');

  it('is held back whole, and the status gives why with its id', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const health = await writeAna(
      e,
      'Doctor Ivana Kovač prescribed sertraline 50 mg for anxiety.',
      'redacted_summary',
    );
    const handle = await writeAna(e, 'ping @bobby tomorrow', 'redacted_summary');
    const rent = await writeAna(e, 'My rent is 850 EUR, landlord Goran Babić.', 'redacted_summary');
    const pairingId = await pairWithHub(sync);
    const batch = await sync.outbox(t, 'ana', 200);
    assert.deepEqual(
      batch.items.map((i) => i.localId),
      [rent],
    );
    assert.match(
      (batch.items[0]!.replica.content as { text: string }).text,
      /^My rent is \[amount\], landlord \[person-\w{4}\]\.$/,
    );
    await sync.markPushed(t, 'ana', pairingId, batch, new Map([[redactedCopyId(rent), 'created' as const]]));
    const status = await sync.status(t, 'ana');
    assert.deepEqual(status.held_back_examples, [health, handle].sort().reverse());
    assert.deepEqual(
      status.held_back_reasons.map((r) => [r.record_id, r.reason?.replace(/\("[^"]*"\)/u, '(…)')]),
      [
        [health, 'it speaks of health (…), which a redacted copy never carries'],
        [handle, 'an @ that is not part of an e-mail address (a handle?)'],
      ].sort((a, b) => (a[0]! < b[0]! ? 1 : -1)),
    );
  });
});

describe('a Record held back or skipped, once forgotten', () => {
  const engine = engineFor('examples-forgotten');

  it('leaves the count it was in, and is named no more', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const heldBack = await writeAna(e, 'ping @bobby tomorrow', 'redacted_summary');
    const [gone, kept] = [
      await writeAna(e, 'The ferry leaves at seven.'),
      await writeAna(e, 'I moved to Porto.'),
    ];
    await sync.pair(t, 'ana', { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' });
    const { pairingId } = await sync.remoteOf(t, 'ana');
    const batch = await sync.outbox(t, 'ana', 200);
    await sync.markPushed(t, 'ana', pairingId, batch, new Map([gone!, kept!].map((id) => [id, 'conflict'])));
    const status = await sync.status(t, 'ana');
    assert.deepEqual(
      [status.held_back, status.held_back_examples, status.skipped, status.skipped_examples],
      [1, [heldBack], 2, [gone!, kept!].sort().reverse()],
    );

    for (const id of [heldBack, gone!]) await e.forgetRecord(t, 'ana', id);
    const after = await sync.status(t, 'ana');
    assert.deepEqual(
      [after.held_back, after.held_back_examples, after.skipped, after.skipped_examples],
      [0, [], 1, [kept]],
    );
  });
});

describe('an answer to a push that names no outcome for a Record', () => {
  const engine = engineFor('unanswered');

  it('writes nothing: the batch stays pending, no Record counted as refused', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const answered = await writeAna(e, 'The ferry leaves at seven.', 'shareable');
    await writeAna(e, 'My dentist is Dr. Costa.', 'shareable');
    const pairingId = await pairWithHub(sync);
    const batch = await sync.outbox(t, 'ana', 200);
    await assert.rejects(
      sync.markPushed(t, 'ana', pairingId, batch, new Map([[answered, 'created' as const]])),
      /the remote gave no outcome for the Record rec_\w+; the batch stays pending/,
    );
    const status = await sync.status(t, 'ana');
    assert.deepEqual([status.pending, status.pushed, status.skipped], [2, 0, 0]);
  });
});

describe('a push whose answer was lost', () => {
  const engine = engineFor('lost');

  it('still sends the tombstone of a Record forgotten after it, and none of one that never left', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const shared = await writeAna(e, 'The ferry leaves at seven.', 'shareable');
    const summary = await writeAna(e, 'A quiet note.', 'redacted_summary');
    const home = await writeAna(e, 'The spare key is under the mat.', 'local_only');
    await pairWithHub(sync);
    // The batch went and the hub took it, but its answer never came: no markPushed.
    const batch = await sync.outbox(t, 'ana', 200);
    assert.deepEqual(batch.items.map((i) => i.localId).sort(), [shared, summary].sort());
    const later = await writeAna(e, 'Written after the batch.', 'shareable');
    for (const id of [shared, summary, home, later]) await e.forgetRecord(t, 'ana', id);
    assert.deepEqual(
      (await sync.tombstonesToSend(t, 'ana', 1000)).ids.sort(),
      [shared, redactedCopyId(summary)].sort(),
    );
  });
});

describe('the tombstones of a forgotten import', () => {
  const engine = engineFor('import-tombstones');

  it('go a request at a time within their one step, each kept as sent, and none again', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const chat: string[] = [];
    for (let i = 0; i < 5; i++)
      chat.push(
        (await e.rememberRecord(t, 'ana', { content: `Line ${i}`, source: { name: 'chat' } }, {})).record.id,
      );
    const home = await writeAna(e, 'The spare key is under the mat.', 'local_only');
    const pairingId = await pairWithHub(sync);
    const batch = await sync.outbox(t, 'ana', 200);
    await sync.markPushed(t, 'ana', pairingId, batch, new Map(chat.map((id) => [id, 'created' as const])));
    await e.forgetSource(t, 'ana', 'chat');
    await e.forgetRecord(t, 'ana', home);

    const sent: string[][] = [];
    for (;;) {
      const next = await sync.tombstonesToSend(t, 'ana', 2);
      if (!next.through) break;
      sent.push(next.ids);
      // Asked again before it is kept as sent (a run cut here), the same request goes again.
      assert.deepEqual((await sync.tombstonesToSend(t, 'ana', 2)).ids, next.ids);
      await sync.markTombstonesSent(t, 'ana', pairingId, next.through);
      assert.ok(sent.length < 10);
    }
    // By id within the step; the local_only Record, which never left, names nothing in the last.
    assert.deepEqual(sent, [chat.slice(0, 2), chat.slice(2, 4), chat.slice(4)]);
  });
});

describe('a page of the change feed', () => {
  const engine = engineFor('pull');

  it('is applied whole or not at all', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    await e.createBrain(t, { id: 'hub' });
    const gone = (await e.rememberRecord(t, 'ana', { content: 'Forgotten on the hub.' }, {})).record;
    const { record } = await e.rememberRecord(t, 'hub', { content: 'Written on another device.' }, {});
    await e.forgetRecord(t, 'hub', record.id);
    const pairingId = await pairWithHub(sync);
    // Pushed, so the hub knows it and may forget it.
    await sync.markPushed(
      t,
      'ana',
      pairingId,
      await sync.outbox(t, 'ana', 200),
      new Map([[gone.id, 'created' as const]]),
    );
    const page = (watermark: unknown): RecordPage => ({
      data: [record],
      has_more: false,
      next_cursor: null,
      watermark: watermark as string,
      removed: [{ id: gone.id, forgotten_at: '2024-05-01T12:00:00.000Z' }],
    });
    // The last write of the page (its watermark) fails: its Records and removals go with it.
    await assert.rejects(sync.applyPulled(t, 'ana', pairingId, page({ not: 'a watermark' })));
    assert.equal((await e.getRecord(t, 'ana', gone.id)).id, gone.id);
    await assert.rejects(e.getRecord(t, 'ana', record.id), { code: 'record_not_found' });
    assert.equal((await sync.status(t, 'ana')).pulled, 0);

    assert.deepEqual(await sync.applyPulled(t, 'ana', pairingId, page('wm_next')), {
      pulled: 1,
      skipped: 0,
      forgotten: 1,
      held: 0,
    });
    assert.equal((await sync.status(t, 'ana')).forgotten_by_remote, 1);
    assert.equal((await e.getRecord(t, 'ana', record.id)).id, record.id);
    await assert.rejects(e.getRecord(t, 'ana', gone.id), { code: 'record_not_found' });
    assert.equal((await sync.remoteOf(t, 'ana')).pullWatermark, 'wm_next');
  });
});

describe('a tombstone of a redacted copy this device pushed', () => {
  const engine = engineFor('copy-tombstone');

  it('forgets the Record the copy was made from', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const quiet = await writeAna(e, 'A quiet note.', 'redacted_summary');
    const kept = await writeAna(e, 'The ferry leaves at seven.');
    const pairingId = await pairWithHub(sync);
    const copyId = redactedCopyId(quiet);
    await sync.markPushed(
      t,
      'ana',
      pairingId,
      await sync.outbox(t, 'ana', 200),
      new Map([
        [copyId, 'created' as const],
        [kept, 'created' as const],
      ]),
    );
    // The hub forgot the copy (a person removed it there): its tombstone names the copy's id.
    const result = await sync.tombstones(t, 'ana', [copyId]);
    assert.equal(result.forgotten, 1);
    await assert.rejects(e.getRecord(t, 'ana', quiet), { code: 'record_not_found' });
    assert.equal((await e.getRecord(t, 'ana', kept)).id, kept, 'nothing else went');
  });
});

describe('a pulled page from a remote that may be buggy or hostile', () => {
  const engine = engineFor('pulled');

  it('writes only valid replicas, counting the rest as skipped, and redacts a redacted_summary one', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana', self: { type: 'person', name: 'Ana' } });
    const pairingId = await pairWithHub(sync);
    const { record } = await e.rememberRecord(t, 'ana', { content: 'A shape to copy.' }, {});
    type Pulled = RecordPage['data'][number];
    const at = (n: number, over: Record<string, unknown>): Pulled =>
      ({ ...record, id: `rec_pulled${n}`, ...over }) as unknown as Pulled;
    const page: RecordPage = {
      data: [
        at(1, { content: { kind: 'weird', text: 'x' } }),
        at(2, { occurred_at: 'not a date' }),
        at(3, { id: '../../etc' }),
        at(4, { kind: 'document', content: { kind: 'correction', statement: 'x', corrects: 'mem_1' } }),
        at(5, {
          content: { kind: 'document', text: 'Kept, without what this version does not know.', extra: 'x' },
        }),
        at(6, {
          visibility: 'redacted_summary',
          content: { kind: 'document', text: 'Write to Ana at ana@example.org or call +351 912 345 678.' },
        }),
        at(7, { visibility: 'redacted_summary', content: { kind: 'document', text: 'ping @bobby' } }),
        null as unknown as Pulled,
      ],
      has_more: false,
      next_cursor: null,
      watermark: 'wm_pulled',
      removed: [null, { id: 5 }, { id: '../x' }] as unknown as RecordPage['removed'],
    };
    assert.deepEqual(await sync.applyPulled(t, 'ana', pairingId, page), {
      pulled: 2,
      skipped: 6,
      forgotten: 0,
      held: 0,
    });
    assert.deepEqual((await e.getRecord(t, 'ana', 'rec_pulled5')).content, {
      kind: 'document',
      text: 'Kept, without what this version does not know.',
    });
    const redacted = (await e.getRecord(t, 'ana', 'rec_pulled6')).content as { text: string };
    assert.ok(!/ana@example|912 345|\bAna\b/.test(redacted.text), redacted.text);
    for (const n of [1, 2, 3, 4, 7])
      await assert.rejects(e.getRecord(t, 'ana', `rec_pulled${n}`), { code: 'record_not_found' });
    const status = await sync.status(t, 'ana');
    assert.equal(status.pulled, 2);
    assert.equal(status.skipped, 6);
  });
});

describe('a page of the feed read again', () => {
  const engine = engineFor('reread');

  it('writes only what was skipped: nothing already here, pushed from here, redacted or forgotten here', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana', self: { type: 'person', name: 'Ana' } });
    const pairingId = await pairWithHub(sync);
    const own = await writeAna(e, 'Written here and pushed.');
    const batch = await sync.outbox(t, 'ana', 200);
    await sync.markPushed(t, 'ana', pairingId, batch, new Map([[own, 'created' as const]]));
    const shape = await e.getRecord(t, 'ana', own);
    type Pulled = RecordPage['data'][number];
    const at = (id: string, over: Record<string, unknown>): Pulled =>
      ({ ...shape, id, ...over }) as unknown as Pulled;
    const odd = at('rec_pulledodd', { content: { kind: 'hologram', text: 'Of a kind to come.' } });
    const page = (data: Pulled[]): RecordPage => ({
      data,
      has_more: false,
      next_cursor: null,
      watermark: 'wm_pulled',
      removed: [],
    });
    const first = [
      shape as unknown as Pulled,
      at('rec_pulledkept', { content: { kind: 'document', text: 'The ferry leaves at seven.' } }),
      at('rec_pulledgone', { content: { kind: 'document', text: 'Forgotten here since.' } }),
      at('rec_pulledcopy', {
        visibility: 'redacted_summary',
        content: { kind: 'document', text: 'Write to Ana at ana@example.org.' },
      }),
      odd,
    ];
    assert.deepEqual(await sync.applyPulled(t, 'ana', pairingId, page(first)), {
      pulled: 3,
      skipped: 1,
      forgotten: 0,
      held: 0,
    });
    await e.forgetRecord(t, 'ana', 'rec_pulledgone');
    await e.idle();
    const records = async () => (await e.listRecords(t, 'ana', { limit: 100 })).data.map((r) => r.content);
    const memories = async () =>
      (await e.listMemories(t, 'ana', { limit: 100 })).data.map((m) => m.statement);
    const before = {
      records: await records(),
      memories: await memories(),
      status: await sync.status(t, 'ana'),
    };

    // Read again as a later version would, which takes the odd one now.
    const again = [
      ...first.slice(0, 4),
      at(odd.id, { content: { kind: 'document', text: 'Of a kind to come.' } }),
    ];
    assert.deepEqual(await sync.applyPulled(t, 'ana', pairingId, page(again), { reread: true }), {
      pulled: 1,
      skipped: 0,
      forgotten: 0,
      held: 0,
    });
    await e.idle();
    assert.deepEqual((await records()).length, before.records.length + 1);
    assert.deepEqual((await records()).slice(1), before.records, 'the odd one alone is new');
    assert.equal((await memories()).length, before.memories.length + 1);
    await assert.rejects(e.getRecord(t, 'ana', 'rec_pulledgone'), { code: 'record_not_found' });
    const status = await sync.status(t, 'ana');
    assert.deepEqual(
      [status.pulled, status.skipped, status.pending],
      [before.status.pulled + 1, before.status.skipped - 1, 0],
    );
    // And again: nothing more.
    assert.deepEqual(await sync.applyPulled(t, 'ana', pairingId, page(again), { reread: true }), {
      pulled: 0,
      skipped: 0,
      forgotten: 0,
      held: 0,
    });
    assert.deepEqual(
      [(await sync.status(t, 'ana')).pulled, (await sync.status(t, 'ana')).skipped],
      [status.pulled, status.skipped],
    );
  });
});

describe('the removals of a pulled page', () => {
  const engine = engineFor('pulled-removals');

  it('forget no Record that never left this device, whatever ids the remote names', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    const pushed = await writeAna(e, 'The ferry leaves at seven.');
    const pairingId = await pairWithHub(sync);
    await sync.markPushed(
      t,
      'ana',
      pairingId,
      await sync.outbox(t, 'ana', 200),
      new Map([[pushed, 'created' as const]]),
    );
    // Written after the push: never sent anywhere. Ids are time-ordered, so a hub that saw `pushed`
    // can guess those written next to it.
    const secret = await writeAna(e, 'My diary, for this device only.', 'local_only');
    const pending = await writeAna(e, 'Not pushed yet.');
    const removal = (id: string) => ({ id, forgotten_at: '2024-05-01T12:00:00.000Z' });
    await sync.applyPulled(t, 'ana', pairingId, {
      data: [],
      has_more: false,
      next_cursor: null,
      watermark: 'wm_removals',
      removed: [removal(secret), removal(pending), removal(pushed)],
    });
    assert.equal((await e.getRecord(t, 'ana', secret)).id, secret, 'the local_only Record stays');
    assert.equal((await e.getRecord(t, 'ana', pending)).id, pending, 'the unpushed Record stays');
    await assert.rejects(e.getRecord(t, 'ana', pushed), { code: 'record_not_found' });
    // And stays writable: no tombstone was left under its id.
    const listed = await e.listRecords(t, 'ana', { since_watermark: 'start', limit: 200 });
    assert.deepEqual(
      (listed.removed ?? []).map((r) => r.id),
      [pushed],
    );
  });
});

/** A page of one correction Record, whose target names `records` and `statement`. */
function correctionPage(id: string, records: string[], statement: string): RecordPage {
  return {
    data: [
      {
        id,
        object: 'record',
        status: 'ready',
        kind: 'correction',
        content: { kind: 'correction', corrects: 'mem_elsewhere', target: { records, statement } },
        source: { name: null, external_id: null, trust: 'medium' },
        visibility: 'shareable',
        erasable: true,
        occurred_at: '2026-01-01T00:00:00.000Z',
        memory_ids: [],
        created_at: '2026-01-01T00:00:00.000Z',
      } as unknown as RecordPage['data'][number],
    ],
    has_more: false,
    next_cursor: null,
    watermark: `wm_${id}`,
    removed: [],
  };
}

describe('a correction pulled from a remote', () => {
  const engine = engineFor('pulled-correction');
  /**
   * Brain `brain`, paired, holding `fact`; a correction pulled with id `pulledId` whose target names
   * that Record and its Memory's statement. What became of the Memory.
   */
  const afterPulledCorrection = async (
    brain: string,
    fact: { predicate: string; value: string; visibility: 'shareable' | 'local_only' | 'redacted_summary' },
    pulledId: string,
  ): Promise<string> => {
    const e = engine();
    await e.createBrain(t, { id: brain });
    await e.sync!.pair(t, brain, { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' });
    const pairingId = (await e.sync!.remoteOf(t, brain)).pairingId;
    const { record } = await e.rememberRecord(
      t,
      brain,
      {
        content: { kind: 'fact', subject: 'Ana', predicate: fact.predicate, value: fact.value },
        visibility: fact.visibility,
      },
      {},
    );
    await e.idle();
    const [m] = (await e.listMemories(t, brain, { limit: 50 })).data;
    const page = correctionPage(pulledId, [record.id], m!.statement);
    assert.deepEqual(await e.sync!.applyPulled(t, brain, pairingId, page), {
      pulled: 1,
      skipped: 0,
      forgotten: 0,
      held: 0,
    });
    await e.idle();
    return (await e.getMemory(t, brain, m!.id)).status;
  };

  it('withdraws this device’s Memory of the Records and statement its target names', async () => {
    const fact = { predicate: 'has a room number', value: '1234', visibility: 'shareable' } as const;
    assert.equal(await afterPulledCorrection('ana', fact, 'rec_01M8GA4DNAKFBAD9VVVCSJ3171'), 'retracted');
  });

  it('never corrects a Memory that rests on a local_only Record, whatever its target names', async () => {
    // A remote that guessed the local_only Record's id and its Memory's words.
    const fact = { predicate: 'has a locker code', value: '1234', visibility: 'local_only' } as const;
    assert.equal(await afterPulledCorrection('bea', fact, 'rec_01M8GA4DNAKFBAD9VVVCSJ3172'), 'active');
  });

  it('never corrects a Memory of a redacted_summary Record: only its copy, under another id, travelled', async () => {
    // A remote that guessed the original's id (ULIDs written together are near) and its Memory's words.
    const fact = { predicate: 'has a diagnosis', value: 'asthma', visibility: 'redacted_summary' } as const;
    assert.equal(await afterPulledCorrection('cai', fact, 'rec_01M8GA4DNAKFBAD9VVVCSJ3173'), 'active');
  });
});

describe('a correction pulled while its Memory waits to be derived again', () => {
  let engine: Engine;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnemo-pulled-correction-pending-'));
    // A forget's re-derivation waits a little, as a hosted one may: the correction's job comes first.
    engine = await createLocalEngine({
      dataDir: dir,
      dbKey: null,
      embedder: null,
      reranker: null,
      rederiveDelayMs: 300,
      deriveRetryDelaysMs: [600, 600],
    });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is applied once that Memory is derived again, not dropped', async () => {
    const e = engine;
    await e.createBrain(t, { id: 'ana' });
    const pairingId = await pairWithHub(e.sync!);
    const fact = { content: { kind: 'fact' as const, subject: 'Ana', predicate: 'has a desk', value: 'D4' } };
    const kept = (await e.rememberRecord(t, 'ana', fact, {})).record.id;
    const other = (await e.rememberRecord(t, 'ana', { ...fact, source: { name: 'second' } }, {})).record.id;
    await e.idle();
    const [m] = (await e.listMemories(t, 'ana', { limit: 50 })).data;
    assert.deepEqual([...m!.citations.map((c) => c.record_id)].sort(), [kept, other].sort());
    // One of its Records forgotten: the Memory rests on the other, pending re-derivation meanwhile.
    await e.forgetRecord(t, 'ana', other);
    const page = correctionPage('rec_01M8GA4DNAKFBAD9VVVCSJ3181', [kept], m!.statement);
    assert.deepEqual(await e.sync!.applyPulled(t, 'ana', pairingId, page), {
      pulled: 1,
      skipped: 0,
      forgotten: 0,
      held: 0,
    });
    for (let i = 0; i < 40; i++) {
      await e.idle();
      const current = (await e.listMemories(t, 'ana', { limit: 50, status: 'all' })).data;
      if (current.length > 0 && current.every((x) => x.status === 'retracted')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const after = (await e.listMemories(t, 'ana', { limit: 50, status: 'all' })).data;
    assert.deepEqual(
      after.map((x) => [x.statement, x.status]),
      [[m!.statement, 'retracted']],
    );
  });
});

describe('a correction pulled whose Memory this device words otherwise', () => {
  const engine = engineFor('pulled-correction-fallback');
  let n = 0;
  type Content = RecordCreate['content'];
  /**
   * A Brain of its own holding `beside` and then `content` (several: a day apart, in order), and a
   * correction pulled whose target names the Records of `content` and `corrected` (what the Memory said
   * where the correction was written), correcting it to `statement` (none: a withdrawal). What the
   * correction did here, the Memories in force after it, and where to read them.
   */
  const pulled = async (
    content: Content | Content[],
    corrected: string,
    statement?: string,
    beside: Content[] = [],
  ): Promise<{
    outcome: MnemoRecord['correction_outcome'];
    current: string[];
    before: string[];
    e: Engine;
    brain: string;
    records: string[];
  }> => {
    const e = engine();
    const brain = `fb${(n += 1)}`;
    await e.createBrain(t, { id: brain, self: { type: 'person', name: 'Ana' } });
    await e.sync!.pair(t, brain, { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' });
    const pairingId = (await e.sync!.remoteOf(t, brain)).pairingId;
    for (const c of beside) await e.rememberRecord(t, brain, { content: c }, {});
    const contents = Array.isArray(content) ? content : [content];
    const records: string[] = [];
    for (const [i, c] of contents.entries()) {
      const at = contents.length > 1 ? { occurred_at: `2026-03-0${i + 1}T12:00:00.000Z` } : {};
      records.push((await e.rememberRecord(t, brain, { content: c, ...at }, {})).record.id);
    }
    await e.idle();
    const said = async () =>
      (await e.listMemories(t, brain, { limit: 50 })).data.map((m) => m.statement).sort();
    const before = await said();
    const id = `rec_01M8GA4DNAKFBAD9VVVCSJ3${String(200 + n)}`;
    const page = correctionPage(id, records, corrected);
    const data = page.data[0]!.content as unknown as Record<string, unknown>;
    if (statement !== undefined) data.statement = statement;
    assert.deepEqual(await e.sync!.applyPulled(t, brain, pairingId, page), {
      pulled: 1,
      skipped: 0,
      forgotten: 0,
      held: 0,
    });
    await e.idle();
    const outcome = (await e.getRecord(t, brain, id)).correction_outcome;
    return { outcome, current: await said(), before, e, brain, records };
  };
  const ferry = {
    kind: 'message',
    speaker: 'Ana',
    text: 'The ferry to the island leaves at seven.',
  } as const;

  it('corrects the Memory saying it in the same words, and says so', async () => {
    const fact = { kind: 'fact', subject: 'Ana', predicate: 'lives in', value: 'Porto' } as const;
    const r = await pulled(fact, 'Ana lives in: Porto', 'Ana lives in Lisbon');
    assert.deepEqual(r.current, ['Ana lives in Lisbon']);
    assert.equal(r.outcome?.state, 'applied');
    assert.equal(r.outcome?.matched_by, 'statement');
  });

  it('corrects the Memory of its Records holding the slot the corrected statement names', async () => {
    // Another side's deriver worded the fact's Memory otherwise.
    const fact = { kind: 'fact', subject: 'Ana', predicate: 'lives in', value: 'Porto' } as const;
    const r = await pulled(fact, 'Ana lives in the old town of Porto', 'Ana lives in Lisbon');
    assert.deepEqual(r.before, ['Ana lives in: Porto']);
    assert.deepEqual(r.current, ['Ana lives in Lisbon']);
    assert.equal(r.outcome?.state, 'applied_by_fallback');
    assert.equal(r.outcome?.matched_by, 'slot');
    assert.match(r.outcome!.reason, /holds its slot/);
  });

  it('corrects the slot a message holds here where the other side kept the message whole', async () => {
    // The other side's rules did not read these slots yet: its Memory is the sentence as said.
    const moved = { kind: 'message', speaker: 'Ana', text: 'We moved to Lisbon.' } as const;
    const home = await pulled(moved, moved.text, 'We moved to Porto.');
    assert.deepEqual(home.before, ['Ana lives in Lisbon']);
    assert.deepEqual(home.current, ['We moved to Porto.'], 'the old home is no longer in force');
    assert.equal(home.outcome?.matched_by, 'slot');
    const typo = {
      kind: 'message',
      speaker: 'Ana',
      text: 'Sorry, my number is 555-0199, I had a typo',
    } as const;
    const phone = await pulled(typo, typo.text, "Ana's phone number is 555-0200");
    assert.deepEqual(phone.before, ["Ana's phone number is 555-0199"]);
    assert.deepEqual(phone.current, ["Ana's phone number is 555-0200"]);
    assert.equal(phone.outcome?.matched_by, 'slot');
  });

  it('corrects the Memory of its Records closest in words when none holds a slot it names', async () => {
    const r = await pulled(
      ferry,
      'The ferry to the island leaves at seven every day',
      'The ferry leaves at eight.',
    );
    assert.deepEqual(r.current, ['The ferry leaves at eight.']);
    assert.equal(r.outcome?.state, 'applied_by_fallback');
    assert.equal(r.outcome?.matched_by, 'closest_statement');
  });

  it('states its statement as a Memory of its own when no Memory of its Records matches', async () => {
    const r = await pulled(ferry, 'Ana takes a boat in the morning', 'Ana takes the bus in the morning');
    assert.deepEqual(r.current, ['Ana takes the bus in the morning', ferry.text]);
    assert.equal(r.outcome?.state, 'applied_by_fallback');
    assert.equal(r.outcome?.matched_by, 'stated');
    assert.ok(r.outcome?.memory_id);
  });

  it('states it owned as the rules here own its earliest Record: an event Ana takes part in is hers', async () => {
    // Another side (a hub's other engine) made one Memory of the dinner and Bob's message about it;
    // the rules here make one of each, owned apart (Ana's event, Bob's message): none to follow.
    const dinner: Content = { kind: 'event', title: 'Dinner at Casa Leão', participants: ['Ana', 'Bob'] };
    const note = { kind: 'message', speaker: 'Bob', text: 'See you at dinner on Friday.' } as const;
    const r = await pulled(
      [dinner, note],
      'Dinner at Casa Leão with Bob on Friday',
      'Dinner at Casa Leão with Bob is on Saturday',
    );
    assert.equal(r.outcome?.matched_by, 'stated');
    const stated = await r.e.getMemory(t, r.brain, r.outcome!.memory_id!);
    const [derived] = (await r.e.getRecord(t, r.brain, r.records[0]!)).memory_ids;
    const event = await r.e.getMemory(t, r.brain, derived!);
    assert.deepEqual(event.owner, { state: 'self', entity: 'Ana' });
    assert.deepEqual(
      { subject: stated.subject, owner: stated.owner },
      { subject: event.subject, owner: event.owner },
    );
  });

  it('cites the Memory here that says it already, owned as the rules own a message of no speaker', async () => {
    // A question is no Memory here; the other side kept it as one, and corrected it with what was said
    // here already: "Dinner is at eight." of nobody named (the rules' `unknown speaker`).
    const told = { kind: 'message', text: 'Dinner is at eight.' } as const;
    const asked = { kind: 'message', text: 'What time is dinner?' } as const;
    const r = await pulled(asked, 'What time is dinner?', 'Dinner is at eight.', [told]);
    assert.deepEqual(r.before, ['Dinner is at eight.']);
    assert.deepEqual(r.current, ['Dinner is at eight.'], 'one Memory, not the same twice');
    assert.equal(r.outcome?.matched_by, 'stated');
    assert.match(r.outcome!.reason, /says its statement already, and cites it/);
  });

  it('withdraws nothing it cannot match, and says why', async () => {
    const r = await pulled(ferry, 'Ana takes a boat in the morning');
    assert.deepEqual(r.current, [ferry.text]);
    assert.equal(r.outcome?.state, 'not_applied');
    assert.equal(r.outcome?.memory_id, null);
    assert.match(r.outcome!.reason, /nothing was withdrawn/);
  });
});

describe('a correction pulled before the correction it corrects', () => {
  const engine = engineFor('pulled-correction-order');

  it('waits for it, and is applied once it arrives', async () => {
    const e = engine();
    await e.createBrain(t, { id: 'ana' });
    const pairingId = await pairWithHub(e.sync!);
    const fact = { kind: 'fact' as const, subject: 'Ana', predicate: 'plays', value: 'the cello' };
    const { record } = await e.rememberRecord(t, 'ana', { content: fact }, {});
    await e.idle();
    const corrected = (id: string, records: string[], said: string, statement: string) => {
      const page = correctionPage(id, records, said);
      (page.data[0]!.content as unknown as Record<string, unknown>).statement = statement;
      return page;
    };
    const first = 'rec_01M8GA4DNAKFBAD9VVVCSJ3301';
    const second = 'rec_01M8GA4DNAKFBAD9VVVCSJ3302';
    // The second names the first's version (its Record), which another side kept home until now.
    await e.sync!.applyPulled(
      t,
      'ana',
      pairingId,
      corrected(second, [first], 'Ana plays the viola', 'Ana plays the violin'),
    );
    await e.idle();
    const waiting = (await e.getRecord(t, 'ana', second)).correction_outcome;
    assert.equal(waiting?.state, 'not_applied');
    assert.match(waiting!.reason, /applied once they arrive/);
    assert.deepEqual(
      (await e.listMemories(t, 'ana', { limit: 10 })).data.map((m) => m.statement),
      ['Ana plays: the cello'],
    );

    await e.sync!.applyPulled(
      t,
      'ana',
      pairingId,
      corrected(first, [record.id], 'Ana plays: the cello', 'Ana plays the viola'),
    );
    await e.idle();
    assert.deepEqual(
      (await e.listMemories(t, 'ana', { limit: 10 })).data.map((m) => m.statement),
      ['Ana plays the violin'],
    );
    assert.equal((await e.getRecord(t, 'ana', second)).correction_outcome?.state, 'applied');
    const history = (await e.listMemories(t, 'ana', { limit: 10, status: 'all' })).data.map(
      (m) => m.statement,
    );
    assert.deepEqual(history.sort(), ['Ana plays the viola', 'Ana plays the violin', 'Ana plays: the cello']);
  });
});

describe("a hub's self taken by a device Brain", () => {
  const engine = engineFor('take-self');
  const hub = { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' };
  const lea = { type: 'person', name: 'Lea Horvat' } as const;

  it('is taken only where the Brain has none: a self set meanwhile stays, and an old pairing takes none', async () => {
    const e = engine();
    const sync = e.sync!;
    await e.createBrain(t, { id: 'ana' });
    await sync.pair(t, 'ana', hub);
    const { pairingId } = await sync.remoteOf(t, 'ana');
    assert.equal(await sync.takeSelf(t, 'ana', pairingId, lea), true);
    assert.deepEqual((await e.getBrain(t, 'ana')).self, lea);
    // Set here between the run's look at the hub and its taking: the person's is kept.
    await e.updateBrain(t, 'ana', { self: { type: 'person', name: 'Ana' } });
    assert.equal(await sync.takeSelf(t, 'ana', pairingId, lea), false);
    assert.deepEqual((await e.getBrain(t, 'ana')).self, { type: 'person', name: 'Ana' });
    // A run of a pairing replaced meanwhile writes nothing into the Brain.
    await e.createBrain(t, { id: 'bob' });
    await sync.pair(t, 'bob', hub);
    const old = (await sync.remoteOf(t, 'bob')).pairingId;
    await sync.unpair(t, 'bob');
    await sync.pair(t, 'bob', hub);
    await assert.rejects(sync.takeSelf(t, 'bob', old, lea), { code: 'sync_not_paired' });
    assert.equal((await e.getBrain(t, 'bob')).self, null);
  });
});

describe("a redacted copy made with the Brain's homes and employers", () => {
  const engine = engineFor('places');

  it('keeps the names the Brain knows as no person, and reads them again once the Brain changed', async () => {
    const e = engine();
    await e.createBrain(t, { id: 'ana', self: { type: 'person', name: 'Lea Horvat' } });
    await writeFact(e, 'Lea Horvat', 'works at', 'Infobip');
    await writeFact(e, 'Lea Horvat', 'lives in', 'Zagreb, Croatia');
    // A firm with a given name, known as a friend's employer.
    await writeFact(e, 'Ana Kos', 'employer', 'Julia');
    await e.idle();
    const called = await writeAna(
      e,
      'Infobip called about the contract; Zagreb said no.',
      'redacted_summary',
    );
    const julia = await writeAna(e, 'A call with Julia about the invoice.', 'redacted_summary');
    const goran = await writeAna(e, 'Goranu sam rekao, s Goranom sam bio.', 'redacted_summary');
    const xiomara = await writeAna(e, 'Xiomara called; Xiomara said yes.', 'redacted_summary');
    await pairWithHub(e.sync!);
    const first = await outboxTexts(e);
    assert.equal(first.get(called), 'Infobip called about the contract; Zagreb said no.');
    assert.equal(first.get(julia), 'A call with Julia about the invoice.');
    assert.match(first.get(goran)!, /^(\[person-\w{4}\]) sam rekao, s \1 sam bio\.$/u);
    assert.match(first.get(xiomara)!, /^\[person-\w{4}\] called; \[person-\w{4}\] said yes\.$/u);

    // Learnt after the first batch (none of it pushed yet): the next batch knows it.
    await writeFact(e, 'Lea Horvat', 'works at', 'Xiomara');
    await e.idle();
    assert.equal((await outboxTexts(e)).get(xiomara), 'Xiomara called; Xiomara said yes.');
  });
});

describe("a redacted copy made with the people the Brain's slots name", () => {
  const engine = engineFor('relations');

  it('hides them, a partner said in her own words too, not a firm, and reads them again once the Brain changed', async () => {
    const e = engine();
    await e.createBrain(t, { id: 'ana', self: { type: 'person', name: 'Lea Horvat' } });
    // Her partner in words that say more than the name (the slot's Memory is the sentence), her
    // mother by an agent's fact, a friend's doctor that is a clinic.
    await writeAna(e, 'ljerka is my partner now, we met at work', 'local_only');
    await writeFact(e, 'Lea Horvat', 'mother', 'Svjetlana Perić');
    await writeFact(e, 'Ana Kos', 'doctor', 'Klinika Zrinski');
    await e.idle();
    const partner = await writeAna(e, 'Ljerka loved the coast.', 'redacted_summary');
    const mother = await writeAna(e, 'Perić brought a cake, Svjetlani sam zahvalila.', 'redacted_summary');
    const clinic = await writeAna(e, 'The bill from Klinika Zrinski came.', 'redacted_summary');
    const dentist = await writeAna(e, 'Zrinski will send the bill on Friday.', 'redacted_summary');
    await pairWithHub(e.sync!);
    const first = await outboxTexts(e);
    assert.match(first.get(partner)!, /^\[person-\w{4}\] loved the coast\.$/u);
    assert.match(first.get(mother)!, /^(\[person-\w{4}\]) brought a cake, \1 sam zahvalila\.$/u);
    assert.equal(first.get(clinic), 'The bill from Klinika Zrinski came.');
    assert.equal(first.get(dentist), 'Zrinski will send the bill on Friday.');

    // Learnt after the first batch (none of it pushed yet): the next batch knows it.
    await writeFact(e, 'Lea Horvat', 'dentist', 'Dr. Zrinski');
    await e.idle();
    assert.match((await outboxTexts(e)).get(dentist)!, /^\[person-\w{4}\] will send the bill on Friday\.$/u);
  });
});

describe("a redacted copy made with a person slot's value as written", () => {
  const engine = engineFor('relation-values');
  const hub = { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' };
  // Each row: a fact of Lea's, a text the rules for an unknown person's name leave as it is, and the
  // name in it that the fact makes a known person's. The names are missing from the given names.
  const rows: [predicate: string, value: string, text: string, name: string][] = [
    // A person beside a phone number or an age, and a list longer than an address.
    ['emergency_contact', 'Zvjezdana, +385 91 555 0101', 'Zvjezdana loved the coast.', 'Zvjezdana'],
    ['children', 'Ljerka, 12', 'Ljerka loved the coast.', 'Ljerka'],
    [
      'friends',
      'Tihana Babić, Nediljka Perić, Đurđa Zrinski, Svjetlana Gundulić, Zvjezdana Frankopan',
      'Đurđa loved the coast.',
      'Đurđa',
    ],
    ['children_names', 'Ljerka i Tihana', 'Tihana loved the coast.', 'Tihana'],
    // Roles written with the name asked for, a word before them, an accent.
    ['fiancée', 'Zvjezdana', 'Zvjezdana loved the coast.', 'Zvjezdana'],
    ['girlfriend_name', 'Zvjezdana', 'Zvjezdana loved the coast.', 'Zvjezdana'],
    ['mother_name', 'Nediljka', 'Nediljka loved the coast.', 'Nediljka'],
    ['son_name', 'Tihana Zrinski', 'Zrinski loved the coast.', 'Zrinski'],
    ['emergency_contact_name', 'Ljerka', 'Ljerka loved the coast.', 'Ljerka'],
    ['ex_wife', 'Svjetlana', 'Svjetlana loved the coast.', 'Svjetlana'],
    ['ex-wife', 'Đurđa', 'Đurđa loved the coast.', 'Đurđa'],
    ['ex_partner', 'Ljerka Frankopan', 'Frankopan loved the coast.', 'Frankopan'],
    ['twin_sister', 'Tihana', 'Tihana loved the coast.', 'Tihana'],
    ['half_brother', 'Gundulić', 'Gundulić loved the coast.', 'Gundulić'],
    ['godmother', 'Nediljka Babić', 'Babić loved the coast.', 'Babić'],
    ['next_of_kin', 'Perić', 'Perić loved the coast.', 'Perić'],
    ['teacher', 'Zvjezdana', 'Zvjezdana loved the coast.', 'Zvjezdana'],
    ['coach', 'Ljerka', 'Ljerka loved the coast.', 'Ljerka'],
    ["mother's name", 'Nediljka', 'Nediljka loved the coast.', 'Nediljka'],
    ['sister’s name', 'Svjetlana', 'Svjetlana loved the coast.', 'Svjetlana'],
    ['wife full name', 'Zvjezdana Frankopan', 'Frankopan loved the coast.', 'Frankopan'],
    ['partner', 'Ljerka (since 2019, met in Lisbon, Portugal)', 'Ljerka loved the coast.', 'Ljerka'],
    ['aunt', 'Aunt Tihana', 'Tihana loved the coast.', 'Tihana'],
    // Names in brackets, and names that are also words of kin or work elsewhere.
    ['children', 'two (Ljerka and Tihana)', 'Tihana loved the coast.', 'Tihana'],
    ['emergency_contact', 'Mom (Zvjezdana Frankopan)', 'Frankopan loved the coast.', 'Frankopan'],
    ['partner', 'Tia Frankopan', 'Tia loved the coast.', 'Tia'],
    ['friend', 'Ljerka Nurse', 'Nurse loved the coast.', 'Nurse'],
  ];

  it('hides each person a slot names, whatever else its value says and however its predicate is written', async () => {
    const e = engine();
    for (const [i, [predicate, value, text, name]] of rows.entries()) {
      const brain = `lea${i}`;
      await e.createBrain(t, { id: brain, self: { type: 'person', name: 'Lea Horvat' } });
      await e.sync!.pair(t, brain, hub);
      const said = (await e.rememberRecord(t, brain, { content: text, visibility: 'redacted_summary' }, {}))
        .record.id;
      assert.equal((await outboxTexts(e, brain)).get(said), text, `${predicate}: found without the slot`);
      await writeFact(e, 'Lea Horvat', predicate, value, brain);
      await e.idle();
      const copy = (await outboxTexts(e, brain)).get(said)!;
      assert.ok(!copy.includes(name), `${predicate}: ${name} went up in ${copy}`);
      assert.match(copy, /^\[person-\w{4}\] loved the coast\.$/u, predicate);
    }
  });

  it('takes no word a value says in place of a name, or beside one, for a person', async () => {
    const e = engine();
    const words: [predicate: string, value: string, text: string][] = [
      ['father', 'Dad (deceased)', 'My dad is fine and so is everyone.'],
      ['emergency_contact', 'Mom: 091 555 0101', 'My mom said hi to all of us.'],
      ['father_name', 'Unknown', 'The cause is Unknown to all of us.'],
      ['children_names', 'None', 'None of us came to the coast.'],
      ['relationship_status', 'Single', 'Single rooms cost more on the coast.'],
    ];
    for (const [i, [predicate, value, text]] of words.entries()) {
      const brain = `words${i}`;
      await e.createBrain(t, { id: brain, self: { type: 'person', name: 'Lea Horvat' } });
      await e.sync!.pair(t, brain, hub);
      const said = (await e.rememberRecord(t, brain, { content: text, visibility: 'redacted_summary' }, {}))
        .record.id;
      assert.equal((await outboxTexts(e, brain)).get(said), text, `${predicate}: before the slot`);
      await writeFact(e, 'Lea Horvat', predicate, value, brain);
      await e.idle();
      assert.equal((await outboxTexts(e, brain)).get(said), text, `${predicate}: ${value}`);
    }
  });
});

describe("the guard against a remote's mass forget", () => {
  let now = Date.parse('2026-03-02T10:00:00.000Z');
  let engine: Engine;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mnemo-forget-guard-'));
    const clock = () => new Date(now);
    engine = await createLocalEngine({ dataDir: dir, dbKey: null, embedder: null, reranker: null, clock });
  });
  after(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const hour = 3_600_000;

  /** A Brain of `n` Records, all pushed and taken; its pairing and their ids. */
  async function pushedBrain(brain: string, n: number): Promise<{ pairingId: string; ids: string[] }> {
    const sync = engine.sync!;
    await engine.createBrain(t, { id: brain });
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await engine.rememberRecord(t, brain, { content: `Note ${i} of ${brain}.` }, {})).record.id);
    await sync.pair(t, brain, { remote: 'https://hub.example.org/v1', remote_key: 'sk_test_home_x' });
    const { pairingId } = await sync.remoteOf(t, brain);
    const batch = await sync.outbox(t, brain, 200);
    await sync.markPushed(t, brain, pairingId, batch, new Map(ids.map((id) => [id, 'created' as const])));
    return { pairingId, ids };
  }
  /** Applies a feed page naming `ids` as removed there; what it forgot and held. */
  const removal = async (brain: string, pairingId: string, ids: string[]) => {
    const { forgotten, held } = await engine.sync!.applyPulled(t, brain, pairingId, {
      data: [],
      has_more: false,
      next_cursor: null,
      watermark: `wm_${now}`,
      removed: ids.map((id) => ({ id, forgotten_at: '2026-03-01T00:00:00.000Z' })),
    });
    return { forgotten, held };
  };

  it('counts a rolling day: the allowance spent late in one day is still spent early in the next', async () => {
    const { pairingId, ids } = await pushedBrain('roll', 80);
    assert.deepEqual(await removal('roll', pairingId, ids.slice(0, 1)), { forgotten: 1, held: 0 });
    now += 23 * hour + 30 * 60_000;
    assert.deepEqual(await removal('roll', pairingId, ids.slice(1, 25)), { forgotten: 24, held: 0 });
    // A day after the first forget, the 24 of half an hour ago still count: 49 is past 25 and 10%.
    now += hour;
    assert.deepEqual(await removal('roll', pairingId, ids.slice(25, 50)), { forgotten: 0, held: 25 });
    // Once the day has passed them all, and the person confirmed what was held, 25 more go.
    await engine.sync!.acceptForgets(t, 'roll', 25);
    now += 25 * hour;
    assert.deepEqual(await removal('roll', pairingId, ids.slice(50, 75)), { forgotten: 25, held: 0 });
  });

  it('gives the remote no fresh allowance when the person confirms what it held', async () => {
    const { pairingId, ids } = await pushedBrain('conf', 40);
    assert.deepEqual(await removal('conf', pairingId, ids.slice(0, 30)), { forgotten: 0, held: 30 });
    assert.equal(await engine.sync!.acceptForgets(t, 'conf', 30), 30);
    // What was confirmed counts in the day: one more forget right after it waits to be confirmed.
    assert.deepEqual(await removal('conf', pairingId, ids.slice(30, 31)), { forgotten: 0, held: 1 });
    const status = await engine.sync!.status(t, 'conf');
    assert.deepEqual([status.forgets_held, status.forgets_held_examples], [1, [ids[30]]]);
  });
});
