import assert from 'node:assert/strict';
import { appendFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  decodeText,
  maxUtf8WholeFileBytes,
  maxWholeFileBytes,
  readFoldedText,
  readText,
  utf8OrWindows1252,
} from './decode-text.ts';
import { parseChatgpt, parseClaude } from './formats/chat-exports.ts';
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

test('a binary file under a text name is refused, saying so; UTF-16 and text with a form feed are text', async () => {
  // Bytes as an image's or an archive's are: a NUL early, and control bytes no text holds.
  const binary = Uint8Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256);
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48]);
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Olá, mundo', 'utf16le')]);
  const { root, remove } = writeTree({
    'Garbage.md': binary,
    'Picture.md': png,
    'Wide.md': utf16,
    'Paged.md': 'Page one.\fPage two.',
    'contacts.vcf': binary,
  });
  try {
    const refused = /holds binary data, not text/;
    await assert.rejects(readText(join(root, 'Garbage.md')), refused);
    await assert.rejects(readText(join(root, 'Picture.md')), refused);
    await assert.rejects(readFoldedText(join(root, 'contacts.vcf')), refused);
    assert.equal(await readText(join(root, 'Wide.md')), 'Olá, mundo');
    assert.equal(await readText(join(root, 'Paged.md')), 'Page one.\fPage two.');
    const { records, skips } = await collect(parseMarkdown(root, {}));
    assert.deepEqual(records.map((r) => r.ref).sort(), ['Paged.md', 'Wide.md']);
    assert.deepEqual(
      skips.map((x) => x.ref).sort(),
      ['Garbage.md', 'Picture.md'],
      'each binary note is skipped with the reason, the import goes on',
    );
    for (const x of skips) assert.match(x.reason, refused);
  } finally {
    remove();
  }
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

test('a conversations.json past the cap is refused with what to do: `mnemo import`, or split it', async () => {
  const { root, remove } = writeTree({ 'conversations.json': '', 'huge.json': '' });
  try {
    // Sparse, as above: nothing is read.
    truncateSync(join(root, 'conversations.json'), maxWholeFileBytes + 1);
    truncateSync(join(root, 'huge.json'), maxUtf8WholeFileBytes + 1);
    // Uploaded (a server's heap is every tenant's): past 256 MiB, with where a larger one can go.
    await assert.rejects(
      collect(parseChatgpt(join(root, 'conversations.json'), {})),
      /more than the 256 MiB a JSON export is read whole up to here; `mnemo import` reads one of up to 512 MiB when it is UTF-8, or split its conversations into files of fewer \(e\.g\. `jq -c ".\[:5000\]" conversations\.json > part-1\.json`/,
    );
    // `mnemo import`: past the longest text the runtime holds, only splitting it helps.
    await assert.rejects(
      collect(parseClaude(join(root, 'huge.json'), { wholeJsonBytes: maxUtf8WholeFileBytes })),
      /more than the 512 MiB a JSON export is read whole up to \(the longest text this runtime holds\); split its conversations/,
    );
  } finally {
    remove();
  }
});

test('a conversations.json past 256 MiB that is not UTF-8 is refused, saying so, not read as Windows-1252', async () => {
  const { root, remove } = writeTree({ 'conversations.json': '' });
  const file = join(root, 'conversations.json');
  try {
    // Sparse NULs (valid UTF-8) with one byte that is not UTF-8 at the end: read, then refused.
    truncateSync(file, maxWholeFileBytes + 1);
    appendFileSync(file, Buffer.from([0xff]));
    await assert.rejects(
      collect(parseChatgpt(file, { wholeJsonBytes: maxUtf8WholeFileBytes })),
      /^Error: the file holds 268435458 bytes \(256 MiB\) and is not UTF-8: a file that is not is read whole up to 256 MiB; split its conversations/,
    );
  } finally {
    remove();
  }
});

test('a conversations.json the heap cannot hold is refused before it is read, not left to end the process', async () => {
  const { root, remove } = writeTree({ 'conversations.json': '' });
  try {
    truncateSync(join(root, 'conversations.json'), maxWholeFileBytes + 1);
    // A process of 256 MiB of heap: the file would take five times its size.
    const script = [
      `const { readJsonExportText, maxUtf8WholeFileBytes } = await import(${JSON.stringify(resolve('server/import/decode-text.ts'))});`,
      `await readJsonExportText(${JSON.stringify(join(root, 'conversations.json'))}, maxUtf8WholeFileBytes).then(`,
      `  () => console.log('read'), (e) => console.log(e.message));`,
    ].join('\n');
    const out = execFileSync(
      process.execPath,
      [
        '--max-old-space-size=256',
        '--import',
        pathToFileURL(resolve('scripts/test-loader.mjs')).href,
        '--input-type=module',
        '-e',
        script,
      ],
      { encoding: 'utf8' },
    );
    assert.match(
      out,
      /read whole it needs about 1280 MiB of memory, and this process may use \d+ MiB more: run the import with NODE_OPTIONS=--max-old-space-size=\d+/,
    );
  } finally {
    remove();
  }
});
