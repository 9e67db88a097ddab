import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import yazl from 'yazl';
import { archiveFolderName, expandZip } from './expand-zip.ts';

const root = mkdtempSync(join(tmpdir(), 'mnemo-zip-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

type Entry = { name: string; text?: string; dir?: boolean; mode?: number; mtime?: Date };

/** A real archive, written by yazl, with the entries as given. */
async function zipOf(entries: Entry[]): Promise<string> {
  const z = new yazl.ZipFile();
  for (const e of entries) {
    if (e.dir) z.addEmptyDirectory(e.name);
    else
      z.addBuffer(Buffer.from(e.text ?? ''), e.name, {
        ...(e.mode === undefined ? {} : { mode: e.mode }),
        ...(e.mtime === undefined ? {} : { mtime: e.mtime }),
      });
  }
  z.end();
  const chunks: Buffer[] = [];
  for await (const c of z.outputStream) chunks.push(c as Buffer);
  const file = join(root, `a${(n += 1)}.zip`);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

describe('expandZip', () => {
  it('writes the files with their folders, owner-only, and leaves out the OS bookkeeping', async () => {
    const file = await zipOf([
      { name: 'Vault/.obsidian/', dir: true },
      { name: 'Vault/.obsidian/app.json', text: '{}' },
      {
        name: 'Vault/Daily/2024-03-04.md',
        text: '# Tuesday\n\nI met Ana.',
        mtime: new Date(2024, 2, 4, 21, 30, 12),
      },
      { name: 'Vault/empty/', dir: true },
      { name: '__MACOSX/Vault/._2024-03-04.md', text: 'resource fork' },
      { name: 'Vault/.DS_Store', text: 'finder' },
    ]);
    const into = join(root, 'out1');
    const r = await expandZip(file, into);
    assert.deepEqual(tree(into), ['Vault/.obsidian/app.json', 'Vault/Daily/2024-03-04.md']);
    assert.equal(readFileSync(join(into, 'Vault/Daily/2024-03-04.md'), 'utf8'), '# Tuesday\n\nI met Ana.');
    assert.deepEqual(r, { files: 2, bytes: '{}'.length + '# Tuesday\n\nI met Ana.'.length, skipped: [] });
    // The archive's time for the file (zip keeps local time to 2 seconds), so a re-import is the same item.
    assert.equal(
      statSync(join(into, 'Vault/Daily/2024-03-04.md')).mtime.getTime(),
      new Date(2024, 2, 4, 21, 30, 12).getTime(),
    );
    if (process.platform !== 'win32') {
      assert.equal(statSync(join(into, 'Vault/Daily/2024-03-04.md')).mode & 0o777, 0o600);
      assert.equal(statSync(join(into, 'Vault/Daily')).mode & 0o777, 0o700);
    }
  });

  it('skips a symbolic link rather than follow it out of the folder', async () => {
    const file = await zipOf([
      { name: 'notes/a.md', text: 'A' },
      { name: 'notes/passwd.md', text: '/etc/passwd', mode: 0o120777 },
    ]);
    const into = join(root, 'out2');
    const r = await expandZip(file, into);
    assert.deepEqual(tree(into), ['notes/a.md']);
    assert.deepEqual(r.skipped, [{ name: 'notes/passwd.md', reason: 'a symbolic link' }]);
  });

  it('refuses an entry named to land outside the folder (zip slip), writing nothing there', async () => {
    const file = await zipOf([{ name: 'xx/evil.md', text: 'owned' }]);
    // The same bytes with "xx/" made "../" in the local header and the central directory.
    const bytes = readFileSync(file);
    let at = bytes.indexOf('xx/evil.md');
    while (at >= 0) {
      bytes.write('../', at, 'latin1');
      at = bytes.indexOf('xx/evil.md', at + 1);
    }
    writeFileSync(file, bytes);
    const into = join(root, 'deep', 'out3');
    await assert.rejects(expandZip(file, into), /invalid relative path|outside/);
    assert.ok(!readdirSync(join(root, 'deep')).includes('evil.md'));
  });

  it('refuses an archive beyond the limits before writing past them', async () => {
    const file = await zipOf([
      { name: 'a.txt', text: 'x'.repeat(600) },
      { name: 'b.txt', text: 'y'.repeat(600) },
    ]);
    await assert.rejects(
      expandZip(file, join(root, 'out4'), { maxEntries: 10, maxBytes: 1000 }),
      /more than 1000 bytes: unzip it and import the folder/,
    );
    assert.deepEqual(tree(join(root, 'out4')), ['a.txt'], 'stopped at the entry that would pass the limit');
    await assert.rejects(
      expandZip(file, join(root, 'out5'), { maxEntries: 1, maxBytes: 10_000 }),
      /holds 2 entries, more than 1/,
    );
  });

  it('a file that is not a zip archive is a clear error', async () => {
    const file = join(root, 'fake.zip');
    writeFileSync(file, 'just text');
    await assert.rejects(expandZip(file, join(root, 'out6')), /fake\.zip cannot be read as a zip archive/);
  });

  it('names the folder after the archive', () => {
    assert.equal(archiveFolderName('/x/slack-export.ZIP'), 'slack-export');
    assert.equal(archiveFolderName('.zip'), 'archive');
  });
});
