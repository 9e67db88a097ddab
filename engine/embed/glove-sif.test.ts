import assert from 'node:assert/strict';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dot, normalize } from './embedder.ts';
import { createSifModel, functionWords, sifModelOf, words, type SifWeights } from './glove-sif.ts';
import { closeGloveTable, eagerRows, rowsPerBlock, type GloveTable } from './glove-table.ts';
import { createWorkerEmbedder } from './worker-embedder.ts';
import { createGloveEmbedder } from './glove-embedder.ts';
import { cachedSifWeights } from './sif-cache.ts';
import { sifWeights } from './glove-sif.ts';
import { winkFile } from './testing/wink-file.ts';
import { wordIndexOf } from './word-index.ts';
import { cacheBase, loadGloveTable, tableFiles } from './word-table.ts';

/** The sentence vector from the words as the regular expression splits them, each a string. */
function embedByRegex(t: GloveTable, { weights, common }: SifWeights, text: string): Float32Array {
  const v = new Float32Array(t.dims);
  for (const word of words(text)) {
    if (common && functionWords.has(word)) continue;
    const r = t.index.get(word);
    if (r === undefined || t.norms[r] === 0) continue;
    const s = (t.norms[r]! * weights[r]!) / 127;
    for (let k = 0; k < t.dims; k++) v[k]! += t.q[r * t.dims + k]! * s;
  }
  if (common) {
    let p = 0;
    for (let k = 0; k < t.dims; k++) p += v[k]! * common[k]!;
    for (let k = 0; k < t.dims; k++) v[k]! -= p * common[k]!;
  }
  return normalize(v);
}

/** A wink-format file of `count` words w0, w1, ... with vectors drawn from a fixed seed. */
function largeWinkFile(path: string, count: number): void {
  let x = 7;
  const next = () => ((x = (x * 48271) % 2147483647) / 2147483647) * 2 - 1;
  const wordsList = Array.from({ length: count }, (_, i) => `w${i}`);
  const vectors = Object.fromEntries(
    wordsList.map((w, i) => {
      const v = [next(), next(), next(), next()];
      return [w, [...v, Math.hypot(...v), i]];
    }),
  );
  writeFileSync(path, JSON.stringify({ size: count, dimensions: 4, words: wordsList, vectors }));
}

/** The blocks of a lazily read table read so far. */
const loadedBlocks = (t: GloveTable) => [...(t.pending?.loaded ?? [])].flatMap((v, b) => (v ? [b] : []));

describe('GloVe + SIF sentence vectors', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mnemo-glove-'));
    file = join(dir, 'vectors.json');
    winkFile(file);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('splits words the way GloVe saw them', () => {
    assert.deepEqual(words("Caroline's cat, RUNS!"), ['caroline', "'s", 'cat', 'runs']);
  });

  it('embeds as the words the regular expression splits would, to the bit', () => {
    const texts = [
      "Caroline's cat RUNS; they're here, we'd gone and THE dog's bowl",
      'İstanbul DİYARBAKIR ıi, Straße GROẞ, ΟΔΟΣ ΟΔΟΣ. σς, naïve Cafe\u0301',
      '日本語 東京2020 ١٢٣ 𝐀𝐁 emoji 😀 🎉party👍 curly don’t',
      "rock'n'roll ''s '123 Room 101, 3.14 and 10k",
      '',
      'nothing here is known: zyzzyva qwxp',
    ];
    // More words than a text usually has, before and after the others.
    texts.unshift(texts.join(' ').repeat(4));
    texts.push(texts[0]!);
    const vocab = [...new Set(texts.flatMap((t) => words(t)).filter((w) => !w.startsWith('zy')))];
    // Function words in the table, a word given twice (its last rank answers) and one of norm 0.
    vocab.push(...functionWords, 'cat', 'they');
    const dims = 8;
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const t: GloveTable = {
      dims,
      size: vocab.length,
      index: wordIndexOf(vocab),
      q: Int8Array.from({ length: vocab.length * dims }, () => Math.round(next() * 127)),
      norms: Float32Array.from(vocab, (w) => (w === 'dog' ? 0 : 1 + next())),
    };
    for (const sif of [sifWeights(t), sifWeights(t, { removeCommon: false })]) {
      const m = sifModelOf(t, sif);
      for (const text of texts) assert.deepEqual(m.embedOne(text), embedByRegex(t, sif, text), text);
    }
  });

  it('builds a binary cache on first load and reads the same table back from it', () => {
    const cache = join(dir, 'cache');
    const built = loadGloveTable(file, cache);
    assert.equal(readdirSync(cache).filter((f) => f.endsWith('.bin')).length, 1);
    const read = loadGloveTable(file, cache);
    assert.deepEqual([...read.index.entries()], [...built.index.entries()]);
    assert.ok(read.index.size > 0);
    assert.deepEqual(read.q, built.q);
    assert.deepEqual(read.norms, built.norms);
  });

  it('puts sentences about the same thing closer, frequent words weighing little', () => {
    const m = createSifModel(loadGloveTable(file));
    const [a, b, c] = ['the cat', 'the kitten', 'the car'].map((t) => m.embedOne(t));
    assert.ok(dot(a!, b!) > dot(a!, c!) + 0.3, `${dot(a!, b!)} vs ${dot(a!, c!)}`);
    assert.ok(Math.abs(dot(a!, a!) - 1) < 1e-6);
  });

  it('gives an all-unknown text the zero vector, which matches nothing', () => {
    const m = createSifModel(loadGloveTable(file));
    assert.ok(m.embedOne('zyzzyva qwxp').every((x) => x === 0));
  });

  it('runs in a worker with provider and model recorded', async () => {
    const e = await createWorkerEmbedder({
      provider: 'glove-sif',
      vectorsPath: file,
      cacheDir: join(dir, 'cache'),
    });
    try {
      assert.equal(e.provider, 'glove-sif');
      // Vectors no store was named for before are named by their table's digest.
      assert.match(e.model, /^word-vectors-4d@sha256:[0-9a-f]{12}\/sif-a1e-3-content-words-rc1$/);
      assert.equal(e.dims, 4);
      const [v, w] = await e.embed(['cat', 'kitten']);
      assert.ok(dot(v!, w!) > 0.9);
    } finally {
      await e.close();
    }
  });

  it('by default loads in a worker that then ends, and embeds as the worker did, on this thread', async () => {
    const spec = { provider: 'glove-sif', vectorsPath: file, cacheDir: join(dir, 'cache') } as const;
    const served = await createWorkerEmbedder(spec);
    const workers = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const before = workers();
    const e = await createGloveEmbedder(spec);
    try {
      assert.deepEqual([e.provider, e.model, e.dims], [served.provider, served.model, served.dims]);
      const texts = ['the cat', 'a kitten and a truck', 'car', 'nothing known here'];
      assert.deepEqual(await e.embed(texts), await served.embed(texts));
      // The loading worker has gone: no port to it is left open.
      for (let i = 0; i < 50 && workers() > before; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(workers(), before);
    } finally {
      await e.close();
      await served.close();
    }
  });

  it('lets the event loop turn while it embeds a long batch', async () => {
    const e = await createGloveEmbedder({
      provider: 'glove-sif',
      vectorsPath: file,
      cacheDir: join(dir, 'cache'),
    });
    let turns = 0;
    const tick = setInterval(() => turns++, 0);
    try {
      const batch = Array.from({ length: 256 }, (_, i) => `cat ${i} truck`);
      const [first] = await e.embed(batch);
      assert.ok(first);
      assert.ok(turns > 0, 'a timer ran while the batch was embedded');
    } finally {
      clearInterval(tick);
      await e.close();
    }
  });

  it('keeps the common direction beside the table, and computes it again when the kept one is unusable', () => {
    const cache = join(dir, 'common-cache');
    const t = loadGloveTable(file, cache);
    const computed = sifWeights(t);
    const files = tableFiles(cacheBase(cache, statSync(file).size), true);
    const kept = files.common;
    // Kept with the table when it was built.
    assert.deepEqual(new Float32Array(new Uint8Array(readFileSync(kept)).buffer), computed.common);
    assert.deepEqual(cachedSifWeights(t, files), computed);
    // Read back, not computed: a kept direction that differs is what is used.
    const planted = new Float32Array([1, 0, 0, 0]);
    writeFileSync(kept, new Uint8Array(planted.buffer));
    assert.deepEqual(cachedSifWeights(t, files).common, planted);
    // Cut short: computed again and kept whole, unless its place is read-only (an app's resources).
    writeFileSync(kept, Buffer.alloc(6));
    assert.deepEqual(cachedSifWeights(t, { ...files, writable: false }), computed);
    assert.equal(readFileSync(kept).length, 6);
    assert.deepEqual(cachedSifWeights(t, files), computed);
    assert.equal(readFileSync(kept).length, t.dims * 4);
  });

  it('reads the frequent rows at load and the others on first use, to the same vectors', () => {
    const big = join(dir, 'big.json');
    largeWinkFile(big, 5 * rowsPerBlock + 7);
    const cache = join(dir, 'lazy-cache');
    loadGloveTable(big, cache); // builds the cache
    const whole = loadGloveTable(big, cache, Infinity);
    assert.equal(whole.pending, undefined);
    const lazy = loadGloveTable(big, cache, rowsPerBlock);
    try {
      assert.deepEqual(loadedBlocks(lazy), [0]);
      // Rows not read yet are zeros, not another word's vector.
      assert.ok(lazy.q.subarray(rowsPerBlock * 4).every((v) => v === 0));
      const sif = sifWeights(whole);
      const eager = sifModelOf(whole, sif);
      const onDemand = sifModelOf(lazy, sif);
      const rare = 3 * rowsPerBlock + 1;
      const last = 5 * rowsPerBlock + 6;
      assert.deepEqual(onDemand.embedOne(`w1 w${rare} w2`), eager.embedOne(`w1 w${rare} w2`));
      assert.deepEqual(loadedBlocks(lazy), [0, 3]);
      assert.deepEqual(onDemand.embedOne(`w${last}`), eager.embedOne(`w${last}`));
      assert.deepEqual(loadedBlocks(lazy), [0, 3, 5]);
      for (const b of [0, 3, 5]) {
        const rows = [b * rowsPerBlock * 4, Math.min(lazy.size, (b + 1) * rowsPerBlock) * 4] as const;
        assert.deepEqual(lazy.q.subarray(...rows), whole.q.subarray(...rows));
      }
      // Closed: a row read before still embeds; one never read is an error, never a zero vector.
      closeGloveTable(lazy);
      closeGloveTable(lazy);
      assert.deepEqual(onDemand.embedOne(`w${rare}`), eager.embedOne(`w${rare}`));
      assert.throws(() => onDemand.embedOne(`w${2 * rowsPerBlock}`), /closed/);
    } finally {
      closeGloveTable(lazy);
    }
  });

  it('hands rows not read yet over with the table, and closes their file with the embedder', async () => {
    const big = join(dir, 'handover.json');
    largeWinkFile(big, eagerRows + 3 * rowsPerBlock);
    const spec = { provider: 'glove-sif', vectorsPath: big, cacheDir: join(dir, 'handover-cache') } as const;
    // The first load builds the cache (every row read); the second reads it.
    await (await createGloveEmbedder(spec)).close();
    const e = await createGloveEmbedder(spec);
    const whole = loadGloveTable(big, spec.cacheDir, Infinity);
    const m = createSifModel(whole);
    const open = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(spec.cacheDir);
        } catch {
          return false;
        }
      }).length;
    try {
      const texts = [`w3 w${eagerRows + 5}`, `w${eagerRows + 2 * rowsPerBlock + 1}`, 'w10 w11'];
      assert.deepEqual(
        await e.embed(texts),
        texts.map((t) => m.embedOne(t)),
      );
      if (process.platform === 'linux') assert.equal(open(), 1);
    } finally {
      await e.close();
    }
    if (process.platform === 'linux') assert.equal(open(), 0);
  });
});
