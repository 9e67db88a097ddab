import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { collect, writeTree } from './test-support.ts';
import { parsers } from './run-import.ts';

test('a NUL byte in an export is taken out of its Record, which is still imported', async () => {
  const t = writeTree({
    'note.md': '# Pad\u0000ded\n\nText with a \u0000NUL in it.\n',
    'chat.txt': '[01/02/2024, 10:00:00] Ana: hi\u0000 there\n',
  });
  try {
    const notes = await collect(parsers.markdown(join(t.root, 'note.md'), {}));
    assert.equal(notes.records.length, 1);
    const note = notes.records[0]!.body.content as { text: string; title?: string };
    assert.ok(!JSON.stringify(notes.records[0]!.body).includes('\\u0000'), JSON.stringify(note));
    assert.match(note.text, /Text with a NUL in it\./);
    const chat = await collect(parsers.whatsapp(join(t.root, 'chat.txt'), {}));
    assert.equal((chat.records[0]!.body.content as { text: string }).text, 'hi there');
  } finally {
    t.remove();
  }
});
