import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Lane } from '../../engine/retrieve/lane.ts';
import { locateDbKey } from '../../engine/local/index.ts';
import { filesContaining, key, open, tempDir, tenant } from './local-helpers.ts';

describe('local engine: persistence and encryption at rest', () => {
  it('an engine that fails to start after its store opened gives the store and the data dir back', async () => {
    const dir = tempDir();
    // A lane list that cannot be read: something failing once the store is open.
    const broken = {
      [Symbol.iterator]() {
        throw new Error('lane set-up failed');
      },
    } as unknown as Lane[];
    await assert.rejects(open(dir, { lanes: broken }), /lane set-up failed/);
    // The same process opens it again at once (the desktop app retrying), not "in use" by itself.
    const engine = await open(dir);
    await engine.createBrain(tenant, { id: 'b' });
    await engine.close();
  });

  it('keeps Brains, Records, Memories, Objects and idempotency keys across a restart', async () => {
    const dir = tempDir();
    let engine = await open(dir);
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
    const first = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'message', text: 'I moved to Lisbon in May.', speaker: 'Ana' } },
      { idempotencyKey: 'k1' },
    );
    assert.equal(first.record.status, 'processing');
    await engine.acceptObject(tenant, 'b', { type: 'task', key: 't1', value: { done: false } }, {});
    await engine.idle();
    const memories = await engine.listMemories(tenant, 'b', { limit: 50 });
    await engine.close();

    engine = await open(dir);
    try {
      assert.equal((await engine.getBrain(tenant, 'b')).self?.name, 'Ana');
      const rec = await engine.getRecord(tenant, 'b', first.record.id);
      assert.equal(rec.status, 'ready');
      assert.deepEqual(await engine.listMemories(tenant, 'b', { limit: 50 }), memories);
      assert.equal((await engine.getObject(tenant, 'b', 'task', 't1')).version, 1);
      // The replay after restart returns the original Record and derives nothing new.
      const replay = await engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'message', text: 'I moved to Lisbon in May.', speaker: 'Ana' } },
        { idempotencyKey: 'k1' },
      );
      assert.equal(replay.record.id, first.record.id);
      await engine.idle();
      assert.equal((await engine.listMemories(tenant, 'b', { limit: 50 })).data.length, memories.data.length);
      await assert.rejects(
        engine.rememberRecord(tenant, 'b', { content: 'something else' }, { idempotencyKey: 'k1' }),
        (e: MnemoError) => e.code === 'idempotency_conflict',
      );
      // Watermarks issued before the restart still decode (the secret is persisted in the store).
      await engine.listMemories(tenant, 'b', { limit: 5, since_watermark: first.watermark });
    } finally {
      await engine.close();
    }
  });

  it('no Record text appears in plaintext in any file under the data dir, and a wrong key is refused', async () => {
    const dir = tempDir();
    const marker = 'zebracrossing4417plaintextmarker';
    let engine = await open(dir);
    await engine.createBrain(tenant, { id: 'b' });
    await engine.rememberRecord(tenant, 'b', { content: `The code word is ${marker}.` }, {});
    await engine.idle();
    // Scan while open too: the WAL holds the latest pages before a checkpoint.
    assert.deepEqual(filesContaining(dir, marker), []);
    await engine.close();
    assert.deepEqual(filesContaining(dir, marker), []);
    assert.notEqual(
      readFileSync(join(dir, 'mnemo.db')).subarray(0, 15).toString('latin1'),
      'SQLite format 3',
    );
    assert.equal(statSync(join(dir, 'mnemo.db')).mode & 0o777, 0o600);

    await assert.rejects(open(dir, { dbKey: 'not-the-key' }), /database key is wrong/);
    await assert.rejects(open(dir, { dbKey: null }), /database key is wrong/);
    engine = await open(dir, { dbKey: key });
    assert.equal((await engine.listBrains(tenant)).length, 1);
    await engine.close();
  });

  it('locateDbKey: MNEMO_DB_KEY, else --db-key-file, else a 0600 key file created in the config dir', () => {
    const dir = tempDir();
    assert.equal(locateDbKey({ env: { MNEMO_DB_KEY: 'from-env' }, configDir: dir }).key, 'from-env');
    const file = join(dir, 'given.key');
    writeFileSync(file, 'from-file\n', { mode: 0o600 });
    assert.equal(locateDbKey({ env: {}, dbKeyFile: file, configDir: dir }).key, 'from-file');
    const configDir = join(dir, 'config', 'mnemo');
    const made = locateDbKey({ env: {}, configDir });
    assert.equal(made.source, 'generated');
    assert.match(made.key, /^raw:[0-9a-f]{64}$/);
    assert.equal(statSync(made.path!).mode & 0o777, 0o600);
    const again = locateDbKey({ env: {}, configDir });
    assert.deepEqual([again.source, again.key], ['config', made.key]);
    assert.throws(
      () => locateDbKey({ env: {}, dbKeyFile: join(dir, 'missing.key') }),
      /cannot read the database key file/,
    );
    assert.ok(!existsSync(join(dir, 'mnemo.db')));
  });

  it('makes no key for a data dir whose store exists, and says its own key is missing', async () => {
    const dataDir = tempDir();
    const engine = await open(dataDir);
    await engine.close();
    const configDir = join(tempDir(), 'mnemo');
    assert.throws(
      () => locateDbKey({ env: {}, configDir, dataDir }),
      (e: Error) =>
        e.message.includes(`no database key for the store ${join(dataDir, 'mnemo.db')}`) &&
        !/wrong/.test(e.message),
    );
    assert.ok(!existsSync(join(configDir, 'db.key')));
    // A data dir with no store yet still gets its first key.
    assert.equal(locateDbKey({ env: {}, configDir, dataDir: tempDir() }).source, 'generated');
  });

  it('says a config dir it cannot look in or write to is that, and how to give the key instead', () => {
    // A file where the config dir should be: the key cannot be looked for, nor made there.
    const notADir = join(tempDir(), 'config');
    writeFileSync(notADir, 'not a folder');
    assert.throws(
      () => locateDbKey({ env: {}, configDir: notADir }),
      /^Error: cannot look for the database key file .*config\/db\.key: .*ENOTDIR.*MNEMO_DB_KEY or --db-key-file$/,
    );
    // A db.key that links to nowhere (a dotfiles link to a drive not mounted): no key to read, and none
    // can be made in its place.
    const linked = tempDir();
    symlinkSync(join(linked, 'unmounted', 'db.key'), join(linked, 'db.key'));
    assert.throws(
      () => locateDbKey({ env: {}, configDir: linked }),
      /^Error: cannot make the database key file .*db\.key: EEXIST.*a folder this user can write, or give a key with MNEMO_DB_KEY or --db-key-file$/,
    );
  });
});
