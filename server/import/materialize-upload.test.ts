import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { diskWriter, materialize, type UploadWriter } from './materialize-upload.ts';

// Uploaded files are copied several at a time (one at a time, 3,000 notes took seconds): what is
// written, and which file an error names, must be as when they were written in turn.

const file = (name: string, text = `text of ${name}`, lastModified?: string) => ({
  name,
  content_base64: Buffer.from(text).toString('base64'),
  ...(lastModified ? { last_modified: lastModified } : {}),
});

function tempRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-materialize-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes to disk after a pause, counting how many files are being written at once. */
function slowWriter(): UploadWriter & { most: number } {
  let running = 0;
  const w = {
    most: 0,
    mkdir: diskWriter.mkdir,
    writeFile: async (path: string, data: Buffer) => {
      running += 1;
      w.most = Math.max(w.most, running);
      await sleep(5);
      try {
        await diskWriter.writeFile(path, data);
      } finally {
        running -= 1;
      }
    },
  };
  return w;
}

/** Every file under DIR, relative, with its text. */
function tree(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, tree(dir, r));
    else out[r] = readFileSync(join(dir, r), 'utf8');
  }
  return out;
}

test('many files in nested folders: each written whole, owner-only, with its last_modified by path', async () => {
  const root = tempRoot();
  const files = Array.from({ length: 200 }, (_, i) =>
    file(`Vault/f${i % 7}/sub${i % 3}/note ${i}.md`, `note ${i} `.repeat(i), '2024-03-04T05:06:07Z'),
  );
  const times = await materialize(files, root);
  const written = tree(root);
  assert.equal(Object.keys(written).length, 200);
  for (const [i, f] of files.entries())
    assert.equal(written[f.name], `note ${i} `.repeat(i), `${f.name} is written whole`);
  assert.equal(statSync(join(root, files[5]!.name)).mode & 0o777, 0o600);
  assert.equal(statSync(join(root, 'Vault/f1/sub2')).mode & 0o777, 0o700);
  assert.equal(times.size, 200);
  assert.equal(times.get(join(root, files[0]!.name))?.toISOString(), '2024-03-04T05:06:07.000Z');
});

test('files are written several at a time', async () => {
  const writer = slowWriter();
  const files = Array.from({ length: 60 }, (_, i) => file(`Vault/f${i % 3}/note ${i}.md`));
  await materialize(files, tempRoot(), writer);
  assert.ok(writer.most > 1, `files written at once: ${writer.most}`);
});

test('a name that is both a file and a folder fails at the later of the two, whichever comes first', async () => {
  const many = Array.from({ length: 40 }, (_, i) => file(`n${i}.md`));
  const cases: [ReturnType<typeof file>[], RegExp][] = [
    [[...many, file('a'), file('a/b.md')], /^files\[41\]\.name: "a\/b\.md" cannot be stored \(\w+\)/],
    [[...many, file('a/b.md'), file('a')], /^files\[41\]\.name: "a" cannot be stored \(\w+\)/],
    [[file('a'), ...many, file('a/c/d.md')], /^files\[41\]\.name: "a\/c\/d\.md" cannot be stored \(\w+\)/],
    [[file('x/y.md'), ...many, file('x')], /^files\[41\]\.name: "x" cannot be stored \(\w+\)/],
  ];
  // Slow writes too: a folder made while the file of its name was still being written would fail the
  // earlier file instead.
  for (const [[files, error], io] of cases.flatMap((c) =>
    [c, c].map((x, k) => [x, k ? slowWriter() : diskWriter] as const),
  )) {
    const root = tempRoot();
    await assert.rejects(materialize(files, root, io), (e: Error) => {
      assert.match(e.message, error);
      assert.match(e.message, /is it both a file and a folder\?$/);
      return true;
    });
    // Nothing is still being written once it has thrown: every file before the failing one is there, whole.
    const written = tree(root);
    for (const f of files.slice(0, 41)) assert.equal(written[f.name], `text of ${f.name}`);
  }
});

test('a bad or repeated name after many files is reported with its index, once the writes before it ended', async () => {
  const many = Array.from({ length: 40 }, (_, i) => file(`d${i % 4}/n${i}.md`));
  const root = tempRoot();
  await assert.rejects(materialize([...many, file('d1/n1.md')], root, slowWriter()), {
    message: 'files[40].name: "d1/n1.md" is given twice',
  });
  assert.equal(Object.keys(tree(root)).length, 40);
  await assert.rejects(materialize([...many, file('../escape.md')], tempRoot()), {
    message: 'files[40].name: must be a relative path without empty, "." or ".." parts',
  });
});
