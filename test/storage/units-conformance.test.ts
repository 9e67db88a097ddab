import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgBrains } from '../../engine/adapters/postgres/brain-repository.ts';
import { pgJobQueue } from '../../engine/adapters/postgres/job-queue.ts';
import { pgUnitsOfWork } from '../../engine/adapters/postgres/unit-of-work.ts';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import { migrate } from '../../engine/adapters/postgres/migrate.ts';
import {
  addBrain as addPgBrain,
  addRecord as addPgRecord,
  brainRow,
  migratedPglite,
  serverForTests,
} from '../../engine/adapters/postgres/testing/fixtures.ts';
import { LeaseLost } from '../../engine/core/derive/queued-job.ts';
import { searchWords } from '../../engine/core/shared/fold-text.ts';
import { sqliteBrains } from '../../engine/adapters/sqlite/brain-repository.ts';
import { sqliteJobQueue } from '../../engine/adapters/sqlite/job-queue.ts';
import { tempStore } from '../../engine/adapters/sqlite/testing.ts';
import { sqliteUnits } from '../../engine/adapters/sqlite/unit-of-work.ts';
import { createSqliteSlotIndex } from '../../engine/adapters/sqlite/slot-index.ts';
import { pgSlotIndex } from '../../engine/adapters/postgres/slot-index.ts';
import { profileLines } from '../../engine/local/profile-census.ts';
import type { ProfileGroup } from '../../engine/contract/index.ts';
import { whomNamed } from '../../engine/local/memories.ts';
import type {
  BrainRepository,
  BrainReadOfWork,
  BrainUnitOfWork,
  ClaimedJob,
  DeriveFailureRepository,
  JobClaim,
  JobQueue,
  MemoryFilter,
  MemoryReads,
  MemoryVersionRow,
  ObjectVersionRow,
  RecordRepository,
  RecordRow,
  SlotIndex,
  UnitOptions,
} from '../../engine/ports/index.ts';

/*
 * One set of cases for a Brain's unit of work, run on every adapter: the rules above the ports may
 * count on what holds here whichever backend is under them. Each case makes Brains of its own.
 */

/** A read unit of work: a write's without jobs. */
type Unit = BrainReadOfWork;

/** What a removal of Records leaves behind in a Brain, read from the tables. */
interface Leftovers {
  /** [memory_id, record_id], by Memory then Record. */
  citations: [string, string][];
  /** The Records that `derive` jobs are queued for. */
  jobs: string[];
  /** Forgotten Record ids, with the Brain's step at the forget, by id. */
  tombstones: { record_id: string; seq: number }[];
}

interface Backend {
  units: {
    write<T>(brainUid: string, work: (u: BrainUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T>;
    read<T>(brainUid: string, work: (u: Unit) => Promise<T>): Promise<T>;
  };
  brains: BrainRepository;
  /** The slot lane's reads (an index port beside the units). */
  slots: SlotIndex;
  addBrain(uid: string): Promise<void>;
  addRecord(brainUid: string, id: string): Promise<void>;
  forgetRecord(brainUid: string, id: string): Promise<void>;
  /**
   * Queues the Record's derivation in a unit of work, as the write that makes a Record does.
   */
  enqueueDerive(brainUid: string, recordId: string): Promise<void>;
  /** The derivation queue, as a worker claims from it. */
  queue: JobQueue;
  /** Completes claimed jobs as a worker does when their result is written. */
  complete(brainUid: string, claims: readonly JobClaim[]): Promise<void>;
  /** A live Memory citing these Records (no repository writes Memories on every adapter yet). */
  cite(brainUid: string, memoryId: string, recordIds: readonly string[]): Promise<void>;
  /** A Memory version as derivation writes it, citing these Records with quote `q:<record id>`. */
  addMemory(row: Omit<MemoryVersionRow, 'n'>, recordIds: readonly string[]): Promise<void>;
  /** The citations, derive jobs and Record tombstones of a Brain, as its tables hold them. */
  leftovers(brainUid: string): Promise<Leftovers>;
  /** A Brain's failed derivation jobs, as its table holds them, in the order written. */
  failures(brainUid: string): Promise<FailureRow[]>;
}

type FailureRow = Omit<Parameters<DeriveFailureRepository['record']>[0], 'failed_at'>;

function sqliteBackend(): Backend {
  const store = tempStore('mnemo-units-conformance-');
  const queue = sqliteJobQueue(store);
  // The queue that claims: its leases are what a unit's jobs.complete checks.
  const units = sqliteUnits(store, queue);
  return {
    units,
    brains: sqliteBrains(store),
    slots: createSqliteSlotIndex(store),
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
    enqueueDerive: (brainUid, recordId) =>
      units.write(brainUid, (u) => u.jobs.enqueue({ job: 'derive', brainUid, recordId, recordSeq: 1 })),
    queue,
    complete: (brainUid, claims) => units.write(brainUid, (u) => u.jobs.complete(claims)),
    cite: async (brainUid, memoryId, recordIds) =>
      store.tx(() => {
        // Citations first: a Memory without one is refused on insert.
        for (const r of recordIds)
          store.run(
            'INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?)',
            memoryId,
            r,
            'hi',
          );
        store.run(
          `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, source_key,
                                 valid_from, valid_from_ms, status, seq, learned_at, cause)
           VALUES (?, ?, ?, 1, 'hi', 'hi', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
                   'active', 1, '2026-01-01T00:00:00Z', 'derived')`,
          memoryId,
          brainUid,
          memoryId,
        );
      }),
    // Through the repository: it writes what the row does not hold (the folded owner).
    addMemory: (row, recordIds) =>
      units.write(row.brain_uid, (u) =>
        u.memories.insert(
          row,
          recordIds.map((r) => ({ record_id: r, quote: `q:${r}` })),
        ),
      ),
    leftovers: async (brainUid) => ({
      citations: store
        .all<{ memory_id: string; record_id: string }>(
          `SELECT c.memory_id, c.record_id FROM citations c JOIN memories m ON m.id = c.memory_id
           WHERE m.brain_uid = ? ORDER BY c.memory_id, c.record_id`,
          brainUid,
        )
        .map((c): [string, string] => [c.memory_id, c.record_id]),
      jobs: store
        .all<{ record_id: string }>(
          "SELECT record_id FROM derive_queue WHERE brain_uid = ? AND job = 'derive' ORDER BY record_id",
          brainUid,
        )
        .map((j) => j.record_id),
      tombstones: store.all<{ record_id: string; seq: number }>(
        'SELECT record_id, seq FROM record_tombstones WHERE brain_uid = ? ORDER BY record_id',
        brainUid,
      ),
    }),
    failures: async (brainUid) =>
      store.all<FailureRow>(
        'SELECT job, record_id, memory_id, error, attempts FROM derive_failures WHERE brain_uid = ? ORDER BY n',
        brainUid,
      ),
  };
}

function pgBackend(db: PgClient): Backend {
  const units = pgUnitsOfWork(db);
  const rows = async <R>(sql: string, brainUid: string) => (await db.query<R>(sql, [brainUid])).rows;
  return {
    units,
    brains: pgBrains(db),
    slots: pgSlotIndex(db),
    addBrain: (uid) => addPgBrain(db, uid),
    addRecord: (brainUid, id) => addPgRecord(db, brainUid, id),
    forgetRecord: async (brainUid, id) =>
      void (await db.query('DELETE FROM records WHERE brain_uid = $1 AND id = $2', [brainUid, id])),
    enqueueDerive: (brainUid, recordId) =>
      units.write(brainUid, (u) => u.jobs.enqueue({ job: 'derive', brainUid, recordId, recordSeq: 1 })),
    queue: pgJobQueue(db),
    complete: (brainUid, claims) => units.write(brainUid, (u) => u.jobs.complete(claims)),
    cite: async (brainUid, memoryId, recordIds) =>
      void (await db.query(
        // One statement: the lineage check is deferred to its commit.
        `WITH m AS (
           INSERT INTO memories (brain_uid, id, lineage, version, statement, norm, subject, owner_state, source_key,
                                 valid_from, valid_from_ms, status, seq, learned_at, cause)
           VALUES ($1, $2, $2, 1, 'hi', 'hi', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0, 'active', 1,
                   '2026-01-01T00:00:00Z', 'derived'))
         INSERT INTO citations (brain_uid, memory_id, record_id, quote) SELECT $1, $2, r, 'hi' FROM unnest($3::text[]) r`,
        [brainUid, memoryId, recordIds],
      )),
    // Through the repository, as on SQLite: it writes what the row does not hold (the health mark).
    addMemory: (row, recordIds) =>
      units.write(row.brain_uid, (u) =>
        u.memories.insert(
          row,
          recordIds.map((r) => ({ record_id: r, quote: `q:${r}` })),
        ),
      ),
    leftovers: async (brainUid) => ({
      citations: (
        await rows<{ memory_id: string; record_id: string }>(
          `SELECT memory_id, record_id FROM citations WHERE brain_uid = $1
           ORDER BY memory_id COLLATE "C", record_id COLLATE "C"`,
          brainUid,
        )
      ).map((c): [string, string] => [c.memory_id, c.record_id]),
      jobs: (
        await rows<{ record_id: string }>(
          `SELECT record_id FROM derive_jobs WHERE brain_uid = $1 AND job = 'derive' ORDER BY record_id COLLATE "C"`,
          brainUid,
        )
      ).map((j) => j.record_id),
      tombstones: await rows<{ record_id: string; seq: number }>(
        'SELECT record_id, seq FROM record_tombstones WHERE brain_uid = $1 ORDER BY record_id COLLATE "C"',
        brainUid,
      ),
    }),
    failures: (brainUid) =>
      rows<FailureRow>(
        'SELECT job, record_id, memory_id, error, attempts FROM derive_failures WHERE brain_uid = $1 ORDER BY n',
        brainUid,
      ),
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

type RecordOptions = Partial<
  Pick<
    RecordRow,
    'kind' | 'source_name' | 'external_id' | 'visibility' | 'occurred_at' | 'seq' | 'text' | 'trust'
  >
>;

/** A Record as rememberRecord writes it; `id` orders Records (ids are ULIDs in the engine). */
/** Appends a Record and reads it back with the `n` the storage gave it. */
async function stored(u: BrainUnitOfWork, row: Omit<RecordRow, 'n'>): Promise<RecordRow> {
  await u.records.insert(row);
  return (await u.records.get(row.id))!;
}

const recordRow = (brainUid: string, id: string, o: RecordOptions = {}): Omit<RecordRow, 'n'> => {
  const occurredAt = o.occurred_at ?? '2026-01-01T00:00:00.000Z';
  const text = o.text ?? `text of ${id}`;
  return {
    id,
    brain_uid: brainUid,
    seq: o.seq ?? 1,
    kind: o.kind ?? 'message',
    content: JSON.stringify({ kind: o.kind ?? 'message', text }),
    text,
    source_name: o.source_name ?? null,
    external_id: o.external_id ?? null,
    trust: o.trust ?? 'medium',
    visibility: o.visibility ?? 'shareable',
    occurred_at: occurredAt,
    occurred_ms: Date.parse(occurredAt),
    created_at: '2026-01-01T00:00:00.000Z',
  };
};

type ListQuery = Parameters<RecordRepository['list']>[0];

type MemoryOptions = Partial<Omit<MemoryVersionRow, 'n' | 'id' | 'brain_uid'>> & {
  /** Valid from this instant (and to `to`, when closed). */
  from?: string;
  to?: string;
};

/** A Memory version as derivation writes it: an active statement of no slot, at step 1, unless told. */
const memoryRow = (brainUid: string, id: string, o: MemoryOptions = {}): Omit<MemoryVersionRow, 'n'> => {
  const { from = '2026-01-01T00:00:00.000Z', to, ...rest } = o;
  const statement = rest.statement ?? `statement of ${id}`;
  return {
    id,
    brain_uid: brainUid,
    lineage: id,
    slot: null,
    version: 1,
    statement,
    norm: statement.toLowerCase(),
    subject: 'Ana',
    predicate: null,
    owner_state: 'self',
    owner_entity: null,
    source_key: `src:${id}`,
    valid_from: from,
    valid_from_ms: Date.parse(from),
    valid_to: to ?? null,
    valid_to_ms: to === undefined ? null : Date.parse(to),
    status: 'active',
    pending: false,
    corrects: null,
    retracted_by: null,
    revised_by: null,
    seq: 1,
    learned_at: '2026-01-01T00:00:00.000Z',
    cause: 'derived',
    ...rest,
  };
};

const anaLivesIn = 'ana\u001flives in';
/** The instant the Memories' cases read statuses at. */
const nowMs = Date.parse('2026-06-01T00:00:00.000Z');

function conformance(name: string, backend: Backend | null, opts: { skip?: string | false } = {}) {
  const idsSpanTheStore = name === 'over SQLite';
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

    it('completes a claimed job in the unit that wrote its result; a lost lease rolls the unit back', async () => {
      const uid = await brain();
      const [a, c] = [`${uid}_a`, `${uid}_c`];
      await b.addRecord(uid, a);
      await b.addRecord(uid, c);
      await b.enqueueDerive(uid, a);
      await b.enqueueDerive(uid, c);
      const mine = (jobs: readonly ClaimedJob[]) => jobs.filter((j) => j.brainUid === uid);
      const t0 = Date.now();
      const [ja, jc] = mine(await b.queue.claim(100, t0, 1_000));
      assert.ok(ja && jc);
      // The first claim's lease ran out and another claim took the job.
      const again = mine(await b.queue.claim(100, t0 + 2_000, 60_000));
      assert.equal(again.length, 2);
      await assert.rejects(
        b.units.write(uid, async (u) => {
          await u.sequence.next();
          await u.jobs.complete([ja]);
        }),
        (e: unknown) => e instanceof LeaseLost,
      );
      assert.equal(await b.units.read(uid, (u) => u.sequence.current()), 0, 'nothing of the unit stays');
      assert.deepEqual((await b.leftovers(uid)).jobs.sort(), [a, c].sort(), "the job is its new holder's");
      await b.units.write(uid, async (u) => {
        await u.sequence.next();
        await u.jobs.complete(again);
      });
      assert.equal(await b.units.read(uid, (u) => u.sequence.current()), 1);
      assert.deepEqual((await b.leftovers(uid)).jobs, []);
    });

    it("answers a Brain's last committed step outside its units, its own and no other's", async () => {
      const uid = await brain();
      const other = await brain();
      assert.equal(await b.brains.currentSeq(uid), 0, 'a new Brain is at step 0');
      await b.units.write(uid, (u) => u.sequence.next());
      await b.units.write(uid, (u) => u.sequence.next());
      await assert.rejects(
        b.units.write(uid, async (u) => {
          await u.sequence.next();
          throw new Error('the rule failed');
        }),
        /the rule failed/,
      );
      assert.equal(await b.brains.currentSeq(uid), 2, 'the step of a unit that threw is not counted');
      assert.equal(await b.brains.currentSeq(other), 0);
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

    it('reads tombstones on from a Memory id inside a step, bytewise, then the steps after it', async () => {
      const uid = await brain();
      await b.units.write(uid, async (u) => {
        for (const id of ['mem_pa', 'mem_pB', 'mem_pc']) await u.tombstones.record(id, 2, 'deleted', true);
        await u.tombstones.record('mem_pd', 2, 'deleted', false);
        await u.tombstones.record('mem_pe', 3, 'deleted', true);
      });
      const since = async (limit: number | undefined, opts: { afterId: string; shareableOnly?: boolean }) =>
        (await b.units.read(uid, (u) => u.tombstones.since(2, limit, { shareableOnly: false, ...opts }))).map(
          (t) => t.memory_id,
        );
      assert.deepEqual(await since(undefined, { afterId: 'mem_pB' }), [
        'mem_pa',
        'mem_pc',
        'mem_pd',
        'mem_pe',
      ]);
      assert.deepEqual(await since(2, { afterId: 'mem_pa' }), ['mem_pc', 'mem_pd']);
      assert.deepEqual(await since(undefined, { afterId: 'mem_pa', shareableOnly: true }), [
        'mem_pc',
        'mem_pe',
      ]);
      assert.deepEqual(await since(undefined, { afterId: 'mem_pd' }), ['mem_pe']);
      // An id that is no longer there (cleared, or moved to a later step) still marks a place.
      assert.deepEqual(await since(undefined, { afterId: 'mem_pb' }), ['mem_pc', 'mem_pd', 'mem_pe']);
    });

    it("reads the Brain's speakers by first name, folded, in its own Brain only, as soon as written", async () => {
      const uid = await brain();
      const other = await brain();
      const said = async (u: BrainUnitOfWork, id: string, speaker: string) => {
        const row = recordRow(u.brainUid, id, { seq: await u.sequence.next() });
        await u.records.insert({
          ...row,
          content: JSON.stringify({ kind: 'message', text: row.text, speaker }),
        });
      };
      await b.units.write(uid, async (u) => {
        await said(u, `${uid}_a`, 'Maya');
        await said(u, `${uid}_b`, 'Rui Costa');
      });
      await b.units.write(other, (u) => said(u, `${other}_a`, 'Maya Pinto'));
      const named = (brainUid: string) =>
        b.units.read(brainUid, async (u) => (await u.speakersFirstNamed('maya')).sort());
      assert.deepEqual(await named(uid), ['maya']);
      // Read again after more is written, not from what was read before; no indexer has run.
      await b.units.write(uid, (u) => said(u, `${uid}_c`, ' MÁYA  Silva '));
      assert.deepEqual(await named(uid), ['maya', 'maya silva']);
      assert.deepEqual(await named(other), ['maya pinto']);
      // The newest Record forgotten, then another written: it is read, though it may take the place
      // (the row number) of the one forgotten.
      await b.units.write(uid, (u) => u.records.remove([`${uid}_c`]));
      await b.units.write(uid, (u) => said(u, `${uid}_d`, 'Maya Reis'));
      assert.deepEqual(await named(uid), ['maya', 'maya reis', 'maya silva']);
    });

    it('appends a Record with its n and finds it by id, in its own Brain only', async () => {
      const uid = await brain();
      const other = await brain();
      const row = recordRow(uid, `${uid}_a`, { source_name: 'mail', external_id: 'm1', kind: 'event' });
      const answered = await b.units.write(uid, async (u) =>
        u.records.insert({ ...row, seq: await u.sequence.next() }),
      );
      assert.deepEqual(answered, { ...row, seq: 1 });
      await b.units.read(uid, async (u) => {
        const written = await u.records.get(`${uid}_a`);
        assert.equal(typeof written?.n, 'number');
        assert.deepEqual(written, { ...row, seq: 1, n: written!.n });
        assert.equal(await u.records.get(`${uid}_none`), null);
      });
      assert.equal(await b.units.read(other, (u) => u.records.get(`${uid}_a`)), null);
      await assert.rejects(
        b.units.write(uid, (u) => u.records.insert(row)),
        Error,
        'an id is written once',
      );
      await assert.rejects(
        b.units.read(uid, (u) => u.records.insert(recordRow(uid, `${uid}_b`))),
        Error,
        'a read writes nothing',
      );
      assert.equal(await b.units.read(uid, (u) => u.records.get(`${uid}_b`)), null);
    });

    it('lists Records newest id first, bytewise, in pages a cursor continues, within each filter', async () => {
      const uid = await brain();
      const other = await brain();
      const r = (suffix: string) => `${uid}_${suffix}`;
      await b.units.write(uid, async (u) => {
        const add = async (suffix: string, o: RecordOptions) =>
          u.records.insert(recordRow(uid, r(suffix), { ...o, seq: await u.sequence.next() }));
        await add('1', { occurred_at: '2026-01-01T00:00:00.000Z' });
        await add('2', { kind: 'document', source_name: 'notes', occurred_at: '2026-02-01T00:00:00.000Z' });
        await add('3', { visibility: 'local_only', occurred_at: '2026-03-01T00:00:00.000Z' });
        await add('4', { source_name: 'notes', occurred_at: '2026-04-01T00:00:00.000Z' });
        // Bytewise, 'B' sorts before 'a' and after the digits; a locale's collation puts it after 'a'.
        await add('B', { kind: 'event', occurred_at: '2026-05-01T00:00:00.000Z' });
        await add('a', { visibility: 'redacted_summary', occurred_at: '2026-06-01T00:00:00.000Z' });
      });
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${uid}_5`)));
      await b.enqueueDerive(uid, r('2'));
      const list = (q: Partial<ListQuery>) =>
        b.units.read(uid, (u) => u.records.list({ limit: 10, hideLocalOnly: false, ...q }));
      const pages = async (q: Partial<ListQuery>) => {
        const seen: string[][] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 10; i++) {
          const page = await list({ ...q, cursor });
          seen.push(page.rows.map((row) => row.id.slice(uid.length + 1)));
          if (page.next === null) return seen;
          cursor = page.next;
        }
        assert.fail('the pages never ended');
      };
      const ids = async (q: Partial<ListQuery>) => (await pages(q)).flat();
      assert.deepEqual(await pages({ limit: 2 }), [
        ['a', 'B'],
        ['4', '3'],
        ['2', '1'],
      ]);
      assert.deepEqual(await pages({ limit: 6 }), [['a', 'B', '4', '3', '2', '1']], 'a full page ends');
      assert.deepEqual(await pages({ limit: 1, sourceName: 'notes' }), [['4'], ['2']]);
      assert.deepEqual(await ids({ hideLocalOnly: true }), ['a', 'B', '4', '2', '1']);
      assert.deepEqual(await ids({ kind: 'event' }), ['B']);
      assert.deepEqual(await ids({ kind: 'document' }), ['2']);
      assert.deepEqual(await ids({ visibility: 'redacted_summary' }), ['a']);
      assert.deepEqual(await ids({ visibility: 'local_only', hideLocalOnly: true }), []);
      assert.deepEqual(await ids({ status: 'processing' }), ['2']);
      assert.deepEqual(await ids({ status: 'ready', limit: 2 }), ['a', 'B', '4', '3', '1']);
      assert.deepEqual(await ids({ sinceMs: Date.parse('2026-04-01T00:00:00.000Z') }), ['a', 'B', '4']);
      assert.deepEqual(
        await ids({
          sinceMs: Date.parse('2026-02-01T00:00:00.000Z'),
          untilMs: Date.parse('2026-04-01T00:00:00.000Z'),
        }),
        ['4', '3', '2'],
      );
      await assert.rejects(list({ cursor: 'nonsense' }), { code: 'invalid_request_body' });
    });

    it('tells a Record processing while its derivation is queued, then the Memories citing it', async () => {
      const uid = await brain();
      const [a, bb, c] = [`${uid}_a`, `${uid}_b`, `${uid}_c`];
      await b.units.write(uid, async (u) => {
        for (const id of [a, bb, c]) await u.records.insert(recordRow(uid, id));
      });
      await b.enqueueDerive(uid, a);
      await b.cite(uid, `${uid}_ma`, [bb, a]);
      await b.cite(uid, `${uid}_mB`, [bb]);
      const states = (ids: string[]) => b.units.read(uid, (u) => u.records.states(ids));
      assert.deepEqual(await states([c, a, bb, `${uid}_none`]), [
        { processing: false, memoryIds: [] },
        { processing: true, memoryIds: [] },
        { processing: false, memoryIds: [`${uid}_mB`, `${uid}_ma`] },
        { processing: false, memoryIds: [] },
      ]);
      assert.deepEqual(await states([]), []);
      const claimed = (await b.queue.claim(100, Date.now(), 60_000)).filter(
        (j) => j.job === 'derive' && j.recordId === a,
      );
      assert.equal(claimed.length, 1);
      assert.deepEqual(await states([a]), [{ processing: true, memoryIds: [] }], 'claimed is not done');
      await b.complete(uid, claimed);
      assert.deepEqual(await states([a]), [{ processing: false, memoryIds: [`${uid}_ma`] }]);
    });

    it('counts the Records and items of each source (revisions of one item once), by name bytewise, hiding local_only from a hosted reader', async () => {
      const uid = await brain();
      const other = await brain();
      await b.units.write(uid, async (u) => {
        const add = (suffix: string, o: RecordOptions) =>
          u.records.insert(recordRow(uid, `${uid}_${suffix}`, o));
        await add('1', { source_name: 'mail', external_id: 'm1', occurred_at: '2026-03-01T00:00:00.000Z' });
        await add('2', { source_name: 'mail', occurred_at: '2026-01-01T00:00:00.000Z' });
        await add('3', { source_name: 'Zeta', visibility: 'local_only' });
        await add('4', { source_name: 'chat', external_id: 'c1', occurred_at: '2026-02-01T00:00:00.000Z' });
        await add('5', {});
        // c1 edited: a second revision of the same item.
        await add('6', { source_name: 'chat', external_id: 'c1', occurred_at: '2026-02-01T00:00:00.000Z' });
      });
      await b.units.write(other, (u) =>
        u.records.insert(recordRow(other, `${other}_1`, { source_name: 'mail' })),
      );
      const ms = (at: string) => Date.parse(at);
      const sources = (hideLocalOnly: boolean) =>
        b.units.read(uid, (u) => u.records.sources({ hideLocalOnly }));
      assert.deepEqual(await sources(false), [
        {
          name: 'Zeta',
          records: 1,
          reconciled: 0,
          items: 1,
          first_ms: ms('2026-01-01T00:00:00.000Z'),
          last_ms: ms('2026-01-01T00:00:00.000Z'),
        },
        {
          name: 'chat',
          records: 2,
          reconciled: 2,
          items: 1,
          first_ms: ms('2026-02-01T00:00:00.000Z'),
          last_ms: ms('2026-02-01T00:00:00.000Z'),
        },
        {
          name: 'mail',
          records: 2,
          reconciled: 1,
          items: 2,
          first_ms: ms('2026-01-01T00:00:00.000Z'),
          last_ms: ms('2026-03-01T00:00:00.000Z'),
        },
      ]);
      assert.deepEqual(
        (await sources(true)).map((s) => s.name),
        ['chat', 'mail'],
      );
    });

    it("answers a source's external ids once each, of this Brain only, local_only ones when asked", async () => {
      const uid = await brain();
      const other = await brain();
      await b.units.write(uid, async (u) => {
        const note = (id: string, external_id: string | null, more: RecordOptions = {}) =>
          u.records.insert(recordRow(uid, `${uid}_${id}`, { source_name: 'markdown', external_id, ...more }));
        await note('a', 'Notes/todo.md');
        await note('b', 'Notes/todo.md'); // a later revision of the same note
        await note('c', 'Notes/secret.md', { visibility: 'local_only' });
        await note('d', null);
        await u.records.insert(recordRow(uid, `${uid}_e`, { source_name: 'mail', external_id: 'm1' }));
      });
      await b.units.write(other, (u) =>
        u.records.insert(
          recordRow(other, `${other}_f`, { source_name: 'markdown', external_id: 'Other/x.md' }),
        ),
      );
      const ids = (hideLocalOnly: boolean) =>
        b.units.read(uid, (u) => u.records.externalIdsOfSource('markdown', { hideLocalOnly }));
      assert.deepEqual((await ids(false)).sort(), ['Notes/secret.md', 'Notes/todo.md']);
      assert.deepEqual(await ids(true), ['Notes/todo.md']);
      assert.deepEqual(
        await b.units.read(uid, (u) => u.records.externalIdsOfSource('none', { hideLocalOnly: false })),
        [],
      );
    });

    it('finds the corrections whose kept target names a Record, of this Brain only, and replaces their content', async () => {
      const uid = await brain();
      const other = await brain();
      const correction = (brainUid: string, id: string, records: string[]) => ({
        ...recordRow(brainUid, id, { kind: 'correction' }),
        content: JSON.stringify({
          kind: 'correction',
          corrects: 'mem_x',
          target: { records, statement: 'the old words' },
        }),
      });
      await b.units.write(uid, async (u) => {
        await u.records.insert(correction(uid, `${uid}_c1`, [`${uid}_r1`, `${uid}_r2`]));
        await u.records.insert(correction(uid, `${uid}_c2`, [`${uid}_r3`]));
        await u.records.insert(recordRow(uid, `${uid}_m`));
      });
      await b.units.write(other, (u) => u.records.insert(correction(other, `${other}_c3`, [`${uid}_r2`])));
      const naming = async (ids: string[]) =>
        (await b.units.read(uid, (u) => u.records.correctionsNaming(ids))).map((r) => r.id);
      assert.deepEqual(await naming([`${uid}_r2`, `${uid}_r9`]), [`${uid}_c1`]);
      assert.deepEqual(await naming([`${uid}_r1`, `${uid}_r3`]), [`${uid}_c1`, `${uid}_c2`]);
      assert.deepEqual(await naming([]), []);
      const kept = JSON.stringify({ kind: 'correction', corrects: 'mem_x' });
      await b.units.write(uid, (u) => u.records.replaceCorrectionContent(`${uid}_c1`, kept));
      assert.equal((await b.units.read(uid, (u) => u.records.get(`${uid}_c1`)))?.content, kept);
      assert.deepEqual(await naming([`${uid}_r1`]), []);
    });

    it('names the Records of a source by write order and removes Records with what hangs on them', async () => {
      const uid = await brain();
      const other = await brain();
      const [ra, rb, rc] = [`${uid}_a`, `${uid}_b`, `${uid}_c`];
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, rb, { source_name: 'mail' }));
        await u.records.insert(recordRow(uid, ra, { source_name: 'mail', visibility: 'local_only' }));
        await u.records.insert(recordRow(uid, rc));
        await u.idempotency.remember('rememberRecord', 'k1', { bodyHash: 'h', target: { record: rb } });
      });
      await b.units.write(other, (u) =>
        u.records.insert(recordRow(other, `${other}_d`, { source_name: 'mail' })),
      );
      await b.enqueueDerive(uid, rb);
      await b.enqueueDerive(uid, rc);
      await b.cite(uid, `${uid}_m`, [rb, rc]);
      const ids = await b.units.read(uid, (u) => u.records.idsOfSource('mail'));
      assert.deepEqual(ids, [rb, ra], 'by write order, not by id');
      assert.deepEqual(await b.units.read(uid, (u) => u.records.idsOfSource('none')), []);

      await assert.rejects(
        b.units.write(uid, async (u) => {
          await u.records.remove(ids);
          throw new Error('rolled back');
        }),
        /rolled back/,
      );
      assert.equal(
        (await b.units.read(uid, (u) => u.records.list({ limit: 10, hideLocalOnly: false }))).rows.length,
        3,
      );
      assert.deepEqual((await b.leftovers(uid)).tombstones, []);

      const step = await b.units.write(uid, async (u) => {
        const seq = await u.sequence.next();
        await u.records.remove(ids);
        return seq;
      });
      await b.units.read(uid, async (u) => {
        assert.equal(await u.records.get(ra), null);
        assert.equal(await u.records.get(rb), null);
        assert.notEqual(await u.records.get(rc), null);
        assert.equal(await u.idempotency.find('rememberRecord', 'k1'), null);
        assert.deepEqual(await u.records.idsOfSource('mail'), []);
      });
      assert.deepEqual(await b.leftovers(uid), {
        citations: [[`${uid}_m`, rc]],
        jobs: [rc],
        // ra was local_only: nobody else ever held it, so no tombstone names it to the change feed.
        tombstones: [{ record_id: rb, seq: step }],
      });

      // Another Brain's Records are not this Brain's to remove.
      await b.units.write(uid, (u) => u.records.remove([`${other}_d`]));
      assert.notEqual(await b.units.read(other, (u) => u.records.get(`${other}_d`)), null);
      // The last support of a live Memory is not removed: forgetting settles the Memory first.
      await assert.rejects(
        b.units.write(uid, (u) => u.records.remove([rc])),
        /memory_without_lineage/,
      );
      assert.notEqual(await b.units.read(uid, (u) => u.records.get(rc)), null);
      await b.units.write(uid, (u) => u.records.remove([]));
    });

    it('reads slot holders: keys known, a first name, the self, and the Records behind the served holders', async () => {
      const uid = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const [r1, r2, r3, r4] = [m('r1'), m('r2'), m('r3'), m('r4')];
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, r1, { occurred_at: '2025-01-01T00:00:00.000Z' }));
        await u.records.insert(recordRow(uid, r2, { occurred_at: '2025-06-01T00:00:00.000Z' }));
        await u.records.insert(recordRow(uid, r3, { visibility: 'local_only', source_name: 'chat' }));
        await u.records.insert(recordRow(uid, r4, { occurred_at: '2025-07-01T00:00:00.000Z' }));
      });
      const bobLivesIn = 'bob silva\u001flives in';
      const lives = { predicate: 'lives in' };
      const held: [string, MemoryOptions, string[]][] = [
        [
          'lisbon',
          {
            ...lives,
            slot: anaLivesIn,
            statement: 'Ana lives in Lisbon',
            from: '2025-01-01T00:00:00.000Z',
            to: '2025-06-01T00:00:00.000Z',
            status: 'superseded',
          },
          [r1],
        ],
        [
          'porto',
          { ...lives, slot: anaLivesIn, statement: 'Ana lives in Porto', from: '2025-06-01T00:00:00.000Z' },
          [r4, r2],
        ],
        [
          'bob',
          {
            ...lives,
            slot: bobLivesIn,
            statement: 'Bob Silva lives in Braga',
            owner_state: 'other',
            from: '2025-08-01T00:00:00.000Z',
          },
          [r3],
        ],
        ['work', { slot: 'ana\u001fworks at', predicate: 'works at', statement: 'Ana works at Tuna' }, [r1]],
      ];
      for (const [id, row, cites] of held) await b.addMemory(memoryRow(uid, m(id), row), cites);
      const { slots } = b;
      assert.deepEqual(await slots.known(uid, [anaLivesIn, 'zed\u001flives in']), [anaLivesIn]);
      assert.deepEqual(await slots.ofFirstName(uid, 'bob', ['lives in', 'works at'], 20), [bobLivesIn]);
      assert.deepEqual(await slots.ofFirstName(uid, 'bo', ['lives in'], 20), [], 'a whole first word only');
      const scope = { brainUid: uid, excludeLocalOnly: false };
      const holders = (
        by: Parameters<SlotIndex['holdings']>[0]['by'],
        o: { readTimeMs?: number; limit?: number; hosted?: boolean; during?: [string, string] } = {},
      ) =>
        slots.holdings({
          scope: { ...scope, excludeLocalOnly: o.hosted ?? false },
          nowMs,
          readTimeMs: o.readTimeMs,
          during: o.during && { fromMs: Date.parse(o.during[0]), toMs: Date.parse(o.during[1]) },
          by,
          limit: o.limit ?? 10,
        });
      const ids = (rows: { recordId: string; memoryId: string }[]) =>
        rows.map((r) => [r.memoryId, r.recordId]);
      assert.deepEqual(ids(await holders({ slots: [anaLivesIn] })), [
        [m('porto'), r2],
        [m('porto'), r4],
      ]);
      assert.deepEqual(
        ids(await holders({ slots: [anaLivesIn] }, { readTimeMs: Date.parse('2025-03-01T00:00:00.000Z') })),
        [[m('lisbon'), r1]],
        'as of a world time, the holder then',
      );
      assert.deepEqual(
        ids(await holders({ slots: [anaLivesIn] }, { during: ['2025-03-01', '2025-07-01'] })),
        [
          [m('lisbon'), r1],
          [m('porto'), r2],
          [m('porto'), r4],
        ],
        'during a span, every holder then, the one that held the longest part of it first',
      );
      assert.deepEqual(
        ids(await holders({ slots: [anaLivesIn] }, { during: ['2025-06-01', '2025-06-02'] })),
        [
          [m('porto'), r2],
          [m('porto'), r4],
        ],
        'a holder whose interval ends where the span begins did not hold in it',
      );
      assert.deepEqual(
        ids(await holders({ predicates: ['lives in'] }, { during: ['2025-05-01', '2025-09-01'] })),
        [
          [m('porto'), r2],
          [m('porto'), r4],
          [m('lisbon'), r1],
          [m('bob'), r3],
        ],
        "during a span too, the Brain's own person first",
      );
      assert.deepEqual(
        ids(await holders({ predicates: ['lives in'] })),
        [
          [m('porto'), r2],
          [m('porto'), r4],
          [m('bob'), r3],
        ],
        "the Brain's own person first",
      );
      assert.deepEqual(
        ids(await holders({ predicates: ['lives in'] }, { hosted: true })),
        [
          [m('porto'), r2],
          [m('porto'), r4],
        ],
        'a holder with no Record the reader may see is none',
      );
      assert.deepEqual(
        ids(await holders({ predicates: ['lives in'] }, { limit: 1 })),
        [
          [m('porto'), r2],
          [m('porto'), r4],
        ],
        'the limit counts holders',
      );
      assert.equal((await holders({ slots: [anaLivesIn] }))[0]!.statement, 'Ana lives in Porto');
      const named = `${uid}_named`;
      await b.brains.create({ ...brainRow(named, named), self_type: 'person', self_name: 'Ana Sousa' });
      assert.equal(await slots.selfName(named), 'Ana Sousa');
      assert.equal(await slots.selfName(uid), null);
    });

    /**
     * A Brain whose Memories the reads below select from: one slot's values a (closed), B (in force,
     * closed later by C's start) and C (scheduled), an event d about a later date, e retracted, f
     * pending, g of a subject Ana's is a prefix of; Records r1 shareable, r2 local_only.
     */
    const memoriesBrain = async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const [r1, r2] = [m('r1'), m('r2')];
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, r1));
        await u.records.insert(recordRow(uid, r2, { visibility: 'local_only' }));
      });
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${other}_r1`)));
      // A lineage id is a slot's id, unique to its Brain (the engine makes ULIDs).
      const lineage = m('lin');
      const slot = { slot: anaLivesIn, lineage, predicate: 'lives in' };
      const rows = {
        B: memoryRow(uid, m('B'), {
          ...slot,
          version: 2,
          statement: 'Ana lives in MÜNCHEN',
          from: '2026-03-01T00:00:00.000Z',
          to: '2026-09-01T00:00:00.000Z',
          status: 'superseded',
          seq: 2,
        }),
        C: memoryRow(uid, m('C'), {
          ...slot,
          version: 3,
          statement: 'Ana lives in Paris',
          from: '2026-09-01T00:00:00.000Z',
          seq: 3,
        }),
        a: memoryRow(uid, m('a'), {
          ...slot,
          // Written about "me": found as Ana's by its slot, which keys the owner.
          subject: 'me',
          owner_entity: 'Ana',
          statement: 'Ana lives in Lisbon',
          to: '2026-03-01T00:00:00.000Z',
          status: 'superseded',
        }),
        d: memoryRow(uid, m('d'), {
          statement: 'Met Bob at the café',
          subject: 'Bob Ødegård',
          owner_state: 'other',
          owner_entity: 'Bob',
          from: '2026-12-01T00:00:00.000Z',
          seq: 3,
        }),
        e: memoryRow(uid, m('e'), { status: 'retracted', seq: 4 }),
        f: memoryRow(uid, m('f'), { statement: 'Ana lives in Lisbon too', pending: true, seq: 4 }),
        g: memoryRow(uid, m('g'), {
          slot: 'ana b\u001fage',
          lineage: m('lin2'),
          subject: 'Ana B',
          owner_state: 'other',
          owner_entity: 'Zoë',
          statement: 'Ana B is 30',
          seq: 4,
        }),
      };
      // Written out of version order: a lineage reads by version, not by write.
      await b.addMemory(rows.B, [r2, r1]);
      await b.addMemory(rows.C, [r2]);
      for (const k of ['a', 'd', 'e', 'f', 'g'] as const) await b.addMemory(rows[k], [r1]);
      await b.addMemory(memoryRow(other, `${other}_a`, { ...slot, lineage: `${other}_lin` }), [
        `${other}_r1`,
      ]);
      return { uid, other, m, r1, r2, rows, lineage };
    };

    it('reads the change feed: Records written and ids forgotten after a step, through a step, by step then id', async () => {
      const uid = await brain();
      const other = await brain();
      await b.units.write(other, async (u) => void (await u.records.insert(recordRow(other, 'rec_other'))));
      await b.units.write(uid, async (u) => {
        for (let i = 0; i < 4; i++) await u.sequence.next();
        await u.records.insert(recordRow(uid, 'rec_b', { seq: 1 }));
        await u.records.insert(recordRow(uid, 'rec_a', { seq: 2 }));
        await u.records.insert(recordRow(uid, 'rec_B', { seq: 2 }));
        await u.records.insert(recordRow(uid, 'rec_local', { seq: 3, visibility: 'local_only' }));
        await u.records.insert(recordRow(uid, 'rec_gone', { seq: 3 }));
        await u.records.insert(recordRow(uid, 'rec_Z', { seq: 4 }));
      });
      await b.units.write(uid, async (u) => {
        assert.equal(await u.sequence.next(), 5);
        await u.records.remove(['rec_gone', 'rec_Z']);
      });
      await b.units.read(uid, async (u) => {
        const ids = async (q: Parameters<RecordRepository['changes']>[0]) =>
          (await u.records.changes(q)).map((r) => [r.id, r.seq]);
        assert.deepEqual(await ids({ afterSeq: 0, hideLocalOnly: true }), [
          ['rec_b', 1],
          ['rec_B', 2],
          ['rec_a', 2],
        ]);
        assert.deepEqual(await ids({ afterSeq: 1, hideLocalOnly: false }), [
          ['rec_B', 2],
          ['rec_a', 2],
          ['rec_local', 3],
        ]);
        assert.deepEqual(await ids({ afterSeq: 1, limit: 1, hideLocalOnly: true }), [['rec_B', 2]]);
        const removals = await u.records.removals({ afterSeq: 0 });
        assert.deepEqual(
          removals.map((t) => [t.id, t.seq]),
          [
            ['rec_Z', 5],
            ['rec_gone', 5],
          ],
        );
        assert.ok(removals.every((t) => !Number.isNaN(Date.parse(t.forgotten_at))));
        assert.deepEqual(
          (await u.records.removals({ afterSeq: 0, limit: 1 })).map((t) => t.id),
          ['rec_Z'],
        );
        assert.deepEqual(await u.records.removals({ afterSeq: 5 }), []);
      });
    });

    it('reads the change feed on from a place inside a step, bytewise by id, then the steps after it', async () => {
      const uid = await brain();
      await b.units.write(uid, async (u) => {
        for (let i = 0; i < 3; i++) await u.sequence.next();
        for (const id of ['rec_pa', 'rec_pB', 'rec_pc'])
          await u.records.insert(recordRow(uid, id, { seq: 2 }));
        await u.records.insert(recordRow(uid, 'rec_pd', { seq: 3 }));
      });
      await b.units.write(uid, async (u) => {
        assert.equal(await u.sequence.next(), 4);
        await u.records.tombstone(['rec_px', 'rec_pY', 'rec_pz'], 4, '2026-02-01T00:00:00.000Z');
      });
      await b.units.write(uid, async (u) =>
        u.records.tombstone(['rec_pw'], await u.sequence.next(), '2026-03-01T00:00:00.000Z'),
      );
      await b.units.read(uid, async (u) => {
        const records = async (q: Parameters<RecordRepository['changes']>[0]) =>
          (await u.records.changes(q)).map((r) => r.id);
        assert.deepEqual(await records({ afterSeq: 2, afterId: 'rec_pB', hideLocalOnly: true }), [
          'rec_pa',
          'rec_pc',
          'rec_pd',
        ]);
        assert.deepEqual(await records({ afterSeq: 2, afterId: 'rec_pc', limit: 1, hideLocalOnly: true }), [
          'rec_pd',
        ]);
        const removals = async (q: Parameters<RecordRepository['removals']>[0]) =>
          (await u.records.removals(q)).map((t) => t.id);
        assert.deepEqual(await removals({ afterSeq: 4, afterId: 'rec_pY' }), ['rec_px', 'rec_pz', 'rec_pw']);
        assert.deepEqual(await removals({ afterSeq: 4, afterId: 'rec_px', limit: 1 }), ['rec_pz']);
      });
    });

    it("tells which ids a Brain forgot, and which another Brain's hold where ids span the store", async () => {
      const uid = await brain();
      const other = await brain();
      await b.units.write(other, async (u) => void (await u.records.insert(recordRow(other, 'rec_theirs'))));
      await b.units.write(uid, async (u) => {
        await u.sequence.next();
        await u.records.insert(recordRow(uid, 'rec_mine'));
        await u.records.insert(recordRow(uid, 'rec_dropped'));
      });
      await b.units.write(uid, async (u) => {
        await u.sequence.next();
        await u.records.remove(['rec_dropped']);
      });
      await b.units.read(uid, async (u) => {
        const asked = ['rec_mine', 'rec_dropped', 'rec_theirs', 'rec_never'];
        assert.deepEqual(await u.records.forgotten(asked), ['rec_dropped']);
        // SQLite keys Record ids across a device's Brains; PostgreSQL per Brain, and asks no other.
        assert.deepEqual(await u.records.idsHeldElsewhere(asked), idsSpanTheStore ? ['rec_theirs'] : []);
        assert.deepEqual(await u.records.forgotten([]), []);
      });
      await b.units.read(other, async (u) => {
        assert.deepEqual(
          await u.records.idsHeldElsewhere(['rec_mine', 'rec_theirs']),
          idsSpanTheStore ? ['rec_mine'] : [],
        );
        assert.deepEqual(await u.records.forgotten(['rec_dropped']), [], 'forgotten in another Brain only');
      });
    });

    it('keeps an id forgotten elsewhere refused, at the step it arrived, and a kept one as it was', async () => {
      const uid = await brain();
      await b.units.write(uid, async (u) => {
        await u.sequence.next();
        await u.records.insert(recordRow(uid, 'rec_here'));
      });
      await b.units.write(uid, async (u) => {
        const seq = await u.sequence.next();
        await u.records.remove(['rec_here']);
        await u.records.tombstone(['rec_away', 'rec_here'], seq, '2026-02-01T00:00:00.000Z');
      });
      await b.units.write(uid, async (u) =>
        u.records.tombstone(['rec_away', 'rec_far'], await u.sequence.next(), '2026-03-01T00:00:00.000Z'),
      );
      const removals = await b.units.read(uid, (u) => u.records.removals({ afterSeq: 0 }));
      assert.deepEqual(
        removals.map((t) => [t.id, t.seq]),
        [
          ['rec_away', 2],
          ['rec_here', 2],
          ['rec_far', 3],
        ],
      );
      assert.equal(removals.find((t) => t.id === 'rec_away')!.forgotten_at, '2026-02-01T00:00:00.000Z');
      assert.deepEqual(
        (await b.units.read(uid, (u) => u.records.forgotten(['rec_away', 'rec_far', 'rec_x']))).sort(),
        ['rec_away', 'rec_far'],
      );
    });

    it('reads a Memory by id, a lineage by version, citations by Memory then Record, local_only hidden', async () => {
      const { uid, other, m, r1, r2, rows, lineage: lin } = await memoriesBrain();
      await b.units.read(uid, async (u) => {
        const got = await u.memories.get(m('B'));
        assert.equal(typeof got?.n, 'number');
        assert.deepEqual(got, { ...rows.B, n: got!.n });
        assert.deepEqual(await u.memories.get(m('f')), { ...rows.f, n: (await u.memories.get(m('f')))!.n });
        assert.equal(await u.memories.get(`${other}_a`), null, "another Brain's Memory is none");
        assert.equal(await u.memories.get(m('none')), null);
        const lineage = async (shareableOnly: boolean, id = lin) =>
          (await u.memories.lineage(id, { shareableOnly })).map((v) => v.id);
        assert.deepEqual(await lineage(false), [m('a'), m('B'), m('C')]);
        assert.deepEqual(await lineage(true), [m('a'), m('B')], 'C cites a local_only Record alone');
        assert.deepEqual(await lineage(false, `${other}_lin`), [], "another Brain's lineage is none");
        assert.deepEqual(await u.memories.citations([m('a'), m('C'), m('B')], { shareableOnly: false }), [
          { memory_id: m('B'), record_id: r1, quote: `q:${r1}` },
          { memory_id: m('B'), record_id: r2, quote: `q:${r2}` },
          { memory_id: m('C'), record_id: r2, quote: `q:${r2}` },
          { memory_id: m('a'), record_id: r1, quote: `q:${r1}` },
        ]);
        assert.deepEqual(await u.memories.citations([m('a'), m('C'), m('B')], { shareableOnly: true }), [
          { memory_id: m('B'), record_id: r1, quote: `q:${r1}` },
          { memory_id: m('a'), record_id: r1, quote: `q:${r1}` },
        ]);
        assert.deepEqual(await u.memories.citations([], { shareableOnly: false }), []);
      });
    });

    it('lists Memories by id, bytewise, in pages a cursor continues, within each filter', async () => {
      const { uid, lineage } = await memoriesBrain();
      // `subject` and `owner` as listMemories takes them, resolved against the Brain's names.
      type Filter = Partial<Omit<MemoryFilter, 'owner'>> & {
        limit?: number;
        cursor?: string | undefined;
        subject?: string;
        owner?: string;
      };
      const list = ({ subject, owner, ...f }: Filter) =>
        b.units.read(uid, async (u) =>
          u.memories.list({
            nowMs,
            status: 'all',
            shareableOnly: false,
            limit: 10,
            ...(await whomNamed(u.memories, { subject, owner }, null)),
            ...f,
          }),
        );
      const pages = async (f: Filter) => {
        const seen: string[][] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 10; i++) {
          const page = await list({ ...f, cursor });
          seen.push(page.rows.map((row) => row.id.slice(uid.length + 1)));
          if (page.next === null) return seen;
          cursor = page.next;
        }
        assert.fail('the pages never ended');
      };
      const ids = async (f: Filter) => (await pages(f)).flat();
      // Pending f is never listed; bytewise, 'B' and 'C' sort before 'a'.
      assert.deepEqual(await pages({ limit: 2 }), [
        ['B', 'C'],
        ['a', 'd'],
        ['e', 'g'],
      ]);
      assert.deepEqual(await pages({ limit: 6 }), [['B', 'C', 'a', 'd', 'e', 'g']], 'a full page ends');
      assert.deepEqual(await ids({ status: 'current' }), ['B', 'd', 'g']);
      assert.deepEqual(await ids({ status: 'active' }), ['B', 'd', 'g']);
      assert.deepEqual(await ids({ status: 'scheduled' }), ['C']);
      assert.deepEqual(await ids({ status: 'superseded' }), ['a']);
      assert.deepEqual(await ids({ status: 'retracted' }), ['e']);
      assert.deepEqual(await ids({ status: 'current', nowMs: Date.parse('2026-10-01T00:00:00.000Z') }), [
        'C',
        'd',
        'g',
      ]);
      assert.deepEqual(await ids({ asOfMs: Date.parse('2026-02-01T00:00:00.000Z') }), ['a', 'g']);
      assert.deepEqual(await ids({ asOfMs: Date.parse('2026-10-01T00:00:00.000Z') }), ['C', 'g']);
      // Ana's slot values by their slot, e by its own subject; Ana B's too, "ana" being a word of hers.
      assert.deepEqual(await ids({ subject: 'ANA' }), ['B', 'C', 'a', 'e', 'g']);
      assert.deepEqual(await ids({ subject: 'ANA', status: 'current' }), ['B', 'g']);
      assert.deepEqual(await ids({ subject: 'ana b' }), ['g']);
      assert.deepEqual(await ids({ subject: 'bOB ødegård' }), ['d']);
      // Unicode's lower case, not ASCII's alone: Ø is ø and Ë is ë; and folded, the accents optional.
      assert.deepEqual(await ids({ subject: 'BOB ØDEGÅRD' }), ['d']);
      assert.deepEqual(await ids({ subject: 'ØDEGARD' }), ['d']);
      // A whole word of the name, not a part of one.
      assert.deepEqual(await ids({ subject: 'BOB' }), ['d']);
      assert.deepEqual(await ids({ subject: 'BO' }), []);
      assert.deepEqual(await ids({ owner: 'other' }), ['d', 'g']);
      assert.deepEqual(await ids({ owner: 'BOB' }), ['d']);
      assert.deepEqual(await ids({ owner: 'ZOë' }), ['g']);
      assert.deepEqual(await ids({ owner: 'ZOË' }), ['g']);
      // Folded as searches fold: the accent is optional.
      assert.deepEqual(await ids({ owner: 'ZOE' }), ['g']);
      assert.deepEqual(await ids({ owner: 'ZO' }), []);
      assert.deepEqual(await ids({ slot: lineage, limit: 1 }), ['B', 'C', 'a']);
      // The statement is folded as the words are (searchWords): MÜNCHEN is found as münchen or munchen.
      assert.deepEqual(await ids({ words: searchWords('münchen') }), ['B']);
      assert.deepEqual(await ids({ words: searchWords('Cafe BOB') }), ['d']);
      assert.deepEqual(await ids({ words: searchWords('lives ana') }), ['B', 'C', 'a']);
      assert.deepEqual(await ids({ words: searchWords('lives rome') }), []);
      // Or in whom a Memory is about, or whose it is: d is about Bob Ødegård, g is Zoë's.
      assert.deepEqual(await ids({ words: searchWords('ØDEGÅRD café') }), ['d']);
      assert.deepEqual(await ids({ words: searchWords('zoe 30') }), ['g']);
      assert.deepEqual(await ids({ shareableOnly: true }), ['B', 'a', 'd', 'e', 'g']);
      assert.deepEqual(await ids({ shareableOnly: true, slot: lineage }), ['B', 'a']);
      assert.deepEqual(await ids({ shareableOnly: true, slot: lineage, status: 'scheduled' }), []);
      assert.deepEqual(await ids({ contested: true }), []);
      await assert.rejects(list({ cursor: 'nonsense' }), { code: 'invalid_request_body' });
    });

    it("lists a person's Memories by a word of their name folded, page by page; a state word by its state, unfolded", async () => {
      const uid = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const r1 = m('r1');
      await b.units.write(uid, (u) => u.records.insert(recordRow(uid, r1)));
      const owned = {
        z1: ['other', 'Zoë'],
        z2: ['other', 'ZOË'],
        z3: ['other', 'zoe'],
        z4: ['other', 'Zoe Ann'],
        s1: ['other', 'Sélf'],
        s2: ['self', 'Ana'],
        s3: ['other', 'SELF'],
        st: ['other', 'Strauß'],
        u1: ['unresolved', null],
      } as const;
      for (const [k, [state, entity]] of Object.entries(owned))
        await b.addMemory(memoryRow(uid, m(k), { owner_state: state, owner_entity: entity }), [r1]);
      const pages = async (owner: string) => {
        const seen: string[][] = [];
        let cursor: string | undefined;
        do {
          const page = await b.units.read(uid, async (u) =>
            u.memories.list({
              nowMs,
              status: 'current',
              shareableOnly: false,
              ...(await whomNamed(u.memories, { owner }, null)),
              limit: 2,
              cursor,
            }),
          );
          seen.push(page.rows.map((row) => row.id.slice(uid.length + 1)));
          cursor = page.next ?? undefined;
        } while (cursor !== undefined);
        return seen;
      };
      // Zoe Ann by her first name too; her name whole, her alone.
      for (const zoe of ['zoe', 'ZOE', 'Zoë', 'zoë'])
        assert.deepEqual(await pages(zoe), [
          ['z1', 'z2'],
          ['z3', 'z4'],
        ]);
      assert.deepEqual(await pages('ann zoe'), [['z4']]);
      assert.deepEqual(await pages('strauss'), [['st']]);
      assert.deepEqual(await pages('STRAUß'), [['st']]);
      // A state word is the state, or an owner by that very word in any case, not one it folds to.
      assert.deepEqual(await pages('self'), [['s2', 's3']]);
      assert.deepEqual(await pages('unresolved'), [['u1']]);
      // Not a state word: a name, folded.
      assert.deepEqual(await pages('sélf'), [['s1', 's3']]);
      assert.deepEqual(await pages('Ana'), [['s2']]);
      assert.deepEqual(await pages('zo'), [[]]);
    });

    it('reads the Memories that changed after a step, through a step, by step then write order', async () => {
      const uid = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const [r1, r2] = [m('r1'), m('r2')];
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, r1));
        await u.records.insert(recordRow(uid, r2, { visibility: 'local_only' }));
      });
      // Two current values of one slot (a conflict), z written before y in the same step.
      const works = { slot: 'bob\u001fworks at', lineage: m('lin'), subject: 'Bob' };
      await b.addMemory(memoryRow(uid, m('z'), { ...works, seq: 2 }), [r1]);
      await b.addMemory(memoryRow(uid, m('x'), { seq: 1 }), [r1]);
      await b.addMemory(memoryRow(uid, m('y'), { ...works, version: 2, seq: 2 }), [r2]);
      await b.addMemory(memoryRow(uid, m('w'), { seq: 3, pending: true }), [r1]);
      await b.addMemory(memoryRow(uid, m('v'), { seq: 5, status: 'retracted' }), [r1]);
      type Delta = Partial<Parameters<MemoryReads['changes']>[0]>;
      const changes = async (q: Delta) =>
        (
          await b.units.read(uid, (u) =>
            u.memories.changes({ nowMs, status: 'all', shareableOnly: false, afterSeq: 0, ...q }),
          )
        ).map((v) => v.id.slice(uid.length + 1));
      assert.deepEqual(await changes({}), ['x', 'z', 'y', 'v']);
      assert.deepEqual(await changes({ afterSeq: 1 }), ['z', 'y', 'v']);
      assert.deepEqual(await changes({ afterSeq: 1, limit: 1 }), ['z']);
      assert.deepEqual(await changes({ afterSeq: 2 }), ['v']);
      assert.deepEqual(await changes({ afterSeq: 5 }), []);
      // From inside a step, by write order: after z (written first at step 2), y, then the steps after.
      const n = async (suffix: string) => (await b.units.read(uid, (u) => u.memories.get(m(suffix))))!.n;
      assert.deepEqual(await changes({ afterSeq: 2, afterN: await n('z') }), ['y', 'v']);
      assert.deepEqual(await changes({ afterSeq: 2, afterN: await n('z'), limit: 1 }), ['y']);
      assert.deepEqual(await changes({ afterSeq: 2, afterN: await n('y') }), ['v']);
      assert.deepEqual(await changes({ afterSeq: 1, afterN: await n('x'), shareableOnly: true }), ['z', 'v']);
      assert.deepEqual(await changes({ status: 'current' }), ['x', 'z', 'y']);
      assert.deepEqual(await changes({ shareableOnly: true }), ['x', 'z', 'v']);
      assert.deepEqual(await changes({ contested: true }), ['z', 'y']);
      assert.deepEqual(await changes({ contested: true, shareableOnly: true }), [], 'y is not served hosted');
      assert.deepEqual(
        (
          await b.units.read(uid, (u) =>
            u.memories.list({ nowMs, status: 'all', shareableOnly: false, contested: true, limit: 10 }),
          )
        ).rows.map((v) => v.id),
        [m('y'), m('z')],
      );
    });

    it('writes a version with its citations, changes it in place, moves its support, and removes it', async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const [r1, r2, r3] = [m('r1'), m('r2'), m('r3')];
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, r1));
        await u.records.insert(recordRow(uid, r2, { visibility: 'local_only' }));
        await u.records.insert(recordRow(uid, r3));
      });
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${other}_r1`)));
      const row = memoryRow(uid, m('a'), { slot: anaLivesIn, predicate: 'lives in', lineage: m('lin') });
      await b.units.write(uid, (u) =>
        u.memories.insert(row, [
          { record_id: r2, quote: 'two' },
          { record_id: r2, quote: 'again' },
        ]),
      );
      const written = await b.units.read(uid, (u) => u.memories.get(m('a')));
      assert.ok(written);
      assert.equal(typeof written.n, 'number');
      assert.deepEqual(written, { ...row, n: written.n });
      await b.units.read(uid, async (u) => {
        assert.deepEqual(await u.memories.citations([m('a')], { shareableOnly: false }), [
          { memory_id: m('a'), record_id: r2, quote: 'two' },
        ]);
        assert.equal(await u.memories.shareable(m('a')), false, 'its one Record is local_only');
      });
      await assert.rejects(
        b.units.write(uid, (u) => u.memories.insert(memoryRow(uid, m('none')), [])),
        /memory_without_lineage/,
      );

      const added = await b.units.write(uid, async (u) => [
        await u.memories.addCitation({ memory_id: m('a'), record_id: r1, quote: 'one' }, 7),
        await u.memories.addCitation({ memory_id: m('a'), record_id: r1, quote: 'one more' }, 8),
        await u.memories.addCitation({ memory_id: m('a'), record_id: r3, quote: 'three' }, 9),
        await u.memories.addCitation({ memory_id: `${other}_x`, record_id: r1, quote: 'one' }, 9),
      ]);
      assert.deepEqual(added, [true, false, true, false]);
      await b.units.read(uid, async (u) => {
        assert.equal((await u.memories.get(m('a')))?.seq, 9, 'an added citation moves the step');
        assert.deepEqual(
          (await u.memories.citations([m('a')], { shareableOnly: false })).map((c) => [c.record_id, c.quote]),
          [
            [r1, 'one'],
            [r2, 'two'],
            [r3, 'three'],
          ],
        );
        assert.equal(await u.memories.shareable(m('a')), true);
      });

      const changes = {
        statement: 'Ana lives in Porto',
        valid_from: '2026-02-01T00:00:00.000Z',
        valid_from_ms: Date.parse('2026-02-01T00:00:00.000Z'),
        valid_to: '2026-04-01T00:00:00.000Z',
        valid_to_ms: Date.parse('2026-04-01T00:00:00.000Z'),
        source_key: 'mail',
        status: 'superseded',
        pending: true,
        retracted_by: r1,
        revised_by: r3,
        seq: 10,
        learned_at: '2026-05-01T00:00:00.000Z',
        cause: 'rederived',
      } as const;
      await b.units.write(uid, async (u) => {
        await u.memories.update(m('a'), changes);
        await u.memories.dropCitations(m('a'), [r1, r3]);
        // Another Brain's version is not this Brain's to change.
        await u.memories.update(`${other}_x`, { seq: 99 });
      });
      await b.units.read(uid, async (u) => {
        assert.deepEqual(await u.memories.get(m('a')), { ...written, ...changes });
        assert.deepEqual(await u.memories.citations([m('a')], { shareableOnly: false }), [
          { memory_id: m('a'), record_id: r2, quote: 'two' },
        ]);
      });
      await b.units.write(uid, (u) =>
        u.memories.update(m('a'), { valid_to: null, valid_to_ms: null, pending: false, retracted_by: null }),
      );
      const back = await b.units.read(uid, (u) => u.memories.get(m('a')));
      assert.deepEqual(
        [back?.valid_to, back?.valid_to_ms, back?.pending, back?.retracted_by, back?.revised_by],
        [null, null, false, null, r3],
      );
      // The last citation of a live version stays: the storage refuses a Memory without one.
      await assert.rejects(
        b.units.write(uid, (u) => u.memories.dropCitations(m('a'), [r2])),
        /memory_without_lineage/,
      );

      await b.units.write(uid, (u) => u.memories.remove([m('a')]));
      await b.units.read(uid, async (u) => {
        assert.equal(await u.memories.get(m('a')), null);
        assert.deepEqual(await u.memories.citations([m('a')], { shareableOnly: false }), []);
      });
      assert.deepEqual((await b.leftovers(uid)).citations, []);
    });

    it("finds what derivation compares a claim with: a slot's versions, the same statement, a lineage to settle", async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const [r1, rev] = [m('r1'), m('rev')];
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, r1));
        await u.records.insert(recordRow(uid, rev, { occurred_at: '2026-04-01T00:00:00.000Z' }));
      });
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${other}_r1`)));
      const slot = { slot: anaLivesIn, predicate: 'lives in', lineage: m('lin') };
      await b.units.write(uid, async (u) => {
        // Written out of version order: a slot's versions are read by write order.
        await u.memories.insert(memoryRow(uid, m('v2'), { ...slot, version: 2, revised_by: rev }), [
          { record_id: r1, quote: 'q' },
        ]);
        await u.memories.insert(memoryRow(uid, m('v1'), { ...slot, status: 'superseded' }), [
          { record_id: r1, quote: 'q' },
        ]);
        for (const [id, o] of [
          ['s1', {}],
          ['s2', { owner_state: 'other', owner_entity: 'Bob' }],
          ['s3', { status: 'superseded' }],
          ['s4', { subject: 'Bob' }],
        ] as const)
          await u.memories.insert(
            memoryRow(uid, m(id), { statement: 'Same words', norm: 'same words', ...o }),
            [{ record_id: r1, quote: 'q' }],
          );
      });
      await b.units.write(other, (u) =>
        u.memories.insert(memoryRow(other, `${other}_v`, { ...slot, lineage: `${other}_lin` }), [
          { record_id: `${other}_r1`, quote: 'q' },
        ]),
      );
      await b.units.read(uid, async (u) => {
        assert.deepEqual(
          (await u.memories.slotVersions(anaLivesIn)).map((v) => v.id),
          [m('v2'), m('v1')],
        );
        assert.deepEqual(await u.memories.slotVersions('bob\u001fage'), []);
        const same = (o: Partial<MemoryVersionRow> = {}) =>
          u.memories.sameStatement({
            norm: 'same words',
            subject: 'Ana',
            owner_state: 'self',
            owner_entity: null,
            ...o,
          });
        assert.equal(await same(), m('s1'));
        assert.equal(await same({ owner_state: 'other', owner_entity: 'Bob' }), m('s2'));
        assert.equal(await same({ owner_state: 'other', owner_entity: 'bob' }), null);
        assert.equal(await same({ subject: 'Bob' }), m('s4'));
        assert.equal(await same({ subject: 'ana' }), null);
        assert.equal(await same({ norm: 'other words' }), null);
        const settling = await u.memories.settling(m('lin'));
        assert.deepEqual(
          settling.map((v) => [v.id, v.status, v.revised_at, v.revised_ms]),
          [
            [m('v2'), 'active', '2026-04-01T00:00:00.000Z', Date.parse('2026-04-01T00:00:00.000Z')],
            [m('v1'), 'superseded', null, null],
          ],
        );
        assert.equal(settling[1]!.norm, 'statement of ' + m('v1').toLowerCase());
        assert.deepEqual(await u.memories.settling(`${other}_lin`), [], "another Brain's lineage is none");
      });
    });

    it('finds the whole names that hold a slot by their first word, of this Brain only, in any status', async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      await b.units.write(uid, (u) => u.records.insert(recordRow(uid, m('r1'))));
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${other}_r1`)));
      const slotted = (
        subject: string,
        predicate: string,
        status: MemoryVersionRow['status'] = 'active',
      ) => ({
        subject,
        slot: `${subject.toLowerCase()}\u001f${predicate}`,
        predicate,
        lineage: m(`lin_${subject}_${predicate}`),
        status,
      });
      await b.units.write(uid, async (u) => {
        for (const [id, o] of [
          ['a', slotted('Marko Babić', 'birthday')],
          ['b', slotted('Marko Babić', 'works at', 'superseded')],
          ['c', slotted('Markov Chain', 'works at')],
          ['d', slotted('Marko', 'birthday')],
          ['e', slotted('Ana Kovač', 'birthday')],
          ['f', { subject: 'Marko Horvat' }],
        ] as const)
          await u.memories.insert(memoryRow(uid, m(id), o), [{ record_id: m('r1'), quote: 'q' }]);
      });
      await b.units.write(other, (u) =>
        u.memories.insert(
          memoryRow(other, `${other}_v`, { ...slotted('Marko Kos', 'birthday'), lineage: `${other}_l` }),
          [{ record_id: `${other}_r1`, quote: 'q' }],
        ),
      );
      await b.units.read(uid, async (u) => {
        const found = async (firsts: string[]) =>
          (await u.memories.subjectsFirstNamed(firsts)).map((r) => `${r.first}: ${r.subject}`).sort();
        // Not "Marko" alone, "Markov Chain", a Memory of no slot, nor another Brain's.
        assert.deepEqual(await found(['marko']), ['marko: Marko Babić']);
        assert.deepEqual(await found(['marko', 'ana', 'ivo']), ['ana: Ana Kovač', 'marko: Marko Babić']);
        assert.deepEqual(await found([]), []);
      });
    });

    it("reads the statements of a slot's predicate, of this Brain only, any status but retracted", async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      await b.units.write(uid, (u) => u.records.insert(recordRow(uid, m('r1'))));
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${other}_r1`)));
      const held = (
        subject: string,
        predicate: string,
        statement: string,
        o: Partial<MemoryVersionRow> = {},
      ): Partial<MemoryVersionRow> => ({
        subject,
        slot: `${subject.toLowerCase()}\u001f${predicate}`,
        predicate,
        statement,
        lineage: m(`lin_${statement}`),
        ...o,
      });
      await b.units.write(uid, async (u) => {
        for (const [id, o] of [
          ['a', held('Lea Horvat', 'works at', 'Lea Horvat works at Infobip')],
          ['b', held('Lea Horvat', 'works at', 'Lea Horvat works at Span', { status: 'superseded' })],
          ['c', held('Ana', 'lives in', 'Ana lives in Zagreb', { pending: true })],
          ['d', held('Ana', 'lives in', 'Ana lives in Julia', { status: 'retracted' })],
          ['e', held('Ana', 'birthday', 'Ana birthday: May 3')],
          // The same words of a second lineage are read once.
          ['f', held('Lea Horvat', 'works at', 'Lea Horvat works at Infobip', { lineage: m('lin_again') })],
          ['g', { subject: 'Lea Horvat', predicate: 'works at', statement: 'I work at Acme' }],
        ] as const)
          await u.memories.insert(memoryRow(uid, m(id), o), [{ record_id: m('r1'), quote: 'q' }]);
      });
      await b.units.write(other, (u) =>
        u.memories.insert(
          memoryRow(other, `${other}_v`, {
            ...held('Ivo', 'works at', 'Ivo works at Globex'),
            lineage: `${other}_l`,
          }),
          [{ record_id: `${other}_r1`, quote: 'q' }],
        ),
      );
      await b.units.read(uid, async (u) => {
        const read = async (predicates: string[]) =>
          (await u.memories.slotStatements(predicates)).map((r) => `${r.predicate}: ${r.statement}`).sort();
        // Not a retracted value, a Memory of no slot, another predicate, nor another Brain's.
        assert.deepEqual(await read(['works at', 'lives in']), [
          'lives in: Ana lives in Zagreb',
          'works at: Lea Horvat works at Infobip',
          'works at: Lea Horvat works at Span',
        ]);
        assert.deepEqual(await read(['studies at']), []);
        assert.deepEqual(await read([]), []);
      });
    });

    /** A Brain with one Record, and Memories of the same words citing it (`words`, by id suffix). */
    const sameWordsBrain = async () => {
      const uid = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const r1 = m('r1');
      await b.units.write(uid, (u) => u.records.insert(recordRow(uid, r1)));
      const words = (id: string, o: Partial<MemoryVersionRow> = {}) =>
        memoryRow(uid, m(id), { statement: 'Same words', norm: 'same words', ...o });
      return { uid, m, words, cite: [{ record_id: r1, quote: 'q' }] };
    };

    it('finds a Memory written earlier in its unit or batch, the oldest first, and none of a unit rolled back', async () => {
      const { uid, m, words, cite } = await sameWordsBrain();
      const same = (u: BrainUnitOfWork, o: Partial<MemoryVersionRow> = {}) =>
        u.memories.sameStatement({
          norm: 'same words',
          subject: 'Ana',
          owner_state: 'self',
          owner_entity: null,
          ...o,
        });
      const found = await b.units.write(uid, async (u) => {
        const before = await same(u);
        await u.memories.insert(words('a'), cite);
        await u.memories.insert(words('b'), cite);
        await u.memories.insert(words('bob', { owner_state: 'other', owner_entity: 'Bob' }), cite);
        return [before, await same(u), await same(u, { owner_state: 'other', owner_entity: 'Bob' })];
      });
      assert.deepEqual(found, [null, m('a'), m('bob')]);
      const batch = await Promise.allSettled([
        b.units.write(
          uid,
          async (u) => {
            await u.memories.insert(words('x', { subject: 'Cy' }), cite);
            throw new Error('this unit fails');
          },
          { batch: true },
        ),
        b.units.write(
          uid,
          async (u) => {
            await u.memories.insert(words('c', { subject: 'Bo' }), cite);
            return [await same(u), await same(u, { subject: 'Cy' })];
          },
          { batch: true },
        ),
        b.units.write(
          uid,
          async (u) => ({ same: await same(u, { subject: 'Bo' }), got: await u.memories.get(m('c')) }),
          { batch: true },
        ),
      ]);
      assert.equal(batch[0].status, 'rejected');
      assert.deepEqual(batch[1].status === 'fulfilled' && batch[1].value, [m('a'), null]);
      const third = batch[2].status === 'fulfilled' ? batch[2].value : null;
      assert.equal(third?.same, m('c'), "a later unit of the batch finds the earlier one's Memory");
      assert.equal(third?.got?.id, m('c'));
      await b.units.read(uid, async (u) => {
        assert.equal(await u.memories.get(m('x')), null, "the failed unit's Memory was not written");
        assert.deepEqual(
          (await u.memories.citations([m('a'), m('b'), m('c')], { shareableOnly: false })).map(
            (c) => c.memory_id,
          ),
          [m('a'), m('b'), m('c')],
        );
      });
    });

    it('answers identical statements read ahead as it answers them one by one, also after a Memory changes', async () => {
      const { uid, m, words, cite } = await sameWordsBrain();
      await b.units.write(uid, async (u) => {
        await u.memories.insert(words('a'), cite);
        await u.memories.insert(words('b', { subject: 'Bo' }), cite);
      });
      const ana = { norm: 'same words', subject: 'Ana', owner_state: 'self', owner_entity: null } as const;
      const bo = { ...ana, subject: 'Bo' };
      const none = { ...ana, norm: 'no such words' };
      const unit = <T>(work: (u: BrainUnitOfWork) => Promise<T>) => b.units.write(uid, work, { batch: true });
      const answers = await Promise.all([
        unit(async (u) => {
          await u.memories.prefetchSame([ana, bo, none]);
          return [
            await u.memories.sameStatement(ana),
            await u.memories.sameStatement(bo),
            await u.memories.sameStatement(none),
          ];
        }),
        unit(async (u) => {
          await u.memories.update(m('a'), { status: 'superseded' });
          return [await u.memories.sameStatement(ana)];
        }),
        unit(async (u) => {
          await u.memories.prefetchSame([ana]);
          await u.memories.insert(words('c'), cite);
          return [await u.memories.sameStatement(ana)];
        }),
        unit(async (u) => {
          await u.memories.prefetchSame([ana, bo]);
          return [await u.memories.sameStatement(ana), await u.memories.sameStatement(bo)];
        }),
      ]);
      assert.deepEqual(answers, [[m('a'), m('b'), null], [null], [m('c')], [m('c'), m('b')]]);
    });

    it('tells what forgetting Records touches and what a newer revision of an item replaces', async () => {
      const uid = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const item = { source_name: 'mail', external_id: 'msg-1' };
      const records = await b.units.write(uid, async (u) => ({
        r1: await stored(u, recordRow(uid, m('r1'))),
        r2: await stored(u, recordRow(uid, m('r2'))),
        old1: await stored(u, recordRow(uid, m('old1'), item)),
        old2: await stored(u, recordRow(uid, m('old2'), item)),
        otherItem: await stored(u, recordRow(uid, m('oi'), { source_name: 'mail', external_id: 'msg-2' })),
        now: await stored(u, recordRow(uid, m('now'), item)),
        later: await stored(u, recordRow(uid, m('later'), item)),
      }));
      const q = (r: { id: string }) => ({ record_id: r.id, quote: 'q' });
      await b.units.write(uid, async (u) => {
        await u.memories.insert(memoryRow(uid, m('a'), { lineage: m('la') }), [q(records.r1), q(records.r2)]);
        await u.memories.insert(memoryRow(uid, m('b'), { lineage: m('lb') }), [q(records.r2)]);
        await u.memories.insert(memoryRow(uid, m('c'), { lineage: m('lc'), retracted_by: m('r1') }), [
          q(records.r2),
        ]);
        await u.memories.insert(memoryRow(uid, m('d'), { lineage: m('ld'), revised_by: m('r1') }), [
          q(records.r2),
        ]);
        // Only on older revisions of the item: replaced by `now`.
        await u.memories.insert(memoryRow(uid, m('e'), { lineage: m('le') }), [
          q(records.old1),
          q(records.old2),
        ]);
        // Also on another item, on a later revision, on the revision itself, or replaced already: kept.
        await u.memories.insert(memoryRow(uid, m('f'), { lineage: m('lf') }), [
          q(records.old1),
          q(records.otherItem),
        ]);
        await u.memories.insert(memoryRow(uid, m('g'), { lineage: m('lg') }), [
          q(records.old1),
          q(records.later),
        ]);
        await u.memories.insert(memoryRow(uid, m('h'), { lineage: m('lh') }), [
          q(records.old2),
          q(records.now),
        ]);
        await u.memories.insert(memoryRow(uid, m('i'), { lineage: m('li'), revised_by: m('old2') }), [
          q(records.old1),
        ]);
      });
      await b.units.read(uid, async (u) => {
        const citing = await u.memories.citing([m('r1'), m('r2')]);
        assert.deepEqual(citing.map((c) => [c.id, c.lineage, c.remaining]).sort(), [
          [m('a'), m('la'), 0],
          [m('b'), m('lb'), 0],
          [m('c'), m('lc'), 0],
          [m('d'), m('ld'), 0],
        ]);
        assert.deepEqual(
          (await u.memories.citing([m('r1'), m('old1')])).map((c) => [c.id, c.remaining]).sort(),
          [
            [m('a'), 1],
            [m('e'), 1],
            [m('f'), 1],
            [m('g'), 1],
            [m('i'), 0],
          ],
        );
        assert.deepEqual(
          (await u.memories.citing([m('r1'), m('old1'), m('r1')])).map((c) => [c.id, c.remaining]).sort(),
          [
            [m('a'), 1],
            [m('e'), 1],
            [m('f'), 1],
            [m('g'), 1],
            [m('i'), 0],
          ],
          'a Record named twice counts once',
        );
        assert.deepEqual(await u.memories.citing([]), []);
        assert.deepEqual((await u.memories.namedBy(m('r1'))).sort(), [m('lc'), m('ld')]);
        assert.deepEqual(await u.memories.namedBy(m('r2')), []);
        const revision = (r: RecordRow) => u.memories.onOlderRevisions(r);
        assert.deepEqual(await revision(records.now), [{ id: m('e'), lineage: m('le') }]);
        assert.deepEqual(await revision(records.old1), [], 'no older revision');
        assert.deepEqual(await revision(records.r1), [], 'no external item');
        assert.deepEqual((await revision(records.later)).map((r) => r.id).sort(), [m('e'), m('h')]);
      });
    });

    /** Records of a Context's cases, written in this order; `local` ones are local_only. */
    const contextBrain = async () => {
      const uid = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const at = (day: string) => ({ occurred_at: `2026-${day}T00:00:00.000Z` });
      const item = { source_name: 'mail', external_id: 'msg-1' };
      await b.units.write(uid, async (u) => {
        for (const [id, o] of [
          ['r1', at('01-01')],
          ['r2', at('02-01')],
          ['r3', { ...at('03-01'), visibility: 'local_only' }],
          ['r4', at('04-01')],
          ['r5', { ...at('05-01'), source_name: 'chat' }],
          ['old', { ...item, ...at('01-01') }],
          ['mid', { ...item, ...at('02-01') }],
          ['new', { ...item, ...at('05-01') }],
          // The same external id from another source is another item.
          ['chat1', { source_name: 'chat', external_id: 'msg-1', ...at('06-01') }],
          ['corr', { kind: 'correction', ...at('01-01') }],
          // A correction no Memory cites: never evidence.
          ['bare', { kind: 'correction', ...at('01-01') }],
        ] as const)
          await u.records.insert(recordRow(uid, m(id), o as RecordOptions));
      });
      // Another Brain's Record, cited there: none of this Brain's.
      const other = await brain();
      await b.addRecord(other, `${other}_r1`);
      await b.cite(other, `${other}_m`, [`${other}_r1`]);
      return { uid, m, elsewhere: `${other}_r1` };
    };
    const scopeOf = (uid: string, o: { asOfMs?: number; sources?: string[]; local?: boolean } = {}) => ({
      brainUid: uid,
      excludeLocalOnly: o.local === false,
      ...(o.asOfMs !== undefined ? { asOfMs: o.asOfMs } : {}),
      ...(o.sources ? { sources: o.sources } : {}),
    });

    it("reads a Context's candidates: their Records, the newest revision it may see, the state of each citing version", async () => {
      const { uid, m, elsewhere } = await contextBrain();
      const slot = { slot: anaLivesIn, lineage: m('lin'), predicate: 'lives in' };
      await b.addMemory(memoryRow(uid, m('s'), { statement: 'Ana likes tea' }), [m('r1')]);
      await b.addMemory(
        memoryRow(uid, m('x'), { ...slot, to: '2026-03-01T00:00:00.000Z', status: 'superseded' }),
        [m('r1')],
      );
      await b.addMemory(memoryRow(uid, m('p'), { pending: true }), [m('r1')]);
      await b.addMemory(memoryRow(uid, m('t'), { status: 'retracted' }), [m('r2')]);
      await b.addMemory(memoryRow(uid, m('y'), { ...slot, version: 2, from: '2026-09-01T00:00:00.000Z' }), [
        m('r2'),
        m('r4'),
      ]);
      const read = (ids: string[], o: Parameters<typeof scopeOf>[1] & { readMs?: number } = {}) =>
        b.units.read(uid, (u) =>
          u.context.evidence(
            ids.map((id) => (id.startsWith('brn_') ? id : m(id))),
            { scope: scopeOf(uid, o), readMs: o.readMs, nowMs },
          ),
        );
      const all = await read(['r1', 'r2', 'old', 'mid', 'new', 'chat1', 'none', elsewhere]);
      assert.deepEqual(
        all.records.map((r) => r.id).sort(),
        ['r1', 'r2', 'old', 'mid', 'new', 'chat1'].map(m).sort(),
      );
      const r1 = all.records.find((r) => r.id === m('r1'))!;
      assert.deepEqual(r1, {
        id: m('r1'),
        kind: 'message',
        content: JSON.stringify({ kind: 'message', text: `text of ${m('r1')}` }),
        text: `text of ${m('r1')}`,
        source_name: null,
        occurred_at: '2026-01-01T00:00:00.000Z',
        visibility: 'shareable',
      });
      const newer = (got: typeof all) => got.newer.map((n) => [n.id, n.newer]).sort();
      assert.deepEqual(newer(all), [
        [m('mid'), m('new')],
        [m('old'), m('new')],
      ]);
      const feb = Date.parse('2026-02-15T00:00:00.000Z');
      assert.deepEqual(newer(await read(['old', 'mid'], { asOfMs: feb })), [[m('old'), m('mid')]]);
      assert.deepEqual(newer(await read(['old'], { sources: ['chat'] })), [], 'another source filtered out');
      const state = (c: (typeof all.citing)[number]) =>
        [c.recordId, c.memoryId, c.quote, c.served, c.pending, c.retracted, c.later].join(' ');
      assert.deepEqual(all.citing.map(state), [
        `${m('r1')} ${m('p')} q:${m('r1')} false true false false`,
        `${m('r1')} ${m('s')} q:${m('r1')} true false false false`,
        `${m('r1')} ${m('x')} q:${m('r1')} false false false false`,
        `${m('r2')} ${m('t')} q:${m('r2')} false false true false`,
        `${m('r2')} ${m('y')} q:${m('r2')} false false false true`,
      ]);
      // Each version's world-time interval, for a Context asking about a window of its own.
      const interval = (id: string) => {
        const c = all.citing.find((v) => v.memoryId === m(id))!;
        return [c.validFromMs, c.validToMs];
      };
      assert.deepEqual(interval('x'), [
        Date.parse('2026-01-01T00:00:00.000Z'),
        Date.parse('2026-03-01T00:00:00.000Z'),
      ]);
      assert.deepEqual(interval('s'), [Date.parse('2026-01-01T00:00:00.000Z'), null]);
      // At a read time within x's interval x is served; y, starting later still, is later.
      assert.deepEqual((await read(['r1', 'r2'], { readMs: feb })).citing.map(state), [
        `${m('r1')} ${m('p')} q:${m('r1')} false true false false`,
        `${m('r1')} ${m('s')} q:${m('r1')} true false false false`,
        `${m('r1')} ${m('x')} q:${m('r1')} true false false false`,
        `${m('r2')} ${m('t')} q:${m('r2')} false false true false`,
        `${m('r2')} ${m('y')} q:${m('r2')} false false false true`,
      ]);
      assert.deepEqual(await read([]), { records: [], newer: [], citing: [] });
    });

    it("reads what a Context's evidence leads to: successors, slot values, served Memories, visible Records", async () => {
      const { uid, m, elsewhere } = await contextBrain();
      const lives = { slot: anaLivesIn, lineage: m('L'), predicate: 'lives in' };
      const works = { slot: 'ana\u001fworks at', lineage: m('W'), predicate: 'works at' };
      const rows = {
        a: memoryRow(uid, m('a'), {
          ...lives,
          statement: 'Ana lives in Porto',
          to: '2026-03-01T00:00:00.000Z',
          status: 'superseded',
        }),
        b: memoryRow(uid, m('b'), {
          ...lives,
          version: 2,
          statement: 'Ana lives in Braga',
          from: '2026-03-01T00:00:00.000Z',
        }),
        c: memoryRow(uid, m('c'), {
          ...lives,
          version: 3,
          statement: 'Ana lives in Faro',
          from: '2026-09-01T00:00:00.000Z',
        }),
        bw: memoryRow(uid, m('bw'), { ...works, statement: 'Ana works at Beta' }),
        w1: memoryRow(uid, m('w1'), { ...works, version: 2, statement: 'Ana works at Acme' }),
        n: memoryRow(uid, m('n'), { statement: 'Ana likes tea' }),
      };
      await b.addMemory(rows.a, [m('r1')]);
      await b.addMemory(rows.b, [m('r2'), m('r3'), m('r4')]);
      await b.addMemory(rows.c, [m('r5')]);
      await b.addMemory(rows.bw, [m('r3')]);
      await b.addMemory(rows.w1, [m('r4'), m('corr')]);
      await b.addMemory(rows.n, [m('r1')]);
      const now = (o: Parameters<typeof scopeOf>[1] = {}, readMs?: number) => ({
        scope: scopeOf(uid, o),
        readMs,
        nowMs,
      });
      const feb = Date.parse('2026-02-15T00:00:00.000Z');
      await b.units.read(uid, async (u) => {
        const successors = (ids: string[], at = now(), limit = 2) =>
          u.context.successors(ids.map(m), at, limit);
        assert.deepEqual(await successors(['a']), [m('r4'), m('r3')], 'newest first, up to the limit');
        assert.deepEqual(await successors(['a'], now(), 5), [m('r4'), m('r3'), m('r2')]);
        assert.deepEqual(await successors(['a'], now({ local: false })), [m('r4'), m('r2')]);
        assert.deepEqual(await successors(['a'], now({ asOfMs: Date.parse('2026-02-15T00:00:00.000Z') })), [
          m('r2'),
        ]);
        assert.deepEqual(await successors(['a'], now({}, feb)), [], 'at the read time a itself is served');
        assert.deepEqual(await successors(['b'], now(), 5), [], 'b has no other served version');
        assert.deepEqual(await successors([]), []);

        const values = async (ids: string[], at = now()) =>
          (await u.context.slotValues(ids.map(m), at)).map((v) => [v.id, v.lineage, v.predicate]);
        // The slot of the least id named first (a < bw; then bw < c), each slot's values by write order.
        assert.deepEqual(await values(['bw', 'n', 'a']), [
          [m('b'), m('L'), 'lives in'],
          [m('bw'), m('W'), 'works at'],
          [m('w1'), m('W'), 'works at'],
        ]);
        assert.deepEqual(await values(['w1', 'bw', 'c']), [
          [m('bw'), m('W'), 'works at'],
          [m('w1'), m('W'), 'works at'],
          [m('b'), m('L'), 'lives in'],
        ]);
        assert.deepEqual(await values(['w1']), [
          [m('bw'), m('W'), 'works at'],
          [m('w1'), m('W'), 'works at'],
        ]);
        assert.deepEqual(await values(['b', 'n'], now({}, feb)), [[m('a'), m('L'), 'lives in']]);
        const b0 = (await u.context.slotValues([m('b')], now()))[0];
        assert.deepEqual(b0, {
          id: m('b'),
          lineage: m('L'),
          statement: 'Ana lives in Braga',
          subject: 'Ana',
          predicate: 'lives in',
          valid_from: '2026-03-01T00:00:00.000Z',
        });
        assert.deepEqual(await values(['n']), []);
        assert.deepEqual(await values([]), []);

        const served = async (ids: string[], at = now()) =>
          (await u.context.served(ids.map(m), at)).map((r) => r.id);
        assert.deepEqual(await served(['n', 'c', 'b', 'a', 'w1', 'none']), [m('b'), m('n'), m('w1')]);
        assert.deepEqual(await served(['n', 'c', 'b', 'a'], now({}, feb)), [m('a'), m('n')]);
        const [row] = await u.context.served([m('b')], now());
        assert.deepEqual(row, { ...rows.b, n: row!.n });
        assert.deepEqual(await u.context.served([], now()), []);

        const visible = async (o: Parameters<typeof scopeOf>[1] = {}) =>
          (
            await u.context.visible(
              ['r1', 'r2', 'r3', 'r5', 'corr', 'bare', 'none'].map(m).concat(elsewhere),
              scopeOf(uid, o),
            )
          ).sort();
        assert.deepEqual(await visible(), ['r1', 'r2', 'r3', 'r5', 'corr'].map(m).sort());
        assert.deepEqual(await visible({ local: false }), ['r1', 'r2', 'r5', 'corr'].map(m).sort());
        assert.deepEqual(await visible({ sources: ['chat'] }), [m('r5')]);
        assert.deepEqual(await visible({ asOfMs: feb }), ['r1', 'r2', 'corr'].map(m).sort());
        assert.deepEqual(await u.context.visible([], scopeOf(uid)), []);
      });
    });

    it("reads the profile: the self's current Memories, health lines first, then slot lines, each group latest valid_from first, then last written", async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, m('r1')));
        await u.records.insert(recordRow(uid, m('r2'), { visibility: 'local_only' }));
      });
      const lives = { slot: anaLivesIn, lineage: m('L'), predicate: 'lives in' };
      const rows: [string, MemoryOptions, string][] = [
        ['p1', {}, 'r1'],
        ['P2', { from: '2026-03-01T00:00:00.000Z' }, 'r1'],
        // As recent as P2 and written after it: before it.
        ['p3', { from: '2026-03-01T00:00:00.000Z' }, 'r1'],
        // A statement of no slot is current from when it is known, whatever date it is about.
        ['fut', { from: '2026-12-01T00:00:00.000Z' }, 'r1'],
        ['loc', { from: '2026-02-01T00:00:00.000Z' }, 'r2'],
        ['old', { ...lives, to: '2026-03-01T00:00:00.000Z', status: 'superseded' }, 'r1'],
        ['sch', { ...lives, version: 2, from: '2026-09-01T00:00:00.000Z' }, 'r1'],
        ['pen', { pending: true }, 'r1'],
        ['ret', { status: 'retracted' }, 'r1'],
        ['rev', { revised_by: m('r1') }, 'r1'],
        ['oth', { owner_state: 'other', owner_entity: 'Bob' }, 'r1'],
        ['unr', { owner_state: 'unresolved' }, 'r1'],
        // Health, by its words: before every other line however old, a slot's value too.
        ['alg', { statement: "I'm allergic to penicillin.", from: '2025-01-01T00:00:00.000Z' }, 'r1'],
        [
          'med',
          {
            statement: 'Ana medication: insulin',
            slot: 'ana\u001fmedication',
            lineage: m('M'),
            predicate: 'medication',
            from: '2025-06-01T00:00:00.000Z',
          },
          'r1',
        ],
        ['bob', { statement: 'Bob is allergic to cats.', owner_state: 'other', owner_entity: 'Bob' }, 'r1'],
        [
          'oldAlg',
          { statement: "I'm allergic to walnuts.", to: '2026-03-01T00:00:00.000Z', status: 'superseded' },
          'r1',
        ],
      ];
      for (const [id, o, r] of rows) await b.addMemory(memoryRow(uid, m(id), o), [m(r)]);
      await b.addRecord(other, `${other}_r1`);
      await b.addMemory(memoryRow(other, `${other}_p`), [`${other}_r1`]);
      const self = async (
        q: {
          nowMs?: number;
          shareableOnly?: boolean;
          limit?: number;
          after?: { group: ProfileGroup; validFromMs: number; n: number };
        } = {},
      ) =>
        (
          await b.units.read(uid, (u) =>
            profileLines(u.memories, { nowMs, shareableOnly: false, limit: 10, ...q }),
          )
        ).map((v) => v.id.slice(uid.length + 1));
      assert.deepEqual(await self(), ['med', 'alg', 'fut', 'p3', 'P2', 'loc', 'p1']);
      assert.deepEqual(await self({ limit: 3 }), ['med', 'alg', 'fut']);
      assert.deepEqual(
        await self({ shareableOnly: true }),
        ['med', 'alg', 'fut', 'p3', 'P2', 'p1'],
        'loc cites local_only',
      );
      // A value that holds a slot is a card's line: after health, however old.
      assert.deepEqual(
        await self({ nowMs: Date.parse('2026-10-01T00:00:00.000Z') }),
        ['med', 'alg', 'sch', 'fut', 'p3', 'P2', 'loc', 'p1'],
        'a scheduled value is on it once begun, after health: it holds the slot',
      );
      // The next page: past a line's (group, valid_from, write order).
      const later = Date.parse('2026-10-01T00:00:00.000Z');
      const all = await b.units.read(uid, (u) =>
        profileLines(u.memories, { nowMs: later, shareableOnly: false, limit: 10 }),
      );
      assert.deepEqual(
        all.map((r) => r.group),
        ['health', 'health', 'slot', 'other', 'other', 'other', 'other', 'other'],
      );
      const at = (id: string) => {
        const r = all.find((v) => v.id === m(id))!;
        return { group: r.group, validFromMs: r.valid_from_ms, n: r.n };
      };
      assert.deepEqual(
        await self({ after: at('p3') }),
        ['P2', 'loc', 'p1'],
        'P2: same valid_from, written before',
      );
      assert.deepEqual(await self({ after: at('fut'), limit: 1 }), ['p3']);
      assert.deepEqual(await self({ after: at('p1') }), []);
      assert.deepEqual(await self({ nowMs: later, after: at('med'), limit: 2 }), ['alg', 'sch']);
      assert.deepEqual(
        await self({ nowMs: later, after: at('alg'), limit: 2 }),
        ['sch', 'fut'],
        'past the health lines, across the slot lines',
      );
      assert.deepEqual(
        await self({ nowMs: later, after: at('sch'), limit: 2 }),
        ['fut', 'p3'],
        'past the slot lines',
      );
      assert.deepEqual(await self({ after: at('alg'), limit: 2 }), ['fut', 'p3'], 'no slot line current');
      assert.deepEqual(await self({ nowMs: later, limit: 1 }), ['med']);
      const [row] = await b.units.read(uid, (u) =>
        profileLines(u.memories, { nowMs, shareableOnly: false, limit: 1 }),
      );
      const med = memoryRow(uid, m('med'), rows[13]![1]);
      assert.deepEqual(row, { ...med, n: row!.n, group: 'health' });
      // A statement changed in place moves to the group its words are of.
      await b.units.write(uid, async (u) => {
        await u.memories.update(m('p1'), { statement: 'I use a wheelchair.' });
        await u.memories.update(m('alg'), { statement: 'I took the train.' });
      });
      assert.deepEqual(await self(), ['p1', 'med', 'fut', 'p3', 'P2', 'loc', 'alg']);
    });

    it('takes a census: counts and each kind of noise, as a hosted reader is served them too', async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      const local = { visibility: 'local_only' } as const;
      await b.units.write(uid, async (u) => {
        for (const [id, o] of [
          ['d1', { text: 'I like tea' }],
          ['d2', { text: 'I like tea' }],
          ['D3', { text: 'I like tea', ...local }],
          // Differs in case: not word for word.
          ['d4', { text: 'I like Tea' }],
          ['l1', { text: 'I row', ...local }],
          // Repeats only a local_only Record: hosted, nothing it serves.
          ['l2', { text: 'I row' }],
          ['low1', { text: 'a rumour', trust: 'low' }],
          ['low2', { text: 'another rumour', trust: 'low', ...local }],
        ] as const)
          await u.records.insert(recordRow(uid, m(id), o));
        await u.objects.insert(version(uid, 'note', 'a', 1));
        await u.objects.insert(version(uid, 'note', 'a', 2));
        await u.objects.insert(version(uid, 'note', 'b', 1));
      });
      await b.enqueueDerive(uid, m('d1'));
      await b.enqueueDerive(uid, m('l1'));
      const before = '2026-03-01T00:00:00.000Z';
      const later = '2026-09-01T00:00:00.000Z';
      const slot = (key: string, lineage: string, version = 1) => ({
        slot: `ana\u001f${key}`,
        lineage: m(lineage),
        predicate: key,
        version,
      });
      const memories: [string, MemoryOptions, string?][] = [
        ['act', {}],
        ['unr', { owner_state: 'unresolved' }],
        ['unrOld', { owner_state: 'unresolved', ...slot('x', 'L4'), to: before, status: 'superseded' }],
        ['sup', { ...slot('lives in', 'L1'), to: before, status: 'superseded' }],
        ['sch', { ...slot('lives in', 'L1', 2), from: later }],
        ['pen', { pending: true }],
        ['penSup', { pending: true, ...slot('y', 'L5'), to: before, status: 'superseded' }],
        ['ret', { status: 'retracted' }],
        ['cA', slot('works at', 'L2')],
        ['cB', slot('works at', 'L2', 2), 'l1'],
        ['Cc', slot('age', 'L3')],
        ['cd', slot('age', 'L3', 2)],
        ['cE', { ...slot('age', 'L3', 3), from: later }],
      ];
      for (const [id, o, r = 'd1'] of memories) await b.addMemory(memoryRow(uid, m(id), o), [m(r)]);
      await b.units.write(uid, async (u) => {
        const failed = { error: 'Error: no', attempts: 3, failed_at: '2026-01-01T00:00:00.000Z' };
        for (const r of ['low1', 'l1'])
          await u.failures.record({ job: 'derive', record_id: m(r), memory_id: null, ...failed });
        for (const id of ['act', 'cB'])
          await u.failures.record({ job: 'rederive', record_id: null, memory_id: m(id), ...failed });
      });
      // Another Brain's noise is none of this one's.
      await b.addRecord(other, `${other}_r1`);
      await b.addRecord(other, `${other}_r2`);
      await b.addMemory(memoryRow(other, `${other}_p`, { pending: true }), [`${other}_r1`]);
      await b.enqueueDerive(other, `${other}_r2`);

      const census = (q: { nowMs?: number; shareableOnly?: boolean; examples?: number } = {}) =>
        b.units.read(uid, (u) => u.census.census({ nowMs, shareableOnly: false, examples: 5, ...q }));
      const kind = (count: number, ...ids: string[]) => ({ count, examples: ids.map(m) });
      assert.deepEqual(await census(), {
        records: 8,
        recordsProcessing: 2,
        objects: 2,
        memoriesActive: 6,
        memoriesScheduled: 2,
        memoriesSuperseded: 3,
        memoriesPending: 2,
        noise: {
          duplicates: kind(3, 'D3', 'd2', 'l2'),
          conflicts: kind(4, 'Cc', 'cA', 'cB', 'cd'),
          unresolved_owner: kind(1, 'unr'),
          pending_rederivation: kind(2, 'pen', 'penSup'),
          low_trust_source: kind(2, 'low1', 'low2'),
          retracted: kind(1, 'ret'),
          derivation_failed: kind(4, 'act', 'cB', 'l1', 'low1'),
        },
      });
      assert.deepEqual(await census({ shareableOnly: true }), {
        records: 5,
        recordsProcessing: 1,
        objects: 2,
        memoriesActive: 5,
        memoriesScheduled: 2,
        memoriesSuperseded: 3,
        memoriesPending: 2,
        noise: {
          duplicates: kind(1, 'd2'),
          conflicts: kind(2, 'Cc', 'cd'),
          unresolved_owner: kind(1, 'unr'),
          pending_rederivation: kind(2, 'pen', 'penSup'),
          low_trust_source: kind(1, 'low1'),
          retracted: kind(1, 'ret'),
          derivation_failed: kind(2, 'act', 'low1'),
        },
      });
      const few = await census({ examples: 1 });
      assert.deepEqual(few.noise.duplicates, kind(3, 'D3'), 'the count is whole, the examples the first');
      assert.deepEqual(few.noise.pending_rederivation, kind(2, 'pen'));
      assert.deepEqual(few.noise.derivation_failed, kind(4, 'act'));
      // Once sch and cE have begun: active, and cE a third current value of its slot.
      const october = await census({ nowMs: Date.parse('2026-10-01T00:00:00.000Z') });
      assert.equal(october.memoriesActive, 8);
      assert.equal(october.memoriesScheduled, 0);
      assert.deepEqual(october.noise.conflicts, kind(5, 'Cc', 'cA', 'cB', 'cE', 'cd'));
    });

    it('keeps a failed derivation until its Record or Memory is derived again', async () => {
      const uid = await brain();
      const other = await brain();
      const m = (suffix: string) => `${uid}_${suffix}`;
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, m('r1')));
        await u.records.insert(recordRow(uid, m('r2')));
        await u.memories.insert(memoryRow(uid, m('a')), [{ record_id: m('r1'), quote: 'q' }]);
      });
      await b.units.write(other, (u) => u.records.insert(recordRow(other, `${other}_r1`)));
      const failure = (o: Partial<FailureRow>): FailureRow => ({
        job: 'derive',
        record_id: null,
        memory_id: null,
        error: 'Error: no',
        attempts: 3,
        ...o,
      });
      const failed = [
        failure({ record_id: m('r1') }),
        failure({ record_id: m('r2'), attempts: 1 }),
        failure({ job: 'rederive', memory_id: m('a'), error: 'Error: again' }),
      ];
      await b.units.write(uid, async (u) => {
        for (const f of failed) await u.failures.record({ ...f, failed_at: '2026-01-01T00:00:00.000Z' });
      });
      await b.units.write(other, (u) =>
        u.failures.record({
          ...failure({ record_id: `${other}_r1` }),
          failed_at: '2026-01-01T00:00:00.000Z',
        }),
      );
      assert.deepEqual(await b.failures(uid), failed);
      await b.units.write(uid, async (u) => {
        await u.failures.clearRecord(m('r1'));
        await u.failures.clearRecord(`${other}_r1`);
      });
      assert.deepEqual(await b.failures(uid), failed.slice(1));
      await b.units.write(uid, (u) => u.failures.clearMemory(m('a')));
      assert.deepEqual(await b.failures(uid), [failed[1]]);
      assert.equal((await b.failures(other)).length, 1, "another Brain's failure stays");
    });

    it('keeps one outcome per travelled correction, replaced when derived again, gone with its Record', async () => {
      const uid = await brain();
      const other = await brain();
      const c = `${uid}_c`;
      await b.units.write(uid, async (u) => {
        await u.records.insert(recordRow(uid, c, { kind: 'correction' }));
        await u.records.insert(recordRow(uid, `${uid}_d`, { kind: 'correction' }));
      });
      const first = {
        record_id: c,
        state: 'not_applied' as const,
        matched_by: null,
        memory_id: null,
        reason: 'the Records it corrects are not in this Brain',
        missing: [`${uid}_d`, `${uid}_z`],
        unmatched: false,
      };
      const again = {
        ...first,
        state: 'applied_by_fallback' as const,
        matched_by: 'stated' as const,
        memory_id: 'mem_x',
        reason: 'stated',
        missing: [],
        unmatched: true,
      };
      await b.units.write(uid, (u) => u.corrections.put(first));
      assert.deepEqual(await b.units.read(uid, (u) => u.corrections.of([c, `${uid}_d`])), [first]);
      assert.deepEqual(await b.units.read(uid, (u) => u.corrections.missing([`${uid}_z`, 'rec_other'])), [c]);
      assert.deepEqual(await b.units.read(other, (u) => u.corrections.missing([`${uid}_z`])), []);
      await b.units.write(uid, (u) => u.corrections.put(again));
      assert.deepEqual(await b.units.read(uid, (u) => u.corrections.of([c])), [again]);
      assert.deepEqual(
        await b.units.read(uid, (u) => u.corrections.missing([`${uid}_z`])),
        [],
        'applied now',
      );
      assert.deepEqual(
        await b.units.read(other, (u) => u.corrections.of([c])),
        [],
        "another Brain's reads none",
      );
      await b.units.write(uid, (u) => u.records.remove([c]));
      assert.deepEqual(await b.units.read(uid, (u) => u.corrections.of([c])), []);
    });

    it('finds the corrections that matched nothing here by the Records their target names', async () => {
      const uid = await brain();
      const other = await brain();
      const r = (x: string) => `${uid}_${x}`;
      const correction = (id: string, brainUid: string, records: string[], statement?: string) => ({
        ...recordRow(brainUid, id, { kind: 'correction' }),
        content: JSON.stringify({
          kind: 'correction',
          corrects: 'mem_there',
          ...(statement === undefined ? {} : { statement }),
          target: { records, statement: 'I keep two cats.' },
        }),
      });
      const stated = (record_id: string) => ({
        record_id,
        state: 'applied_by_fallback' as const,
        matched_by: 'stated' as const,
        memory_id: 'mem_x',
        reason: 'stated',
        missing: [],
        unmatched: true,
      });
      const notApplied = (record_id: string, unmatched: boolean) => ({
        record_id,
        state: 'not_applied' as const,
        matched_by: null,
        memory_id: null,
        reason: 'nothing was withdrawn',
        missing: [],
        unmatched,
      });
      await b.units.write(uid, async (u) => {
        await u.records.insert(correction(r('c2'), uid, [r('a'), r('b')], 'I keep three cats.'));
        await u.records.insert(correction(r('c1'), uid, [r('b')], 'I keep three cats.'));
        await u.records.insert(correction(r('w'), uid, [r('a')]));
        await u.records.insert(correction(r('twice'), uid, [r('a')]));
        await u.records.insert(correction(r('slot'), uid, [r('a')], 'I keep three cats.'));
        await u.records.insert(correction(r('none'), uid, [r('a')]));
        await u.corrections.put(stated(r('c2')));
        await u.corrections.put(stated(r('c1')));
        await u.corrections.put(notApplied(r('w'), true));
        // Not applied for another reason (more than one Memory said it): not unmatched, whatever its words.
        await u.corrections.put(notApplied(r('twice'), false));
        await u.corrections.put({ ...stated(r('slot')), matched_by: 'slot', unmatched: false });
      });
      await b.units.write(other, async (u) => {
        await u.records.insert(correction(`${other}_c`, other, [r('a')], 'I keep three cats.'));
        await u.corrections.put(stated(`${other}_c`));
      });
      const unmatched = (brainUid: string, ids: string[]) =>
        b.units.read(brainUid, (u) => u.corrections.unmatched(ids));
      assert.deepEqual(
        await unmatched(uid, [r('a')]),
        [r('c2'), r('w')],
        'unmatched ones only, of this Brain',
      );
      assert.deepEqual(
        await unmatched(uid, [r('b'), r('a'), 'rec_other']),
        [r('c1'), r('c2'), r('w')],
        'each once',
      );
      assert.deepEqual(await unmatched(uid, [r('z')]), []);
      assert.deepEqual(await unmatched(uid, []), []);
      assert.deepEqual(
        await b.units
          .read(uid, (u) => u.corrections.of([r('w'), r('twice')]))
          .then((os) => os.sort((x, y) => (x.record_id < y.record_id ? -1 : 1))),
        [notApplied(r('twice'), false), notApplied(r('w'), true)],
        'read as kept',
      );
      await b.units.write(uid, async (u) => {
        await u.corrections.put({
          ...stated(r('c2')),
          matched_by: 'slot',
          state: 'applied',
          unmatched: false,
        });
        await u.corrections.put({
          ...stated(r('w')),
          matched_by: 'statement',
          state: 'applied',
          unmatched: false,
        });
      });
      assert.deepEqual(await unmatched(uid, [r('a'), r('b')]), [r('c1')], 'matched again since');
    });

    it('leaves nothing of a unit that throws: no step, Record, Object, key or tombstone', async () => {
      const uid = await brain();
      await assert.rejects(
        b.units.write(uid, async (u) => {
          const seq = await u.sequence.next();
          await u.records.insert(recordRow(uid, `${uid}_a`, { seq }));
          const o = await u.objects.insert(version(uid, 'note', 'a', 1, seq));
          await u.idempotency.remember('acceptObject', 'k', { bodyHash: 'h', target: { objectN: o.n } });
          await u.tombstones.record('mem_a', seq, 'deleted', true);
          throw new Error('the rule failed');
        }),
        /the rule failed/,
      );
      await b.units.read(uid, async (u) => {
        assert.equal(await u.sequence.current(), 0);
        assert.equal(await u.records.get(`${uid}_a`), null);
        assert.deepEqual(await u.records.list({ limit: 10, hideLocalOnly: false }), { rows: [], next: null });
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
/** A database whose own text order is a locale's (en-US: 'a' before 'B'), as many servers' are. */
async function localeOrderedDatabase(): Promise<PgClient> {
  const cluster = server.cluster();
  const db = cluster.connect(await cluster.freshDatabase({ icuLocale: 'en-US' }), 4);
  await migrate(db);
  const order = await db.query<{ before: boolean }>("SELECT 'a' < 'B' AS before");
  assert.ok(order.rows[0]?.before, 'the database orders text by locale, not bytewise');
  return db;
}
conformance('over a PostgreSQL server', server.skip ? null : pgBackend(await localeOrderedDatabase()), {
  skip: server.skip,
});
