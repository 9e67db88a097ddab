import assert from 'node:assert/strict';
import { test } from 'node:test';
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
