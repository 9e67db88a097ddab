import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { planImport, type ImportTarget } from './plan-import.ts';
import { writeTree } from './test-support.ts';

const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
const vcf = 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Rui\r\nEND:VCARD\r\n';

/** [name, format, notes or path under ROOT, reason]: what a plan says, without the temp folder. */
const shown = (root: string, targets: ImportTarget[]) =>
  targets.map((t) =>
    t.format === null
      ? [t.name, null, t.reason]
      : [
          t.name,
          t.format,
          t.notes ? t.notes.map((n) => n.slice(root.length + 1)) : t.path.slice(root.length + 1),
        ],
  );

test('a folder of mixed files: each file in its format, exports inside read whole, the rest reported', async () => {
  const t = writeTree({
    'in/plan.md': '# Plan',
    'in/board.canvas': '{"nodes":[]}',
    'in/deep/more.md': 'More',
    'in/cal.ics': ics,
    'in/people.vcf': vcf,
    'in/mail.mbox': 'From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\nhi\n',
    'in/WhatsApp Chat with Ana.txt': '05/01/2024, 21:04 - Ana: hi\n',
    'in/notes.txt': 'plain text',
    'in/.DS_Store': 'x',
    'in/.git/config': 'x',
    'in/Vault/.obsidian/app.json': '{}',
    'in/Vault/v.md': 'In the vault',
    'in/Vault/picture.png': 'png',
    'in/Chat/_chat.txt': '[05/01/2024, 21:04:05] Bo: hi\n',
    'in/Chat/photo.jpg': 'jpg',
    'elsewhere/linked.md': 'Linked',
    'elsewhere/sub/x.ics': ics,
  });
  const root = join(t.root, 'in');
  symlinkSync(join(t.root, 'elsewhere/linked.md'), join(root, 'linked.md'));
  symlinkSync(join(t.root, 'elsewhere'), join(root, 'linkdir'));
  symlinkSync(root, join(root, 'deep/up'));
  symlinkSync(join(t.root, 'missing'), join(root, 'dangling'));
  try {
    assert.deepEqual(shown(root, await planImport(root, 'auto')), [
      ['', 'markdown', ['board.canvas', 'deep/more.md', 'linkdir/linked.md', 'plan.md']],
      ['cal.ics', 'ics', 'cal.ics'],
      ['Chat', 'whatsapp', 'Chat/_chat.txt'],
      ['dangling', null, 'broken link: its target does not exist'],
      ['deep/up', null, 'link back to the folder being read: not followed again'],
      ['linkdir/sub/x.ics', 'ics', 'linkdir/sub/x.ics'],
      ['linked.md', null, 'same file as linkdir/linked.md, already read'],
      ['mail.mbox', 'mbox', 'mail.mbox'],
      ['notes.txt', null, 'cannot tell the format of this file; import it on its own with --format'],
      ['people.vcf', 'vcf', 'people.vcf'],
      ['Vault', 'obsidian', 'Vault'],
      [
        'Vault/1 attachment (picture.png)',
        null,
        'not text mnemo reads (images, PDFs, media and other attachments are not imported); the notes that link them keep their names',
      ],
      ['WhatsApp Chat with Ana.txt', 'whatsapp', 'WhatsApp Chat with Ana.txt'],
    ]);
  } finally {
    t.remove();
  }
});

test("a zip kept in a folder planned without unpacking (an archive's own folder) is named as an archive, not an attachment", async () => {
  const t = writeTree({
    'Downloads/takeout-001.zip': 'PK\u0003\u0004 an archive',
    'Downloads/cal.ics': ics,
  });
  try {
    const root = join(t.root, 'Downloads');
    assert.deepEqual(shown(root, await planImport(root, 'auto')), [
      ['cal.ics', 'ics', 'cal.ics'],
      [
        'takeout-001.zip',
        null,
        'an archive inside an archive is not unpacked: unzip the outer archive and import the folder',
      ],
    ]);
  } finally {
    t.remove();
  }
});

test('a format given for a folder reads the files of that format and says why the others are not read', async () => {
  const t = writeTree({
    'a.ics': ics,
    'b/c.ics': ics,
    'note.md': '# Note',
    'chat.txt': 'not recognisably a chat',
    'Vault/.obsidian/app.json': '{}',
    'Vault/v.md': 'In the vault',
  });
  try {
    assert.deepEqual(shown(t.root, await planImport(t.root, 'ics')), [
      ['a.ics', 'ics', 'a.ics'],
      ['b/c.ics', 'ics', 'b/c.ics'],
      ['chat.txt', null, 'not ics'],
      ['note.md', null, 'not ics (it looks like markdown)'],
      ['Vault/v.md', null, 'not ics (it looks like markdown)'],
    ]);
    // Asked for WhatsApp, a .txt is read as a chat even when its lines are not recognised.
    assert.deepEqual(
      shown(t.root, await planImport(t.root, 'whatsapp')).filter(([, f]) => f !== null),
      [['chat.txt', 'whatsapp', 'chat.txt']],
    );
    // Notes: a vault inside stays one vault.
    assert.deepEqual(
      shown(t.root, await planImport(t.root, 'markdown')).filter(([, f]) => f !== null),
      [
        ['', 'markdown', ['note.md']],
        ['Vault', 'markdown', 'Vault'],
      ],
    );
    assert.deepEqual(shown(t.root, await planImport(join(t.root, 'Vault'), 'auto')), [
      ['', 'obsidian', 'Vault'],
    ]);
  } finally {
    t.remove();
  }
});

test('links to a folder above and to a folder read elsewhere are each reported once, never followed again', async () => {
  const t = writeTree({ 'a/b/n.md': 'N', 'c/m.md': 'M' });
  symlinkSync(join(t.root, 'a'), join(t.root, 'a/b/up'));
  symlinkSync(join(t.root, 'c'), join(t.root, 'a/see-c'));
  try {
    assert.deepEqual(shown(t.root, await planImport(t.root, 'auto')), [
      ['', 'markdown', ['a/b/n.md', 'a/see-c/m.md']],
      ['a/b/up', null, 'link back to a, a folder above it: not followed again'],
      ['c', null, 'same folder as a/see-c, already read'],
    ]);
  } finally {
    t.remove();
  }
});

test('a vault is read whole, and its other files each in their format or listed with the reason', async () => {
  const t = writeTree({
    'Vault/.obsidian/app.json': '{}',
    'Vault/Home.md': '# Home',
    // A canvas is its notes' reader's (formats/canvas.ts), not an attachment.
    'Vault/Plans/Launch.canvas': '{"nodes":[]}',
    'Vault/notes.txt': 'plain text',
    'Vault/Trips/cal.ics': ics,
    'Vault/attachments/scan': 'no extension',
    'Vault/attachments/photo.JPG': 'jpg',
    'Vault/attachments/report.pdf': '%PDF',
  });
  try {
    const vault = join(t.root, 'Vault');
    assert.deepEqual(shown(t.root, await planImport(vault, 'auto')), [
      ['', 'obsidian', 'Vault'],
      [
        '2 attachments (attachments/photo.JPG, attachments/report.pdf)',
        null,
        'not text mnemo reads (images, PDFs, media and other attachments are not imported); the notes that link them keep their names',
      ],
      ['attachments/scan', null, 'cannot tell the format of this file; import it on its own with --format'],
      ['notes.txt', null, 'cannot tell the format of this file; import it on its own with --format'],
      ['Trips/cal.ics', 'ics', 'Vault/Trips/cal.ics'],
    ]);
    // Asked for notes, the rest is named as what it is not.
    assert.deepEqual(
      shown(t.root, await planImport(vault, 'obsidian')).map(([n, f, r]) => [n, f, f === null ? r : '']),
      [
        ['', 'obsidian', ''],
        [
          '2 attachments (attachments/photo.JPG, attachments/report.pdf)',
          null,
          'not text mnemo reads (images, PDFs, media and other attachments are not imported); the notes that link them keep their names',
        ],
        ['attachments/scan', null, 'not obsidian'],
        ['notes.txt', null, 'not obsidian'],
        ['Trips/cal.ics', null, 'not obsidian (it looks like ics)'],
      ],
    );
  } finally {
    t.remove();
  }
});

test('a folder that cannot be listed is reported and the walk goes on past it', async (t) => {
  const tree = writeTree({ 'in/a.md': 'A', 'in/locked/b.md': 'B', 'in/z.ics': ics });
  const root = join(tree.root, 'in');
  const locked = join(root, 'locked');
  // chmod 000 does not stop root, who runs these tests in CI: the listing is refused here instead.
  const readdir = fsp.readdir;
  t.mock.method(fsp, 'readdir', (async (path: string, ...rest: never[]) => {
    if (path === locked)
      throw Object.assign(new Error(`EACCES: permission denied, scandir '${path}'`), { code: 'EACCES' });
    return readdir(path, ...rest);
  }) as typeof fsp.readdir);
  syncBuiltinESMExports();
  try {
    const plan = await planImport(root, 'auto');
    assert.deepEqual(shown(root, plan), [
      ['', 'markdown', ['a.md']],
      ['locked', null, `folder cannot be read: EACCES: permission denied, scandir '${locked}'`],
      ['z.ics', 'ics', 'z.ics'],
    ]);
    // What it holds is unknown: an import that forgets what is missing forgets nothing for it.
    const skipped = plan.find((p) => p.name === 'locked');
    assert.ok(skipped?.format === null && skipped.blocksForgetting === true);
  } finally {
    t.mock.restoreAll();
    syncBuiltinESMExports();
    tree.remove();
  }
});

const chatgpt = JSON.stringify([{ id: 'c1', title: 'Trip', mapping: {}, current_node: null }]);
const claude = JSON.stringify([{ uuid: 'u1', name: 'Trip', chat_messages: [] }]);

test('files beside a conversations.json are each planned as they would be alone, not left out', async () => {
  const t = writeTree({
    'mix/conversations.json': chatgpt,
    'mix/calendar.ics': ics,
    'mix/iCloud.vcf': vcf,
    'mix/Inbox.mbox': 'From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\nhi\n',
    'mix/plan.md': '# Plan',
    'mix/notes.txt': 'plain text',
    'mix/Vault/.obsidian/app.json': '{}',
    'mix/Vault/v.md': 'In the vault',
    'chats/conversations.json': claude,
    'chats/WhatsApp Chat with Ana.txt': '05/01/2024, 21:04 - Ana: hi\n',
  });
  try {
    const mix = join(t.root, 'mix');
    assert.deepEqual(shown(mix, await planImport(mix, 'auto')), [
      ['', 'chatgpt', 'conversations.json'],
      ['', 'markdown', ['plan.md']],
      ['calendar.ics', 'ics', 'calendar.ics'],
      ['iCloud.vcf', 'vcf', 'iCloud.vcf'],
      ['Inbox.mbox', 'mbox', 'Inbox.mbox'],
      ['notes.txt', null, 'cannot tell the format of this file; import it on its own with --format'],
      ['Vault', 'obsidian', 'Vault'],
    ]);
    const chats = join(t.root, 'chats');
    assert.deepEqual(shown(chats, await planImport(chats, 'auto')), [
      ['', 'claude', 'conversations.json'],
      ['WhatsApp Chat with Ana.txt', 'whatsapp', 'WhatsApp Chat with Ana.txt'],
    ]);
    // Found in a walk, the export's folder is planned the same way.
    assert.deepEqual(shown(t.root, await planImport(t.root, 'auto')).slice(0, 3), [
      ['chats', 'claude', 'chats/conversations.json'],
      ['chats/WhatsApp Chat with Ana.txt', 'whatsapp', 'chats/WhatsApp Chat with Ana.txt'],
      ['mix', 'chatgpt', 'mix/conversations.json'],
    ]);
    // Asked for the export's format, the rest is named as what it is not.
    assert.deepEqual(shown(t.root, await planImport(chats, 'claude')), [
      ['', 'claude', 'chats'],
      ['WhatsApp Chat with Ana.txt', null, 'not claude (it looks like whatsapp)'],
    ]);
  } finally {
    t.remove();
  }
});

test("a ChatGPT or Claude export's own files are its, neither planned apart nor listed as skipped", async () => {
  const t = writeTree({
    'gpt/conversations.json': chatgpt,
    'gpt/chat.html': '<html></html>',
    'gpt/user.json': '{}',
    'gpt/user_settings.json': '[]',
    'gpt/message_feedback.json': '[]',
    'gpt/model_comparisons.json': '[]',
    'gpt/shared_conversations.json': '[]',
    'gpt/export_manifest.json': '{}',
    'gpt/file-1tisCpYYvMfEM8dAbc-plan.pdf': '%PDF',
    'gpt/file-1tisCpYYvMfEM8dAbc-notes.txt': 'attached to a chat',
    'gpt/file_00000000a1b2c3d4e5f6-photo.png': 'png',
    'gpt/dalle-generations/file-abc.webp': 'webp',
    'gpt/0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9/audio/file_1.wav': 'wav',
    'gpt/user-AbC123/0123abcd/mnt/data/script.py': 'print(1)',
    'claude/conversations.json': claude,
    'claude/users.json': '[]',
    'claude/projects.json': '[]',
  });
  try {
    assert.deepEqual(shown(t.root, await planImport(join(t.root, 'gpt'), 'auto')), [
      ['', 'chatgpt', 'gpt/conversations.json'],
    ]);
    assert.deepEqual(shown(t.root, await planImport(join(t.root, 'gpt'), 'chatgpt')), [
      ['', 'chatgpt', 'gpt'],
    ]);
    assert.deepEqual(shown(t.root, await planImport(join(t.root, 'claude'), 'auto')), [
      ['', 'claude', 'claude/conversations.json'],
    ]);
  } finally {
    t.remove();
  }
});
