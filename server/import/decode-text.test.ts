import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeText, utf8OrWindows1252 } from './decode-text.ts';

test('bytes that are not UTF-8 are Windows-1252, including its quotes, dashes and euro sign (0x80-0x9F)', () => {
  // “Café” – 5 € … as a Windows editor saves them.
  const cp1252 = Uint8Array.from([
    0x93, 0x43, 0x61, 0x66, 0xe9, 0x94, 0x20, 0x96, 0x20, 0x35, 0x20, 0x80, 0x20, 0x85, 0x81,
  ]);
  assert.equal(decodeText(cp1252), '\u201cCaf\u00e9\u201d \u2013 5 \u20ac \u2026\u0081');
  assert.equal(decodeText(Buffer.from('\ufeff“Café” €', 'utf8')), '“Café” €', 'UTF-8, BOM dropped');
  assert.equal(utf8OrWindows1252(Buffer.from('\ufeffFrom: x', 'utf8')), '\ufeffFrom: x', 'a BOM is content');
});
