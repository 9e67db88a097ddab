/**
 * The engine's one public entry. The server and the desktop shell import this module, the contract
 * (engine/contract/), the error codes (engine/errors/) and the types of engine/types.ts; nothing else
 * of the engine (eslint.config.js enforces it). Everything here is light to load: the SQLite engine,
 * derivation and retrieval are imported only when `createEngine` opens one, so a `mnemo keys` or
 * `mnemo import` command starts without them.
 */
import type { LocalEngineOptions } from './local/index.ts';
import type { PostgresEngineOptions } from './hosted/index.ts';
import type { PostgresStorage } from './adapters/postgres/storage.ts';
import type { BackupSummary, DraftsRemoved, RestoreSummary } from './adapters/sqlite/backup-store.ts';
import type { Engine, Tenant } from './types.ts';
import type { KeyRegistryPort } from './ports/key-registry.ts';

export { SqliteBindingError } from './adapters/sqlite/sqlite-binding-error.ts';

export type {
  ContextEvent,
  ContextOptions,
  Deployment,
  Engine,
  EngineInfo,
  FailedRequest,
  Tenant,
  WriteOptions,
} from './types.ts';
export type { Logger } from './local/local-ctx.ts';
export type { PostgresStorage } from './adapters/postgres/storage.ts';
export type { EmbedderChoice, ProviderName } from './embed/resolve-embedder.ts';
export type { BackupSummary, DraftsRemoved, RestoreSummary } from './adapters/sqlite/backup-store.ts';
export { leftDraftLine } from './adapters/sqlite/backup-drafts.ts';
export { storeFileName } from './adapters/sqlite/store-file-name.ts';
export { nameWithoutReplacing } from './files/name-without-replacing.ts';
export { databaseUrlProblem, shownUrl } from './adapters/postgres/database-url.ts';
export { FileKeyRegistry, type KeyEntry } from './auth/key-registry.ts';
export type { KeyRecord, KeyRegistryPort } from './ports/key-registry.ts';
export { bearerToken, envOfKey, hashKey, parseApiKey, projectOfKey, type ParsedKey } from './auth/api-key.ts';
export { allScopes, parseScopes, type Scope } from './auth/scopes.ts';
export { missingBrainWarning } from './auth/missing-brain.ts';
export {
  defaultConfigDir,
  locateDbKey,
  newStoreKey,
  type ResolvedDbKey,
} from './adapters/sqlite/resolve-db-key.ts';
export { atOffset, isTimeZone, systemTimeZone } from './core/retrieve/time-zone.ts';
export { defaultCacheDir } from './embed/cache-dir.ts';
export { months } from './core/retrieve/calendar-words.ts';
export { newId } from './ids.ts';
export { baseSubject } from './core/shared/base-subject.ts';
export { errorMessage } from './core/shared/error-message.ts';
export { escapeRegExp } from './core/shared/escape-reg-exp.ts';
export { months as monthNames } from './core/retrieve/calendar-words.ts';
export { fencedLines } from './core/shared/fenced-lines.ts';
export { whatsappItemId } from './core/shared/source-chat.ts';
/** Loads the tokenizer a Context's budget needs (once; a server warms it up after it starts listening). */
export { loadTokenizer as preloadTokenizer } from './core/shared/count-tokens.ts';
export type { EngineSync } from './types.ts';
/** What Memories are derived by: the rules, or other rules a test gives a side. */
export type { Deriver } from './core/derive/deriver.ts';
export type { QueryRewriter } from './ports/query-rewriter.ts';
export { openAiCompatibleRewriter } from './adapters/openai-compatible/query-rewriter.ts';
export { withPrincipal, type Principal, type PrincipalEngine } from './with-principal.ts';

/** The encrypted SQLite store in a data dir: the local engine. */
export interface SqliteStorage {
  kind: 'sqlite';
  /** Directory of the store (mnemo.db and its WAL). The key never lives here. */
  dataDir: string;
  /** Database key (see locateDbKey). null = unencrypted, for diagnostics and secure-delete tests only. */
  dbKey: string | Buffer | null;
  /** 'full' (default): every acknowledged write survives power loss; 'normal': process crashes only. */
  durability?: 'full' | 'normal';
}

/**
 * The spec's in-memory conformance engine. Not the local engine over memory: it has its own, simpler
 * rules (one Memory per Record, substring retrieval) and keeps nothing after close().
 */
export interface ReferenceStorage {
  kind: 'reference';
}

/**
 * What `createEngine` needs: the storage, and the local engine's options (local/index.ts) but for where
 * its store lives. The reference engine reads only deployment, traceBufferSize and clock.
 */
export type CreateEngineOptions = { storage: SqliteStorage | ReferenceStorage } & Omit<
  LocalEngineOptions,
  'dataDir' | 'dbKey' | 'durability'
>;

/**
 * Opens an engine over the storage given. A SQLite store is locked to this engine until close();
 * opening fails with a clear error on a wrong key, an unknown time zone or a data dir in use.
 */
export async function createEngine(options: CreateEngineOptions): Promise<Engine> {
  const { storage, ...rest } = options;
  if (storage.kind === 'reference') {
    const { createReferenceEngine } = await import('./reference/index.ts');
    return createReferenceEngine({
      deployment: rest.deployment,
      traceBufferSize: rest.traceBufferSize,
      clock: rest.clock,
    });
  }
  const { createLocalEngine } = await import('./local/index.ts');
  return createLocalEngine({
    ...rest,
    dataDir: storage.dataDir,
    dbKey: storage.dbKey,
    durability: storage.durability,
  });
}

/**
 * Writes a consistent, encrypted copy of a data dir's store to `out` (never over an existing file),
 * also while an engine has the store open.
 */
export async function backupStore(opts: {
  dataDir: string;
  key: string | Buffer;
  out: string;
}): Promise<BackupSummary & DraftsRemoved> {
  const { backupStore: backup } = await import('./adapters/sqlite/backup-store.ts');
  return backup(opts);
}

/**
 * Whether a data dir's store holds this tenant's Brain of this id (no store: none), read only, also
 * while an engine has the store open. Throws when the store cannot be read.
 */
export async function storeHasBrain(opts: {
  dataDir: string;
  /** The store's key, asked for only when there is a store. */
  key: () => string | Buffer;
  tenant: Tenant;
  brainId: string;
}): Promise<boolean> {
  const { storeHasBrain: has } = await import('./adapters/sqlite/brain-in-store.ts');
  return has(opts);
}

/**
 * Puts a backup in place as a data dir's store, only while no engine has the data dir; the store it
 * replaces is kept beside it.
 */
export async function restoreStore(opts: {
  dataDir: string;
  key: string | Buffer;
  from: string;
}): Promise<RestoreSummary> {
  const { restoreStore: restore } = await import('./adapters/sqlite/backup-store.ts');
  return restore(opts);
}

/**
 * A hosted Mnemo over PostgreSQL (`mnemo serve --engine postgres`): the engine and the key registry,
 * both in the database at `url` (its schema brought up to date first, under the migrations' lock, so
 * processes starting together do not race). `open` gives an open database instead (PGlite in tests).
 * The engine's close() closes the database. Loads the driver only when called.
 */
export async function openPostgresEngine(
  where:
    | { url: string; poolSize?: number; preparedStatements?: boolean; tracesPerBrain?: number }
    | { open: () => Promise<PostgresStorage> },
  options: Omit<PostgresEngineOptions, 'storage'> = {},
): Promise<{ engine: Engine; registry: KeyRegistryPort; semantic: { on: boolean; reason: string | null } }> {
  const { openPostgresStorage } = await import('./adapters/postgres/storage.ts');
  const { createPostgresEngine } = await import('./hosted/index.ts');
  const storage =
    'url' in where
      ? await openPostgresStorage(where.url, {
          ...(where.poolSize ? { poolSize: where.poolSize } : {}),
          ...(where.preparedStatements === false ? { preparedStatements: false } : {}),
          ...(where.tracesPerBrain !== undefined ? { tracesPerBrain: where.tracesPerBrain } : {}),
          reachability: {
            lost: (e) =>
              options.logger?.warn(
                'the database cannot be reached: requests that need it fail and derivation waits until it is back',
                { error: String(e) },
              ),
            back: (downMs) =>
              options.logger?.info('the database is reachable again', {
                after_s: Math.round(downMs / 100) / 10,
              }),
            busy: (failed, cause) =>
              options.logger?.warn(
                `${(cause as Error).message}: requests failed with store_unavailable; the database is slow, or the pool is too small for this process's load (MNEMO_PG_POOL_SIZE)`,
                { failed },
              ),
          },
          plannerStats: {
            onError: (e) =>
              options.logger?.warn('the Brain tables could not be analysed; tried again after more writes', {
                error: String(e),
              }),
          },
        })
      : await where.open();
  try {
    const engine = await createPostgresEngine({ ...options, storage });
    return { engine, registry: storage.keys, semantic: storage.semantic };
  } catch (e) {
    await storage.close().catch(() => {});
    throw e;
  }
}

/**
 * A PostgreSQL engine's storage in memory in this process (PGlite with pgvector; a development
 * dependency): what `mnemo bench --engine postgres` runs on when no --database-url is given.
 */
export async function openEmbeddedPostgres(
  options: { tracesPerBrain?: number } = {},
): Promise<PostgresStorage> {
  const { openEmbeddedPostgres: open } = await import('./adapters/postgres/embedded.ts');
  return open(options);
}

/**
 * The key registry in a hosted Mnemo's PostgreSQL database (`mnemo keys --database-url`), its schema
 * brought up to date first. Loads the PostgreSQL driver only when called.
 */
export async function openPostgresKeys(
  databaseUrl: string,
  o: { create?: boolean } = {},
): Promise<{
  registry: KeyRegistryPort;
  /** Whether the database holds this tenant's Brain of this id. */
  hasBrain(tenant: Tenant, brainId: string): Promise<boolean>;
  close(): Promise<void>;
}> {
  const { openPostgresKeys: open } = await import('./adapters/postgres/open-keys.ts');
  return open(databaseUrl, o);
}

/**
 * Compacts a hosted Mnemo's PostgreSQL database after forgets (`mnemo compact --database-url`): the
 * tables that held forgotten Records' bytes are rewritten without them. Loads the driver only when called.
 */
export async function compactPostgres(databaseUrl: string): Promise<{
  tables: Array<{ table: string; bytesBefore: number; bytesAfter: number }>;
  statistics: { compacted: true } | { compacted: false; reason: string };
}> {
  const { compactDatabase } = await import('./adapters/postgres/compact.ts');
  return compactDatabase(databaseUrl);
}

/**
 * Loads the store's SQLite binding once, so that a build for another runtime fails with its cause and
 * fix (a SqliteBindingError) before a data dir is touched.
 */
export async function assertSqliteBindingLoads(): Promise<void> {
  const { assertSqliteBindingLoads: assertLoads } = await import('./adapters/sqlite/sqlite-binding.ts');
  assertLoads();
}
