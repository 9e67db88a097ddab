import { speakersByFirstName, type SpeakersByFirstName } from '../../core/derive/speakers-by-first-name.ts';
import { selfOf } from '../../core/shared/brain-self.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { BrainRow, BrainSequence, BrainUnitOfWork, UnitOptions } from '../../ports/index.ts';
import { BatchTx, keysSql, type IdempotencyKey, type UnitTx } from './batch-tx.ts';
import type { PgClient, PgQueryable } from './client.ts';
import { pgCensusReads } from './census-reads.ts';
import { pgCorrectionOutcomes } from './correction-outcomes.ts';
import { pgContextReads } from './context-reads.ts';
import { pgDeriveFailures } from './derive-failure-repository.ts';
import { pgIdempotency } from './idempotency-repository.ts';
import { pgJobWrites } from './job-queue.ts';
import { pgMemories } from './memory-repository.ts';
import { pgObjects } from './object-repository.ts';
import { pgRecords } from './record-repository.ts';
import { pgTombstones } from './tombstone-repository.ts';

/** A Brain's unit of work over PostgreSQL: every repository of the port. */
export type PgUnitOfWork = BrainUnitOfWork;
/** A read's repositories are the write's (without jobs): the read-only transaction refuses a write. */
export type PgReadOfWork = Omit<PgUnitOfWork, 'jobs' | 'setBrain'>;

/**
 * A read's sequence: its snapshot's step, read when it opened (`seen`), which no statement of a
 * REPEATABLE READ transaction could read differently.
 */
function sequenceOf(tx: PgQueryable, brainUid: string, seen?: number): BrainSequence {
  return {
    next() {
      throw new Error('BrainSequence.next: a read takes no step of the sequence');
    },
    async current() {
      if (seen !== undefined) return seen;
      const r = await tx.query<{ seq: number }>('SELECT seq FROM brains WHERE uid = $1', [brainUid]);
      return r.rows[0]!.seq;
    },
  };
}

/** A write's steps: the transaction's (BatchTx), its Brain's row locked until COMMIT. */
function stepsOf(tx: UnitTx): BrainSequence {
  return {
    next: async () => tx.nextStep(),
    current: async () => tx.currentStep(),
  };
}

function repositories(
  tx: PgQueryable,
  brainUid: string,
  speakers: SpeakersByFirstName,
  seen?: number,
): PgReadOfWork {
  return {
    brainUid,
    sequence: sequenceOf(tx, brainUid, seen),
    records: pgRecords(tx, brainUid),
    memories: pgMemories(tx, brainUid),
    objects: pgObjects(tx, brainUid),
    idempotency: pgIdempotency(tx, brainUid),
    tombstones: pgTombstones(tx, brainUid),
    failures: pgDeriveFailures(tx, brainUid),
    corrections: pgCorrectionOutcomes(tx, brainUid),
    context: pgContextReads(tx, brainUid),
    async self() {
      const r = await tx.query<BrainRow>('SELECT self_type, self_name FROM brains WHERE uid = $1', [
        brainUid,
      ]);
      return selfOf(r.rows[0]);
    },
    speakersFirstNamed: (first, before) =>
      speakers(
        brainUid,
        first,
        async (after) => {
          const r = await tx.query<{ seq: string | number; speaker: string | null }>(
            `SELECT seq, content::jsonb ->> 'speaker' AS speaker FROM records
           WHERE brain_uid = $1 AND seq > $2 AND kind = 'message' ORDER BY seq`,
            [brainUid, after],
          );
          return r.rows.map((x) => ({ seq: Number(x.seq), speaker: x.speaker }));
        },
        before,
      ),
    census: pgCensusReads(tx, brainUid),
  };
}

/**
 * A write's repositories over one unit of its transaction: steps in memory, inserts nobody reads back
 * queued (BatchTx), and the Brain's self as read with the lock (nothing changes it while it is held).
 */
function writeRepositories(
  tx: UnitTx,
  brainUid: string,
  self: BrainRow,
  writer: string | null,
  speakers: SpeakersByFirstName,
): PgUnitOfWork {
  const uow: PgUnitOfWork = {
    ...repositories(tx, brainUid, speakers),
    sequence: stepsOf(tx),
    records: pgRecords(tx, brainUid, tx),
    idempotency: pgIdempotency(tx, brainUid, tx),
    memories: pgMemories(tx, brainUid, tx),
    jobs: pgJobWrites(tx, tx, writer),
    self: async () => selfOf(self),
    async setBrain({ name, self: to }) {
      if (name !== undefined) await tx.query('UPDATE brains SET name = $2 WHERE uid = $1', [brainUid, name]);
      if (to !== undefined) {
        await tx.query('UPDATE brains SET self_type = $2, self_name = $3 WHERE uid = $1', [
          brainUid,
          to.type,
          to.name,
        ]);
        // The row as the transaction's later units read it (a batch shares it).
        self.self_type = to.type;
        self.self_name = to.name;
      }
    },
  };
  unitTxs.set(uow, tx);
  return uow;
}

/** Each write's unit of work and the transaction it runs on, for adapters beside the port's repositories. */
const unitTxs = new WeakMap<BrainUnitOfWork, UnitTx>();

/**
 * The transaction a unit of work of this adapter runs on: what reads and writes outside the port's
 * repositories (the derivation upgrade's) run in, so they commit or roll back with the unit.
 */
export function unitTxOf(uow: BrainUnitOfWork): UnitTx {
  const tx = unitTxs.get(uow);
  if (!tx) throw new Error('not a unit of work of a PostgreSQL write');
  return tx;
}

export interface PgUnitsOfWork {
  /**
   * One database transaction of one Brain, committed when `work` resolves and rolled back when it
   * rejects. It starts by locking the Brain's row, so units of work of one Brain run one at a time
   * across every process (others wait for the COMMIT); units of work of different Brains run at once.
   * In this process, one Brain's units start in the order they were called, one after another. `batch`
   * units of a Brain that gather while its turn is taken, or while their transaction waits for its
   * connection and the Brain's row (or that are called in one turn of the event loop), share one
   * transaction, each in a savepoint, and commit once: one disk flush for many short writes,
   * as SQLite's batches do. A unit that fails rolls back to its savepoint alone; a failed COMMIT
   * rejects them all.
   */
  write<T>(brainUid: string, work: (uow: PgUnitOfWork) => Promise<T>, opts?: UnitOptions): Promise<T>;
  /** One read-only snapshot of the database (REPEATABLE READ): a read that pages or joins sees one state. */
  read<T>(brainUid: string, work: (uow: PgReadOfWork) => Promise<T>): Promise<T>;
}

const gone = () => new MnemoError('brain_not_found', 'brain_id: the Brain was forgotten');

/** Batched units in one transaction at most: a bound on how long one holds the Brain's row. */
const maxBatch = 256;

interface Batched {
  work: (uow: PgUnitOfWork) => Promise<unknown>;
  key: UnitOptions['idempotencyKey'];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface PgUnitsOptions {
  /** After a write transaction committed: how many Records it wrote (none: not called). */
  onCommitted?: (records: number) => void;
  /** The process the jobs its units queue belong to first (job-queue.ts, JobAffinity); none: anyone's. */
  writer?: string;
  /** The speakers by first name, shared with the thread index (storage.ts); none: a list of its own. */
  speakers?: SpeakersByFirstName;
}

export function pgUnitsOfWork(client: PgClient, options: PgUnitsOptions = {}): PgUnitsOfWork {
  const speakers = options.speakers ?? speakersByFirstName();
  /** Per Brain, the end of the last unit called: the next starts after it. */
  const tails = new Map<string, Promise<unknown>>();
  const inTurn = <T>(brainUid: string, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(brainUid) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => {});
    tails.set(brainUid, tail);
    void tail.then(() => {
      if (tails.get(brainUid) === tail) tails.delete(brainUid);
    });
    return run;
  };
  /**
   * Opens one write transaction of the Brain, its row locked, and runs `fn` over its BatchTx.
   * `savepoints` is asked once the row is locked. `keys` are read with the lock, in its round trip.
   */
  const locked = async <T>(
    brainUid: string,
    savepoints: () => boolean,
    fn: (batch: BatchTx, uow: () => PgUnitOfWork) => Promise<T>,
    keys: readonly IdempotencyKey[] = [],
  ): Promise<T> => {
    let records = 0;
    const result = await client.transaction(
      async (tx, opened, then) => {
        // Sent with BEGIN: the lock is the transaction's first statement, in its first round trip.
        const brain = opened?.rows[0] as (BrainRow & { seq: number }) | undefined;
        if (!brain) throw gone();
        const batch = new BatchTx(tx, brainUid, brain.seq, savepoints());
        if (then) batch.keysRead(keys, then.rows);
        const result = await fn(batch, () =>
          writeRepositories(batch.begin(), brainUid, brain, options.writer ?? null, speakers),
        );
        await batch.finish();
        records = batch.recordsWritten;
        return result;
      },
      {
        // FOR NO KEY UPDATE, which units take in turn as FOR UPDATE would, and which lets a row that
        // names the Brain be written elsewhere meanwhile (a Trace, a vector: their foreign key's KEY
        // SHARE lock). Those writes lock their Record or Memory first; under FOR UPDATE they waited
        // for this unit while it waited for that Record (a forget's DELETE): a deadlock, both 500.
        // Forgetting the Brain itself still takes FOR UPDATE (brain-repository.ts).
        opening: {
          sql: 'SELECT seq, self_type, self_name FROM brains WHERE uid = $1 FOR NO KEY UPDATE',
          params: [brainUid],
          then: keys.length > 0 ? keysSql(brainUid, keys) : undefined,
        },
      },
    );
    if (records > 0) options.onCommitted?.(records);
    return result;
  };

  /**
   * Per Brain, the batch still gathering: until its transaction holds the Brain's row. Units that
   * arrive while it waits for a connection or for another process's lock on the row join it.
   */
  const gathering = new Map<string, Batched[]>();
  const runBatch = async (brainUid: string, units: Batched[]): Promise<void> => {
    const close = () => {
      if (gathering.get(brainUid) === units) gathering.delete(brainUid);
    };
    const outcomes: Outcome[] = [];
    const shared = () => {
      close();
      return units.length > 1;
    };
    // The keys of the units there now go with BEGIN; those of units that join while it waits for the
    // row are read after it, at once, unless one unit alone would read its own in as many round trips.
    const keysOf = (some: Batched[]) => some.flatMap((u) => (u.key ? [u.key] : []));
    const early = units.length;
    try {
      await locked(
        brainUid,
        shared,
        async (batch, uow) => {
          const late = keysOf(units.slice(early));
          if (late.length > 1) await batch.readKeys(late);
          for (const u of units) {
            const work = uow();
            try {
              const value = await u.work(work);
              await batch.succeeded();
              outcomes.push({ ok: true, value });
            } catch (error) {
              // Alone in its transaction, a unit's failure is the transaction's.
              if (units.length === 1) throw error;
              await batch.failed();
              outcomes.push({ ok: false, error });
            }
          }
        },
        keysOf(units),
      );
    } catch (e) {
      close();
      // Nothing committed: a unit that had failed on its own keeps its error, the others get the cause.
      for (const [i, u] of units.entries()) {
        const o = outcomes[i];
        u.reject(o && !o.ok ? o.error : e);
      }
      return;
    }
    for (const [i, u] of units.entries()) {
      const o = outcomes[i]!;
      if (o.ok) u.resolve(o.value);
      else u.reject(o.error);
    }
  };
  const writeBatched = <T>(
    brainUid: string,
    work: (uow: PgUnitOfWork) => Promise<T>,
    key: UnitOptions['idempotencyKey'],
  ): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let batch = gathering.get(brainUid);
      if (!batch || batch.length >= maxBatch) {
        const mine: Batched[] = [];
        batch = mine;
        gathering.set(brainUid, mine);
        void inTurn(brainUid, () => runBatch(brainUid, mine));
      }
      batch.push({ work, key, resolve: resolve as (v: unknown) => void, reject });
    });

  return {
    write: (brainUid, work, opts) => {
      if (opts?.batch) return writeBatched(brainUid, work, opts.idempotencyKey);
      // Batched units called after this one start after it: the batch gathering now takes no more.
      gathering.delete(brainUid);
      return inTurn(brainUid, () =>
        locked(
          brainUid,
          () => false,
          (_batch, uow) => work(uow()),
        ),
      );
    },
    read: (brainUid, work) =>
      client.transaction(
        async (tx, opened) => {
          // The opening statement takes the snapshot: the Brain is there in it, at this step.
          const row = opened?.rows[0] as { seq: number } | undefined;
          if (!row) throw gone();
          return work(repositories(tx, brainUid, speakers, row.seq));
        },
        {
          isolation: 'repeatable read',
          readOnly: true,
          opening: { sql: 'SELECT seq FROM brains WHERE uid = $1', params: [brainUid] },
        },
      ),
  };
}
