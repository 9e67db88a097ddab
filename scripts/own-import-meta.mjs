// What the scripts that compile the TypeScript sources share: the project's compiler options, and an
// esbuild plugin that keeps each bundled module's own import.meta.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** compilerOptions of a tsconfig with those of the files it extends beneath them. */
export function compilerOptions(file) {
  const config = JSON.parse(readFileSync(file, 'utf8'));
  const base = config.extends ? compilerOptions(join(dirname(file), config.extends)) : {};
  return { ...base, ...config.compilerOptions };
}

/** The tsconfig a source is compiled with: the renderer's for .tsx (React's JSX), else the root's. */
export function tsconfigFor(path) {
  const file = path.endsWith('.tsx') ? join(root, 'renderer', 'tsconfig.json') : join(root, 'tsconfig.json');
  return { compilerOptions: compilerOptions(file) };
}

/**
 * Every bundled module of ours (those `filter` matches, outside node_modules) keeps its own
 * import.meta (url, dirname, filename), so what it finds beside its source (fixtures, workers, the
 * reranker model, the UI, the checkout's scripts) is found where it is, as when a loader runs it.
 * Replaced as expressions (esbuild's define), never inside strings: a test may hold code for a child
 * in one.
 */
export function ownImportMeta(esbuild, filter = /\.(?:ts|tsx|mjs|js)$/) {
  const options = {
    ts: { loader: 'ts', tsconfigRaw: tsconfigFor('.ts') },
    tsx: { loader: 'tsx', tsconfigRaw: tsconfigFor('.tsx') },
    js: { loader: 'js' },
  };
  return {
    name: 'own-import-meta',
    setup(build) {
      build.onLoad({ filter }, async (args) => {
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
