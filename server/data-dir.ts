import { homedir } from 'node:os';
import { join } from 'node:path';

/** The platform's per-user data directory for Mnemo (the `--data-dir` default). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.MNEMO_DATA_DIR) return env.MNEMO_DATA_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Mnemo');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Mnemo');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'mnemo');
}

export function registryPathFor(dataDir: string): string {
  return join(dataDir, 'keys.json');
}
