import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addBrain, recordRow as row } from './testing/fixtures.ts';
import { pglite } from './testing/pglite.ts';
import { insertMemory } from './testing/records.ts';
import { pgUnitsOfWork, type PgUnitOfWork } from './unit-of-work.ts';
import { pgVectorIndex } from './vector-index.ts';

/*
 * What the PostgreSQL Records do beyond the cases every adapter shares
 * (test/storage/units-conformance.test.ts): the vectors of a removed Record, which SQLite's delete
 * trigger drops and which no foreign key ties to the Record here.
 */

const db = await pglite({ vector: true, migrated: true });

describe('the Records of a unit of work over PostgreSQL', () => {
  it("removes a Record's vectors with it, under every model, and no one else's", async () => {
    await addBrain(db, 'brn_1');
    await addBrain(db, 'brn_2');
    const units = pgUnitsOfWork(db);
    const stored = async (u: PgUnitOfWork, r: ReturnType<typeof row>) => {
      await u.records.insert(r);
      return (await u.records.get(r.id))!;
    };
    const [a, b] = await units.write('brn_1', async (u) => [
      await stored(u, row('brn_1', 'rec_a')),
      await stored(u, row('brn_1', 'rec_b')),
    ]);
    const c = await units.write('brn_2', (u) => stored(u, row('brn_2', 'rec_c')));
    // The first Memory of a fresh database: its n is the first Record's, as owners number apart.
    await insertMemory(db, 'brn_1', 'mem_1', 'rec_b', 'text of rec_b');
    const m = (await db.query<{ n: number }>("SELECT n FROM memories WHERE id = 'mem_1'")).rows[0]!.n;
    assert.equal(m, a!.n);
    const vectors = pgVectorIndex(db);
    const models = [
      { provider: 'test', model: 'four', dims: 4 },
      { provider: 'test', model: 'two', dims: 2 },
    ];
    for (const model of models) {
      const v = Float32Array.from({ length: model.dims }, (_, i) => i + 1);
      await vectors.put(model, 'record', a!.n, 'brn_1', v);
      await vectors.put(model, 'record', b!.n, 'brn_1', v);
      // A Memory whose n is the removed Record's is another owner.
      await vectors.put(model, 'memory', m, 'brn_1', v);
      await vectors.put(model, 'record', c.n, 'brn_2', v);
    }
    const left = async () =>
      (
        await db.query<{ brain_uid: string; owner: string; owner_n: number; models: number }>(
          `SELECT brain_uid, owner, owner_n, count(*)::int AS models FROM embeddings
           GROUP BY brain_uid, owner, owner_n ORDER BY brain_uid, owner, owner_n`,
        )
      ).rows;
    await assert.rejects(
      units.write('brn_1', async (u) => {
        await u.records.remove(['rec_a']);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.equal((await left()).length, 4);
    await units.write('brn_1', (u) => u.records.remove(['rec_a']));
    assert.deepEqual(await left(), [
      { brain_uid: 'brn_1', owner: 'memory', owner_n: a!.n, models: 2 },
      { brain_uid: 'brn_1', owner: 'record', owner_n: b!.n, models: 2 },
      { brain_uid: 'brn_2', owner: 'record', owner_n: c.n, models: 2 },
    ]);
  });
});
