import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addChosen } from '../../renderer/add-chosen.ts';
import { isImportable } from '../../renderer/importable.ts';

test('what the Import screen sends: export text and archives, not hidden files or pictures', () => {
  for (const path of [
    'Vault/Daily/a.md',
    'Vault/Plans/Launch.canvas',
    'notes.txt',
    'Mail/inbox',
    'Mail/Re lunch.eml',
    'slack-export.zip',
    'Takeout.ZIP',
  ])
    assert.equal(isImportable(path), true, path);
  for (const path of ['Vault/.trash/a.md', '.DS_Store', 'photo.jpg', 'Vault/attachments/scan.pdf'])
    assert.equal(isImportable(path), false, path);
  assert.equal(
    isImportable('Vault/.obsidian/app.json'),
    true,
    "Obsidian's marker folder is how a vault is known",
  );
});

test('a folder and then a file chosen add up; a path chosen again is sent once, as last chosen', () => {
  const f = (path: string, text = path) => ({ path, file: new File([text], path.split('/').at(-1)!) });
  const folder = [f('Vault/a.md'), f('Vault/b.md'), f('Vault/c.md')];
  const both = addChosen(folder, [f('chat.txt')]);
  assert.deepEqual(
    both.map((x) => x.path),
    ['Vault/a.md', 'Vault/b.md', 'Vault/c.md', 'chat.txt'],
  );
  const again = addChosen(both, [f('Vault/b.md', 'edited')]);
  assert.deepEqual(
    again.map((x) => x.path),
    ['Vault/a.md', 'Vault/c.md', 'chat.txt', 'Vault/b.md'],
  );
  assert.equal(again.at(-1)!.file.size, 'edited'.length);
  assert.deepEqual(addChosen([], []), []);
});
