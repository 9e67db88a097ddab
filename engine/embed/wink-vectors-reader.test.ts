import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readWinkVectors, type WinkHeader } from './wink-vectors-reader.ts';

interface Read {
  header: WinkHeader | null;
  vectors: Map<string, number[]>;
}

function read(path: string, windowBytes?: number): { ok: boolean } & Read {
  const got: Read = { header: null, vectors: new Map() };
  const decoder = new TextDecoder();
  const ok = readWinkVectors(
    path,
    (h) => (got.header = h),
    (bytes, from, to, values) => got.vectors.set(decoder.decode(bytes.subarray(from, to)), [...values]),
    windowBytes,
  );
  return { ok, ...got };
}

/** What JSON.parse makes of the file, cut to the same first `dims` numbers per vector. */
function parsedWhole(text: string): Read {
  const raw = JSON.parse(text) as WinkHeader & { vectors: Record<string, number[]> };
  return {
    header: { dimensions: raw.dimensions, words: raw.words },
    vectors: new Map(Object.entries(raw.vectors).map(([w, v]) => [w, v.slice(0, raw.dimensions)])),
  };
}

describe('reading the word vectors file a window at a time', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mnemo-wink-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads what JSON.parse reads: escaped and non-ASCII keys, exponents, entries across windows', () => {
    const words = ['the', '"', 'back\\slash', 'tab\there', 'Kovač', 'zoë', 'e\u0301', '😀'];
    for (let i = 0; i < 300; i++) words.push(`w${i}`);
    let x = 11;
    const next = () => ((x = (x * 48271) % 2147483647) / 2147483647) * 2 - 1;
    const vectors = Object.fromEntries(
      words.map((w, i) => [w, [next(), next() * 1e-7, next() * 1e5, -0, next(), i]]),
    );
    const text = JSON.stringify({ precision: 8, size: words.length, dimensions: 5, words, vectors });
    const file = join(dir, 'vectors.json');
    writeFileSync(file, text);
    const whole = parsedWhole(text);
    // A window of 512 bytes holds a few entries: nearly every one is read after the window moved.
    for (const windowBytes of [undefined, 512]) {
      const got = read(file, windowBytes);
      assert.equal(got.ok, true);
      assert.deepEqual(got.header, whole.header);
      assert.deepEqual(got.vectors, whole.vectors);
    }
  });

  it('reads a file with white space between its tokens', () => {
    const words = ['a', 'b'];
    const text = JSON.stringify(
      { dimensions: 2, words, vectors: { a: [1, 2, 3], b: [-4.5, 5e-3, 1] } },
      null,
      2,
    );
    const file = join(dir, 'pretty.json');
    writeFileSync(file, text);
    const got = read(file, 64);
    assert.equal(got.ok, true);
    assert.deepEqual(got.vectors, parsedWhole(text).vectors);
  });

  it('leaves a file whose vectors come before its words to a whole parse, calling nothing', () => {
    const file = join(dir, 'other-order.json');
    writeFileSync(file, JSON.stringify({ dimensions: 1, vectors: { a: [1] }, words: ['a'] }));
    const got = read(file);
    assert.equal(got.ok, false);
    assert.equal(got.header, null);
    assert.equal(got.vectors.size, 0);
  });

  it('refuses a vector that is not numbers, or is shorter than the dimensions', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"dimensions":2,"words":["a"],"vectors":{"a":[1,"x"]}}');
    assert.throws(() => read(bad), /is not a number/);
    writeFileSync(bad, '{"dimensions":3,"words":["a"],"vectors":{"a":[1,2]}}');
    assert.throws(() => read(bad), /a vector of 2 numbers, not 3/);
  });
});
