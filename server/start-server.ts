import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KeyRegistry } from '../engine/auth/key-registry.ts';
import { createReferenceEngine } from '../engine/reference/index.ts';
import type { Deployment, Engine } from '../engine/types.ts';
import { registryPathFor } from './data-dir.ts';
import { mountMcp } from './mcp/mount-mcp.ts';
import { mountUi } from './ui/index.ts';
import { createLocalEngineFromOptions } from './local-engine-factory.ts';
import { serveOn } from './serve-on.ts';

export interface ServerOptions {
  engine: 'local' | 'reference';
  deployment?: Deployment;
  host?: string;
  port?: number;
  dataDir?: string;
  keyRegistry?: string;
  rateLimit?: number;
  docsUrlBase?: string;
  thoroughSyncMs?: number;
  traceBuffer?: number;
  ui?: boolean;
  dbKeyFile?: string;
  /** The database key itself (the desktop shell passes the one its keychain holds). */
  dbKey?: string;
  configDir?: string;
  embeddingModel?: string;
  /** IANA zone of the local engine's calendar (default: this machine's). */
  timeZone?: string;
  /** How long close() lets in-flight requests finish before answering them 500 (default 30 s). */
  shutdownGraceMs?: number;
  log?: (line: string) => void;
}

export interface RunningServer {
  /** Base URL ending in /v1, as printed on the listening line. */
  url: string;
  origin: string;
  port: number;
  engine: Engine;
  registry: KeyRegistry | null;
  /** The address that opens the UI with its one-time token, when the UI is on. */
  uiUrl: string | null;
  /**
   * Stops accepting, lets in-flight requests finish (up to the shutdown grace), then closes the store.
   * Called again with `force` while closing, it stops waiting for in-flight requests. Idempotent.
   */
  close(options?: { force?: boolean }): Promise<void>;
}

export const defaultRateLimit = 20_000;
/** Long enough for a big import to finish; short enough that a stuck request cannot hold a stop forever. */
export const defaultShutdownGraceMs = 30_000;
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Starts an engine and the /v1 server on loopback. The one place the pieces are put together. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const deployment = options.deployment ?? 'local';
  const log = options.log ?? (() => {});
  const wantedPort = options.port ?? 7821;
  // Before anything is created in the data dir or opened: Node would refuse it only at listen().
  if (!Number.isInteger(wantedPort) || wantedPort < 0 || wantedPort > 65_535) {
    throw new RangeError(`port must be an integer from 0 to 65535, not ${wantedPort}`);
  }
  const registryPath =
    options.keyRegistry ??
    (options.engine === 'local' && options.dataDir ? registryPathFor(options.dataDir) : undefined);
  const registry = registryPath
    ? options.keyRegistry
      ? new KeyRegistry(registryPath)
      : KeyRegistry.ensure(registryPath)
    : null;
  if (registry) warnIfUnreadable(registry, log);
  const engine: Engine =
    options.engine === 'reference'
      ? createReferenceEngine({ deployment, traceBufferSize: options.traceBuffer })
      : await createLocalEngineFromOptions(options, deployment);

  const uiTokens = new Set<string>();
  // UI session keys live as long as this server: revoked on close, so restarts do not pile up admin keys.
  const uiKeys: string[] = [];
  const serving = serveOn({
    host,
    port: wantedPort,
    docsUrlBase: options.docsUrlBase,
    engine,
    registry,
    rateLimit: options.rateLimit ?? defaultRateLimit,
    logger: log,
    mounts: [
      (a) => mountMcp(a, { engine, registry }),
      ...(options.ui
        ? [
            (a: Parameters<typeof mountMcp>[0]) =>
              mountUi(a, {
                distDir: join(repoRoot, 'dist', 'renderer'),
                exchangeToken: (token) => {
                  if (!uiTokens.delete(token)) return null;
                  const key = mintUiKey(registry);
                  uiKeys.push(key);
                  return key;
                },
              }),
          ]
        : []),
    ],
  });
  let served: Awaited<typeof serving>;
  try {
    served = await serving;
  } catch (e) {
    // The engine's threads and store would keep the process alive after the error was reported.
    await engine.close().catch((closeError: unknown) => {
      log(`error while closing the engine: ${(closeError as Error).message}`);
    });
    throw e;
  }
  const { listener, origin } = served;
  const { port } = listener;
  let uiUrl: string | null = null;
  if (options.ui) {
    const token = randomBytes(24).toString('base64url');
    uiTokens.add(token);
    uiUrl = `${origin}/#ui_token=${token}`;
  }

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
    close(closeOptions = {}) {
      if (closeOptions.force) forceNow();
      closing ??= (async () => {
        // The store closes only after the handlers that use it are done (or were cut off).
        const cut = await listener.shutdown(graceMs, forced);
        if (cut > 0) {
          log(`shutdown: ${cut} request(s) still running were answered 500 internal_error`);
        }
        await engine.close();
        for (const key of uiKeys) {
          try {
            registry?.revoke(key);
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
 * A registry that cannot be read answers every request 500 key_registry_unreadable, whose message
 * leaves out the path and the details: this is where whoever started the server learns them.
 */
function warnIfUnreadable(registry: KeyRegistry, log: (line: string) => void): void {
  try {
    registry.list();
  } catch (e) {
    const cause = (e as Error).cause;
    log(
      `warn: ${(e as Error).message}${cause instanceof Error ? ` (${cause.message})` : ''}; every request ` +
        'with a key gets 500 key_registry_unreadable until it can be read',
    );
  }
}

/** The UI's key: admin (it manages keys), project `local`, live. With no registry any well-formed key works. */
function mintUiKey(registry: KeyRegistry | null): string {
  if (!registry) return `sk_live_local_${randomBytes(18).toString('hex')}`;
  return registry.create({ env: 'live', project: 'local', admin: true, label: 'desktop UI session' }).key;
}
