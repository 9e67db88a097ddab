import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MnemoError } from '../../errors/mnemo-error.ts';
import { sqliteBrains } from './brain-repository.ts';
import type { Store } from './store.ts';
import { storeWithBrains } from './testing.ts';
import { sqliteUnits, type SqliteReadOfWork } from './unit-of-work.ts';

const withBrain = (...uids: string[]) => storeWithBrains(...(uids.length > 0 ? uids : ['brn_1']));

/** Accepts version `version` of type/`key` at the Brain's next step. */
async function accept(u: SqliteReadOfWork, key: string, version = 1, type = 'o') {
  const seq = await u.sequence.next();
  return u.objects.insert({
    brain_uid: u.brainUid,
    type,
    key,
    version,
    value: '{}',
    accepted_at: '2026-01-01T00:00:00Z',
    seq,
  });
}

const keys = (store: Store) =>
  store.all<{ key: string }>('SELECT key FROM object_versions ORDER BY n').map((r) => r.key);

describe('the unit of work over SQLite', () => {
  it('runs two units one after the other, each whole, though both await between their writes', async () => {
    const store = await withBrain();
    const units = sqliteUnits(store);
    const steps: string[] = [];
    const unit = (name: string) =>
      units.write('brn_1', async (u) => {
        for (const i of [1, 2, 3]) {
          steps.push(`${name}${i}`);
          await accept(u, `${name}${i}`);
          await sleep(2);
        }
        return name;
      });
    assert.deepEqual(await Promise.all([unit('a'), unit('b')]), ['a', 'b']);
    assert.deepEqual(steps, ['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    assert.deepEqual(keys(store), ['a1', 'a2', 'a3', 'b1', 'b2', 'b3']);
    assert.equal(store.currentSeq('brn_1'), 6);
  });

  it('leaves nothing of a unit that throws, its steps included, and runs the next one whole', async () => {
    const store = await withBrain();
    const units = sqliteUnits(store);
    const failing = units.write('brn_1', async (u) => {
      await accept(u, 'a1');
      await sleep(2);
      await accept(u, 'a2');
      throw new Error('no');
    });
    const next = units.write('brn_1', async (u) => (await accept(u, 'b1')).seq);
    await assert.rejects(failing, /^Error: no$/);
    // The failed unit's steps are not taken: the next unit's Object is at step 1.
    assert.equal(await next, 1);
    assert.deepEqual(keys(store), ['b1']);
    assert.equal(store.currentSeq('brn_1'), 1);
    assert.equal(store.db.inTransaction, false);
  });

  it(
    'refuses a unit opened inside another, with a reason, instead of waiting for itself',
    { timeout: 5000 },
    async () => {
      const store = await withBrain();
      const units = sqliteUnits(store);
      await assert.rejects(
        units.write('brn_1', async (u) => {
          await accept(u, 'outer');
          await sleep(1);
          return units.write('brn_1', async (v) => accept(v, 'inner'));
        }),
        /a unit of work cannot open inside another/,
      );
      assert.deepEqual(keys(store), []);
      // The refusal holds nothing: the store is free again.
      await units.write('brn_1', async (u) => accept(u, 'after'));
      assert.deepEqual(keys(store), ['after']);
    },
  );

  it('refuses a synchronous store.tx from outside an open unit rather than let it join', async () => {
    const store = await withBrain();
    const units = sqliteUnits(store);
    let refused: unknown = null;
    const insertOutside = () =>
      store.tx(() =>
        store.run(
          "INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq) VALUES ('brn_1', 'o', 'outside', 1, '{}', 'x', 0)",
        ),
      );
    // Another writer's timer fires while the unit awaits: its write would have become part of the unit.
    setTimeout(() => {
      try {
        insertOutside();
      } catch (e) {
        refused = e;
      }
    }, 5);
    await assert.rejects(
      units.write('brn_1', async (u) => {
        await accept(u, 'inside');
        await sleep(30);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.match(String(refused), /a write outside the open unit of work would join it/);
    assert.deepEqual(keys(store), []);
    // Once no unit is open, the same write runs at once.
    insertOutside();
    assert.deepEqual(keys(store), ['outside']);
  });

  it('runs store.exclusive after the open unit, as its own transaction that outlives its rollback', async () => {
    const store = await withBrain();
    const units = sqliteUnits(store);
    let queued: Promise<number> | null = null;
    setTimeout(() => {
      queued = store.exclusive(() =>
        store.tx(() => {
          store.run(
            "INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq) VALUES ('brn_1', 'o', 'queued', 1, '{}', 'x', 0)",
          );
          return keys(store).length;
        }),
      );
    }, 5);
    await assert.rejects(
      units.write('brn_1', async (u) => {
        await accept(u, 'inside');
        await sleep(30);
        // Not run yet: it waits for this unit.
        assert.deepEqual(keys(store), ['inside']);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.ok(queued);
    assert.equal(await queued, 1);
    assert.deepEqual(keys(store), ['queued']);
  });

  it('refuses, running nothing, a unit of a Brain removed before it started', async () => {
    const store = await withBrain('brn_1', 'brn_2');
    const units = sqliteUnits(store);
    await sqliteBrains(store).remove('brn_1');
    let ran = false;
    for (const open of [units.write, units.read])
      await assert.rejects(
        open('brn_1', async () => {
          ran = true;
        }),
        (e: MnemoError) => e.code === 'brain_not_found',
      );
    assert.equal(ran, false);
    assert.equal(store.db.inTransaction, false);
    assert.equal((await units.write('brn_2', async (u) => accept(u, 'a'))).seq, 1);
  });

  it('reads one snapshot and refuses to write in it', async () => {
    const store = await withBrain();
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => accept(u, 'a'));
    const seen = await units.read('brn_1', async (u) => [
      await u.sequence.current(),
      await u.objects.current('o', 'a'),
    ]);
    assert.equal(seen[0], 1);
    assert.equal((seen[1] as { key: string }).key, 'a');
    await assert.rejects(
      units.read('brn_1', async (u) => accept(u, 'b')),
      /a read unit of work cannot write/,
    );
    assert.deepEqual(keys(store), ['a']);
  });
});

describe('the Objects, Idempotency-Keys and tombstones of a unit of work over SQLite', () => {
  it('finds the current version of an Object, any version by n, and only in its own Brain', async () => {
    const store = await withBrain('brn_1', 'brn_2');
    const units = sqliteUnits(store);
    const first = await units.write('brn_1', async (u) => accept(u, 'a', 1));
    await units.write('brn_1', async (u) => accept(u, 'a', 2));
    await units.write('brn_2', async (u) => accept(u, 'a', 1));
    const seen = await units.read('brn_1', async (u) => ({
      current: await u.objects.current('o', 'a'),
      first: await u.objects.get(first.n),
      none: await u.objects.current('o', 'b'),
    }));
    assert.equal(seen.current?.version, 2);
    assert.equal(seen.current?.seq, 2);
    assert.deepEqual(seen.first, first);
    assert.equal(seen.none, null);
    assert.equal(await units.read('brn_2', async (u) => u.objects.get(first.n)), null);
  });

  it('lists the current version of each Object by type then key, in pages a cursor continues', async () => {
    const store = await withBrain('brn_1', 'brn_2');
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => {
      for (const [type, key, version] of [
        ['t', 'b', 1],
        ['s', 'z', 1],
        ['t', 'a', 1],
        ['t', 'b', 2],
        ['t', 'c', 1],
      ] as const)
        await accept(u, key, version, type);
    });
    await units.write('brn_2', async (u) => accept(u, 'other', 1, 't'));
    const list = (q: { type?: string; limit: number; cursor?: string }) =>
      units.read('brn_1', async (u) => u.objects.list(q));
    const one = await list({ limit: 2 });
    assert.deepEqual(
      one.rows.map((r) => `${r.type}/${r.key}@${r.version}`),
      ['s/z@1', 't/a@1'],
    );
    assert.ok(one.next);
    const two = await list({ limit: 2, cursor: one.next });
    assert.deepEqual(
      two.rows.map((r) => `${r.type}/${r.key}@${r.version}`),
      ['t/b@2', 't/c@1'],
    );
    assert.equal(two.next, null);
    const typed = await list({ type: 't', limit: 10 });
    assert.deepEqual(
      typed.rows.map((r) => r.key),
      ['a', 'b', 'c'],
    );
    await assert.rejects(list({ limit: 2, cursor: 'nonsense' }), { code: 'invalid_request_body' });
  });

  it('remembers what an Idempotency-Key wrote, per Brain and operation, and forgets it with it', async () => {
    const store = await withBrain('brn_1', 'brn_2');
    const units = sqliteUnits(store);
    const made = await units.write('brn_1', async (u) => {
      const row = await accept(u, 'a');
      await u.idempotency.remember('acceptObject', 'k1', { bodyHash: 'h1', target: { objectN: row.n } });
      return row;
    });
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (1, 'rec_1', 'brn_1', 2, 'message', '{}', 'hello', 'medium', 'shareable', '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z')`,
    );
    await units.write('brn_1', async (u) =>
      u.idempotency.remember('rememberRecord', 'k1', { bodyHash: 'h2', target: { record: 'rec_1' } }),
    );
    const find = (uid: string, op: 'acceptObject' | 'rememberRecord', key: string) =>
      units.read(uid, async (u) => u.idempotency.find(op, key));
    assert.deepEqual(await find('brn_1', 'acceptObject', 'k1'), {
      bodyHash: 'h1',
      target: { objectN: made.n },
    });
    assert.deepEqual(await find('brn_1', 'rememberRecord', 'k1'), {
      bodyHash: 'h2',
      target: { record: 'rec_1' },
    });
    assert.equal(await find('brn_1', 'acceptObject', 'k2'), null);
    assert.equal(await find('brn_2', 'acceptObject', 'k1'), null);
    store.run("DELETE FROM records WHERE id = 'rec_1'");
    assert.equal(await find('brn_1', 'rememberRecord', 'k1'), null);
    assert.ok(await find('brn_1', 'acceptObject', 'k1'));
  });

  it('keeps one tombstone per Memory at its last removal, widening who may be told', async () => {
    const store = await withBrain('brn_1', 'brn_2');
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => {
      await u.tombstones.record('mem_a', 1, 'pending_rederivation', true);
      await u.tombstones.record('mem_b', 2, 'deleted', false);
      await u.tombstones.record('mem_c', 3, 'deleted', false);
      // Removed again later: moves to the later step, and stays reported to hosted readers.
      await u.tombstones.record('mem_a', 4, 'deleted', false);
    });
    await units.write('brn_2', async (u) => u.tombstones.record('mem_x', 1, 'deleted', true));
    const since = (after: number, limit: number, shareableOnly: boolean) =>
      units.read('brn_1', async (u) => u.tombstones.since(after, limit, { shareableOnly }));
    assert.deepEqual(await since(0, 10, false), [
      { memory_id: 'mem_b', seq: 2, reason: 'deleted' },
      { memory_id: 'mem_c', seq: 3, reason: 'deleted' },
      { memory_id: 'mem_a', seq: 4, reason: 'deleted' },
    ]);
    assert.deepEqual(await since(0, 10, true), [{ memory_id: 'mem_a', seq: 4, reason: 'deleted' }]);
    assert.deepEqual(
      (await since(2, 1, false)).map((r) => r.memory_id),
      ['mem_c'],
    );
    await units.write('brn_1', async (u) => u.tombstones.clear('mem_c'));
    await units.write('brn_2', async (u) => u.tombstones.clear('mem_b'));
    assert.deepEqual(
      (await since(0, 10, false)).map((r) => r.memory_id),
      ['mem_b', 'mem_a'],
    );
  });
});
