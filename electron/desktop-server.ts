import { join } from 'node:path';
import type { RunningServer, ServerOptions } from '../server/start-server.ts';

/**
 * The desktop app's own port: where it listens when it can. Agents without MNEMO_URL do not rely on it:
 * they find the app by the server.json in its data dir, and check it before they send a key
 * (server/cli/locate-server.ts), as another program may hold this port.
 */
export const desktopPort = 7821;

/** The word-vector table's folder in a packaged app's resources (electron-builder.yml, extraResources). */
export const wordTableResource = 'word-table';

/**
 * The options of the server the desktop app runs in its main process. `bundleDir` is the folder of the
 * running bundle (dist/electron, in a checkout or inside the packaged app): the UI is built beside it.
 * `resourcesDir` is a packaged app's resources folder: its prebuilt word-vector table is used there,
 * as the package holds no JSON to build one from (a checkout has none, and uses the cache or the JSON).
 */
export function desktopServerOptions(input: {
  userData: string;
  bundleDir: string;
  dbKey: string;
  resourcesDir?: string | undefined;
}): ServerOptions {
  return {
    ...(input.resourcesDir ? { wordTableDir: join(input.resourcesDir, wordTableResource) } : {}),
    engine: 'local',
    port: desktopPort,
    host: '127.0.0.1',
    ui: true,
    uiDir: join(input.bundleDir, '..', 'renderer'),
    dataDir: join(input.userData, 'data'),
    configDir: input.userData,
    dbKey: input.dbKey,
    // A person who quits expects the window to go now; an agent's request still running after 5 s is
    // answered 500 (and retried by the agent), rather than holding the app open for the server's 30 s.
    shutdownGraceMs: 5_000,
    warmUp: true,
  };
}

/**
 * Starts the desktop's server on its port, or, when another program holds that port, on any free one:
 * the app still opens, and the warning it shows says where it listens this time and who may be
 * listening on its port. Agents without MNEMO_URL follow it there (its data dir's server.json); one
 * whose MNEMO_URL names the port would send its key to that program. A failed start closes what it
 * opened (start-server.ts), so the second one finds the store free.
 */
export async function startDesktopServer(
  start: (o: ServerOptions) => Promise<RunningServer>,
  options: ServerOptions,
): Promise<{ server: RunningServer; warning: string | null }> {
  try {
    return { server: await start(options), warning: null };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    const server = await start({ ...options, port: 0 });
    return {
      server,
      warning:
        `Another program is using port ${options.port ?? desktopPort}, so Mnemo listens at ${server.url} until ` +
        'it restarts. Agents without MNEMO_URL find it there by themselves; an agent whose MNEMO_URL names ' +
        `port ${options.port ?? desktopPort} sends its key to that other program: remove MNEMO_URL from its ` +
        'settings, or quit that program and restart Mnemo.',
    };
  }
}
