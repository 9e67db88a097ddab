import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binaryText, decodeText, looksBinary, readFoldedText } from './decode-text.ts';
import { writeTree } from './test-support.ts';
import { decodedText, foldedTextOf, textEncodingOf, textLines, type ByteSource } from './text-lines.ts';

/** BYTES cut into chunks of SIZE bytes (the last shorter), each call a new read. */
const chunksOf = (bytes: Uint8Array, size: number): ByteSource =>
  async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  };

async function streamedLines(bytes: Uint8Array, size: number): Promise<string[]> {
  const source = chunksOf(bytes, size);
  const lines: string[] = [];
  for await (const line of textLines(decodedText(source, await textEncodingOf(source)))) lines.push(line);
  return lines;
}

const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => {
  const le = Buffer.from(text, 'utf16le');
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
  return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
};

// Each a way a file read in chunks can go wrong where the whole file read at once does not: a CRLF, a
// character of two to four bytes, a byte order mark or a UTF-16 surrogate pair cut between chunks, a
// byte that is not UTF-8 found only after the first chunks, a lone CR, a file ending in a line end.
const inputs: [string, Uint8Array][] = [
  [
    'UTF-8, BOM, CRLF',
    Buffer.from('\ufeffline one\r\n\u200e[1/2/24] Zoë: “quoted” 🙂\r\n\r\nlast\r\n', 'utf8'),
  ],
  ['UTF-8, a BOM that is content after the first', Buffer.from('\ufeff\ufeffa\nb', 'utf8')],
  ['lone CRs and mixed ends', Buffer.from('a\rb\r\nc\n\rd\r\r\ne\r', 'utf8')],
  [
    'Windows-1252, the non-UTF-8 byte late',
    Buffer.concat([Buffer.from('ok\r\n'.repeat(5)), Buffer.from([0x93, 0x43, 0xe9, 0x94, 0x0d, 0x0a, 0x80])]),
  ],
  ['Windows-1252 behind a UTF-8 BOM', Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x0a, 0xe9])],
  ['UTF-16LE with surrogate pairs', utf16le('\ufeffNote 🙂\r\nZoë 🎉\nend')],
  ['UTF-16BE', utf16be('Zoë\r\n🙂\r')],
  ['UTF-16LE with an odd last byte', Buffer.concat([utf16le('ab\n'), Buffer.from([0x41])])],
  ['a UTF-8 character cut at the end of the file', Buffer.from([0x61, 0x0a, 0xe2, 0x82])],
  ['empty', new Uint8Array()],
  ['only a line end', Buffer.from('\r\n')],
];

test('lines read in chunks of any size are the lines of the whole file decoded at once', async () => {
  for (const [what, bytes] of inputs) {
    const whole = decodeText(bytes).split(/\r\n|\r|\n/);
    for (const size of [1, 2, 3, 4, 5, 7, 64, Math.max(1, bytes.length)])
      assert.deepEqual(await streamedLines(bytes, size), whole, `${what}, chunks of ${size}`);
  }
});

test('a binary file is refused as when read whole, however it is cut; a NUL-heavy UTF-16 file is text', async () => {
  const binary = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    Buffer.alloc(9000, 7),
  ]);
  assert.equal(looksBinary(binary), true);
  for (const size of [1, 5, 4096, binary.length])
    await assert.rejects(textEncodingOf(chunksOf(binary, size)), { message: binaryText });
  const utf16 = utf16le('a\nb\n'.repeat(100));
  assert.equal(await textEncodingOf(chunksOf(utf16, 1)), 'utf-16le');
});

test('a calendar or vCard file read in chunks is read as readFoldedText reads it whole, unfolded when that makes it UTF-8', async () => {
  const e = Buffer.from('é');
  const folded = (end: string) =>
    Buffer.concat([
      Buffer.from(`FN:Jos`),
      e.subarray(0, 1),
      Buffer.from(`${end} `),
      e.subarray(1),
      Buffer.from(`${end}NOTE:a${end}\tb${end}`),
    ]);
  const inputs: [string, Uint8Array][] = [
    ['folded inside a character, CRLF', folded('\r\n')],
    ['folded inside a character, LF', folded('\n')],
    ['Windows-1252 with folds', Buffer.from([0x46, 0x4e, 0x3a, 0xe9, 0x0d, 0x0a, 0x20, 0x93, 0x0a, 0x41])],
    ['UTF-8 with folds kept', Buffer.from('FN:Zoë\r\n Ørsted\r\n')],
  ];
  const t = writeTree({});
  try {
    for (const [what, bytes] of inputs) {
      const path = join(t.root, 'x.vcf');
      writeFileSync(path, bytes);
      const whole = (await readFoldedText(path)).split(/\r\n|\r|\n/);
      for (const size of [1, 2, 3, 5, bytes.length]) {
        const read = await foldedTextOf(chunksOf(bytes, size));
        const lines: string[] = [];
        for await (const line of textLines(decodedText(read.bytes, read.encoding))) lines.push(line);
        assert.deepEqual(lines, whole, `${what}, chunks of ${size}`);
      }
    }
  } finally {
    t.remove();
  }
});
