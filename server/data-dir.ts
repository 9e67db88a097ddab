import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's per-user data directory for Mnemo (the `--data-dir` default). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.MNEMO_DATA_DIR) return env.MNEMO_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Mnemo');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Mnemo');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'mnemo');
}

/**
 * Where the desktop app keeps its data dir: Electron's userData (the platform's per-user config folder
 * and the app's name) then `data` (electron/desktop-server.ts). The name is `Mnemo` (productName) in a
 * packaged app and may be the package's `mnemo` run from a checkout: both, for a client that looks for
 * the app's server.json. Not a --data-dir default: `mnemo serve` never uses these.
 */
export function desktopDataDirs(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string[] {
  const appData =
    platform === 'darwin'
      ? join(homedir(), 'Library', 'Application Support')
      : platform === 'win32'
        ? (env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'))
        : (env.XDG_CONFIG_HOME ?? join(homedir(), '.config'));
  return [join(appData, 'Mnemo', 'data'), join(appData, 'mnemo', 'data')];
}

export function registryPathFor(dataDir: string): string {
  return join(dataDir, 'keys.json');
}
