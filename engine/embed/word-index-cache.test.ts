import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cachedWordIndex } from './word-index-cache.ts';
import { wordIndexOf, type WordIndex } from './word-index.ts';

const encoder = new TextEncoder();
const linesOf = (words: string[]) => encoder.encode(words.join('\n'));
const answers = (index: WordIndex, words: string[]) => [...words, 'absent', ''].map((w) => index.get(w));

/** Where the arrays begin in a kept index: six header fields and the SHA-256. */
const arraysAt = 24 + 32;
/** Signs a kept index's arrays again, as the writer would have for these words. */
const resign = (bytes: Buffer, lines: Uint8Array) =>
  createHash('sha256').update(lines).update(bytes.subarray(arraysAt)).digest().copy(bytes, 24);

describe('the word index kept beside the GloVe cache', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mnemo-word-index-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`);

  it('is written on first use and read back, answering as the index built from the words', () => {
    const file = join(dir, 'kept.index');
    const built = wordIndexOf(words);
    const first = cachedWordIndex(file, linesOf(words), words.length);
    assert.ok(statSync(file).size > 0);
    const read = cachedWordIndex(file, linesOf(words), words.length);
    assert.deepEqual(answers(first, words), answers(built, words));
    assert.deepEqual(answers(read, words), answers(built, words));
    assert.deepEqual([...read.entries()], [...built.entries()]);
    assert.equal(read.size, built.size);
  });

  it('is read, not built again: ranks planted in the kept file are what it answers', () => {
    const file = join(dir, 'planted.index');
    cachedWordIndex(file, linesOf(words), words.length);
    const bytes = readFileSync(file);
    const slots = bytes.readUInt32LE(12);
    const ranksAt = arraysAt + 4 * (words.length + 1) + 4 * slots;
    for (let s = 0; s < slots; s++) bytes.writeInt32LE(7, ranksAt + 4 * s);
    resign(bytes, linesOf(words));
    writeFileSync(file, bytes);
    const read = cachedWordIndex(file, linesOf(words), words.length);
    assert.equal(read.get(words[0]!), 7);
    assert.equal(read.get(words[2999]!), 7);
  });

  it('is built again, and kept, for other words of the same count and length, or a file cut short', () => {
    const file = join(dir, 'other.index');
    cachedWordIndex(file, linesOf(words), words.length);
    const others = words.map((w) => w.replace('w', 'x'));
    const index = cachedWordIndex(file, linesOf(others), others.length);
    assert.deepEqual(answers(index, others), answers(wordIndexOf(others), others));
    assert.equal(index.get(words[5]!), undefined);
    // Kept for the new words: read back as they are.
    assert.deepEqual(
      answers(cachedWordIndex(file, linesOf(others), others.length), others),
      answers(index, others),
    );
    truncateSync(file, 100);
    const again = cachedWordIndex(file, linesOf(others), others.length);
    assert.deepEqual(answers(again, others), answers(index, others));
    assert.ok(statSync(file).size > 100);
  });

  it('is built again when its arrays were damaged, here every slot taken, which would never end a probe', () => {
    const file = join(dir, 'full.index');
    cachedWordIndex(file, linesOf(words), words.length);
    const bytes = readFileSync(file);
    const slots = bytes.readUInt32LE(12);
    const tableAt = arraysAt + 4 * (words.length + 1);
    for (let s = 0; s < slots; s++) bytes.writeInt32LE(0, tableAt + 4 * s);
    writeFileSync(file, bytes);
    const index = cachedWordIndex(file, linesOf(words), words.length);
    assert.deepEqual(answers(index, words), answers(wordIndexOf(words), words));
  });
});
