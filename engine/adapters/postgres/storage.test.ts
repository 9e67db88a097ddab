import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresStorageOver } from './storage.ts';
import { brainRow, serverForTests } from './testing/fixtures.ts';
import { pgliteDatabases } from './testing/pglite.ts';

// Each test gets a never-migrated database of its own, started from the kept data directory (a clone
// of a running one would first dump it).
const plain = await pgliteDatabases();
const withVector = await pgliteDatabases({ vector: true });

describe("a hosted Mnemo's storage over PostgreSQL", () => {
  it('migrates an empty database, then finds it migrated', async () => {
    const db = await plain();
    const first = await postgresStorageOver(db);
    assert.ok(first.migrated.length > 0);
    const again = await postgresStorageOver(db);
    assert.deepEqual(again.migrated, []);
  });

  it('keeps one watermark secret for every opening of the database', async () => {
    const db = await plain();
    const a = await (await postgresStorageOver(db)).watermarkSecret();
    const b = await (await postgresStorageOver(db)).watermarkSecret();
    assert.equal(a.length, 32);
    assert.deepEqual(Buffer.from(b), Buffer.from(a));
    const other = await (await postgresStorageOver(await plain())).watermarkSecret();
    assert.notDeepEqual(Buffer.from(other), Buffer.from(a));
  });

  it('refuses a database whose watermark secret was tampered with', async () => {
    const db = await plain();
    await postgresStorageOver(db);
    await db.query("UPDATE mnemo_meta SET value = 'short' WHERE key = 'watermark_secret'");
    await assert.rejects(postgresStorageOver(db), /watermark_secret is missing or malformed/);
  });

  it('says the semantic lane does not run without the vector extension, and runs with it', async () => {
    const without = await postgresStorageOver(await plain());
    assert.equal(without.semantic.on, false);
    assert.match(without.semantic.reason ?? '', /vector/);
    const withIt = await postgresStorageOver(await withVector());
    assert.deepEqual(withIt.semantic, { on: true, reason: null });
  });

  it("writes and reads a Brain's units of work through the ports", async () => {
    const s = await postgresStorageOver(await plain());
    const made = await s.brains.create(brainRow('brn_st', 'st'));
    assert.ok(made);
    assert.equal(await s.write('brn_st', (u) => u.sequence.next()), 1);
    assert.equal(await s.read('brn_st', (u) => u.sequence.current()), 1);
    await assert.rejects(
      s.write('brn_gone', async () => 1),
      { code: 'brain_not_found' },
    );
  });
});

const server = await serverForTests();
describe('one database opened by several processes at once', { skip: server.skip }, () => {
  it('all migrate without a race and sign watermarks with the same secret', async () => {
    const url = await server.cluster().freshDatabase();
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => postgresStorageOver(server.cluster().connect(url, 2))),
    );
    assert.equal(opened.filter((s) => s.migrated.length > 0).length, 1);
    const secrets = await Promise.all(
      opened.map(async (s) => Buffer.from(await s.watermarkSecret()).toString('hex')),
    );
    assert.equal(new Set(secrets).size, 1);
  });
});
