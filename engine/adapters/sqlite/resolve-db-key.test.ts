import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { locateDbKey, newStoreKey } from './resolve-db-key.ts';

describe('a database key written raw:', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-dbkey-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is said to be a passphrase when 64 hex digits do not follow raw:', () => {
    for (const key of ['raw:abc', `raw:${'zz'.repeat(32)}`, `raw:${'ab'.repeat(31)}`]) {
      const found = locateDbKey({ env: { MNEMO_DB_KEY: key } });
      assert.equal(found.key, key, 'taken as it is: a store made with it still opens');
      assert.match(found.warning ?? '', /^MNEMO_DB_KEY starts with raw: but is not 64 hex digits after it/);
    }
    const file = join(dir, 'db.key');
    writeFileSync(file, 'raw:not-hex\n', { mode: 0o600 });
    assert.match(
      locateDbKey({ env: {}, dbKeyFile: file }).warning ?? '',
      new RegExp(`^the key file ${file} starts with raw:`),
    );
  });

  it('is not, when it is a raw key, or a passphrase that does not start raw:', () => {
    for (const key of [newStoreKey(), `RAW:${'AB'.repeat(32)}`, 'correct horse battery staple'])
      assert.equal(locateDbKey({ env: { MNEMO_DB_KEY: key } }).warning, undefined, key);
  });
});
