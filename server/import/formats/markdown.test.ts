import assert from 'node:assert/strict';
import { realpathSync, utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { importIdempotencyKey } from '../idempotency-key.ts';
import { parsers } from '../run-import.ts';
import { collect, writeTree } from '../test-support.ts';
import { parseMarkdown } from './markdown.ts';

test('an Obsidian vault: front matter, tags, wikilinks, one document per note', async () => {
  const vault = writeTree({
    '.obsidian/workspace.json': '{}',
    '.obsidian/snippets/notes.md': '# tool state, not a note',
    'Daily/2024-03-04.md':
      '---\r\ntitle: Monday\r\ntags: [journal, health]\r\ndate: 2024-03-04T08:15:00+01:00\r\n---\r\n' +
      'Ran 5 km with [[Ana Souza|Ana]] before work. #running\r\n\r\nSee [[Training plan#Week 3]].\r\n',
    'People/Ana Souza.md':
      '# Ana Souza\n\nMy sister. Lives in Lisbon. Phone in [[Contacts]].\n\n```\n#not-a-tag in code\n```\n',
    'Empty.md': '---\ntitle: nothing here\n---\n\n',
    'Danger.md': '---js\n{ title: require("fs").writeFileSync("/tmp/pwned", "x") }\n---\nbody\n',
    // Windows-1252 bytes, as an old editor saved them: "Café crème"
    'Legacy.md': Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x63, 0x72, 0xe8, 0x6d, 0x65, 0x0a]),
  });
  utimesSync(
    join(vault.root, 'People/Ana Souza.md'),
    new Date('2023-11-02T10:00:00Z'),
    new Date('2023-11-02T10:00:00Z'),
  );
  try {
    const { records, skips } = await collect(parseMarkdown(vault.root, {}));
    assert.deepEqual(records.map((r) => r.ref).sort(), [
      'Daily/2024-03-04.md',
      'Legacy.md',
      'People/Ana Souza.md',
    ]);
    const daily = records.find((r) => r.ref === 'Daily/2024-03-04.md')!.body;
    assert.equal(daily.source.name, 'obsidian');
    // A vault's note goes by the vault's folder name and its path in the vault.
    const vaultName = basename(realpathSync(vault.root));
    assert.equal(daily.source.external_id, `${vaultName}/Daily/2024-03-04.md`);
    assert.equal(daily.occurred_at, '2024-03-04T07:15:00.000Z', 'front matter date, converted to UTC');
    assert.ok(typeof daily.content === 'object' && daily.content.kind === 'document');
    assert.equal(daily.content.title, 'Monday');
    assert.match(daily.content.text, /^Ran 5 km with \[\[Ana Souza\|Ana\]\] before work\. #running/);
    assert.match(
      daily.content.text,
      /\nTags: #journal #health #running\nLinks: \[\[Ana Souza\]\] \[\[Training plan\]\]$/,
    );

    const ana = records.find((r) => r.ref === 'People/Ana Souza.md')!.body;
    assert.ok(typeof ana.content === 'object' && ana.content.kind === 'document');
    assert.equal(ana.content.title, 'Ana Souza', 'first heading when front matter has no title');
    assert.equal(ana.occurred_at, '2023-11-02T10:00:00.000Z', 'file time when front matter has no date');
    assert.doesNotMatch(ana.content.text, /Tags:/, 'a #word inside code is not a tag');

    const legacy = records.find((r) => r.ref === 'Legacy.md')!.body;
    assert.ok(typeof legacy.content === 'object' && legacy.content.kind === 'document');
    assert.equal(legacy.content.text, 'Café crème');
    assert.equal(legacy.content.title, 'Legacy');

    assert.deepEqual(skips.map((s) => [s.ref, s.reason.split(':')[0]]).sort(), [
      ['Danger.md', 'unreadable front matter'],
      ['Empty.md', 'empty note'],
    ]);
  } finally {
    vault.remove();
  }
});

test('a single Markdown file', async () => {
  const t = writeTree({ 'note.md': 'Buy oat milk' });
  try {
    const { records } = await collect(parseMarkdown(join(t.root, 'note.md'), {}));
    assert.equal(records.length, 1);
    assert.equal(records[0]!.ref, 'note.md');
    assert.equal(records[0]!.body.source.name, 'markdown');
    assert.equal(records[0]!.body.source.external_id, realpathSync(join(t.root, 'note.md')));
  } finally {
    t.remove();
  }
});

test('a note is one item however it is imported; two notes of one name are two items', async () => {
  const t = writeTree({
    'a/todo.md': '# Todo\nBuy oat milk ALPHAITEM\n',
    'b/todo.md': '# Todo\nCall the plumber BETAITEM\n',
    'folder/sub/n.md': 'A plain note\n',
    'Vault/.obsidian/app.json': '{}',
    'Vault/sub/n.md': 'A vault note\n',
  });
  // [source.name, external_id, Idempotency-Key] of each note read from PATH in FORMAT.
  const read = async (path: string, format: 'markdown' | 'obsidian' = 'markdown') =>
    (await collect(parsers[format](join(t.root, path), {}))).records.map((r) => [
      r.body.source.name,
      r.body.source.external_id,
      importIdempotencyKey(r.body),
    ]);
  try {
    const [a] = await read('a/todo.md');
    const [b] = await read('b/todo.md');
    assert.equal(a![1], realpathSync(join(t.root, 'a/todo.md')));
    assert.equal(b![1], realpathSync(join(t.root, 'b/todo.md')));
    assert.notEqual(a![1], b![1], 'same name, different files');

    const plain = [realpathSync(join(t.root, 'folder/sub/n.md'))];
    for (const ways of [
      await read('folder/sub/n.md'),
      await read('folder/sub'),
      await read('folder'),
      await read('folder', 'obsidian'),
    ])
      assert.deepEqual(
        ways.map(([source, id]) => [source, id]),
        [['markdown', ...plain]],
      );

    const inVault = await read('Vault/sub/n.md');
    assert.deepEqual(
      inVault.map(([source, id]) => [source, id]),
      [['obsidian', 'Vault/sub/n.md']],
      'in a vault: the vault folder name and the path in the vault, even for the file alone',
    );
    for (const ways of [await read('Vault/sub'), await read('Vault'), await read('Vault', 'obsidian')])
      assert.deepEqual(ways, inVault, 'the same Record, so a re-import replays it');
  } finally {
    t.remove();
  }
});
