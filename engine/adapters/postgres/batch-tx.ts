import type { JobClaim, RecordRow } from '../../ports/index.ts';
import { sqlLiteral, type PgQueryable, type PgResult, type PgTransaction } from './client.ts';

/** Tables whose inserts may wait: nothing reads what the insert answers. */
export type DeferredTable = 'records' | 'memories' | 'citations' | 'derive_jobs' | 'idempotency';

const columns: Record<DeferredTable, readonly string[]> = {
  records: [
    'brain_uid',
    'id',
    'seq',
    'kind',
    'content',
    'text',
    'source_name',
    'external_id',
    'trust',
    'visibility',
    'occurred_at',
    'occurred_ms',
    'created_at',
    'words',
  ],
  memories: [
    'brain_uid',
    'id',
    'lineage',
    'slot',
    'version',
    'statement',
    'norm',
    'subject',
    'predicate',
    'owner_state',
    'owner_entity',
    'source_key',
    'valid_from',
    'valid_from_ms',
    'valid_to',
    'valid_to_ms',
    'status',
    'pending',
    'corrects',
    'retracted_by',
    'revised_by',
    'seq',
    'learned_at',
    'cause',
    // Not the row's: the repository marks it from the statement (health-lines.ts).
    'health',
  ],
  citations: ['brain_uid', 'memory_id', 'record_id', 'quote'],
  derive_jobs: ['brain_uid', 'job', 'record_id', 'memory_id', 'record_seq', 'not_before_ms', 'writer'],
  idempotency: ['brain_uid', 'operation', 'key', 'body_hash', 'record_id', 'object_n'],
};

/** The columns of a deferred table's rows, in the order `defer` takes their values. */
export const deferredColumns: Readonly<Record<DeferredTable, readonly string[]>> = columns;

/** A Record cited twice by one Memory is cited once. */
const onConflict: Partial<Record<DeferredTable, string>> = {
  citations: 'ON CONFLICT (brain_uid, memory_id, record_id) DO NOTHING',
};

/**
 * Written in this order: Memories, jobs and Idempotency-Keys reference the Records before them, and
 * citations their Memories (the deferred foreign key would allow either order; this one is plainer).
 */
const tableOrder: readonly DeferredTable[] = [
  'records',
  'memories',
  'citations',
  'derive_jobs',
  'idempotency',
];

/** PostgreSQL binds at most 65,535 parameters per statement. */
const maxParams = 65_535;

/** What a unit of work's repositories run statements on: the transaction, with inserts that may wait. */
export interface UnitTx extends PgQueryable {
  /**
   * Queues an insert of one row into `table`, written with the others of the transaction in one
   * statement per table before the next statement of the transaction, or before its COMMIT.
   */
  defer(table: DeferredTable, values: readonly unknown[]): void;
  /** The rows of `table` still queued, their values in `columns` order (a lookup sees them too). */
  queued(table: DeferredTable): readonly (readonly unknown[])[];
  /**
   * Runs a read of tables the queued rows do not change, or whose queued rows the caller looks at
   * itself: it writes nothing first and needs no savepoint (it changes nothing to roll back).
   */
  readAround<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<PgResult<R>>;
  /** Records read ahead for this transaction's units (RecordRepository.prefetch), by id. */
  readonly recordsAhead: Map<string, RecordRow>;
  /**
   * Identical-statement lookups read ahead (MemoryRepository.prefetchSame), by key: the id the table
   * answered, or null. Emptied by any statement that is not a SELECT, when queued Memories are
   * written, and when a unit rolls back to its savepoint.
   */
  readonly sameAhead: Map<string, string | null>;
  /**
   * Idempotency-Keys read ahead for the batch's units (keysRead), by `keyAhead`: the row's columns as
   * BatchTx queues them, or null. Emptied as sameAhead is, except that a queued key written joins it.
   */
  readonly keysAhead: Map<string, readonly unknown[] | null>;
  /**
   * Claimed jobs this transaction locked (JobQueue.hold), by `n`: the lease each still had, or null
   * when it had already lost it. No other claim can take a locked job before COMMIT.
   */
  readonly held: Map<number, number | null>;
  /** Queues the removal of a held job done, written with the transaction's other queued rows. */
  deferDone(claim: JobClaim): void;
  /** The Brain's sequence of this transaction: steps taken in memory, written once (see BatchTx). */
  nextStep(): number;
  currentStep(): number;
}

// The tombstone trigger of a deleted Record reads the Brain's step from its row, as does any
// statement naming `brains`: the step taken in memory is written before those.
const readsStep = /^\s*DELETE\s+FROM\s+records\b|\bbrains\b/i;
/** A statement that may remove Records: those read ahead may be gone. */
const removesRecords = /\bDELETE\s+FROM\s+records\b/i;
/** An Idempotency-Key a unit will look up (UnitOptions.idempotencyKey). */
export interface IdempotencyKey {
  operation: string;
  key: string;
}

/**
 * The statement that reads these Idempotency-Keys of a Brain, values as literals: it may go with
 * BEGIN, after the Brain's row is locked, in one round trip.
 */
export function keysSql(brainUid: string, keys: readonly IdempotencyKey[]): string {
  const texts = (values: string[]) => `ARRAY[${values.map(sqlLiteral).join(', ')}]::text[]`;
  return `SELECT i.operation, i.key, i.body_hash, i.record_id, i.object_n
    FROM unnest(${texts(keys.map((k) => k.operation))}, ${texts(keys.map((k) => k.key))}) AS w(operation, key)
    JOIN idempotency i ON i.brain_uid = ${sqlLiteral(brainUid)} AND i.operation = w.operation AND i.key = w.key`;
}

/** Where keysAhead files an Idempotency-Key. */
export const keyAhead = (operation: string, key: string) => `${operation}\u0000${key}`;

/** A statement that changes nothing (one with a FOR UPDATE changes no Memory either). */
const readsOnly = /^\s*SELECT\b/i;

interface Row {
  /** `done`: a held job's removal (values: n, lease). */
  table: DeferredTable | 'done';
  values: readonly unknown[];
}

/**
 * One write transaction of one Brain, its row locked, shared by the batched units that run in it one
 * after another. Round trips are what a write costs here, so:
 * - the Brain's step is read with the lock and taken in memory; the row is updated before a statement
 *   that reads it and once before COMMIT (the lock keeps every other writer out meanwhile);
 * - inserts nobody reads back wait in memory and go as one multi-row INSERT per table;
 * - a unit takes its savepoint only before its first statement, so a unit that only reads around and
 *   defers costs no round trip at all, and one that fails before any statement just drops what it
 *   queued and gives its steps back.
 * Rows queued by earlier units are written before a unit's savepoint, so its rollback never takes them.
 */
export class BatchTx {
  private readonly rows: Row[] = [];
  private step: number;
  /** The step the Brain's row holds in this transaction. */
  private stored: number;
  private unit: { mark: number; step: number; savepoint: { stored: number } | null } | null = null;
  /** A successful unit's savepoint is released with the next SAVEPOINT (COMMIT releases the last). */
  private releaseDue = false;
  /** Records are never changed in place, so what was read ahead holds until one is removed. */
  private readonly recordsAhead = new Map<string, RecordRow>();
  private readonly held = new Map<number, number | null>();
  private readonly sameAhead = new Map<string, string | null>();
  private readonly keysAhead = new Map<string, readonly unknown[] | null>();
  /** Records this transaction wrote (their rows sent), for the planner's statistics. */
  recordsWritten = 0;

  constructor(
    private readonly tx: PgTransaction,
    private readonly brainUid: string,
    step: number,
    /** Several units share the transaction: each that runs a statement needs its savepoint. */
    private readonly savepoints: boolean,
  ) {
    this.step = step;
    this.stored = step;
  }

  /** Starts the next unit: what the repositories of its unit of work run on. */
  begin(): UnitTx {
    this.unit = { mark: this.rows.length, step: this.step, savepoint: null };
    const run = async <R>(sql: string, params: readonly unknown[] | undefined, exec: boolean) => {
      await this.beforeStatement(sql);
      if (exec) {
        await this.tx.exec(sql);
        return { rows: [] as R[], rowCount: 0 };
      }
      return this.tx.query<R>(sql, params);
    };
    return {
      query: <R>(sql: string, params?: readonly unknown[]) => run<R>(sql, params, false),
      exec: async (sql) => {
        await run(sql, undefined, true);
      },
      defer: (table, values) => {
        this.rows.push({ table, values });
      },
      queued: (table) => this.rows.filter((r) => r.table === table).map((r) => r.values),
      readAround: <R>(sql: string, params?: readonly unknown[]) => this.tx.query<R>(sql, params),
      recordsAhead: this.recordsAhead,
      held: this.held,
      sameAhead: this.sameAhead,
      keysAhead: this.keysAhead,
      deferDone: (claim) => {
        this.rows.push({ table: 'done', values: [claim.n, claim.lease] });
      },
      nextStep: () => ++this.step,
      currentStep: () => this.step,
    };
  }

  /**
   * Files what keysSql read of `keys` (with the Brain's row locked, so no other transaction adds or
   * removes one of its keys meanwhile): the batch's units then look them up without a round trip.
   */
  keysRead(keys: readonly IdempotencyKey[], rows: readonly Record<string, unknown>[]): void {
    for (const k of keys) this.keysAhead.set(keyAhead(k.operation, k.key), null);
    for (const row of rows)
      this.keysAhead.set(keyAhead(String(row['operation']), String(row['key'])), [
        this.brainUid,
        row['operation'],
        row['key'],
        row['body_hash'],
        row['record_id'],
        row['object_n'],
      ]);
  }

  /** Reads and files the keys units will look up, in one statement. */
  async readKeys(keys: readonly IdempotencyKey[]): Promise<void> {
    if (keys.length > 0) this.keysRead(keys, (await this.tx.query(keysSql(this.brainUid, keys))).rows);
  }

  /** The unit resolved: what it queued and the steps it took stay. */
  async succeeded(): Promise<void> {
    if (this.unit?.savepoint) this.releaseDue = true;
    this.unit = null;
  }

  /** The unit threw: it is undone alone (its savepoint, its queued rows, its steps). */
  async failed(): Promise<void> {
    const u = this.unit!;
    this.unit = null;
    this.rows.length = u.mark;
    this.step = u.step;
    if (u.savepoint) {
      // A failure of the connection itself fails this too, and with it the whole transaction.
      await this.tx.exec('ROLLBACK TO SAVEPOINT unit; RELEASE SAVEPOINT unit');
      this.stored = u.savepoint.stored;
      // What it wrote is gone, the keys and Memories it filed there with it.
      this.sameAhead.clear();
      this.keysAhead.clear();
    }
  }

  /** Before COMMIT: every queued row and the Brain's last step are written. */
  async finish(): Promise<void> {
    if (!this.tx.finishWith) {
      await this.flush(this.rows.length);
      await this.storeStep(this.step);
      return;
    }
    // Sent with the COMMIT: what is left queued and the step, as literals (a script takes no parameters).
    const { inserts, done } = this.take(this.rows.length);
    const statements = inserts.map(([table, rows]) =>
      insertSql(
        table,
        rows.map((values) => values.map(sqlLiteral)),
      ),
    );
    if (done.length > 0)
      statements.push(
        removeDoneSql(
          sqlLiteral(this.brainUid),
          `ARRAY[${done.map(([n]) => sqlLiteral(n)).join(', ')}]::bigint[]`,
          `ARRAY[${done.map(([, lease]) => sqlLiteral(lease)).join(', ')}]::bigint[]`,
        ),
      );
    if (this.step !== this.stored)
      statements.push(
        `UPDATE brains SET seq = ${sqlLiteral(this.step)} WHERE uid = ${sqlLiteral(this.brainUid)}`,
      );
    if (statements.length > 0) this.tx.finishWith(statements.join(';\n'));
  }

  private async beforeStatement(sql: string): Promise<void> {
    const u = this.unit!;
    if (removesRecords.test(sql)) this.recordsAhead.clear();
    if (this.savepoints && !u.savepoint) {
      await this.flush(u.mark);
      await this.tx.exec(this.releaseDue ? 'RELEASE SAVEPOINT unit; SAVEPOINT unit' : 'SAVEPOINT unit');
      this.releaseDue = false;
      u.savepoint = { stored: this.stored };
    }
    await this.flush(this.rows.length);
    if (readsStep.test(sql)) await this.storeStep(this.step);
    // After the flush, which files the keys it writes: the statement itself may remove any of them.
    if (!readsOnly.test(sql)) {
      this.sameAhead.clear();
      this.keysAhead.clear();
    }
  }

  private async storeStep(step: number): Promise<void> {
    if (step === this.stored) return;
    await this.tx.query('UPDATE brains SET seq = $2 WHERE uid = $1', [this.brainUid, step]);
    this.stored = step;
  }

  /** Writes the first `upTo` queued rows, one INSERT per table (or more, past the parameter limit). */
  private async flush(upTo: number): Promise<void> {
    if (upTo === 0) return;
    const { inserts, done } = this.take(upTo);
    for (const [table, values] of inserts) {
      const per = Math.floor(maxParams / columns[table].length);
      for (let i = 0; i < values.length; i += per) await this.insert(table, values.slice(i, i + per));
    }
    if (done.length > 0) await this.removeDone(done);
  }

  /**
   * Takes the first `upTo` queued rows off the queue to be written: the inserts by table in the order
   * their foreign keys need, and the held jobs done.
   */
  private take(upTo: number): {
    inserts: [DeferredTable, (readonly unknown[])[]][];
    done: [number, number][];
  } {
    const taken = this.rows.splice(0, upTo);
    if (this.unit) this.unit.mark = Math.max(0, this.unit.mark - upTo);
    this.recordsWritten += taken.filter((r) => r.table === 'records').length;
    if (taken.some((r) => r.table === 'memories')) this.sameAhead.clear();
    // A key written leaves the queue for the table: what was read ahead of it is that row now.
    for (const r of taken)
      if (r.table === 'idempotency')
        this.keysAhead.set(keyAhead(String(r.values[1]), String(r.values[2])), r.values);
    const inserts = tableOrder.flatMap((table): [DeferredTable, (readonly unknown[])[]][] => {
      const values = taken.filter((r) => r.table === table).map((r) => r.values);
      return values.length === 0 ? [] : [[table, values]];
    });
    const done = taken.filter((r) => r.table === 'done').map((r) => r.values as [number, number]);
    return { inserts, done };
  }

  private async removeDone(done: readonly [number, number][]): Promise<void> {
    await this.tx.query(removeDoneSql('$1', '$2::bigint[]', '$3::bigint[]'), [
      this.brainUid,
      done.map(([n]) => n),
      done.map(([, lease]) => lease),
    ]);
  }

  private async insert(table: DeferredTable, rows: readonly (readonly unknown[])[]): Promise<void> {
    const params: unknown[] = [];
    const slots = rows.map((values) =>
      values.map((v) => {
        params.push(v);
        return `$${params.length}`;
      }),
    );
    await this.tx.query(insertSql(table, slots), params);
  }
}

/** One INSERT of `rows`, each its values as SQL (parameters or literals), in `columns` order. */
function insertSql(table: DeferredTable, rows: readonly (readonly string[])[]): string {
  const tuples = rows.map((values) => `(${values.join(', ')})`);
  return `INSERT INTO ${table} (${columns[table].join(', ')}) VALUES ${tuples.join(', ')} ${onConflict[table] ?? ''}`;
}

/**
 * Removes held jobs done (the Brain, their `n`s and leases as SQL). Their rows are locked by this
 * transaction with the leases read then, so no other transaction changed them; one still there under
 * another lease fails the statement (migration 013), and nothing of the transaction commits. One this
 * transaction removed already (by cascade, with its Record or Memory) is done. The check reads the
 * rows as they were before the DELETE: a data-modifying WITH does not change what its query sees.
 */
const removeDoneSql = (brainUid: string, ns: string, leases: string) =>
  `WITH done AS (SELECT * FROM unnest(${ns}, ${leases}) AS c(n, lease)),
   removed AS (
     DELETE FROM derive_jobs j USING done
     WHERE j.brain_uid = ${brainUid} AND j.n = done.n AND j.leased_until_ms = done.lease RETURNING 1)
   SELECT mnemo_held_jobs_kept((SELECT count(*) FROM derive_jobs j JOIN done ON j.n = done.n
     WHERE j.brain_uid = ${brainUid} AND j.leased_until_ms IS DISTINCT FROM done.lease))`;
