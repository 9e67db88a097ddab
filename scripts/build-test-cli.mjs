// Bundles the `mnemo` command's modules into one file for the test run (scripts/test.mjs builds it and
// names it to bin/mnemo.mjs in MNEMO_TEST_CLI_BUNDLE): tests start the CLI about a hundred times, and
// each start otherwise compiles its thousand-odd modules again, about a CPU second. Every source file
// keeps its own import.meta.url, so paths found beside a module (the reranker model, the embedding
// worker, the UI, benchmark clients) are the source tree's, as when bin/mnemo.mjs runs it through tsx.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { esmBanner, externalPackages } from './build-electron.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const ownImportMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
      const url = pathToFileURL(args.path).href;
      const contents = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', JSON.stringify(url))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Builds the CLI's bundle to `outFile`, and the embedding worker's beside it (returned): every server a
 * test starts, in its process or the CLI's, starts that worker, and through tsx its start costs ~0.45
 * CPU seconds against ~0.1 bundled.
 */
export async function buildTestCli(outFile) {
  const embedWorker = join(dirname(outFile), 'embed-worker.mjs');
  await Promise.all([
    bundle('server/cli/main.ts', outFile),
    bundle('engine/embed/embed-worker.ts', embedWorker),
  ]);
  return { embedWorker };
}

async function bundle(entry, outFile) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    target: 'node20.19',
    format: 'esm',
    external: externalPackages,
    banner: { js: esmBanner },
    plugins: [ownImportMeta],
    logLevel: 'warning',
    legalComments: 'none',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? join(root, 'dist', 'test-cli', 'main.mjs');
  await buildTestCli(out);
  console.log(out);
}
