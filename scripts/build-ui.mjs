// Builds the renderer into dist/renderer with Vite. Runs in npm's `prepare` (so right after `npm ci`)
// and in `npm test`. `--force` always rebuilds; otherwise the build is skipped while dist/renderer is
// newer than every source it comes from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const force = process.argv.includes('--force');
const out = join(root, 'dist', 'renderer', 'index.html');
// The renderer bundles these: its own folder, the typed client and the contract it imports.
const inputs = ['renderer', 'server/client', 'engine/contract', 'engine/errors', 'package-lock.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    max = Math.max(max, newest(join(path, name)));
  }
  return max;
}

if (!force && existsSync(out)) {
  const built = statSync(out).mtimeMs;
  const sources = Math.max(...inputs.map((p) => newest(join(root, p))));
  if (built >= sources) {
    console.log('build-ui: dist/renderer is up to date (use --force to rebuild)');
    process.exit(0);
  }
}

let vite;
try {
  vite = await import('vite');
} catch {
  // `npm ci --omit=dev` has no Vite: the server still runs, and says how to build the UI.
  console.log('build-ui: vite is not installed (dev dependencies omitted); skipping the UI build');
  process.exit(0);
}

const started = Date.now();
try {
  await vite.build({
    configFile: join(root, 'renderer', 'vite.config.ts'),
    logLevel: 'warn',
  });
} catch (e) {
  console.error(`build-ui: the Vite build failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
console.log(`build-ui: built dist/renderer in ${((Date.now() - started) / 1000).toFixed(1)} s`);
