import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { MnemoRecord, RecordPage } from '../../engine/contract/index.ts';
import type { ImportItem } from './import-item.ts';
import {
  KnownNoteNames,
  pagedNoteNames,
  plainNoteNames,
  underKnownNames,
  type StoredNoteNames,
} from './known-note-names.ts';
import { planImport } from './plan-import.ts';
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

/** A Brain whose plain notes carry STORED, for an import of the notes OWN; `reads` counts its reads. */
function brain(stored: string[], own: string[]) {
  let reads = 0;
  const names: StoredNoteNames = () => {
    reads += 1;
    return Promise.resolve(stored);
  };
  return {
    names: new KnownNoteNames(names, new Set(own)),
    reads: () => reads,
  };
}

/** What a note INCOMING, the only one of its import, is written under when the Brain has STORED. */
const alone = (stored: string[], incoming: string) => brain(stored, [incoming]).names.nameFor(incoming);

test('a note the Brain knows by its own name keeps it, and one it does not know at all too', async () => {
  const own = ['/home/ana/Notes/todo.md', 'Notes/shopping.md', 'Notes/ideas.md'];
  const { names } = brain(['/home/ana/Notes/todo.md', 'Notes/shopping.md'], own);
  for (const id of own) assert.equal(await names.nameFor(id), id);
  assert.deepEqual(names.matches, { count: 0, examples: [] });
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
    assert.equal(await alone([stored], incoming), stored, `${stored} for ${incoming}`);
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
    assert.equal(await alone([stored], incoming), incoming, `${stored} for ${incoming}`);
});

test('names that could each be the note leave it a new item; names along one path give the longest', async () => {
  const branching = ['/home/ana/Work/Notes/todo.md', '/home/ana/Home/Notes/todo.md'];
  assert.equal(await alone(branching, 'Notes/todo.md'), 'Notes/todo.md');
  assert.equal(await alone(['A/Notes/todo.md', 'B/Notes/todo.md'], 'Notes/todo.md'), 'Notes/todo.md');
  // One note stored twice under two names (chosen two ways before this was fixed): the fuller one.
  const onePath = ['Notes/todo.md', 'Parent/Notes/todo.md'];
  assert.equal(await alone(onePath, '/home/ana/Parent/Notes/todo.md'), 'Parent/Notes/todo.md');
});

test('a stored name two notes of the import could take goes to neither, whichever is named first', async () => {
  const rivals = ['/home/ana/Parent/Archive/Notes/todo.md', '/home/ana/Parent/Notes/todo.md'];
  for (const order of [rivals, [...rivals].reverse()]) {
    const { names } = brain(['Notes/todo.md'], rivals);
    for (const id of order) assert.equal(await names.nameFor(id), id, id);
  }
  const uploaded = brain(['Notes/todo.md'], ['A/Notes/todo.md', 'B/Notes/todo.md']).names;
  assert.equal(await uploaded.nameFor('A/Notes/todo.md'), 'A/Notes/todo.md');
  assert.equal(await uploaded.nameFor('B/Notes/todo.md'), 'B/Notes/todo.md');
  assert.equal(uploaded.matches.count, 0);
});

test('a stored name a note of the import carries itself is left to it, whichever is named first', async () => {
  for (const order of [
    ['Archive/Notes/todo.md', 'Notes/todo.md'],
    ['Notes/todo.md', 'Archive/Notes/todo.md'],
  ]) {
    const { names } = brain(['Notes/todo.md'], order);
    for (const id of order) assert.equal(await names.nameFor(id), id, id);
  }
});

test('a note still takes a longer stored name no other note agrees with, when a shorter one is shared', async () => {
  // One note stored twice (Notes/todo.md, Parent/Notes/todo.md); Notes/todo.md could be either note here.
  const own = ['/home/ana/G/Parent/Notes/todo.md', '/home/ana/G/Notes/todo.md'];
  const { names } = brain(['Notes/todo.md', 'Parent/Notes/todo.md'], own);
  assert.equal(await names.nameFor(own[1]!), own[1]);
  assert.equal(await names.nameFor(own[0]!), 'Parent/Notes/todo.md');
});

test('every note given a stored name is counted, and the first few shown by their own names', async () => {
  const own = Array.from({ length: 7 }, (_, i) => `Parent/Notes/n${i}.md`);
  const { names } = brain(
    own.map((id) => id.slice('Parent/'.length)),
    own,
  );
  for (const id of own) await names.nameFor(id);
  assert.equal(names.matches.count, 7);
  assert.deepEqual(names.matches.examples.slice(0, 2), [
    { item: 'Parent/Notes/n0.md', name: 'Notes/n0.md' },
    { item: 'Parent/Notes/n1.md', name: 'Notes/n1.md' },
  ]);
  assert.equal(names.matches.examples.length, 5);
});

test("the Brain's names are read once, and not at all when no note of the import could be matched", async () => {
  const none = brain(['Notes/todo.md'], []);
  await none.names.prepare();
  assert.equal(none.reads(), 0, 'no plain notes');
  const files = brain(['Notes/todo.md'], ['todo.md', 'ideas.md']);
  assert.equal(await files.names.nameFor('todo.md'), 'todo.md');
  assert.equal(files.reads(), 0, 'files chosen alone name no folder');
  const some = brain(['Notes/todo.md'], ['Parent/Notes/todo.md', 'Parent/Notes/ideas.md']);
  await some.names.prepare();
  await some.names.nameFor('Parent/Notes/todo.md');
  await some.names.nameFor('Parent/Notes/ideas.md');
  assert.equal(some.reads(), 1);
});

test("a key that may not read the Brain's names matches nothing; any other failure fails the import", async () => {
  const own = new Set(['Parent/Notes/todo.md']);
  const unread = new KnownNoteNames(() => Promise.resolve(null), own);
  assert.equal(await unread.nameFor('Parent/Notes/todo.md'), 'Parent/Notes/todo.md');
  const broken = new KnownNoteNames(() => Promise.reject(new Error('disk I/O error')), own);
  await assert.rejects(broken.prepare(), /disk I\/O error/);
});

test("the Brain's names are read page by page, and none are when a page cannot be read", async () => {
  const stored = ['Notes/a.md', 'Notes/b.md', 'Notes/c.md', 'Notes/todo.md', 'Notes/z.md'];
  const asked: (string | undefined)[] = [];
  const all = pagedNoteNames((q) => {
    assert.equal(q.source, 'markdown');
    asked.push(q.cursor);
    const from = Number(q.cursor ?? 0);
    const next = from + 2 < stored.length ? String(from + 2) : null;
    const page: RecordPage = {
      data: stored.slice(from, from + 2).map(note),
      has_more: !!next,
      next_cursor: next,
    };
    return Promise.resolve(page);
  });
  assert.deepEqual(await all(), stored);
  assert.deepEqual(asked, [undefined, '2', '4']);
  let pages = 0;
  const cut = pagedNoteNames(() =>
    Promise.resolve(
      pages++ === 0 ? { data: [note('Notes/todo.md')], has_more: true, next_cursor: 'more' } : null,
    ),
  );
  assert.equal(await cut(), null, 'part of the names would make a name look unique that is not');
});

test('only plain notes are renamed, and the report still names a note as chosen', async () => {
  const chat: ImportItem = {
    type: 'record',
    ref: 'chat:1',
    body: { content: 'hi', source: { name: 'whatsapp', external_id: 'Notes/todo.md' } },
  };
  const notes = (id: string): ImportItem => ({
    type: 'record',
    ref: id,
    body: { content: { kind: 'document', text: 'x' }, source: { name: 'markdown', external_id: id } },
  });
  const { names } = brain(['Notes/todo.md'], ['Parent/Notes/todo.md', '/home/ana/Notes/new.md']);
  const { records } = await collect(
    underKnownNames([notes('Parent/Notes/todo.md'), chat, notes('/home/ana/Notes/new.md')], names),
  );
  assert.deepEqual(
    records.map((r) => r.body.source.external_id),
    ['Notes/todo.md', 'Notes/todo.md', '/home/ana/Notes/new.md'],
  );
  assert.equal(records[0]!.ref, 'Parent/Notes/todo.md');
  assert.deepEqual(names.matches.examples, [{ item: 'Parent/Notes/todo.md', name: 'Notes/todo.md' }]);
});

test("an import's plain notes are named as their reader names them, from disk or uploaded; a vault's are not", async () => {
  const { root, remove } = writeTree({
    'Parent/Notes/todo.md': 'x',
    'Parent/Notes/deep/Plan.MARKDOWN': 'x',
    'Parent/Notes/chat.txt': 'x',
    'Parent/Vault/.obsidian/app.json': '{}',
    'Parent/Vault/in-vault.md': 'x',
    'Parent/top.md': 'x',
  });
  try {
    const real = realpathSync(root);
    const parent = join(root, 'Parent');
    const fromDisk = await plainNoteNames(await planImport(parent, 'auto'), undefined);
    assert.deepEqual(
      [...fromDisk].sort(),
      ['Notes/deep/Plan.MARKDOWN', 'Notes/todo.md', 'top.md'].map((f) => `${real}/Parent/${f}`),
    );
    const uploaded = await plainNoteNames(await planImport(parent, 'markdown'), root);
    assert.deepEqual([...uploaded].sort(), [
      'Parent/Notes/deep/Plan.MARKDOWN',
      'Parent/Notes/todo.md',
      'Parent/top.md',
    ]);
    const oneFile = await plainNoteNames(await planImport(join(parent, 'top.md'), 'auto'), root);
    assert.deepEqual([...oneFile], ['Parent/top.md']);
  } finally {
    remove();
  }
});
