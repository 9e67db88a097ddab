import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BrainRow } from '../../ports/index.ts';
import { sqliteBrains } from './brain-repository.ts';
import { tempStore } from './testing.ts';

const brain = (uid: string, id: string, over: Partial<BrainRow> = {}): Omit<BrainRow, 'seq'> => ({
  uid,
  project: 'p',
  env: 'test',
  id,
  name: null,
  self_type: null,
  self_name: null,
  created_at: '2026-01-01T00:00:00Z',
  ...over,
});

describe('the Brains over SQLite (BrainRepository)', () => {
  it('creates a Brain at step 0, once per tenant and id, and finds it only in its tenant', async () => {
    const brains = sqliteBrains(tempStore());
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

  it("lists a tenant's Brains by id, and no other tenant's", async () => {
    const brains = sqliteBrains(tempStore());
    for (const [uid, id] of [
      ['brn_1', 'zoe'],
      ['brn_2', 'ana'],
      ['brn_3', 'max'],
    ] as const)
      await brains.create(brain(uid, id));
    await brains.create(brain('brn_4', 'bea', { env: 'live' }));
    const listed = await brains.list({ project: 'p', env: 'test' });
    assert.deepEqual(
      listed.map((b) => b.id),
      ['ana', 'max', 'zoe'],
    );
  });

  it('removes a Brain with everything it holds, answering what it held', async () => {
    const store = tempStore();
    const brains = sqliteBrains(store);
    await brains.create(brain('brn_1', 'ana'));
    await brains.create(brain('brn_2', 'bob'));
    const record = (n: number, uid: string) =>
      store.run(
        `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
         VALUES (?, ?, ?, 1, 'message', '{}', 'hello there', 'medium', 'shareable', '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z')`,
        n,
        `rec_${n}`,
        uid,
      );
    record(1, 'brn_1');
    record(2, 'brn_1');
    record(3, 'brn_2');
    store.tx(() => {
      store.run("INSERT INTO citations (memory_id, record_id, quote) VALUES ('mem_1', 'rec_1', 'hello')");
      store.run(
        `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, source_key,
                               valid_from, valid_from_ms, status, seq, learned_at, cause)
         VALUES ('mem_1', 'brn_1', 'lin_1', 1, 'hello', 'hello', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
                 'active', 1, '2026-01-01T00:00:00Z', 'derived')`,
      );
    });
    for (const [key, version] of [
      ['a', 1],
      ['a', 2],
      ['b', 1],
    ] as const)
      store.run(
        "INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq) VALUES ('brn_1', 't', ?, ?, '1', '', 1)",
        key,
        version,
      );

    assert.deepEqual(await brains.remove('brn_1'), { records: 2, memories: 1, objects: 2 });
    assert.equal(await brains.find({ project: 'p', env: 'test' }, 'ana'), null);
    const left = (table: string) => store.get<{ c: number }>(`SELECT count(*) AS c FROM ${table}`)!.c;
    assert.deepEqual(
      [left('records'), left('memories'), left('citations'), left('object_versions')],
      [1, 0, 0, 0],
    );
    assert.deepEqual(await brains.remove('brn_2'), { records: 1, memories: 0, objects: 0 });
    assert.equal(await brains.remove('brn_2'), null, 'nothing to remove, so no counts');
  });
});
