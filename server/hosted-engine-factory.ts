import {
  defaultCacheDir,
  openPostgresEngine,
  type Deployment,
  type Engine,
  type KeyRegistryPort,
} from '../engine/index.ts';
import { embedderChoice } from './embedder-choice.ts';
import { queryRewriterChoice } from './query-rewriter-choice.ts';
import { lineLogger } from './line-logger.ts';
import type { ServerOptions } from './start-server.ts';

/**
 * Opens the PostgreSQL engine (`--engine postgres`): the database from --database-url, else
 * MNEMO_DATABASE_URL (the caller resolves the flag), else an open one a test gives. Its keys are the
 * database's. Says at start whether the semantic lane can run, and why not.
 */
export async function openHostedEngine(
  options: ServerOptions,
  deployment: Deployment,
  log: (line: string) => void,
): Promise<{ engine: Engine; registry: KeyRegistryPort }> {
  const kept = options.traceBuffer === undefined ? {} : { tracesPerBrain: options.traceBuffer };
  const open = options.openDatabase;
  const where = open
    ? { open: () => open(kept) }
    : options.databaseUrl
      ? {
          url: options.databaseUrl,
          ...kept,
          ...poolSizeFromEnv(process.env.MNEMO_PG_POOL_SIZE),
          ...preparedFromEnv(process.env.MNEMO_PG_PREPARE),
        }
      : null;
  if (!where)
    throw new Error('the postgres engine needs a database: --database-url URL, or MNEMO_DATABASE_URL');
  const opened = await openPostgresEngine(where, {
    deployment,
    thoroughSyncMs: options.thoroughSyncMs,
    ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    logger: lineLogger(log),
    queryRewriter: queryRewriterChoice({ ...options, log }),
    // Models and tables derived from the install go to the cache dir: this engine has no data dir.
    embedder: embedderChoice(options, options.dataDir ?? defaultCacheDir()),
    ...leaseFromEnv(process.env.MNEMO_DERIVE_LEASE_MS),
    ...(options.deriver ? { deriver: options.deriver } : {}),
  });
  if (!opened.semantic.on)
    log(`the semantic lane is off: ${opened.semantic.reason ?? 'no vector extension'}`);
  return opened;
}

/**
 * MNEMO_DERIVE_LEASE_MS: how long a process holds a derivation job it claimed before another may take
 * it (an operator's knob for how soon a dead process's work moves on; tests shorten it).
 */
function leaseFromEnv(value: string | undefined): { deriveLeaseMs?: number } {
  if (value === undefined || value === '') return {};
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100)
    throw new Error(
      `MNEMO_DERIVE_LEASE_MS must be a whole number of milliseconds, at least 100, not "${value}"`,
    );
  return { deriveLeaseMs: ms };
}

/**
 * MNEMO_PG_PREPARE: `off` sends every statement unnamed, for a pooler in transaction mode that keeps no
 * prepared statements (PgBouncer before 1.21, or without max_prepared_statements); `on`, the default,
 * prepares each once a connection.
 */
export function preparedFromEnv(value: string | undefined): { preparedStatements?: false } {
  if (value === undefined || value === '' || value === 'on') return {};
  if (value === 'off') return { preparedStatements: false };
  throw new Error(`MNEMO_PG_PREPARE must be on or off, not "${value}"`);
}

/**
 * MNEMO_PG_POOL_SIZE: connections each process holds to the database (default 10). Processes times this
 * must stay under the server's max_connections, less what other clients hold.
 */
export function poolSizeFromEnv(value: string | undefined): { poolSize?: number } {
  if (value === undefined || value === '') return {};
  const n = Number(value);
  if (!Number.isInteger(n) || n < 2 || n > 1000)
    throw new Error(
      `MNEMO_PG_POOL_SIZE must be a whole number of connections from 2 to 1000, not "${value}"`,
    );
  return { poolSize: n };
}
