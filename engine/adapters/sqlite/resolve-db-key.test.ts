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
    for (const key of [
      'raw:abc',
      `raw:${'zz'.repeat(32)}`,
      `raw:${'ab'.repeat(31)}`,
      `RAW:${'AB'.repeat(32)}`,
    ]) {
      const found = locateDbKey({ env: { MNEMO_DB_KEY: key } });
      assert.equal(found.key, key, 'taken as it is: a store made with it still opens');
      assert.match(
        found.warning ?? '',
        /^MNEMO_DB_KEY starts with raw: but is not a lower-case raw: and 64 hex/,
      );
    }
    const file = join(dir, 'db.key');
    writeFileSync(file, 'raw:not-hex\n', { mode: 0o600 });
    assert.match(
      locateDbKey({ env: {}, dbKeyFile: file }).warning ?? '',
      new RegExp(`^the key file ${file} starts with raw:`),
    );
  });

  it('is not, when it is a raw key as the cipher reads one, or a passphrase that does not start raw:', () => {
    // The cipher's raw forms: 64 or 96 hex digits (either case), or 32 or 48 bytes as they are.
    const raws = [newStoreKey(), `raw:${'AB'.repeat(32)}`, `raw:${'ab'.repeat(48)}`, `raw:${'x'.repeat(32)}`];
    for (const key of [...raws, `raw:${'y'.repeat(48)}`, 'correct horse battery staple'])
      assert.equal(locateDbKey({ env: { MNEMO_DB_KEY: key } }).warning, undefined, key);
  });
});
