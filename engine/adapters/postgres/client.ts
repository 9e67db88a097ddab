import pg from 'pg';
import { statementNames } from './statement-names.ts';

/** What a statement answers: its rows, and how many rows it changed (UPDATE, DELETE, INSERT). */
export interface PgResult<R> {
  rows: R[];
  rowCount: number;
}

export interface PgQueryable {
  /** Runs one statement, `$1`-style parameters. */
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<PgResult<R>>;
  /** Runs a script of statements without parameters (a migration). */
  exec(sql: string): Promise<void>;
}

export interface TransactionOptions {
  /** A consistent snapshot for the whole transaction (reads that page or join see one state). */
  isolation?: 'read committed' | 'repeatable read';
  readOnly?: boolean;
  /**
   * The transaction's first statement, whose rows `work` gets: sent with BEGIN in one round trip on a
   * server. Its parameters are strings only (`$1`...), inlined there as quoted literals.
   */
  opening?: {
    sql: string;
    params: readonly string[];
    /** A statement without parameters run right after it, in the same round trip; its rows go to work too. */
    then?: string | undefined;
  };
}

/** A transaction's connection. */
export interface PgTransaction extends PgQueryable {
  /**
   * A script of statements without parameters that runs right before COMMIT, sent with it in one
   * round trip on a server. A failing statement fails the COMMIT: the transaction rolls back whole.
   * Absent where a caller wraps the connection: its statements are then run one by one.
   */
  finishWith?(script: string): void;
}

/** What a transaction's `work` is given: the connection, and the rows of its opening statements. */
export type TransactionWork<T> = (
  tx: PgTransaction,
  opened: PgResult<Record<string, unknown>> | null,
  then?: PgResult<Record<string, unknown>> | null,
) => Promise<T>;

/**
 * The adapter's view of a database: a `pg.Pool` (a server, several connections) or PGlite (embedded,
 * one connection, for tests on a machine with no server). Statements outside a transaction commit on
 * their own; a transaction holds one connection from BEGIN to COMMIT, rolled back when `work` throws.
 */
export interface PgClient extends PgQueryable {
  transaction<T>(work: TransactionWork<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Resolves once the database answers a trivial query, and rejects when it has not within `withinMs`.
   * A pool asks on a connection of its own, so a pool whose connections are all busy still hears that
   * the database is up.
   */
  ping(withinMs: number): Promise<void>;
  close(): Promise<void>;
}

function transactionModes(options: TransactionOptions | undefined): string {
  const parts: string[] = [];
  if (options?.isolation) parts.push(`ISOLATION LEVEL ${options.isolation.toUpperCase()}`);
  if (options?.readOnly) parts.push('READ ONLY');
  return parts.join(', ');
}

// PGlite's transaction() issues its own BEGIN and takes no options: SET TRANSACTION is its first statement.
function setTransaction(options: TransactionOptions | undefined): string | null {
  const modes = transactionModes(options);
  return modes ? `SET TRANSACTION ${modes}` : null;
}

/**
 * BEGIN with the transaction's modes, and its opening statement after it in the same script: one round
 * trip. The simple query protocol that runs a script takes no parameters, so they go in as literals.
 */
function beginScript(options: TransactionOptions | undefined): string {
  const begin = `BEGIN ${transactionModes(options)}`.trimEnd();
  const opening = options?.opening;
  if (!opening) return begin;
  const sql = opening.sql.replace(/\$(\d+)/g, (_, i: string) => {
    const value = opening.params[Number(i) - 1];
    if (value === undefined) throw new Error(`transaction opening: no parameter $${i}`);
    return pg.escapeLiteral(value);
  });
  return opening.then === undefined ? `${begin}; ${sql}` : `${begin}; ${sql}; ${opening.then}`;
}

// bigint (int8) columns hold steps, `n` and milliseconds: all far below 2^53, so numbers, as PGlite
// answers them. Per pool, not pg.types' global table, so no other user of `pg` in the process changes.
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A value as a literal of a statement sent without parameters: text quoted by pg's own escaping, a
 * number as its digits, and nothing else (a caller with another type binds it as a parameter).
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  // A NUL would end the message early: the server would read a broken protocol, not a bad value.
  if (typeof value === 'string' && !value.includes('\u0000')) return pg.escapeLiteral(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`sqlLiteral: ${typeof value} ${String(value)} is not written as a literal`);
}

/**
 * A transaction's connection over `on`, and the script its work gave to run before COMMIT (null: none).
 * A read-only transaction has nothing to write: a script given to one is refused.
 */
function finishing(on: PgQueryable): { tx: PgTransaction; script: (readOnly?: boolean) => string | null } {
  let given: string | null = null;
  return {
    tx: {
      query: on.query,
      exec: on.exec,
      finishWith: (script) => {
        given = script;
      },
    },
    script: (readOnly) => {
      if (readOnly && given !== null)
        throw new Error('finishWith: a read-only transaction has nothing to write before its COMMIT');
      return given;
    },
  };
}

/**
 * A pool on a `postgres://` URL. `prepare`: its statements with parameters are prepared once a
 * connection (statement-names.ts); off by default, for the commands that run a few statements and
 * may go through a pooler that keeps no prepared statements.
 */
export function connectPostgres(
  url: string,
  options: { max?: number; connectionTimeoutMs?: number; prepare?: boolean } = {},
): PgClient {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    types,
    // pg_stat_activity then tells a fleet's processes apart; an application_name in the URL wins.
    application_name: `mnemo ${process.pid}`,
    // A server that never answers is an error after a while, not a process that hangs.
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 15_000,
  });
  // An idle connection the server drops (restart, failover) must not end the process; the next
  // query gets a fresh connection.
  pool.on('error', () => {});
  return poolClient(pool, { prepare: options.prepare ?? false });
}

/** What a wait for one of the pool's connections timing out means, as pg words both alike. */
const waitTimedOut = 'timeout exceeded when trying to connect';

/**
 * Every connection of the pool stayed in use past the pool's wait: the database answers, slowly or for
 * too many callers. pg words it as it words a pool of connections that cannot connect, which is an
 * outage; store-failure.ts tells the two apart by this error's code.
 */
export class PoolBusyError extends Error {
  readonly code = 'MNEMO_POOL_BUSY';
  constructor(size: number, waitedMs: number, cause: unknown) {
    super(
      `every one of the pool's ${size} connections to the database stayed in use for ${waitedMs / 1000} s`,
      { cause },
    );
  }
}

/**
 * A dedicated connection for ping(), opened on first use and again after it failed or was late: a
 * health check must not queue behind the pool's callers, nor behind a ping the server never answered.
 */
function pingConnection(options: pg.PoolConfig): {
  ping(withinMs: number): Promise<void>;
  close(): Promise<void>;
} {
  let conn: Promise<pg.Client> | null = null;
  const drop = (c: Promise<pg.Client>) => {
    if (conn === c) conn = null;
    c.then((client) => client.end()).catch(() => {});
  };
  const open = (): Promise<pg.Client> => {
    const opening = (async () => {
      const client = new pg.Client(options);
      client.on('error', () => drop(opening));
      await client.connect();
      return client;
    })();
    return opening;
  };
  return {
    async ping(withinMs) {
      const on = (conn ??= open());
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        // As a connection's timeout: a database that leaves its ping unanswered is an outage to report
        // (a network cut hangs connections without an error), not a statement's failure.
        timer = setTimeout(
          () =>
            reject(
              Object.assign(new Error(`the database did not answer within ${withinMs} ms`), {
                code: 'ETIMEDOUT',
              }),
            ),
          withinMs,
        );
      });
      try {
        await Promise.race([on.then((client) => client.query('SELECT 1')), late]);
      } catch (e) {
        drop(on);
        throw e;
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      const on = conn;
      conn = null;
      if (on) await (await on.catch(() => null))?.end().catch(() => {});
    },
  };
}

export function poolClient(pool: pg.Pool, options: { prepare?: boolean } = {}): PgClient {
  const size = pool.options.max;
  // Connections that connected and were not removed since: a wait that times out while all of them
  // are, timed out behind busy connections, not behind ones that could not connect.
  let live = 0;
  pool.on('connect', () => live++);
  pool.on('remove', () => live--);
  const busyOr = (e: unknown): unknown =>
    e instanceof Error && e.message === waitTimedOut && live >= size
      ? new PoolBusyError(size, pool.options.connectionTimeoutMillis ?? 0, e)
      : e;
  const pinger = pingConnection(pool.options);
  const nameOf = options.prepare ? statementNames() : () => undefined;
  const run =
    (on: pg.Pool | pg.PoolClient) =>
    async <R>(sql: string, params: readonly unknown[] = []): Promise<PgResult<R>> => {
      try {
        // Named only with parameters: pg sends a statement without them as a script, which may hold many.
        const name = params.length > 0 ? nameOf(sql) : undefined;
        const r = await on.query({ text: sql, values: params as unknown[], ...(name ? { name } : {}) });
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      } catch (e) {
        throw busyOr(e);
      }
    };
  // Without parameters pg sends the simple query protocol, which runs a script of many statements.
  const exec = (on: pg.Pool | pg.PoolClient) => async (sql: string) => {
    await on.query(sql);
  };
  return {
    query: run(pool),
    exec: exec(pool),
    async transaction(work, options) {
      const conn = await pool.connect().catch((e: unknown) => {
        throw busyOr(e);
      });
      // A connection the server ends between two statements (a restart, a failover, a terminated
      // backend) emits 'error' while it is checked out, where the pool listens no more: unheard, that
      // ends the process. The transaction's next statement fails on it anyway, which rolls it back.
      let lost: unknown;
      const onLost = (e: unknown) => {
        lost = e;
      };
      conn.on('error', onLost);
      const { tx, script } = finishing({ query: run(conn), exec: exec(conn) });
      let broken: unknown;
      let released = false;
      try {
        const begun: unknown = await conn.query(beginScript(options));
        // A script answers one result per statement: BEGIN's, then the opening's.
        const answer = (i: number): PgResult<Record<string, unknown>> | null => {
          const r = options?.opening ? (begun as pg.QueryResult[])[i] : undefined;
          return r ? { rows: r.rows as Record<string, unknown>[], rowCount: r.rowCount ?? 0 } : null;
        };
        const result = await work(tx, answer(1), options?.opening?.then === undefined ? null : answer(2));
        const finish = script(options?.readOnly);
        if (options?.readOnly) {
          // A read-only COMMIT makes nothing durable and cannot change what was read: the caller has its
          // answer now, and the connection goes back to the pool once the server has answered it.
          released = true;
          conn.query('COMMIT').then(
            () => {
              conn.removeListener('error', onLost);
              conn.release(lost instanceof Error ? lost : undefined);
            },
            (e: unknown) => {
              conn.removeListener('error', onLost);
              conn.release(e instanceof Error ? e : new Error(String(e)));
            },
          );
          return result;
        }
        // A script's statements stop at the first that fails, COMMIT included.
        await conn.query(finish === null ? 'COMMIT' : `${finish};\nCOMMIT`);
        return result;
      } catch (e) {
        try {
          await conn.query('ROLLBACK');
        } catch (rollbackFailed) {
          // The connection is in an unknown state: it leaves the pool instead of serving another caller.
          broken = rollbackFailed;
        }
        throw e;
      } finally {
        if (!released) {
          conn.removeListener('error', onLost);
          const gone = broken ?? lost;
          conn.release(gone instanceof Error ? gone : undefined);
        }
      }
    },
    ping: (withinMs) => pinger.ping(withinMs),
    close: async () => {
      await pinger.close();
      await pool.end();
    },
  };
}

/** The part of PGlite the adapter uses (structural, so only tests and tools load PGlite itself). */
export interface PGliteLike {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
  transaction<T>(work: (tx: Pick<PGliteLike, 'query' | 'exec'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function pgliteClient(db: PGliteLike): PgClient {
  const run =
    (on: Pick<PGliteLike, 'query'>) =>
    async <R>(sql: string, params: readonly unknown[] = []): Promise<PgResult<R>> => {
      const r = await on.query<R>(sql, [...params]);
      return { rows: r.rows, rowCount: r.affectedRows ?? 0 };
    };
  const exec = (on: Pick<PGliteLike, 'exec'>) => async (sql: string) => {
    await on.exec(sql);
  };
  return {
    query: run(db),
    exec: exec(db),
    transaction: (work, options) =>
      db.transaction(async (t) => {
        const { tx, script } = finishing({ query: run(t), exec: exec(t) });
        const set = setTransaction(options);
        if (set) await tx.query(set);
        const opening = options?.opening;
        const opened = opening ? await tx.query(opening.sql, opening.params) : null;
        const then = opening?.then === undefined ? null : await tx.query(opening.then);
        const result = await work(tx, opened, then);
        const finish = script(options?.readOnly);
        if (finish !== null) await t.exec(finish);
        return result;
      }),
    ping: async () => {
      await db.query('SELECT 1');
    },
    close: () => db.close(),
  };
}
