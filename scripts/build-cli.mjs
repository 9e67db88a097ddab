// Bundles the `mnemo` command's modules into main.mjs, with the embedding worker's beside it and what
// only some commands load in chunks/: through tsx each start compiles its thousand-odd modules again
// (about a CPU second) and keeps the loader and the sources' maps resident (~55 MB of an idle server).
// npm's `prepare` builds dist/cli, which bin/mnemo.mjs runs while every file it was built from is
// unchanged (inputs.json; bin/cli-bundle.mjs); `npm test` builds its own copy for the tests that start
// the command (MNEMO_TEST_CLI_BUNDLE). Every source file keeps its own import.meta.url, so paths found
// beside a module (the reranker model, the embedding worker, the UI, benchmark clients) are the source
// tree's, as when tsx runs it.
import { execFile } from 'node:child_process';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { esmBanner, externalPackages } from './build-electron.mjs';
import { ownImportMeta } from './own-import-meta.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages that read files beside their own module (PGlite its WebAssembly and data, pgvector its
 * extension's archive): bundled, they would look beside dist/cli. The command runs from the checkout,
 * so node_modules has them.
 */
const filesBeside = ['@electric-sql/pglite', '@electric-sql/pglite-pgvector'];

/** The benchmark clients bundled beside the command: through tsx, each took ~1.6 CPU s to start. */
const benchClients = ['write-client', 'scale-client'];

/** What both builds are: ES modules for the Node the package supports, split into chunks/ in OUTDIR. */
const nodeModules = (outdir) => ({
  absWorkingDir: root,
  outdir,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  logLevel: 'warning',
  legalComments: 'none',
});

/**
 * Builds the CLI's bundle to `outFile`, the embedding worker's and the derive thread's beside it
 * (returned: every server starts that worker, ~0.45 CPU seconds through tsx against ~0.1 bundled), and the list of the files both were
 * built from. What only some commands load (each dynamic import: the tokenizer's 4 MB of ranks,
 * the importers) is split into chunks/ and compiled when first imported: in one file, a command that
 * needs little of it (`--help`, `keys`, a usage error) took ~0.6 CPU s to start, ~0.35 now.
 */
export async function buildCli(outFile) {
  const outdir = dirname(outFile);
  // Chunks are named by their content: those of an earlier build would stay beside the new ones.
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
  const esbuild = await import('esbuild');
  const built = await esbuild.build({
    entryPoints: {
      [basename(outFile, '.mjs')]: 'server/cli/main.ts',
      'embed-worker': 'engine/embed/embed-worker.ts',
      'derive-thread': 'engine/derive/derive-thread.ts',
      // The benchmarks' HTTP clients, each forked as a process of its own (server/bench/client-entry.mjs).
      ...Object.fromEntries(benchClients.map((name) => [`bench-${name}`, `server/bench/${name}.ts`])),
    },
    ...nodeModules(outdir),
    external: [...externalPackages, ...filesBeside],
    banner: { js: esmBanner },
    plugins: [ownImportMeta(esbuild, /\.ts$/)],
    metafile: true,
  });
  const files = Object.keys(built.metafile.inputs)
    .filter((f) => !f.includes(':'))
    .sort()
    .map((f) => {
      const st = statSync(join(root, f));
      return [f, st.size, st.mtimeMs];
    });
  // What bin/cli-bundle.mjs checks before bin/mnemo.mjs runs the bundle: each input's path (from the
  // checkout, as esbuild names it), size and mtime.
  writeFileSync(join(outdir, 'inputs.json'), JSON.stringify({ files }));
  return { embedWorker: join(outdir, 'embed-worker.mjs'), deriveThread: join(outdir, 'derive-thread.mjs') };
}

/**
 * Builds the typed client that package.json exports as `mnemo/client` (and its loopback fetch) to
 * JavaScript in `outdir`: Node imports no `.ts` (before 22.6 not at all, and never under node_modules),
 * so a Node app's `import 'mnemo/client'` failed with ERR_UNKNOWN_FILE_EXTENSION. One build with a
 * shared chunk, so both entries share one MnemoApiError class (instanceof holds across them). Their
 * declarations go to `outdir/types` (package.json's `types`): the `.ts` sources named there before made
 * a consumer's tsc refuse them without allowImportingTsExtensions. The native tsc emits them in ~1 s.
 */
export async function buildClient(outdir) {
  rmSync(outdir, { recursive: true, force: true });
  const esbuild = await import('esbuild');
  const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
  const types = promisify(execFile)(
    process.execPath,
    [tsc, '-p', 'server/client/tsconfig.types.json', '--outDir', join(outdir, 'types')],
    { cwd: root },
  ).catch((e) => {
    throw new Error(`the client's declarations were not emitted: ${e.stdout || e.message}`);
  });
  await Promise.all([
    esbuild.build({
      entryPoints: {
        index: 'server/client/index.ts',
        'loopback-fetch': 'server/client/loopback-fetch.ts',
      },
      ...nodeModules(outdir),
    }),
    types,
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? join(root, 'dist', 'cli', 'main.mjs');
  await buildCli(out);
  if (process.argv[2] === undefined) await buildClient(join(root, 'dist', 'client'));
}
