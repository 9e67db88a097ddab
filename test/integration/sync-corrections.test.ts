import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import {
  editStore,
  anaCurrent,
  anaSaying,
  convergeAna,
  hubAndTwoDevices,
  pairAnaOnBoth,
  syncOk,
  writeTo,
  type HubAndDevices,
  type Node,
} from './sync-helpers.ts';

describe('a correction of a Memory on a synced Brain', () => {
  let h: Node;
  let a: Node;
  let b: Node;
  let nodes: HubAndDevices;
  const write = (n: Node, body: RecordCreate) => writeTo(n, 'ana', body);
  const converge = () => convergeAna(nodes);
  const saying = (n: Node, what = 'lives in') => anaSaying(n, what);
  const current = (n: Node, what = 'lives in') => anaCurrent(n, what);
  const lives = (n: Node) => saying(n);
  const fact = (predicate: string, value: string): RecordCreate => ({
    content: { kind: 'fact', subject: 'Ana Lima', predicate, value },
  });

  const outcomeOf = async (n: Node, id: string) => (await n.client.getRecord('ana', id)).correction_outcome;

  before(async () => {
    nodes = await hubAndTwoDevices();
    ({ h, a, b } = nodes);
    await pairAnaOnBoth(nodes);
  });
  after(() => nodes.stop());

  it('reaches the hub and the other devices, each correcting its own Memory of the same Record', async () => {
    await write(a, { content: { kind: 'fact', subject: 'Ana Lima', predicate: 'lives in', value: 'Porto' } });
    await a.server.engine.idle();
    await converge();
    for (const n of [a, h, b]) assert.deepEqual(await current(n), ['Ana Lima lives in: Porto'], n.name);

    const [porto] = await lives(a);
    const fix = await write(a, {
      content: { kind: 'correction', corrects: porto!.id, statement: 'Ana Lima lives in Lisbon' },
    });
    const before = await a.client.getSync('ana');
    await converge();
    const after = await a.client.getSync('ana');
    assert.equal(after.skipped, before.skipped, 'the correction was not skipped');
    for (const n of [a, h, b]) assert.deepEqual(await current(n), ['Ana Lima lives in Lisbon'], n.name);
    // Each side's new version is its own Memory, in the lineage of its own Porto Memory, citing the
    // correction Record, which has the same id everywhere.
    for (const n of [h, b]) {
      const [lisbon] = await lives(n);
      const detail = await n.client.getMemory('ana', lisbon!.id);
      assert.ok(
        detail.evidence.some((e) => e.record_id === fix.id),
        `${n.name}: the new version cites the correction`,
      );
      assert.notEqual(lisbon!.id, (await lives(a))[0]!.id);
      // The Record is shown as it was written: its `corrects` names the Memory where it was.
      assert.deepEqual((await n.client.getRecord('ana', fix.id)).content, {
        kind: 'correction',
        corrects: porto!.id,
        statement: 'Ana Lima lives in Lisbon',
      });
    }
  });

  it('dated to hold from a later day, is scheduled from that day on every side', async () => {
    await write(a, { ...fact('studies at', 'the conservatory'), occurred_at: '2024-09-01T00:00:00Z' });
    await write(a, { ...fact('studies at', 'Nova'), occurred_at: '2026-03-01T10:00:00Z' });
    await a.server.engine.idle();
    await converge();
    const [nova] = await saying(a, 'studies at');
    assert.equal(nova?.statement, 'Ana Lima studies at: Nova');
    const start = '2099-09-15T00:00:00+01:00';
    const written = {
      kind: 'correction' as const,
      corrects: nova!.id,
      statement: 'Ana Lima studies at Nova',
      valid_from: start,
    };
    const fix = await write(a, { content: written });
    await converge();
    for (const n of [a, h, b]) {
      // Until then, what she studied at before holds; the corrected Memory never did.
      const [before] = await saying(n, 'studies at');
      assert.deepEqual(
        [before?.statement, before?.valid_to],
        ['Ana Lima studies at: the conservatory', start],
        n.name,
      );
      const later = (await n.client.listMemories('ana', { status: 'scheduled', limit: 100 })).data.filter(
        (m) => m.statement.includes('studies at'),
      );
      assert.deepEqual(
        later.map((m) => [m.statement, m.valid_from]),
        [['Ana Lima studies at Nova', start]],
        n.name,
      );
      assert.deepEqual((await n.client.getRecord('ana', fix.id)).content, written, n.name);
    }
  });

  it('travels back from the device that pulled it: a withdrawal there reaches the writer', async () => {
    const [lisbon] = await lives(b);
    await write(b, { content: { kind: 'correction', corrects: lisbon!.id, reason: 'not true' } });
    // Withdrawn, the corrected value leaves none in force (the Porto version stays superseded by it).
    assert.deepEqual(await current(b), []);
    await converge();
    for (const n of [a, h, b]) assert.deepEqual(await current(n), [], n.name);
  });

  it('comes back undone everywhere when the correction Record is forgotten where it was written', async () => {
    await write(a, fact('works at', 'the harbour'));
    await a.server.engine.idle();
    await converge();
    const [harbour] = await saying(a, 'works at');
    const fix = await write(a, {
      content: { kind: 'correction', corrects: harbour!.id, statement: 'Ana Lima works at the museum' },
    });
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'works at'), ['Ana Lima works at the museum'], n.name);
    await a.client.forgetRecord('ana', fix.id);
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'works at'), ['Ana Lima works at: the harbour'], n.name);
  });

  it('written by an agent on the hub, reaches the devices', async () => {
    await write(b, fact('sails', 'a dinghy'));
    await b.server.engine.idle();
    await converge();
    const [dinghy] = await saying(h, 'sails');
    await h.client.rememberRecord('ana', {
      content: { kind: 'correction', corrects: dinghy!.id, statement: 'Ana Lima sails a catamaran' },
    });
    await h.server.engine.idle();
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'sails'), ['Ana Lima sails a catamaran'], n.name);
  });

  it('made on both devices and on the hub at once, the one written last wins on every side', async () => {
    await write(a, fact('plays', 'the oboe'));
    await a.server.engine.idle();
    await converge();
    const [onA] = await saying(a, 'plays');
    const [onH] = await saying(h, 'plays');
    const [onB] = await saying(b, 'plays');
    // Each side corrects its own Memory before it hears of the others': B's is written last.
    const cello = await write(a, {
      content: { kind: 'correction', corrects: onA!.id, statement: 'Ana Lima plays the cello' },
      occurred_at: '2026-05-01T10:00:00Z',
    });
    const viola = await h.client.rememberRecord('ana', {
      content: { kind: 'correction', corrects: onH!.id, statement: 'Ana Lima plays the viola' },
      occurred_at: '2026-05-01T10:05:00Z',
    });
    const harp = await write(b, {
      content: { kind: 'correction', corrects: onB!.id, statement: 'Ana Lima plays the harp' },
      occurred_at: '2026-05-01T10:10:00Z',
    });
    await h.server.engine.idle();
    await converge();
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'plays'), ['Ana Lima plays the harp'], n.name);
    // On A, the viola went over A's own cello, then the harp over both.
    assert.equal((await outcomeOf(a, viola.record.id))?.state, 'applied');
    const last = await outcomeOf(a, harp.id);
    assert.equal(last?.state, 'applied');
    assert.match(
      last?.reason ?? '',
      new RegExp(`correction ${viola.record.id} .*written earlier than this one`),
    );
    assert.equal((await outcomeOf(h, cello.id))?.state, 'not_applied');
    assert.equal((await outcomeOf(b, cello.id))?.state, 'not_applied');
  });

  it('kept home by a version before corrections travelled, goes up on the first run after the upgrade', async () => {
    await write(a, fact('keeps', 'a rowing boat'));
    await write(a, {
      content: { kind: 'fact', subject: 'Ana Lima', predicate: 'has a bike lock code', value: '0451' },
      visibility: 'local_only',
    });
    await a.server.engine.idle();
    await converge();
    const [boat] = await saying(a, 'keeps');
    const [code] = await saying(a, 'bike lock code');
    const fix = await write(a, {
      content: { kind: 'correction', corrects: boat!.id, statement: 'Ana Lima keeps a sailing boat' },
    });
    // Its Memory rests on a local_only Record: it stays home now too.
    const home = await write(a, {
      content: { kind: 'correction', corrects: code!.id, statement: 'Ana Lima has a bike lock code 1234' },
    });
    // As a version that kept every correction home left them: the push cursor past them, each kept
    // home (skipped, so counted: the status counts the rows behind the cursor), under no rules of
    // which corrections travel.
    await a.stop();
    editStore(nodes.root, 'a', (db) => {
      for (const id of [fix.id, home.id])
        db.prepare(
          `INSERT OR REPLACE INTO sync_records (brain_uid, record_id, fate, remote_id, skipped_under)
           SELECT brain_uid, id, 'skipped', NULL, NULL FROM records WHERE id = ?`,
        ).run(id);
      db.prepare('UPDATE sync_pairings SET push_seq = (SELECT max(seq) FROM records WHERE id IN (?, ?))').run(
        fix.id,
        home.id,
      );
    });
    await a.restart();
    const before = await a.client.getSync('ana');
    assert.equal(before.pending, 2, 'both are offered again');
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'keeps'), ['Ana Lima keeps a sailing boat'], n.name);
    const after = await a.client.getSync('ana');
    assert.equal(after.pending, 0);
    assert.equal(after.pushed, before.pushed + 1);
    assert.equal(after.skipped, before.skipped - 1, 'the one that went up is no longer counted as skipped');
    for (const body of nodes.proxy.bodies) assert.ok(!body.includes('1234'), 'the one kept home stayed home');
    await converge();
    const later = await a.client.getSync('ana');
    assert.deepEqual([later.pending, later.skipped], [0, after.skipped], 'offered again once, not every run');
  });

  it('corrected again after an older version kept it home, both reach every side in the end', async () => {
    await write(a, fact('plays', 'the cello'));
    await a.server.engine.idle();
    await converge();
    const [cello] = await saying(a, 'plays');
    const first = await write(a, {
      content: { kind: 'correction', corrects: cello!.id, statement: 'Ana Lima plays the viola' },
    });
    // Kept home as by a version before corrections travelled, but under the rules of now for the moment,
    // so that the correction of its version goes up before it, as it did from a version in between.
    const keepHome = (rules: number | null) => {
      editStore(nodes.root, 'a', (db) => {
        db.prepare(
          `INSERT OR REPLACE INTO sync_records (brain_uid, record_id, fate, remote_id, skipped_under)
           SELECT brain_uid, id, 'skipped', NULL, ? FROM records WHERE id = ?`,
        ).run(rules, first.id);
        db.prepare(
          'UPDATE sync_pairings SET push_seq = max(push_seq, (SELECT seq FROM records WHERE id = ?))',
        ).run(first.id);
      });
    };
    await a.stop();
    keepHome(1);
    await a.restart();
    const [viola] = await saying(a, 'plays');
    const second = await write(a, {
      content: { kind: 'correction', corrects: viola!.id, statement: 'Ana Lima plays the violin' },
    });
    await converge();
    // Everywhere else, it names a Record that is not there yet: it waits, changing nothing.
    for (const n of [h, b]) {
      assert.deepEqual(await current(n, 'plays'), ['Ana Lima plays: the cello'], n.name);
      const o = (await n.client.getRecord('ana', second.id)).correction_outcome;
      assert.match(o?.reason ?? '', /applied once they arrive/, n.name);
    }
    await a.stop();
    keepHome(null);
    await a.restart();
    await converge();
    // The first went up now; the second, there already, is applied after it.
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'plays'), ['Ana Lima plays the violin'], n.name);
  });

  it('with the Record it corrected forgotten before the next run, still reaches every side', async () => {
    const fiat = await write(a, fact('drives', 'a red Fiat'));
    await a.server.engine.idle();
    await converge();
    const [said] = await saying(a, 'drives');
    await write(a, {
      content: { kind: 'correction', corrects: said!.id, statement: 'Ana Lima drives a blue Tesla' },
    });
    // Offline, say: the old Record goes before any run took the correction.
    await a.client.forgetRecord('ana', fiat.id);
    assert.deepEqual(await current(a, 'drives'), ['Ana Lima drives a blue Tesla']);
    const before = await a.client.getSync('ana');
    await converge();
    assert.equal((await a.client.getSync('ana')).skipped, before.skipped, 'the correction was kept home');
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'drives'), ['Ana Lima drives a blue Tesla'], n.name);
  });

  it('reaches a device that was away while the Record it corrected was forgotten', async () => {
    const horse = await write(a, fact('rides', 'a grey horse'));
    await a.server.engine.idle();
    await converge();
    const [said] = await saying(a, 'rides');
    const fix = await write(a, {
      content: { kind: 'correction', corrects: said!.id, statement: 'Ana Lima rides a black horse' },
    });
    await syncOk(a, 'ana');
    await a.client.forgetRecord('ana', horse.id);
    await syncOk(a, 'ana');
    // b pulls the correction and the removal in one page: what it corrected is gone by the time it is
    // derived, and its statement stands as on a and the hub.
    await converge();
    for (const n of [a, h, b])
      assert.deepEqual(await current(n, 'rides'), ['Ana Lima rides a black horse'], n.name);
    const o = (await b.client.getRecord('ana', fix.id)).correction_outcome;
    assert.equal(o?.matched_by, 'stated');
  });

  it('withdraws the Memory a Record it names brings when that Record comes after it', async () => {
    const chess = await write(a, {
      content: { kind: 'message', speaker: 'Ana Lima', text: 'I play chess.' },
    });
    await a.server.engine.idle();
    await converge();
    // A withdrawal of a Memory that cites the chess Record and one still to come to this hub (as a
    // Record a pull skipped reaches a device only when it reads the feed again after an upgrade).
    const later = 'rec_01M8TC00000000000000000001';
    const withdrawal = 'rec_01M8TC00000000000000000002';
    const cats = { kind: 'message' as const, speaker: 'Ana Lima', text: 'I keep two cats.' };
    await h.client.replicateRecords('ana', [
      {
        id: withdrawal,
        content: {
          kind: 'correction',
          corrects: 'mem_01M8TC00000000000000000003',
          target: { records: [chess.id, later].sort(), statement: 'I keep two cats.' },
        },
        visibility: 'shareable',
        occurred_at: new Date().toISOString(),
      },
    ]);
    await h.server.engine.idle();
    await converge();
    // Nothing of the chess Record says it: nothing withdrawn yet, anywhere.
    for (const n of [a, h, b]) assert.equal((await outcomeOf(n, withdrawal))?.state, 'not_applied', n.name);
    await h.client.replicateRecords('ana', [
      { id: later, content: cats, visibility: 'shareable', occurred_at: new Date().toISOString() },
    ]);
    await h.server.engine.idle();
    await converge();
    for (const n of [a, h, b]) {
      assert.deepEqual(await current(n, 'cats'), [], n.name);
      assert.equal((await outcomeOf(n, withdrawal))?.state, 'applied', n.name);
    }
  });

  it('stays home when its Memory rests on a local_only Record, and counts as skipped', async () => {
    const secret = 'CANARY-CORRECTION-51e2';
    await write(a, {
      content: { kind: 'fact', subject: 'Ana Lima', predicate: 'has a locker code', value: '1234' },
      visibility: 'local_only',
    });
    await a.server.engine.idle();
    const code = (await a.client.listMemories('ana', { limit: 100 })).data.find((m) =>
      m.statement.includes('locker code'),
    );
    assert.ok(code);
    await write(a, {
      content: { kind: 'correction', corrects: code.id, statement: `Ana Lima has a locker code ${secret}` },
    });
    const before = await a.client.getSync('ana');
    await converge();
    const after = await a.client.getSync('ana');
    assert.equal(after.skipped, before.skipped + 1);
    assert.equal(after.pending, 0);
    for (const body of nodes.proxy.bodies)
      assert.ok(!body.includes(secret), 'the correction reached the hub');
  });
});
