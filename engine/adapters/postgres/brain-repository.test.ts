import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgBrains } from './brain-repository.ts';
import {
  addRecord,
  brainRow as brain,
  migratedDatabase,
  migratedPglite,
  serverForTests,
} from './testing/fixtures.ts';

const db = await migratedPglite();

describe('the Brains over PostgreSQL (BrainRepository)', () => {
  it('creates a Brain at step 0, once per tenant and id, and finds it only in its tenant', async () => {
    const brains = pgBrains(db);
    const made = await brains.create(
      brain('brn_1', 'ana', { name: 'Ana', self_type: 'person', self_name: 'Ana' }),
    );
    assert.deepEqual(made, {
      ...brain('brn_1', 'ana', { name: 'Ana', self_type: 'person', self_name: 'Ana' }),
      seq: 0,
    });
    assert.equal(await brains.create(brain('brn_2', 'ana')), null);
    assert.ok(await brains.create(brain('brn_3', 'ana', { env: 'live' })));
    assert.ok(await brains.create(brain('brn_4', 'ana', { project: 'q' })));
    assert.equal((await brains.find({ project: 'p', env: 'test' }, 'ana'))?.uid, 'brn_1');
    assert.equal((await brains.find({ project: 'p', env: 'live' }, 'ana'))?.uid, 'brn_3');
    assert.equal(await brains.find({ project: 'p', env: 'test' }, 'bob'), null);
  });

  it("lists a tenant's Brains by id, bytewise as SQLite does, and no other tenant's", async () => {
    const brains = pgBrains(db);
    for (const [uid, id] of [
      ['brn_l1', 'zoe'],
      ['brn_l2', 'Bea'],
      ['brn_l3', 'max'],
      ['brn_l4', 'al-x'],
      ['brn_l5', 'alx'],
    ] as const)
      await brains.create(brain(uid, id, { project: 'lists' }));
    await brains.create(brain('brn_l6', 'bea', { project: 'lists', env: 'live' }));
    const listed = await brains.list({ project: 'lists', env: 'test' });
    assert.deepEqual(
      listed.map((b) => b.id),
      ['Bea', 'al-x', 'alx', 'max', 'zoe'],
    );
  });

  it('removes a Brain with everything it holds, answering what it held', async () => {
    const brains = pgBrains(db);
    await brains.create(brain('brn_r1', 'ana', { project: 'rm' }));
    await brains.create(brain('brn_r2', 'bob', { project: 'rm' }));
    await addRecord(db, 'brn_r1', 'rec_1');
    await addRecord(db, 'brn_r1', 'rec_2');
    await addRecord(db, 'brn_r2', 'rec_3');
    await db.transaction(async (tx) => {
      await tx.query(
        "INSERT INTO citations (brain_uid, memory_id, record_id, quote) VALUES ('brn_r1', 'mem_1', 'rec_1', 'hello')",
      );
      await tx.query(
        `INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, source_key,
                               valid_from, valid_from_ms, status, seq, learned_at, cause)
         VALUES ('brn_r1', 'mem_1', 'lin_1', 1, 'hello', 'hello', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
                 'active', 1, '2026-01-01T00:00:00Z', 'derived')`,
      );
    });
    for (const [key, version] of [
      ['a', 1],
      ['a', 2],
      ['b', 1],
    ] as const)
      await db.query(
        "INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq) VALUES ('brn_r1', 't', $1, $2, '1', '', 1)",
        [key, version],
      );
    await db.query(
      "INSERT INTO derive_jobs (brain_uid, job, record_id, record_seq) VALUES ('brn_r1', 'derive', 'rec_2', 1)",
    );

    assert.deepEqual(await brains.remove('brn_r1'), { records: 2, memories: 1, objects: 2 });
    assert.equal(await brains.find({ project: 'rm', env: 'test' }, 'ana'), null);
    const left = async (table: string) =>
      (
        await db.query<{ c: number }>(`SELECT count(*)::int AS c FROM ${table} WHERE brain_uid = $1`, [
          'brn_r1',
        ])
      ).rows[0]!.c;
    assert.deepEqual(
      await Promise.all(
        ['records', 'memories', 'citations', 'object_versions', 'derive_jobs', 'record_tombstones'].map(left),
      ),
      [0, 0, 0, 0, 0, 0],
    );
    assert.ok(await brains.create(brain('brn_r3', 'ana', { project: 'rm' })), 'the id is free again');
    assert.deepEqual(await brains.remove('brn_r2'), { records: 1, memories: 0, objects: 0 });
    assert.equal(await brains.remove('brn_r2'), null, 'nothing to remove, so no counts');
  });

  it('a Memory without a citation is refused at commit, and so is removing its last citation', async () => {
    const brains = pgBrains(db);
    await brains.create(brain('brn_c1', 'ana', { project: 'cite' }));
    await addRecord(db, 'brn_c1', 'rec_c1');
    const memory = (id: string) =>
      `INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, source_key,
                             valid_from, valid_from_ms, status, seq, learned_at, cause)
       VALUES ('brn_c1', '${id}', 'lin_${id}', 1, 'hello', 'hello', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
               'active', 1, '2026-01-01T00:00:00Z', 'derived')`;
    await assert.rejects(
      db.transaction((tx) => tx.query(memory('mem_c0'))),
      /memory_without_lineage: a Memory must cite at least one Record/,
    );
    await db.transaction(async (tx) => {
      await tx.query(memory('mem_c1'));
      await tx.query(
        "INSERT INTO citations (brain_uid, memory_id, record_id, quote) VALUES ('brn_c1', 'mem_c1', 'rec_c1', 'hi')",
      );
    });
    await assert.rejects(
      db.query("DELETE FROM records WHERE brain_uid = 'brn_c1'"),
      /the last citation of a live Memory cannot be removed/,
    );
  });
});

const server = await serverForTests();
describe('the Brains on a PostgreSQL server', { skip: server.skip }, () => {
  it('processes creating the same Brain at once make exactly one', async () => {
    const clients = await migratedDatabase(server.cluster(), 4);
    const made = await Promise.all(
      clients.flatMap((c, i) => [0, 1, 2].map((j) => pgBrains(c).create(brain(`brn_${i}_${j}`, 'ana')))),
    );
    assert.equal(made.filter((b) => b !== null).length, 1);
    const rows = await clients[0]!.query<{ c: number }>('SELECT count(*)::int AS c FROM brains');
    assert.equal(rows.rows[0]?.c, 1);
  });
});
