import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Per-user cache for files derived from installed packages (the word-vector table): shared by every
 * data dir, so a new store or a benchmark's temp dir does not rebuild it. Never holds user data.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.MNEMO_CACHE_DIR) return env.MNEMO_CACHE_DIR;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Mnemo');
  if (platform === 'win32')
    return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Mnemo', 'cache');
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'mnemo');
}
