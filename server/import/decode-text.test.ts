import assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeText, maxWholeFileBytes, readFoldedText, readText, utf8OrWindows1252 } from './decode-text.ts';
import { parseMarkdown } from './formats/markdown.ts';
import { collect, writeTree } from './test-support.ts';

test('bytes that are not UTF-8 are Windows-1252, including its quotes, dashes and euro sign (0x80-0x9F)', () => {
  // “Café” – 5 € … as a Windows editor saves them.
  const cp1252 = Uint8Array.from([
    0x93, 0x43, 0x61, 0x66, 0xe9, 0x94, 0x20, 0x96, 0x20, 0x35, 0x20, 0x80, 0x20, 0x85, 0x81,
  ]);
  assert.equal(decodeText(cp1252), '\u201cCaf\u00e9\u201d \u2013 5 \u20ac \u2026\u0081');
  assert.equal(decodeText(Buffer.from('\ufeff“Café” €', 'utf8')), '“Café” €', 'UTF-8, BOM dropped');
  assert.equal(utf8OrWindows1252(Buffer.from('\ufeffFrom: x', 'utf8')), '\ufeffFrom: x', 'a BOM is content');
});

test('a file larger than an importer reads whole is refused before it is read (an unpacked zip bomb)', async () => {
  // Sparse: the bytes cost nothing until read. Read whole, a larger one (gigabytes, from a zip of
  // under 1 MB) aborted the server inside Node's decoder.
  const { root, remove } = writeTree({ 'big.md': '', 'big.ics': '' });
  try {
    for (const name of ['big.md', 'big.ics']) truncateSync(join(root, name), maxWholeFileBytes + 1);
    const refused = new RegExp(`holds ${maxWholeFileBytes + 1} bytes, more than the ${maxWholeFileBytes}`);
    await assert.rejects(readText(join(root, 'big.md')), refused);
    await assert.rejects(readFoldedText(join(root, 'big.ics')), refused);
    const { records, skips } = await collect(parseMarkdown(root, {}));
    assert.equal(records.length, 0);
    assert.match(skips[0]!.reason, refused, 'the note is skipped with the reason, the import goes on');
  } finally {
    remove();
  }
});
