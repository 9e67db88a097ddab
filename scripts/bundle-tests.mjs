// The test files as esbuild bundles, for `npm test`: a test file's process then loads a few modules of
// plain JavaScript instead of its hundreds of TypeScript modules, each a round trip to the loader's
// thread (scripts/test-loader-hooks.mjs), and starts no loader thread at all. That was ~0.6 CPU s of
// the ~3.5 a typical integration file took. Packages stay in node_modules; the project's modules are
// shared between the bundles in chunks, so a file is one import plus the chunks it uses.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownImportMeta } from './own-import-meta.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const ownName = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
/**
 * Files run as they are: one that imports a module by a computed path (`import(\`./x.ts?fresh=${n}\`)`,
 * for a fresh copy) needs the loader when it runs, and one that imports this package by its own name
 * (as agents do, through package.json's exports) resolves it only from inside the checkout's scope.
 */
const runsAsItIs = (source) =>
  /\bimport\(\s*`/.test(source) || new RegExp(`(?:from|import\\()\\s*['"]${ownName}(?:/|['"])`).test(source);

/**
 * Bundles the test files (paths from the checkout; `sources`, their texts, when read already) into `outdir`, each at its own path with .mjs
 * (`engine/x.test.ts` → `outdir/engine/x.test.mjs`). Resolves to a Map from each bundled file to its
 * bundle; a file left out runs as it is.
 */
export async function bundleTests(
  files,
  outdir,
  sources = files.map((f) => readFileSync(join(root, f), 'utf8')),
) {
  const esbuild = await import('esbuild');
  const bundled = files.filter((_, i) => !runsAsItIs(sources[i]));
  rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: bundled,
    outdir,
    outbase: '.',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    target: `node${process.versions.node}`,
    format: 'esm',
    packages: 'external',
    // Stack traces and the reports' locations name the .ts lines (the runner turns source maps on).
    sourcemap: 'inline',
    sourcesContent: false,
    plugins: [ownImportMeta(esbuild)],
    logLevel: 'error',
  });
  return new Map(bundled.map((f) => [f, join(outdir, f.replace(/\.tsx?$/, '.mjs'))]));
}
