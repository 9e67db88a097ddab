import { join } from 'node:path';
import type { ServerOptions } from '../server/start-server.ts';

/**
 * The options of the server the desktop app runs in its main process. `bundleDir` is the folder of the
 * running bundle (dist/electron, in a checkout or inside the packaged app): the UI is built beside it.
 */
export function desktopServerOptions(input: {
  userData: string;
  bundleDir: string;
  dbKey: string;
}): ServerOptions {
  return {
    engine: 'local',
    port: 0,
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
