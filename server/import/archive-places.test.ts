import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { archivesFound } from './archive-places.ts';
import { noteIdentities } from './formats/note-identity.ts';
import { planImport } from './plan-import.ts';
import yazl from 'yazl';
import { writeTree, zipBytes } from './test-support.ts';

async function zipTo(file: string, files: Record<string, string>): Promise<void> {
  writeFileSync(file, await zipBytes(files));
}

test('archives found in a folder are held to the limits of each and of all together; one refused skips only itself', async () => {
  const t = writeTree({ 'in/note.md': '# Note' });
  const dir = join(t.root, 'in');
  await zipTo(join(dir, 'a-many.zip'), { 'm/1.md': '1', 'm/2.md': '2', 'm/3.md': '3' });
  await zipTo(join(dir, 'b-first.zip'), { 'b/one.md': 'x'.repeat(600) });
  await zipTo(join(dir, 'c-second.zip'), { 'c/two.md': 'y'.repeat(600) });
  const found = archivesFound({ maxEntries: 2, maxBytes: 1000 }, 1000);
  try {
    const plan = await planImport(dir, 'auto', { unpack: found.unpack });
    const shown = plan.map((p) =>
      p.format === null ? [p.name, p.reason, p.blocksForgetting ?? false] : [p.name, p.format],
    );
    assert.deepEqual(shown, [
      ['', 'markdown'],
      [
        'a-many.zip',
        'not unpacked, so nothing in it was read: a-many.zip holds 3 entries, more than 2: unzip it and import the folder',
        true,
      ],
      ['b-first.zip/b', 'markdown'],
      [
        'c-second.zip',
        'not unpacked, so nothing in it was read: c-second.zip: the archives in this folder would hold more than 1000 bytes unpacked together: unzip them and import the folders',
        true,
      ],
    ]);
    assert.equal(found.places.size, 1, 'only the archive unpacked stands in a place');
  } finally {
    await found.remove();
    t.remove();
  }
});

/** What planImport makes of `dir`, its archives unpacked by `found`; what was unpacked goes after. */
async function plannedWith(dir: string, found: ReturnType<typeof archivesFound>) {
  try {
    const plan = await planImport(dir, 'auto', { unpack: found.unpack });
    return plan.map((p) => (p.format === null ? [p.name, p.reason] : [p.name, p.format]));
  } finally {
    await found.remove();
  }
}

const overEntries = (archive: string, most: number) =>
  `not unpacked, so nothing in it was read: ${archive}: the archives in this folder would hold more than ${most} files and folders together: unzip them and import the folders`;

test('archives found in a folder are held to a number of files together; one refused gives its count back', async () => {
  const t = writeTree({});
  const dir = join(t.root, 'in');
  mkdirSync(dir);
  await zipTo(join(dir, 'a.zip'), { 'a/1.md': '', 'a/2.md': '' });
  await zipTo(join(dir, 'b.zip'), { 'b/1.md': '', 'b/2.md': '' });
  await zipTo(join(dir, 'c.zip'), { 'c/1.md': '' });
  try {
    // Empty files: no byte limit is near.
    assert.deepEqual(await plannedWith(dir, archivesFound({ maxEntries: 10, maxBytes: 1000 }, 1000, 3)), [
      ['a.zip', 'markdown'],
      ['b.zip', overEntries('b.zip', 3)],
      // b's one file written before it was refused is not counted against c.
      ['c.zip', 'markdown'],
    ]);
  } finally {
    t.remove();
  }
});

test('archives found in a folder are held to a number of entries together, their folders counted', async () => {
  const t = writeTree({});
  const dir = join(t.root, 'in');
  mkdirSync(dir);
  // Folders hold no bytes and were not counted: archives of 100,000 of them each filled the inodes.
  for (const name of ['a', 'b']) {
    const z = new yazl.ZipFile();
    for (const sub of ['x', 'y']) z.addEmptyDirectory(`${name}/${sub}`);
    z.addBuffer(Buffer.from('# Note'), `${name}/1.md`);
    z.end();
    const chunks: Buffer[] = [];
    for await (const c of z.outputStream) chunks.push(c as Buffer);
    writeFileSync(join(dir, `${name}.zip`), Buffer.concat(chunks));
  }
  try {
    assert.deepEqual(await plannedWith(dir, archivesFound({ maxEntries: 10, maxBytes: 1000 }, 1000, 4)), [
      ['a.zip', 'markdown'],
      ['b.zip', overEntries('b.zip', 4)],
    ]);
  } finally {
    t.remove();
  }
});

test("a note of an archive in a vault is the vault's note, named where the archive lies; the copy goes with remove", async () => {
  const t = writeTree({ 'Vault/.obsidian/app.json': '{}', 'Vault/Trips/plan.md': '# Plan' });
  const vault = join(t.root, 'Vault');
  await zipTo(join(vault, 'Trips', 'porto.zip'), { 'porto/day1.md': '# Day 1' });
  const found = archivesFound();
  try {
    const plan = await planImport(vault, 'auto', { unpack: found.unpack });
    const inArchive = plan.find((p) => p.name === 'Trips/porto.zip');
    assert.ok(inArchive && inArchive.format !== null, JSON.stringify(plan));
    const note = inArchive.notes?.[0] ?? join(inArchive.path, 'day1.md');
    const id = await noteIdentities(null, found.places)(realpathSync(note));
    assert.deepEqual(
      [id.source, id.externalId, id.inVault],
      ['obsidian', 'Vault/Trips/porto/day1.md', 'Trips/porto/day1.md'],
    );
    assert.ok(existsSync(note));
    await found.remove();
    assert.ok(!existsSync(note), 'the unpacked copy is removed');
  } finally {
    await found.remove();
    t.remove();
  }
});

test("a zip a ChatGPT export wrote is the export's, not unpacked as notes; one put beside it is", async () => {
  const t = writeTree({
    'gpt/conversations.json': JSON.stringify([{ id: 'c1', title: 'Trip', mapping: {}, current_node: null }]),
  });
  const dir = join(t.root, 'gpt');
  await zipTo(join(dir, 'file-AbCdEf1234-notes.zip'), { 'notes/todo.md': '# To do' });
  await zipTo(join(dir, 'mine.zip'), { 'mine/plan.md': '# Plan' });
  const found = archivesFound();
  try {
    const plan = await planImport(dir, 'auto', { unpack: found.unpack });
    assert.deepEqual(
      plan.map((p) => [p.name, p.format]),
      [
        ['', 'chatgpt'],
        ['mine.zip', 'markdown'],
      ],
    );
  } finally {
    await found.remove();
    t.remove();
  }
});
