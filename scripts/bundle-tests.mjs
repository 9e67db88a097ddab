// The test files as esbuild bundles, for `npm test`: a test file's process then loads a few modules of
// plain JavaScript instead of its hundreds of TypeScript modules, each a round trip to the loader's
// thread (scripts/test-loader-hooks.mjs), and starts no loader thread at all. That was ~0.6 CPU s of
// the ~3.5 a typical integration file took. Packages stay in node_modules; the project's modules are
// shared between the bundles in chunks, so a file is one import plus the chunks it uses.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** compilerOptions of a tsconfig with those of the files it extends beneath them. */
function compilerOptions(file) {
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const base = config.extends ? compilerOptions(join(dirname(file), config.extends)) : {};
  return { ...base, ...config.compilerOptions };
}

/**
 * Every module keeps its own import.meta (url, dirname, filename), so what a test finds beside a source
 * (fixtures, workers, the checkout's scripts) is found where it is, as when the loader runs it. Replaced
 * as expressions (esbuild's define), never inside strings: a test may hold code for a child in one.
 */
function ownImportMeta(esbuild) {
  const options = {
    ts: { loader: 'ts', tsconfigRaw: { compilerOptions: compilerOptions(join(root, 'tsconfig.json')) } },
    tsx: {
      loader: 'tsx',
      tsconfigRaw: { compilerOptions: compilerOptions(join(root, 'renderer', 'tsconfig.json')) },
    },
    js: { loader: 'js' },
  };
  return {
    name: 'own-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.(?:ts|tsx|mjs|js)$/ }, async (args) => {
        if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const kind = args.path.endsWith('.tsx') ? 'tsx' : args.path.endsWith('.ts') ? 'ts' : 'js';
        if (!source.includes('import.meta')) return { contents: source, loader: options[kind].loader };
        const { code } = await esbuild.transform(source, {
          ...options[kind],
          format: 'esm',
          target: `node${process.versions.node}`,
          sourcemap: 'inline',
          sourcesContent: false,
          sourcefile: args.path,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.dirname': JSON.stringify(dirname(args.path)),
            'import.meta.filename': JSON.stringify(args.path),
          },
        });
        return { contents: code, loader: 'js' };
      });
    },
  };
}

const ownName = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
/**
 * Files run as they are: one that imports a module by a computed path (`import(\`./x.ts?fresh=${n}\`)`,
 * for a fresh copy) needs the loader when it runs, and one that imports this package by its own name
 * (as agents do, through package.json's exports) resolves it only from inside the checkout's scope.
 */
const runsAsItIs = (source) =>
  /\bimport\(\s*`/.test(source) || new RegExp(`(?:from|import\\()\\s*['"]${ownName}(?:/|['"])`).test(source);

/**
 * Bundles the test files (paths from the checkout) into `outdir`, each at its own path with .mjs
 * (`engine/x.test.ts` → `outdir/engine/x.test.mjs`). Resolves to a Map from each bundled file to its
 * bundle; a file left out runs as it is.
 */
export async function bundleTests(files, outdir) {
  const esbuild = await import('esbuild');
  const bundled = files.filter((f) => !runsAsItIs(readFileSync(join(root, f), 'utf8')));
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
