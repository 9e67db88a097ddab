import type { Deployment, Engine } from '../engine/types.ts';
import type { ServerOptions } from './start-server.ts';

/** Opens the local (encrypted SQLite) engine. */
export async function createLocalEngineFromOptions(
  options: ServerOptions,
  deployment: Deployment,
): Promise<Engine> {
  // The local engine lands in engine/local (issue 3); loaded lazily so the reference engine starts without it.
  const path = '../engine/local/index.ts';
  const mod = (await import(path)) as {
    createLocalEngine?: (o: Record<string, unknown>) => Promise<Engine>;
    resolveDbKey?: (o: Record<string, unknown>) => string | Buffer;
  };
  if (!mod.createLocalEngine)
    throw new Error('the local engine is not available in this build; use --engine reference');
  return mod.createLocalEngine({
    dataDir: options.dataDir,
    deployment,
    traceBufferSize: options.traceBuffer,
    thoroughSyncMs: options.thoroughSyncMs,
  });
}
