import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { walkFolder, type WalkEntry } from './walk-folder.ts';
import { writeTree } from './test-support.ts';

const walked = async (root: string) => {
  const out: WalkEntry[] = [];
  for await (const e of walkFolder(root)) out.push(e);
  return out.map((e) => (e.type === 'skip' ? [e.rel, e.reason] : [e.rel, e.type]));
};

test('a link out of the folder into a hidden folder is not followed: a downloaded vault cannot import ~/.ssh', async () => {
  const t = writeTree({
    'home/.ssh/id_ed25519': '-----BEGIN OPENSSH PRIVATE KEY-----',
    'home/.config/mnemo/db.key': 'raw:00',
    'home/notes/elsewhere.md': 'A note linked in',
    'home/Downloads/vault/plan.md': '# Plan',
  });
  const vault = join(t.root, 'home/Downloads/vault');
  symlinkSync('../../.ssh/id_ed25519', join(vault, 'key.md'));
  symlinkSync('../../.config', join(vault, 'config'));
  symlinkSync('../../notes/elsewhere.md', join(vault, 'linked.md'));
  try {
    assert.deepEqual(await walked(vault), [
      [
        'config',
        'link into a hidden folder or file (.config): not followed, as hidden entries are never read',
      ],
      ['key.md', 'link into a hidden folder or file (.ssh): not followed, as hidden entries are never read'],
      ['linked.md', 'file'],
      ['plan.md', 'file'],
    ]);
  } finally {
    t.remove();
  }
});

test('a vault that itself lives in a hidden folder still follows its links beside it', async () => {
  const t = writeTree({
    '.notes/vault/plan.md': '# Plan',
    '.notes/shared/elsewhere.md': 'A note linked in',
  });
  const vault = join(t.root, '.notes/vault');
  symlinkSync('../shared/elsewhere.md', join(vault, 'linked.md'));
  try {
    assert.deepEqual(await walked(vault), [
      ['linked.md', 'file'],
      ['plan.md', 'file'],
    ]);
  } finally {
    t.remove();
  }
});

test("a link to the kernel's pseudo-files (the process's environment) is not followed", async () => {
  const t = writeTree({ 'vault/plan.md': '# Plan' });
  const vault = join(t.root, 'vault');
  symlinkSync('/proc/self/environ', join(vault, 'env.md'));
  try {
    assert.deepEqual(await walked(vault), [
      ['env.md', 'link to a system file (/proc, /sys, /dev): not followed'],
      ['plan.md', 'file'],
    ]);
  } finally {
    t.remove();
  }
});
