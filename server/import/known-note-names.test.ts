import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MnemoRecord, RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem } from './import-item.ts';
import { KnownNoteNames, notesInCopy, underKnownNames, type SourcePage } from './known-note-names.ts';
import { collect, writeTree } from './test-support.ts';

const note = (id: string): MnemoRecord => ({
  id: `rec_${id.length}`,
  object: 'record',
  status: 'ready',
  kind: 'document',
  content: { kind: 'document', text: 'x' },
  source: { name: 'markdown', external_id: id, trust: 'medium' },
  visibility: 'shareable',
  erasable: false,
  occurred_at: '2024-01-01T00:00:00.000Z',
  memory_ids: [],
  created_at: '2024-01-01T00:00:00.000Z',
});

/** A Brain whose plain notes carry STORED, served PER a page; `reads` counts the pages asked for. */
function brain(stored: string[], per = 200) {
  const asked: { source: string; cursor?: string }[] = [];
  const listPage: SourcePage = (q) => {
    asked.push(q);
    const from = Number(q.cursor ?? 0);
    const next = from + per < stored.length ? String(from + per) : null;
    const page: RecordPage = {
      data: stored.slice(from, from + per).map(note),
      has_more: next !== null,
      next_cursor: next,
    };
    return Promise.resolve(page);
  };
  return { names: new KnownNoteNames(listPage), asked };
}

test('a note the Brain knows by its own name keeps it, and one it does not know at all too', async () => {
  const { names } = brain(['/home/ana/Notes/todo.md', 'Notes/shopping.md']);
  assert.equal(await names.nameFor('/home/ana/Notes/todo.md'), '/home/ana/Notes/todo.md');
  assert.equal(await names.nameFor('Notes/shopping.md'), 'Notes/shopping.md');
  assert.equal(await names.nameFor('Notes/ideas.md'), 'Notes/ideas.md');
});

test('a note chosen from its folder, its parent or on disk takes the name the Brain already has for it', async () => {
  const cases: [stored: string, incoming: string][] = [
    ['Notes/todo.md', 'Parent/Notes/todo.md'], // the folder, then its parent
    ['Parent/Notes/todo.md', 'Notes/todo.md'], // the parent, then the folder
    ['Notes/todo.md', '/home/ana/Parent/Notes/todo.md'], // uploaded, then `mnemo import`
    ['/home/ana/Parent/Notes/todo.md', 'Parent/Notes/todo.md'], // `mnemo import`, then uploaded
    ['C:/Users/ana/Notes/todo.md', 'Notes/todo.md'], // a Windows path
  ];
  for (const [stored, incoming] of cases)
    assert.equal(await brain([stored]).names.nameFor(incoming), stored, `${stored} for ${incoming}`);
});

test('no name is taken that says another place: two absolute paths, a file alone, another folder', async () => {
  const cases: [stored: string, incoming: string][] = [
    ['/home/ana/Notes/todo.md', '/mnt/backup/Notes/todo.md'], // two files on disk are two notes
    ['todo.md', 'Notes/todo.md'], // a file chosen alone says no folder
    ['Notes/todo.md', 'todo.md'],
    ['Work/todo.md', 'Home/todo.md'],
    ['Work/Notes/todo.md', 'Home/Notes/todo.md'],
    ['/home/ana/Work/Notes/todo.md', 'Home/Notes/todo.md'],
    ['Notes/todo.md', 'Notes/todo.markdown'],
  ];
  for (const [stored, incoming] of cases)
    assert.equal(await brain([stored]).names.nameFor(incoming), incoming, `${stored} for ${incoming}`);
});

test('names that could each be the note leave it a new item; names along one path give the longest', async () => {
  const branching = brain(['/home/ana/Work/Notes/todo.md', '/home/ana/Home/Notes/todo.md']).names;
  assert.equal(await branching.nameFor('Notes/todo.md'), 'Notes/todo.md');
  assert.equal(
    await brain(['A/Notes/todo.md', 'B/Notes/todo.md']).names.nameFor('Notes/todo.md'),
    'Notes/todo.md',
  );
  // One note stored twice under two names (chosen two ways before this was fixed): the fuller one.
  const onePath = brain(['Notes/todo.md', 'Parent/Notes/todo.md']).names;
  assert.equal(await onePath.nameFor('/home/ana/Parent/Notes/todo.md'), 'Parent/Notes/todo.md');
});

test('a stored name goes to one note of an import; another that would take it keeps its own', async () => {
  const { names } = brain(['Notes/todo.md']);
  assert.equal(await names.nameFor('Parent/A/Notes/todo.md'), 'Notes/todo.md');
  assert.equal(await names.nameFor('Parent/B/Notes/todo.md'), 'Parent/B/Notes/todo.md');
  assert.equal(await names.nameFor('Parent/A/Notes/todo.md'), 'Notes/todo.md', 'the same note again');
  // A note under the stored name itself keeps it, and then no other note takes it.
  const exact = brain(['Notes/todo.md']).names;
  assert.equal(await exact.nameFor('Notes/todo.md'), 'Notes/todo.md');
  assert.equal(await exact.nameFor('Parent/Notes/todo.md'), 'Parent/Notes/todo.md');
});

test('a stored name that a note of the import carries itself is left to it, even when another comes first', async () => {
  const listPage: SourcePage = () =>
    Promise.resolve({ data: [note('Notes/todo.md')], has_more: false, next_cursor: null });
  const names = new KnownNoteNames(listPage, new Set(['Archive/Notes/todo.md', 'Notes/todo.md']));
  assert.equal(await names.nameFor('Archive/Notes/todo.md'), 'Archive/Notes/todo.md');
  assert.equal(await names.nameFor('Notes/todo.md'), 'Notes/todo.md');
});

test("the Brain's notes are read once, page by page, and not at all for an import without notes", async () => {
  const b = brain(['Notes/a.md', 'Notes/b.md', 'Notes/c.md', 'Notes/todo.md', 'Notes/z.md'], 2);
  const chat: ImportItem = {
    type: 'record',
    ref: 'chat:1',
    body: { content: 'hi', source: { name: 'whatsapp', external_id: 'whatsapp:x' } },
  };
  const notes = (id: string): ImportItem => ({
    type: 'record',
    ref: id,
    body: { content: { kind: 'document', text: 'x' }, source: { name: 'markdown', external_id: id } },
  });
  await collect(underKnownNames([chat], b.names));
  assert.equal(b.asked.length, 0);
  const { records } = await collect(
    underKnownNames([notes('Parent/Notes/todo.md'), chat, notes('/home/ana/Notes/new.md')], b.names),
  );
  assert.deepEqual(
    records.map((r) => r.body.source.external_id),
    ['Notes/todo.md', 'whatsapp:x', '/home/ana/Notes/new.md'],
  );
  assert.equal(records[0]!.ref, 'Parent/Notes/todo.md', 'the report still names the note as chosen');
  assert.deepEqual(
    b.asked.map((q) => [q.source, q.cursor]),
    [
      ['markdown', undefined],
      ['markdown', '2'],
      ['markdown', '4'],
    ],
  );
});

test('when the Brain cannot be read to the end, no note takes a stored name', async () => {
  let pages = 0;
  const names = new KnownNoteNames(() =>
    Promise.resolve(
      pages++ === 0 ? { data: [note('Notes/todo.md')], has_more: true, next_cursor: 'more' } : null,
    ),
  );
  assert.equal(await names.nameFor('Parent/Notes/todo.md'), 'Parent/Notes/todo.md');
});

test("a copy's notes are named by their paths in it; its other files are not notes", async () => {
  const { root, remove } = writeTree({
    'Notes/todo.md': 'x',
    'Notes/deep/Plan.MARKDOWN': 'x',
    'Notes/chat.txt': 'x',
    'top.md': 'x',
  });
  try {
    assert.deepEqual([...(await notesInCopy(root))].sort(), [
      'Notes/deep/Plan.MARKDOWN',
      'Notes/todo.md',
      'top.md',
    ]);
  } finally {
    remove();
  }
});
