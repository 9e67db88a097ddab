import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgUnitsOfWork } from '../../engine/adapters/postgres/unit-of-work.ts';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import {
  addBrain as addPgBrain,
  addRecord as addPgRecord,
  migratedDatabase,
  migratedPglite,
  serverForTests,
} from '../../engine/adapters/postgres/testing/fixtures.ts';
import { tempStore } from '../../engine/adapters/sqlite/testing.ts';
import { sqliteUnits } from '../../engine/adapters/sqlite/unit-of-work.ts';
import type { BrainUnitOfWork, ObjectVersionRow } from '../../engine/ports/index.ts';

/*
 * One set of cases for a Brain's unit of work, run on every adapter: the rules above the ports may
 * count on what holds here whichever backend is under them. Each case makes Brains of its own.
 */

/** What every adapter's unit of work holds so far. */
type Unit = Pick<BrainUnitOfWork, 'brainUid' | 'sequence' | 'objects' | 'idempotency' | 'tombstones'>;

interface Backend {
  units: {
    write<T>(brainUid: string, work: (u: Unit) => Promise<T>): Promise<T>;
    read<T>(brainUid: string, work: (u: Unit) => Promise<T>): Promise<T>;
  };
  addBrain(uid: string): Promise<void>;
  addRecord(brainUid: string, id: string): Promise<void>;
  forgetRecord(brainUid: string, id: string): Promise<void>;
}

function sqliteBackend(): Backend {
  const store = tempStore('mnemo-units-conformance-');
  return {
    units: sqliteUnits(store),
    addBrain: async (uid) =>
      void store.run(
        "INSERT INTO brains (uid, project, env, id, created_at) VALUES (?, 'p', 'test', ?, '2026-01-01T00:00:00Z')",
        uid,
        uid,
      ),
    addRecord: async (brainUid, id) =>
      void store.run(
        `INSERT INTO records (id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
         VALUES (?, ?, 1, 'message', '{}', 'hello there', 'medium', 'shareable', '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z')`,
        id,
        brainUid,
      ),
    forgetRecord: async (brainUid, id) =>
      void store.run('DELETE FROM records WHERE brain_uid = ? AND id = ?', brainUid, id),
  };
}

function pgBackend(db: PgClient): Backend {
  return {
    units: pgUnitsOfWork(db),
    addBrain: (uid) => addPgBrain(db, uid),
    addRecord: (brainUid, id) => addPgRecord(db, brainUid, id),
    forgetRecord: async (brainUid, id) =>
      void (await db.query('DELETE FROM records WHERE brain_uid = $1 AND id = $2', [brainUid, id])),
  };
}

const version = (
  brainUid: string,
  type: string,
  key: string,
  v: number,
  seq = 1,
): Omit<ObjectVersionRow, 'n'> => ({
  brain_uid: brainUid,
  type,
  key,
  version: v,
  value: JSON.stringify({ type, key, v }),
  accepted_at: '2026-01-01T00:00:00.000Z',
  seq,
});

/** A row without its `n`, which each backend numbers its own way. */
const plain = ({ n: _n, ...row }: ObjectVersionRow) => row;

function conformance(name: string, backend: Backend | null, opts: { skip?: string | false } = {}) {
  describe(`a Brain's unit of work, ${name}`, { skip: opts.skip ?? false }, () => {
    const b = backend!;
    let brains = 0;
    /** A Brain of the case's own. */
    const brain = async () => {
      const uid = `brn_c${++brains}`;
      await b.addBrain(uid);
      return uid;
    };

    it('takes steps 1, 2, 3; a unit that throws takes none; a read takes none', async () => {
      const uid = await brain();
      const steps: number[] = [];
      for (let i = 0; i < 3; i++) steps.push(await b.units.write(uid, (u) => u.sequence.next()));
      assert.deepEqual(steps, [1, 2, 3]);
      await assert.rejects(
        b.units.write(uid, async (u) => {
          assert.equal(await u.sequence.next(), 4);
          throw new Error('the rule failed');
        }),
        /the rule failed/,
      );
      assert.equal(await b.units.read(uid, (u) => u.sequence.current()), 3);
      await assert.rejects(b.units.read(uid, (u) => u.sequence.next()));
      assert.equal(await b.units.write(uid, (u) => u.sequence.next()), 4);
    });

    it('keeps every Object version: current is the newest, get(n) any, of this Brain only', async () => {
      const uid = await brain();
      const other = await brain();
      const [v1, v2] = await b.units.write(uid, async (u) => [
        await u.objects.insert(version(uid, 'note', 'a', 1)),
        await u.objects.insert(version(uid, 'note', 'a', 2, 2)),
      ]);
      assert.deepEqual(plain(v1!), version(uid, 'note', 'a', 1));
      await b.units.read(uid, async (u) => {
        assert.deepEqual(await u.objects.current('note', 'a'), v2);
        assert.deepEqual(
          await u.objects.get(v1!.n),
          v1,
          'a replay reads the version it wrote, current or not',
        );
        assert.equal(await u.objects.current('note', 'b'), null);
        assert.equal(await u.objects.get(v2!.n + 1_000), null);
      });
      await b.units.read(other, async (u) => {
        assert.equal(await u.objects.current('note', 'a'), null);
        assert.equal(await u.objects.get(v1!.n), null, "another Brain's version is none");
      });
      await assert.rejects(
        b.units.write(uid, (u) => u.objects.insert(version(uid, 'note', 'a', 2))),
        Error,
        'a version is accepted once',
      );
      await assert.rejects(
        b.units.read(uid, (u) => u.objects.insert(version(uid, 'note', 'c', 1))),
        Error,
        'a read writes nothing',
      );
    });

    it('lists the current version of each Object by type then key, bytewise, page after page', async () => {
      const uid = await brain();
      const other = await brain();
      // Bytewise order puts capitals, digits and '-' where a locale's collation would not.
      const keys: [string, string][] = [
        ['task', 'b'],
        ['note', 'a-b'],
        ['Task', 'z'],
        ['note', 'aa'],
        ['note', 'B'],
        ['note', '10'],
        ['note', '9'],
      ];
      await b.units.write(uid, async (u) => {
        for (const [type, key] of keys) await u.objects.insert(version(uid, type, key, 1));
        await u.objects.insert(version(uid, 'note', 'aa', 2, 2));
      });
      await b.units.write(other, (u) => u.objects.insert(version(other, 'note', 'other', 1)));
      const all = async (type?: string) => {
        const seen: [string, string, number][] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await b.units.read(uid, (u) => u.objects.list({ type, limit: 2, cursor }));
          assert.ok(page.rows.length <= 2);
          seen.push(...page.rows.map((r): [string, string, number] => [r.type, r.key, r.version]));
          if (page.next === null) return seen;
          cursor = page.next;
        }
        assert.fail('the pages never ended');
      };
      assert.deepEqual(await all(), [
        ['Task', 'z', 1],
        ['note', '10', 1],
        ['note', '9', 1],
        ['note', 'B', 1],
        ['note', 'a-b', 1],
        ['note', 'aa', 2],
        ['task', 'b', 1],
      ]);
      assert.deepEqual(await all('note'), [
        ['note', '10', 1],
        ['note', '9', 1],
        ['note', 'B', 1],
        ['note', 'a-b', 1],
        ['note', 'aa', 2],
      ]);
      const whole = await b.units.read(uid, (u) => u.objects.list({ limit: 7 }));
      assert.equal(whole.next, null, 'a page that holds the rest names no next');
      await assert.rejects(
        b.units.read(uid, (u) => u.objects.list({ limit: 2, cursor: 'nonsense' })),
        {
          code: 'invalid_request_body',
        },
      );
    });

    it('finds an Idempotency-Key per operation, and forgets it with what it wrote', async () => {
      const uid = await brain();
      await b.addRecord(uid, `${uid}_rec`);
      const object = await b.units.write(uid, async (u) => {
        assert.equal(await u.idempotency.find('rememberRecord', 'k1'), null);
        await u.idempotency.remember('rememberRecord', 'k1', {
          bodyHash: 'h1',
          target: { record: `${uid}_rec` },
        });
        const o = await u.objects.insert(version(uid, 'note', 'a', 1));
        await u.idempotency.remember('acceptObject', 'k1', { bodyHash: 'h2', target: { objectN: o.n } });
        return o;
      });
      await b.units.read(uid, async (u) => {
        assert.deepEqual(await u.idempotency.find('rememberRecord', 'k1'), {
          bodyHash: 'h1',
          target: { record: `${uid}_rec` },
        });
        assert.deepEqual(await u.idempotency.find('acceptObject', 'k1'), {
          bodyHash: 'h2',
          target: { objectN: object.n },
        });
        assert.equal(await u.idempotency.find('acceptObject', 'k2'), null);
      });
      await assert.rejects(
        b.units.write(uid, (u) =>
          u.idempotency.remember('rememberRecord', 'k1', { bodyHash: 'h3', target: { objectN: object.n } }),
        ),
        Error,
        'a key stands for its first write',
      );
      const other = await brain();
      assert.equal(await b.units.read(other, (u) => u.idempotency.find('rememberRecord', 'k1')), null);
      await b.forgetRecord(uid, `${uid}_rec`);
      assert.equal(await b.units.read(uid, (u) => u.idempotency.find('rememberRecord', 'k1')), null);
      assert.notEqual(await b.units.read(uid, (u) => u.idempotency.find('acceptObject', 'k1')), null);
    });

    it('keeps one tombstone per Memory: moved by a later removal, shareable only widening, read after a step', async () => {
      const uid = await brain();
      const other = await brain();
      await b.units.write(uid, async (u) => {
        await u.tombstones.record('mem_b', 2, 'deleted', false);
        await u.tombstones.record('mem_a', 2, 'pending_rederivation', true);
        await u.tombstones.record('mem_c', 3, 'deleted', true);
        await u.tombstones.record('mem_d', 1, 'deleted', true);
        await u.tombstones.record('mem_E', 2, 'deleted', true);
      });
      await b.units.write(other, (u) => u.tombstones.record('mem_x', 5, 'deleted', true));
      const since = (after: number, limit: number, shareableOnly: boolean) =>
        b.units.read(uid, (u) => u.tombstones.since(after, limit, { shareableOnly }));
      assert.deepEqual(await since(1, 10, false), [
        { memory_id: 'mem_E', seq: 2, reason: 'deleted' },
        { memory_id: 'mem_a', seq: 2, reason: 'pending_rederivation' },
        { memory_id: 'mem_b', seq: 2, reason: 'deleted' },
        { memory_id: 'mem_c', seq: 3, reason: 'deleted' },
      ]);
      assert.deepEqual(await since(0, 2, false), [
        { memory_id: 'mem_d', seq: 1, reason: 'deleted' },
        { memory_id: 'mem_E', seq: 2, reason: 'deleted' },
      ]);
      assert.deepEqual(
        (await since(0, 10, true)).map((t) => t.memory_id),
        ['mem_d', 'mem_E', 'mem_a', 'mem_c'],
      );
      // A delta page ends on a whole step: bounded above, with no limit.
      assert.deepEqual(
        (
          await b.units.read(uid, (u) =>
            u.tombstones.since(1, undefined, { shareableOnly: false, throughSeq: 2 }),
          )
        ).map((t) => t.memory_id),
        ['mem_E', 'mem_a', 'mem_b'],
      );
      assert.deepEqual(
        (await b.units.read(uid, (u) => u.tombstones.since(0, undefined, { shareableOnly: true }))).map(
          (t) => t.memory_id,
        ),
        ['mem_d', 'mem_E', 'mem_a', 'mem_c'],
      );
      await b.units.write(uid, async (u) => {
        // Removed again later: the row moves; a hosted reader told once stays told.
        await u.tombstones.record('mem_a', 6, 'deleted', false);
        await u.tombstones.record('mem_b', 7, 'deleted', true);
        await u.tombstones.clear('mem_c');
        await u.tombstones.clear('mem_none');
      });
      assert.deepEqual(await since(2, 10, false), [
        { memory_id: 'mem_a', seq: 6, reason: 'deleted' },
        { memory_id: 'mem_b', seq: 7, reason: 'deleted' },
      ]);
      assert.deepEqual(
        (await since(2, 10, true)).map((t) => t.memory_id),
        ['mem_a', 'mem_b'],
      );
    });

    it('leaves nothing of a unit that throws: no step, Object, key or tombstone', async () => {
      const uid = await brain();
      await assert.rejects(
        b.units.write(uid, async (u) => {
          const seq = await u.sequence.next();
          const o = await u.objects.insert(version(uid, 'note', 'a', 1, seq));
          await u.idempotency.remember('acceptObject', 'k', { bodyHash: 'h', target: { objectN: o.n } });
          await u.tombstones.record('mem_a', seq, 'deleted', true);
          throw new Error('the rule failed');
        }),
        /the rule failed/,
      );
      await b.units.read(uid, async (u) => {
        assert.equal(await u.sequence.current(), 0);
        assert.equal(await u.objects.current('note', 'a'), null);
        assert.deepEqual(await u.objects.list({ limit: 10 }), { rows: [], next: null });
        assert.equal(await u.idempotency.find('acceptObject', 'k'), null);
        assert.deepEqual(await u.tombstones.since(0, 10, { shareableOnly: false }), []);
      });
    });
  });
}

// Made at the top level: each closes after the file (`after`), not after the test that first used it.
conformance('over SQLite', sqliteBackend());
conformance('over PostgreSQL (PGlite)', pgBackend(await migratedPglite()));
const server = await serverForTests();
conformance(
  'over a PostgreSQL server',
  server.skip ? null : pgBackend((await migratedDatabase(server.cluster(), 1))[0]!),
  { skip: server.skip },
);
