// The load hook of scripts/test-loader.mjs, run in Node's loader thread: a .ts or .tsx module is
// esbuild's transform of it, from the cache when made before. Resolution is Node's own: the sources
// import each other by their .ts names.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsconfigFor } from './own-import-meta.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'node_modules', '.cache', 'mnemo', 'ts');
const typescript = /\.(?:ts|tsx|mts)$/;

const esbuildVersion = JSON.parse(
  readFileSync(join(root, 'node_modules', 'esbuild', 'package.json'), 'utf8'),
).version;
const options = {
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  // As tsx does: Node decodes each module's map when it loads (source maps are on), so the smaller the
  // better; the .ts files are there to show.
  sourcesContent: false,
  minifyWhitespace: true,
};
const tsconfigs = { ts: tsconfigFor('.ts'), tsx: tsconfigFor('.tsx') };
// Whatever changes the output changes the name it is kept under.
const optionsKey = JSON.stringify([esbuildVersion, options, tsconfigs]);
let esbuild;

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !typescript.test(new URL(url).pathname)) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha1').update(optionsKey).update('\0').update(path).update('\0').update(source);
  const cached = join(cacheDir, `${key.digest('hex')}.mjs`);
  let code;
  try {
    code = readFileSync(cached, 'utf8');
  } catch {
    esbuild ??= await import('esbuild');
    const loader = path.endsWith('.tsx') ? 'tsx' : 'ts';
    ({ code } = await esbuild.transform(source, {
      ...options,
      loader,
      tsconfigRaw: tsconfigs[loader],
      sourcefile: path,
    }));
    // Written whole, then renamed: the files running beside this one may read it at any moment.
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, cached);
  }
  return { format: 'module', source: code, shortCircuit: true };
}
