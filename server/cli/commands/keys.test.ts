import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FileKeyRegistry } from '../../../engine/auth/key-registry.ts';

const dir = mkdtempSync(join(tmpdir(), 'mnemo-keys-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const registry = join(dir, 'keys.json');

function mnemo(...args: string[]) {
  return spawnSync(process.execPath, ['bin/mnemo.mjs', ...args], { encoding: 'utf8', timeout: 30_000 });
}
const create = (...extra: string[]) =>
  mnemo('keys', 'create', '--project', 'p', '--env', 'test', '--key-registry', registry, ...extra);

describe('mnemo keys create refuses bad arguments (exit 1, nothing issued)', () => {
  const refusals: [string, string[], RegExp][] = [
    ['an empty --scopes', ['--scopes', ''], /--scopes.*name at least one scope/],
    ['a --scopes of separators only', ['--scopes', ' , '], /--scopes.*name at least one scope/],
    ['an unknown scope', ['--scopes', 'records:read,nope'], /--scopes.*unknown scope\(s\): nope/],
    ['a --brain that is not a Brain id', ['--brain', 'bad id/..'], /--brain.*must be 1-128 characters/],
    [
      '--data-dir together with --key-registry',
      ['--data-dir', dir],
      /--data-dir.*cannot be used with.*--key-registry/,
    ],
  ];
  for (const [name, extra, message] of refusals) {
    it(name, async () => {
      const r = create(...extra);
      assert.equal(r.status, 1, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.ok(
        !existsSync(registry) || (await new FileKeyRegistry(registry).list()).length === 0,
        'no key was issued',
      );
    });
  }

  it('a project with "_", which cannot be one part of a key', () => {
    const r = mnemo('keys', 'create', '--project', 'a_b', '--env', 'test', '--key-registry', registry);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /--project.*"_" separates the parts of a key/);
  });

  it('still issues a key from good arguments, with exactly the scopes named', async () => {
    const r = create('--scopes', 'records:read, context:read', '--brain', 'life');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^sk_test_p_\S+\n$/);
    const [entry] = await new FileKeyRegistry(registry).list();
    assert.deepEqual(entry?.scopes, ['records:read', 'context:read']);
    assert.equal(entry?.brain, 'life');
  });
});

describe('mnemo keys on a registry that cannot be read', () => {
  it('names the file with its full path on stderr (an API client gets neither)', () => {
    const missing = join(dir, 'nowhere', 'keys.json');
    const r = mnemo('keys', 'list', '--key-registry', missing);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^mnemo: The key registry keys\.json could not be read: it does not exist\.\n/);
    assert.ok(r.stderr.includes(`(${missing}: ENOENT`), r.stderr);
  });
});
