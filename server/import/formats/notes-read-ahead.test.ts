import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { parseMarkdown, parseNoteFiles } from './markdown.ts';

// A folder of notes was read one note at a time, each a few waits on the file system (~1 ms a note):
// a 3,000-note vault spent seconds waiting. Notes are now read several at a time, and still come out
// in the walk's order, a skip in its place.

/** A file time that takes a while, counting how many notes are being read at once. */
function slowFileTime() {
  const seen = { running: 0, most: 0 };
  const fileTime = async () => {
    seen.running += 1;
    seen.most = Math.max(seen.most, seen.running);
    await sleep(5);
    seen.running -= 1;
    return new Date('2024-01-01T00:00:00Z');
  };
  return { seen, fileTime };
}

const names = Array.from({ length: 30 }, (_, i) => `n${String(i).padStart(2, '0')}.md`);

test('a folder of notes is read several notes at a time, in the order of the walk', async () => {
  const tree = writeTree({
    '.obsidian/app.json': '{}',
    ...Object.fromEntries(names.map((n, i) => [`Daily/${n}`, `Note ${i} says hello.\n`])),
    'Inbox/todo.md': 'Buy oat milk.\n',
  });
  // A broken link among the notes: its skip keeps its place.
  symlinkSync(join(tree.root, 'missing.md'), join(tree.root, 'Daily', 'n10b.md'));
  try {
    const { seen, fileTime } = slowFileTime();
    const items = [];
    for await (const item of parseMarkdown(tree.root, { fileTime })) items.push(item);
    assert.deepEqual(
      items.map((x) => `${x.type}:${x.ref}`),
      [
        ...names.slice(0, 11).map((n) => `record:Daily/${n}`),
        'skip:Daily/n10b.md',
        ...names.slice(11).map((n) => `record:Daily/${n}`),
        'record:Inbox/todo.md',
      ],
    );
    assert.ok(seen.most > 1, `notes read at once: ${seen.most}`);
  } finally {
    tree.remove();
  }
});

test('notes found among other files are read several at a time too, in the order given', async () => {
  const tree = writeTree(Object.fromEntries(names.map((n, i) => [n, `Note ${i}.\n`])));
  try {
    const { seen, fileTime } = slowFileTime();
    const files = names.map((n) => join(tree.root, n)).reverse();
    const { records } = await collect(parseNoteFiles(tree.root, files, { fileTime }));
    assert.deepEqual(
      records.map((r) => r.ref),
      [...names].reverse(),
    );
    assert.ok(seen.most > 1, `notes read at once: ${seen.most}`);
  } finally {
    tree.remove();
  }
});
