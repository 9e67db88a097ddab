import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertSqliteBindingLoads,
  createEngine,
  defaultConfigDir,
  FileKeyRegistry,
  type Deployment,
  type Deriver,
  type Engine,
  type KeyRegistryPort,
  type PostgresStorage,
  preloadTokenizer,
} from '../engine/index.ts';
import { defaultDataDir, registryPathFor } from './data-dir.ts';
import { prepareUploadParent } from './import/upload-dir.ts';
import { removeDeadRunsFolders } from './import/temp-folders.ts';
import { mountMcp } from './mcp/mount-mcp.ts';
import { mountLocalIdentity } from './http/local-identity.ts';
import { newServerSecret, serverFilePath, writeServerFile } from './server-file.ts';
import { loggingRefusals } from './http/refusal-log.ts';
import { mountUi } from './ui/index.ts';
import { uiTokenTtlMs } from './ui/token-ttl.ts';
import { createLocalEngineFromOptions } from './local-engine-factory.ts';
import { openHostedEngine } from './hosted-engine-factory.ts';
import { foreignDataDirProblem, secureDataDir, tightenedLine } from './secure-data-dir.ts';
import { parsePublicUrl } from './http/loopback-guard.ts';
import { bindOn, type BoundSocket } from './serve-on.ts';
import type { RunLimits } from './sync/run-sync.ts';
import { createSyncService } from './sync/sync-service.ts';
import { defaultShutdownGraceMs } from './shutdown-grace.ts';
import { boundHeapGrowth } from './heap-growth.ts';

export interface ServerOptions {
  engine: 'local' | 'reference' | 'postgres';
  /** The postgres engine's database (postgres://...). */
  databaseUrl?: string;
  /** The postgres engine's database, opened here from another source (PGlite in tests); the server closes it. */
  openDatabase?: (options: { tracesPerBrain?: number }) => Promise<PostgresStorage>;
  deployment?: Deployment;
  host?: string;
  port?: number;
  dataDir?: string;
  keyRegistry?: string;
  rateLimit?: number;
  docsUrlBase?: string;
  /**
   * Addresses clients use through a reverse proxy (`https://mnemo.example.com/v1`): their hosts are
   * accepted in Host and their origins as the UI's, and docs_url uses the first unless docsUrlBase says.
   */
  publicUrls?: readonly string[];
  thoroughSyncMs?: number;
  /** Traces kept: in all (local and reference engines), per Brain (postgres). */
  traceBuffer?: number;
  ui?: boolean;
  /** The built UI (default: dist/renderer of this checkout); a bundle that moved this file passes it. */
  uiDir?: string;
  /** How long the UI's sign-in body may take to arrive (default 10 s). */
  uiSessionBodyMs?: number;
  /** How long the `ui:` line's token signs in (default uiTokenTtlMs); tests shorten it. */
  uiTokenTtlMs?: number;
  dbKeyFile?: string;
  /** The database key itself (the desktop shell passes the one its keychain holds). */
  dbKey?: string;
  configDir?: string;
  embeddingModel?: string;
  /**
   * A prebuilt word-vector table's folder (scripts/build-word-table.mjs's output), read before the cache
   * and the package's JSON: the packaged desktop app's resources, which hold no JSON.
   */
  wordTableDir?: string;
  /**
   * An OpenAI-compatible chat-completions API (its base URL) and model that rewrite thorough Contexts'
   * questions into search phrasings; the key is MNEMO_REWRITE_KEY's. Neither: no rewrite.
   */
  rewriteUrl?: string;
  rewriteModel?: string;
  /** IANA zone of the local engine's calendar (default: this machine's). */
  timeZone?: string;
  /** How long close() lets in-flight requests finish before answering them 500 (default 30 s). */
  shutdownGraceMs?: number;
  /** Timing of the background sync of paired Brains (docs/sync.md); tests shorten it. */
  sync?: {
    debounceMs?: number;
    intervalMs?: number;
    maxBackoffMs?: number;
    limits?: Partial<RunLimits>;
    /** Longest wait for each request of the check of a remote before pairing (default 5 s). */
    checkTimeoutMs?: number;
  };
  /**
   * A moment after listening (warmUpDelayMs), load in the background what the first Context would
   * otherwise load (the tokenizer, ~0.5 s of CPU on the event loop): `mnemo serve` and the desktop
   * app, whose first question should not wait. Tests and one-off servers leave it to a Context that
   * needs it.
   */
  warmUp?: boolean;
  log?: (line: string) => void;
  /**
   * What Memories are derived by (default: the engine's rules). Tests give a side other rules, as a side
   * whose deriver was upgraded before the other's, or a hub of another engine, has.
   */
  deriver?: Deriver;
  /** The pauses before a failed derivation is tried again (the local engine's; tests hold a Record in processing). */
  deriveRetryDelaysMs?: readonly number[];
}

export interface RunningServer {
  /** Base URL ending in /v1, as printed on the listening line. */
  url: string;
  origin: string;
  port: number;
  engine: Engine;
  registry: KeyRegistryPort | null;
  /** The address that opens the UI with its one-time token, when the UI is on. */
  uiUrl: string | null;
  /** How long uiUrl's token signs in, and until when (ms since the epoch), when the UI is on. */
  uiUrlValidity: { ttlMs: number; until: number } | null;
  /**
   * Mints an admin key for this server's own UI (the desktop shell's window): revoked when the server
   * closes or, if it never gets to (a crash, kill -9), when the next server on its data dir starts.
   */
  mintSessionKey(label: string): Promise<string>;
  /**
   * Stops accepting, lets in-flight requests finish (up to the shutdown grace), then closes the store.
   * Called again with `force` while closing, it stops waiting for in-flight requests. Idempotent.
   */
  close(options?: { force?: boolean }): Promise<void>;
}

export const defaultRateLimit = 20_000;

export { defaultShutdownGraceMs };
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** How long after listening a server that warms up starts to (ServerOptions.warmUp). */
export const warmUpDelayMs = 1_000;

/** Starts an engine and the /v1 server on loopback. The one place the pieces are put together. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  // A PostgreSQL server is a hosted Mnemo unless told otherwise (cli-and-harness.md).
  const deployment = options.deployment ?? (options.engine === 'postgres' ? 'hosted' : 'local');
  const log = options.log ?? (() => {});
  const wantedPort = options.port ?? 7821;
  // Before anything is created in the data dir or opened: Node would refuse it only at listen().
  if (!Number.isInteger(wantedPort) || wantedPort < 0 || wantedPort > 65_535) {
    throw new RangeError(`port must be an integer from 0 to 65535, not ${wantedPort}`);
  }
  const publicUrls = (options.publicUrls ?? []).map(parsePublicUrl);
  boundHeapGrowth();
  // The local engine's store; the reference engine keeps nothing on disk.
  const dataDir = options.engine === 'local' ? (options.dataDir ?? defaultDataDir()) : undefined;
  // A database module built for another runtime fails here, with its fix, before the data dir is touched.
  if (dataDir) await assertSqliteBindingLoads();
  // Another user's dir or registry would let them choose which keys open the store: refused outright.
  const foreign = foreignDataDirProblem(dataDir);
  if (foreign !== null) throw new Error(foreign);
  // The port before anything is made or opened: one in use leaves no store, key or migrated database.
  let bound: BoundSocket;
  try {
    bound = await bindOn({
      host,
      port: wantedPort,
      docsUrlBase: options.docsUrlBase,
      publicUrls,
      logger: log,
    });
  } catch (e) {
    throw listenError(e, host, wantedPort);
  }
  const opened: { engine?: Engine; sync?: { close(): Promise<void> } } = {};
  try {
    return await startOn(bound, options, { deployment, log, dataDir }, opened);
  } catch (e) {
    // The socket first, so no request reaches an engine that is closing; then the engine's threads
    // and store, which would keep the process alive after the error was reported.
    await bound.abandon().catch(() => {});
    await opened.sync?.close().catch(() => {});
    await opened.engine?.close().catch((closeError: unknown) => {
      log(`error while closing the engine: ${(closeError as Error).message}`);
    });
    throw e;
  }
}

/** What startServer does once its socket listens: the store, the engine, the keys, then the app. */
async function startOn(
  bound: BoundSocket,
  options: ServerOptions,
  {
    deployment,
    log,
    dataDir,
  }: { deployment: Deployment; log: (line: string) => void; dataDir: string | undefined },
  /** The engine and the sync service once made: closed by the caller when start-up fails after them. */
  opened: { engine?: Engine; sync?: { close(): Promise<void> } },
): Promise<RunningServer> {
  // Before anything is opened or written there: an older Mnemo or a hand-made dir left it 0755/0644.
  if (dataDir || options.keyRegistry) secureFilesOf(dataDir, options, log);
  // The data dir the store is in, given or the default: a local store never goes without its registry,
  // which would accept every well-formed key (spec, Authentication 5: as no registry configured).
  const registryPath = options.keyRegistry ?? (dataDir ? registryPathFor(dataDir) : undefined);
  // The local install's registry is a file; the HTTP and MCP layers see only the port.
  let registry: KeyRegistryPort | null = registryPath
    ? options.keyRegistry
      ? new FileKeyRegistry(registryPath)
      : FileKeyRegistry.ensure(registryPath)
    : null;
  if (registry) await warnIfUnreadable(registry, log);
  let engine: Engine;
  if (options.engine === 'postgres') {
    const hosted = await openHostedEngine(options, deployment, log);
    engine = hosted.engine;
    // Keys live in the database (a --key-registry file, if given, wins: the operator chose it).
    registry ??= hosted.registry;
  } else
    engine =
      options.engine === 'reference'
        ? await createEngine({
            storage: { kind: 'reference' },
            deployment,
            traceBufferSize: options.traceBuffer,
          })
        : await createLocalEngineFromOptions({ ...options, dataDir }, deployment);
  opened.engine = engine;

  // From here the engine holds the data dir's lock: no other server runs on it, so what an earlier one
  // left behind when it died (UI session keys, upload copies) can go.
  let sessionOwner: string | undefined;
  let uploadParent: string | undefined;
  if (dataDir) {
    sessionOwner = realpathSync(dataDir);
    if (registry instanceof FileKeyRegistry) {
      await revokeLeftoverSessionKeys(registry, sessionOwner, log);
      await warnOfLegacySessionKeys(registry, log);
    }
    const uploads = prepareUploadParent(dataDir);
    uploadParent = uploads.dir;
    if (uploads.removed > 0) {
      log(`removed ${uploads.removed} upload copy folder(s) an interrupted import left in ${uploads.dir}`);
    }
  }
  // The system's temporary folder holds the uploads of a server without a data dir (a hosted one) and
  // what `mnemo import` unpacks: a run killed mid-import (kill -9, the OOM killer) left them there.
  const leftovers = removeDeadRunsFolders();
  if (leftovers > 0) log(`removed ${leftovers} import copy folder(s) that killed runs left in ${tmpdir()}`);

  // Each token and the moment (performance.now(): no clock change moves it) it stops signing in.
  const uiTokens = new Map<string, number>();
  const tokenTtlMs = options.uiTokenTtlMs ?? uiTokenTtlMs;
  const exchangeToken = (token: string) => {
    const until = uiTokens.get(token);
    if (until === undefined) return null;
    uiTokens.delete(token);
    // Named by how it was made: the printed link signs in a browser, not the desktop app ('desktop app').
    return performance.now() >= until ? 'expired' : mintSessionKey('browser sign-in link');
  };
  // UI session keys live as long as this server: revoked on close, so restarts do not pile up admin keys.
  const uiKeys: string[] = [];
  const mintSessionKey = async (label: string) => {
    const key = await mintUiKey(registry, label, sessionOwner);
    uiKeys.push(key);
    return key;
  };
  const sync = createSyncService({ engine, log, ...options.sync });
  opened.sync = sync;
  const { listener, origin } = bound;
  const { port } = listener;
  // A server that owns a data dir says there where it listens, and proves it to clients that found it
  // there before they send a key (server-file.ts). A hosted server has no data dir, and writes nothing.
  const identitySecret = dataDir ? newServerSecret() : null;
  const checked = registry && loggingRefusals(registry, log);
  bound.serve({
    sync,
    engine,
    registry: checked,
    uploadParent,
    rateLimit: options.rateLimit ?? defaultRateLimit,
    logger: log,
    mounts: [
      ...(identitySecret
        ? [(a: Parameters<typeof mountMcp>[0]) => mountLocalIdentity(a, identitySecret)]
        : []),
      (a) => mountMcp(a, { engine, registry: checked, log }),
      ...(options.ui
        ? [
            (a: Parameters<typeof mountMcp>[0]) =>
              mountUi(a, {
                distDir: options.uiDir ?? join(repoRoot, 'dist', 'renderer'),
                exchangeToken,
                tokenTtlMs,
                ...(options.uiSessionBodyMs === undefined ? {} : { sessionBodyMs: options.uiSessionBodyMs }),
              }),
          ]
        : []),
    ],
  });
  await sync.start();
  // Not at once: the desktop window's first screen asks as soon as the server listens, and would
  // wait behind the load; a Context asked before then loads it itself, and a server stopped before
  // then never pays for it. A load that fails is the first Context's to report (it awaits the same
  // load): not a crash here.
  const warmUp = options.warmUp
    ? setTimeout(() => preloadTokenizer().catch(() => {}), warmUpDelayMs).unref()
    : null;
  let uiUrl: string | null = null;
  let uiUrlValidity: RunningServer['uiUrlValidity'] = null;
  if (options.ui) {
    const token = randomBytes(24).toString('base64url');
    uiTokens.set(token, performance.now() + tokenTtlMs);
    uiUrl = `${origin}/#ui_token=${token}`;
    uiUrlValidity = { ttlMs: tokenTtlMs, until: Date.now() + tokenTtlMs };
  }
  // Last, once everything it names is ready: a start that fails before here leaves no file behind.
  const removeServerFile = writtenServerFile(dataDir, identitySecret, `${origin}/v1`, log);

  const graceMs = options.shutdownGraceMs ?? defaultShutdownGraceMs;
  let forceNow = () => {};
  const forced = new Promise<void>((resolve) => (forceNow = resolve));
  let closing: Promise<void> | null = null;
  return {
    url: `${origin}/v1`,
    origin,
    port,
    engine,
    registry,
    uiUrl,
    uiUrlValidity,
    mintSessionKey,
    close(closeOptions = {}) {
      if (closeOptions.force) forceNow();
      if (warmUp) clearTimeout(warmUp);
      closing ??= (async () => {
        // First: a client looking for a server now should not find one that is going.
        removeServerFile();
        // A sync run in flight is cut (it resumes where it stopped on the next start) before the store closes.
        await sync.close();
        // The store closes only after the handlers that use it are done (or were cut off).
        const cut = await listener.shutdown(graceMs, forced);
        if (cut > 0) {
          log(`shutdown: ${cut} request(s) still running were answered 500 internal_error`);
        }
        await engine.close();
        for (const key of uiKeys) {
          try {
            await registry?.revoke(key);
          } catch {
            // An unreadable registry refuses every key anyway.
          }
        }
      })();
      return closing;
    },
  };
}

/**
 * Writes the data dir's server.json (server-file.ts) and returns what removes it. One that cannot be
 * written is a warning: clients then need MNEMO_URL to reach this server, and say so.
 */
function writtenServerFile(
  dataDir: string | undefined,
  secret: string | null,
  url: string,
  log: (line: string) => void,
): () => void {
  if (!dataDir || !secret) return () => {};
  try {
    return writeServerFile(dataDir, {
      url,
      pid: process.pid,
      secret,
      started_at: new Date().toISOString(),
    });
  } catch (e) {
    log(
      `warn: could not write ${serverFilePath(dataDir)} (${(e as Error).message}): clients find this ` +
        `server only when told where it is (MNEMO_URL=${url})`,
    );
    return () => {};
  }
}

/**
 * A registry that cannot be read answers every request 500 key_registry_unreadable, whose message
 * leaves out the path and the details: this is where whoever started the server learns them.
 */
async function warnIfUnreadable(registry: KeyRegistryPort, log: (line: string) => void): Promise<void> {
  try {
    await registry.list();
  } catch (e) {
    const cause = (e as Error).cause;
    log(
      `warn: ${(e as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}; every request ` +
        'with a key gets 500 key_registry_unreadable until it can be read',
    );
  }
}

/**
 * The UI's key: admin (it manages keys), project `local`, live, marked with the data dir it belongs to
 * (KeyEntry.session_of; none with the reference engine, which has no data dir to own). With no registry
 * any well-formed key works.
 */
async function mintUiKey(
  registry: KeyRegistryPort | null,
  label: string,
  sessionOf: string | undefined,
): Promise<string> {
  if (!registry) return `sk_live_local_${randomBytes(18).toString('hex')}`;
  const spec = { env: 'live' as const, project: 'local', admin: true, label };
  if (registry instanceof FileKeyRegistry) return (await registry.create({ ...spec, sessionOf })).key;
  return (await registry.create(spec)).key;
}

/**
 * Revokes the UI session keys a server on this data dir minted and, stopped without closing (a crash,
 * kill -9, a power loss), never revoked: otherwise each stays a working admin key, also in any browser
 * tab that kept it. Keys of servers on other data dirs that share the registry are left alone.
 */
async function revokeLeftoverSessionKeys(
  registry: FileKeyRegistry,
  dataDir: string,
  log: (line: string) => void,
): Promise<void> {
  try {
    const revoked = await registry.revokeSessionsOf(dataDir);
    if (revoked.length > 0) {
      log(`revoked ${revoked.length} UI session key(s) left active by a server that stopped without closing`);
    }
  } catch (e) {
    // An unreadable registry refuses every key anyway (warnIfUnreadable said why).
    log(`warn: could not revoke leftover UI session keys: ${(e as Error).message}`);
  }
}

/**
 * Makes the data dir and the files Mnemo made owner-only (secure-data-dir.ts), saying so once: the data
 * dir's own files, a --key-registry file, and the database key file Mnemo generated in the config dir.
 * A --db-key-file is the user's own (a secrets mount may be read-only): it is only warned about
 * (engine/adapters/sqlite/resolve-db-key.ts).
 */
function secureFilesOf(
  dataDir: string | undefined,
  options: ServerOptions,
  log: (line: string) => void,
): void {
  const extra = options.keyRegistry ? [options.keyRegistry] : [];
  const generatedKey =
    dataDir && options.dbKey === undefined && !options.dbKeyFile && !process.env.MNEMO_DB_KEY;
  if (generatedKey) extra.push(join(options.configDir ?? defaultConfigDir(), 'db.key'));
  const report = secureDataDir(dataDir, extra);
  const line = tightenedLine(report);
  if (line) log(line);
  for (const warning of report.warnings) log(`warn: ${warning}`);
}

/** What the one error line says when the socket cannot be had (Node's own names only the errno). */
function listenError(e: unknown, host: string, port: number): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const why =
    code === 'EADDRINUSE'
      ? `another program is using port ${port} there (EADDRINUSE): stop it, or choose another --port (--port 0 takes any free one)`
      : code === 'EACCES'
        ? `permission denied (EACCES): ports below 1024 need privileges; choose another --port`
        : code === 'EADDRNOTAVAIL'
          ? `${host} is not an address of this machine (EADDRNOTAVAIL); choose another --host`
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? `no address is known by the name ${host} (${code}); give --host an address of this machine (127.0.0.1 by default)`
            : null;
  if (!why) return e;
  return Object.assign(new Error(`cannot listen on ${where}: ${why}`), { code });
}

/** The labels UI session keys had before they were marked with their data dir (KeyEntry.session_of). */
const legacySessionLabels = new Set(['desktop UI session', 'desktop app']);

/**
 * Names the keys that look like UI session keys of a Mnemo from before session keys were marked: never
 * revoked by any later start, as nothing tells them from a key a person made with the same label
 * (`mnemo keys create --label`, the Keys screen), which must keep working. Only those made before the
 * first marked key in this registry: any made since are a person's.
 */
async function warnOfLegacySessionKeys(
  registry: FileKeyRegistry,
  log: (line: string) => void,
): Promise<void> {
  let keys;
  try {
    keys = await registry.list();
  } catch {
    return; // warnIfUnreadable said why.
  }
  const firstMarked = keys
    .filter((k) => k.session_of !== undefined)
    .reduce<string | null>((min, k) => (min === null || k.created_at < min ? k.created_at : min), null);
  const legacy = keys.filter(
    (k) =>
      k.session_of === undefined &&
      !k.revoked_at &&
      k.admin &&
      k.prefix === 'sk_live_local' &&
      k.brain === null &&
      k.label !== null &&
      legacySessionLabels.has(k.label) &&
      (firstMarked === null || k.created_at < firstMarked),
  );
  if (legacy.length === 0) return;
  log(
    `warn: ${legacy.length} active admin key(s) (${legacy.map((k) => k.id).join(', ')}) look like UI ` +
      'session keys an earlier Mnemo left behind; they are not revoked for you, as a key you made ' +
      'with the same label looks the same. If you did not make them: mnemo keys revoke KEY_ID',
  );
}
