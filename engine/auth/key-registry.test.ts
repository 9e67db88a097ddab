import assert from 'node:assert/strict';
import type { MnemoError } from '../errors/mnemo-error.ts';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { hashKey, parseApiKey } from './api-key.ts';
import { FileKeyRegistry } from './key-registry.ts';

const root = mkdtempSync(join(tmpdir(), 'mnemo-keys-'));
after(() => rmSync(root, { recursive: true, force: true }));
const freshDir = () => mkdtempSync(join(root, 'reg-'));
const fresh = () => FileKeyRegistry.ensure(join(freshDir(), 'keys.json'));

describe('FileKeyRegistry', () => {
  it('stores only hash, prefix, last four, scopes and binding, in a 0600 file', async () => {
    const reg = fresh();
    const { key, record: entry } = await reg.create({
      env: 'test',
      project: 'acme',
      brain: 'b1',
      scopes: ['records:read'],
    });
    const raw = readFileSync(reg.path, 'utf8');
    assert.ok(!raw.includes(key), 'the key itself is never stored');
    assert.ok(!raw.includes(parseApiKey(key)!.secret));
    assert.equal(entry.prefix, 'sk_test_acme');
    assert.equal(entry.last4, key.slice(-4));
    assert.equal(statSync(reg.path).mode & 0o777, 0o600);
  });

  it('finds issued keys by hash, not others, and reports revocation', async () => {
    const reg = fresh();
    const { key, record } = await reg.create({ env: 'live', project: 'acme' });
    assert.deepEqual(await reg.byHash(hashKey(key)), record);
    const forged = `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(await reg.byHash(hashKey(forged)), null);
    assert.ok(await reg.revoke(key));
    assert.match((await reg.byHash(hashKey(key)))?.revoked_at ?? '', /^\d{4}-/);
    assert.equal(await reg.revoke('sk_test_x_nothere'), null);
  });

  it('sees a revocation written by another registry object (another process) without restart', async () => {
    const a = fresh();
    const b = new FileKeyRegistry(a.path);
    const { key, record } = await a.create({ env: 'test', project: 'p' });
    assert.equal((await b.byHash(hashKey(key)))?.revoked_at, null);
    await a.revoke(record.id);
    assert.notEqual((await b.byHash(hashKey(key)))?.revoked_at, null);
  });

  it('throws key_registry_unreadable for a missing or corrupt file', async () => {
    const reg = new FileKeyRegistry('/nonexistent/dir/keys.json');
    await assert.rejects(
      reg.byHash(hashKey('sk_test_p_s')),
      (e: MnemoError) =>
        e.code === 'key_registry_unreadable' &&
        /keys\.json/.test(e.message) &&
        !e.message.includes('/nonexistent'),
      'the message names the file, not where it is',
    );
  });

  it('an unreadable registry is described without a byte of it; the path and details are only in the cause', async () => {
    const dir = freshDir();
    const cases: Array<[string, string | null, RegExp]> = [
      // A parser's message quotes the start of the file: these bytes must not reach an API client.
      ['text.json', 'hash=fcadcf3344d648250af11944c0a0c5988630dbf4 sk_live_x', /it is not valid JSON/],
      ['literal.json', 'null', /it is not a key registry/],
      ['v2.json', '{"version":2,"keys":[]}', /it is not a key registry/],
      ['missing.json', null, /it does not exist/],
    ];
    for (const [name, content, kind] of cases) {
      const path = join(dir, name);
      if (content !== null) writeFileSync(path, content);
      await assert.rejects(
        new FileKeyRegistry(path).byHash(hashKey('sk_test_p_abcd1234')),
        (e: MnemoError) => {
          assert.equal(e.code, 'key_registry_unreadable');
          assert.match(
            e.message,
            new RegExp(`^The key registry ${name.replace('.', '\\.')} could not be read: `),
          );
          assert.match(e.message, kind);
          assert.ok(!e.message.includes(dir), 'no path');
          for (const word of ['hash', 'fcadc', 'sk_live', 'null', 'version'])
            assert.ok(!e.message.includes(word), `no content: ${word} in ${e.message}`);
          assert.ok(e.cause instanceof Error);
          assert.ok(e.cause.message.startsWith(`${path}: `), 'the cause has the full path, for the CLI');
          return true;
        },
      );
    }
  });
});
