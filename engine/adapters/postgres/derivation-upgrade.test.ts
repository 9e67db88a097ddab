import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PgClient } from './client.ts';
import { pgUpgradeList } from './derivation-upgrade.ts';
import { addBrain, migratedDatabase, migratedPglite, recordRow, serverForTests } from './testing/fixtures.ts';
import { unitKilledMidway, waitForLockWaits } from './testing/lock-waits.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';

/*
 * The list of Records the derivation upgrade derives again, over PostgreSQL: listed once per deriver
 * whichever process asks, worked by several processes without a Record derived twice or lost. The
 * upgrade's rules over it run on both engines in test/integration/derivation-upgrade.test.ts.
 */

const db = await migratedPglite();

/** A Brain with Records `ids`, written in that order. */
async function brainWith(client: PgClient, uid: string, ids: string[]): Promise<number[]> {
  await addBrain(client, uid);
  return pgUnitsOfWork(client).write(uid, async (u) => {
    const ns: number[] = [];
    for (const id of ids) {
      await u.records.insert(recordRow(uid, id, await u.sequence.next()));
      ns.push((await u.records.get(id))!.n);
    }
    return ns;
  });
}

/** What a process running `deriver` finds listed. */
async function listedFor(client: PgClient, deriver: string) {
  const list = pgUpgradeList(client);
  await list.listFor(deriver);
  return (await list.page(0, 100)).map((p) => p.id);
}

describe('the derivation upgrade list over PostgreSQL', () => {
  it('lists every Record once per deriver, whichever process asks', async () => {
    const [a, b] = await brainWith(db, 'brn_l1', ['rec_a', 'rec_b', 'rec_c']);
    const first = pgUpgradeList(db);
    await first.listFor('rules-v1');
    const page = await first.page(0, 2);
    assert.deepEqual(page, [
      { n: a, brainUid: 'brn_l1', id: 'rec_a' },
      { n: b, brainUid: 'brn_l1', id: 'rec_b' },
    ]);
    assert.deepEqual(
      (await first.page(b!, 10)).map((p) => p.id),
      ['rec_c'],
      'the next page starts after the last',
    );
    // One Record done: another process of the same deriver does not list it again.
    await pgUnitsOfWork(db).write('brn_l1', (u) => first.within(u).unlist(a!));
    assert.deepEqual(await listedFor(db, 'rules-v1'), ['rec_b', 'rec_c']);
    // A new deriver lists them all.
    assert.deepEqual(await listedFor(db, 'rules-v2'), ['rec_a', 'rec_b', 'rec_c']);
    const meta = await db.query<{ value: string }>("SELECT value FROM mnemo_meta WHERE key = 'derived_by'");
    assert.deepEqual(meta.rows, [{ value: 'rules-v2' }]);
  });

  it('gives a process of an earlier deriver nothing of a later one, and takes nothing off', async () => {
    const [n] = await brainWith(db, 'brn_l2', ['rec_d']);
    // The earlier process listed for its own deriver at its start, before the later one.
    const earlier = pgUpgradeList(db);
    await earlier.listFor('rules-v3');
    const later = pgUpgradeList(db);
    await later.listFor('rules-v4');
    assert.ok((await later.page(0, 100)).some((p) => p.id === 'rec_d'));
    assert.deepEqual(await earlier.page(0, 100), []);
    await pgUnitsOfWork(db).write('brn_l2', async (u) => {
      assert.equal(await earlier.within(u).record(n!), undefined);
      await earlier.within(u).unlist(n!);
    });
    await earlier.unlist(n!);
    assert.ok(
      (await later.page(0, 100)).some((p) => p.id === 'rec_d'),
      'still listed for rules-v4',
    );
  });

  it('lists when the process starts: a Record it writes after is not listed, though its pass pages later', async () => {
    await brainWith(db, 'brn_l5', ['rec_h']);
    const list = pgUpgradeList(db);
    await list.listFor('rules-v7');
    // Written and derived by this process's own rules before its pass reads the list.
    await pgUnitsOfWork(db).write('brn_l5', async (u) =>
      u.records.insert(recordRow('brn_l5', 'rec_i', await u.sequence.next())),
    );
    assert.deepEqual(
      (await list.page(0, 1000)).filter((p) => p.brainUid === 'brn_l5').map((p) => p.id),
      ['rec_h'],
    );
  });

  it('reads a listed Record in a unit, and not once another unit took it off', async () => {
    const [n] = await brainWith(db, 'brn_l3', ['rec_e']);
    const one = pgUpgradeList(db);
    const two = pgUpgradeList(db);
    await one.listFor('rules-v5');
    await two.listFor('rules-v5');
    await one.page(0, 1);
    const units = pgUnitsOfWork(db);
    await units.write('brn_l3', async (u) => {
      const r = await one.within(u).record(n!);
      assert.deepEqual([r?.id, r?.brain_uid, r?.kind], ['rec_e', 'brn_l3', 'message']);
      await one.within(u).unlist(n!);
    });
    assert.equal(await units.write('brn_l3', (u) => two.within(u).record(n!)), undefined);
  });

  it('loses a forgotten Record from the list', async () => {
    await brainWith(db, 'brn_l4', ['rec_f', 'rec_g']);
    const list = pgUpgradeList(db);
    await list.listFor('rules-v6');
    await list.page(0, 1);
    await pgUnitsOfWork(db).write('brn_l4', (u) => u.records.remove(['rec_f']));
    const ids = (await list.page(0, 1000)).map((p) => p.id);
    assert.ok(ids.includes('rec_g') && !ids.includes('rec_f'), JSON.stringify(ids));
  });
});

const server = await serverForTests();
describe('the derivation upgrade list on a PostgreSQL server', { skip: server.skip }, () => {
  it('lists once when processes start together', async () => {
    const clients = await migratedDatabase(server.cluster(), 4, 2);
    await brainWith(clients[0]!, 'brn_s1', ['rec_a', 'rec_b']);
    // Counts the statements that list (one per listing, however many Records it lists).
    await clients[0]!.exec(`
      CREATE TABLE test_listings (at timestamptz DEFAULT clock_timestamp());
      CREATE FUNCTION test_count_listing() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO test_listings DEFAULT VALUES; RETURN NULL; END $$;
      CREATE TRIGGER derive_upgrade_listed AFTER INSERT ON derive_upgrade
      FOR EACH STATEMENT EXECUTE FUNCTION test_count_listing();`);
    const ids = await Promise.all(clients.map((c) => listedFor(c, 'rules-v1')));
    assert.deepEqual(ids, Array(4).fill(['rec_a', 'rec_b']));
    const listings = await clients[0]!.query<{ c: number }>('SELECT count(*)::int AS c FROM test_listings');
    assert.deepEqual(listings.rows, [{ c: 1 }]);
  });

  it('leaves a Record another process holds to it, and takes it once that process dies', async () => {
    const [dying, alive] = await migratedDatabase(server.cluster(), 2, 2);
    const [n1, n2] = await brainWith(alive!, 'brn_s2', ['rec_a', 'rec_b']);
    const mine = pgUpgradeList(alive!);
    await mine.listFor('rules-v1');
    await mine.page(0, 1);
    // The dying process holds the Brain's row, having taken rec_a off the list, and never commits.
    const holder = await unitKilledMidway(dying!, 'brn_s2', async (u) => {
      const theirs = pgUpgradeList(dying!);
      await theirs.listFor('rules-v1');
      await theirs.within(u).unlist(n1!);
    });
    const seen = pgUnitsOfWork(alive!).write('brn_s2', async (u) => [
      (await mine.within(u).record(n1!))?.id,
      (await mine.within(u).record(n2!))?.id,
    ]);
    await waitForLockWaits(alive!);
    const dead = await holder.kill(alive!);
    assert.ok(dead instanceof Error, 'the dying process lost its connection');
    assert.deepEqual(await seen, ['rec_a', 'rec_b'], 'what it had not committed is still listed');
  });
});
