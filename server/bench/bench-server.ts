import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMnemoClient } from '../client/index.ts';
import { loopbackFetch } from '../client/loopback-fetch.ts';
import { openEmbeddedPostgres } from '../../engine/index.ts';
import { startServer, type RunningServer } from '../start-server.ts';

export type BenchEngine = 'local' | 'reference' | 'postgres';

/** Which engine a benchmark measures: the flags every `mnemo bench` command shares. */
export interface BenchEngineChoice {
  engine: BenchEngine;
  /** The postgres engine's database; without one it runs on PGlite in this process. */
  databaseUrl?: string | undefined;
  embeddingModel?: string | undefined;
}

/** Just the engine choice of a benchmark's options, for its server. */
export const engineChoice = (o: BenchEngineChoice): BenchEngineChoice => ({
  engine: o.engine,
  databaseUrl: o.databaseUrl,
  embeddingModel: o.embeddingModel,
});

export interface BenchServerOptions extends BenchEngineChoice {
  /** Keep the temp data dir after closing (to inspect it). */
  keep?: boolean | undefined;
  log?: ((line: string) => void) | undefined;
  deployment?: 'local' | 'hosted';
  /** Timing of the background sync (the sync bench runs it by hand). */
  sync?: { debounceMs?: number; intervalMs?: number };
}

export interface BenchServer {
  server: RunningServer;
  client: ReturnType<typeof createMnemoClient>;
  /** The key `client` sends (for a client in another process). */
  apiKey: string;
  dataDir: string;
  /** The embedder the engine reports, or `none`. */
  readonly embedder: string;
  close(): Promise<void>;
}

/**
 * Starts a server of its own on 127.0.0.1 (any free port) over a fresh temp data dir, and a client
 * with a key it accepts: minted in the registry for the local engine; for the reference engine
 * without a registry any well-formed key is accepted.
 */
export async function startBenchServer(o: BenchServerOptions): Promise<BenchServer> {
  // An interrupted run (Ctrl-C, a harness's SIGTERM) would leave an encrypted store and its key file in
  // the temp dir: the server is stopped and the dir removed first, then the signal ends the process as
  // it would have (exit status 130 or 143: the run did not complete). The handlers go in before the dir
  // is made: a signal landing in between would otherwise end the process by its default action.
  let minted: { key: string; id: string } | null = null;
  const revokeMinted = async (running: RunningServer) => {
    if (minted && o.databaseUrl) await running.registry?.revoke(minted.id);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    stopListening();
    void (async () => {
      try {
        const running = await started;
        await revokeMinted(running).catch(() => {});
        await running.close({ force: true });
      } catch {
        // Removing the dir is what matters now.
      }
      removeDataDir();
      process.kill(process.pid, signal);
    })();
  };
  const stopListening = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let dataDir: string;
  try {
    dataDir = mkdtempSync(join(tmpdir(), 'mnemo-bench-'));
  } catch (e) {
    stopListening();
    throw e;
  }
  const removeDataDir = () => {
    if (!o.keep) rmSync(dataDir, { recursive: true, force: true });
  };
  const started = startServer({
    engine: o.engine,
    ...(o.engine === 'postgres'
      ? o.databaseUrl
        ? { databaseUrl: o.databaseUrl }
        : { openDatabase: (kept: { tracesPerBrain?: number }) => openEmbeddedPostgres(kept) }
      : {}),
    host: '127.0.0.1',
    port: 0,
    dataDir,
    configDir: join(dataDir, 'config'),
    rateLimit: 0,
    traceBuffer: 100,
    ui: false,
    // As `mnemo serve` runs: what the first Context needs is loaded while the benchmark writes.
    warmUp: true,
    // Benchmark dates are wall times with no zone (LoCoMo's "1:56 pm on 8 May, 2023"), read as UTC:
    // the engine's calendar must be the same on every machine.
    timeZone: 'UTC',
    ...(o.embeddingModel ? { embeddingModel: o.embeddingModel } : {}),
    ...(o.deployment ? { deployment: o.deployment } : {}),
    ...(o.sync ? { sync: o.sync } : {}),
    log: o.log,
  });
  let running: RunningServer;
  try {
    running = await started;
  } catch (e) {
    stopListening();
    removeDataDir();
    throw e;
  }
  // A database outlives the run: each run gets a project of its own, so its Brains ("write", "scale",
  // a LoCoMo conversation) never meet an earlier run's, and its key is revoked when it ends.
  const project = o.databaseUrl ? `bench-${randomBytes(4).toString('hex')}` : 'bench';
  try {
    if (running.registry) {
      const made = await running.registry.create({ env: 'test', project, label: 'benchmark' });
      minted = { key: made.key, id: made.record.id };
    }
  } catch (e) {
    stopListening();
    await running.close({ force: true });
    removeDataDir();
    throw e;
  }
  const apiKey = minted?.key ?? 'sk_test_bench_benchmarksecret0000';
  const client = createMnemoClient({ baseUrl: running.url, apiKey, retry: false, fetch: loopbackFetch });
  return {
    server: running,
    client,
    apiKey,
    dataDir,
    // Read when asked: the engine loads its embedder in the background.
    get embedder() {
      return running.engine.info.embedder ?? 'none';
    },
    async close() {
      stopListening();
      try {
        await revokeMinted(running);
      } finally {
        await running.close();
        removeDataDir();
      }
    },
  };
}

/** Runs `fn` against a bench server of its own, closed afterwards whatever happens. */
export async function withBenchServer<T>(
  o: BenchServerOptions,
  fn: (bench: BenchServer) => Promise<T>,
): Promise<T> {
  const bench = await startBenchServer(o);
  try {
    return await fn(bench);
  } finally {
    await bench.close();
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
