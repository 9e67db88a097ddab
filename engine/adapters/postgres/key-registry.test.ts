import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashKey } from '../../auth/api-key.ts';
import { pgKeyRegistry } from './key-registry.ts';
import { migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';

const db = await migratedPglite();

describe('the key registry over PostgreSQL (KeyRegistryPort)', () => {
  it('stores a key as its hash, prefix and last four only, and finds it by hash', async () => {
    const keys = pgKeyRegistry(db);
    const { key, record } = await keys.create({
      env: 'test',
      project: 'acme',
      scopes: ['records:read'],
      brain: 'life',
    });
    assert.match(key, /^sk_test_acme_\S+$/);
    assert.deepEqual(
      { ...record, id: '', created_at: '' },
      {
        id: '',
        hash: hashKey(key),
        prefix: 'sk_test_acme',
        last4: key.slice(-4),
        scopes: ['records:read'],
        brain: 'life',
        label: null,
        admin: false,
        created_at: '',
        revoked_at: null,
      },
    );
    const stored = JSON.stringify((await db.query('SELECT * FROM api_keys')).rows);
    assert.ok(!stored.includes(key.split('_')[3]!), 'the secret is nowhere in the table');
    assert.deepEqual(await keys.byHash(hashKey(key)), record);
    assert.equal(await keys.byHash(hashKey(`${key}x`)), null);
    assert.ok((await keys.list()).some((k) => k.id === record.id));
  });

  it('refuses what the file registry refuses: an empty scope list, a project with "_"', async () => {
    const keys = pgKeyRegistry(db);
    await assert.rejects(keys.create({ env: 'test', project: 'p', scopes: [] }), /name at least one scope/);
    await assert.rejects(keys.create({ env: 'test', project: 'a_b', scopes: ['records:read'] }), {
      code: 'invalid_request_body',
    });
  });

  it('revokes by key or by id, once; a revoked key is still found, as revoked', async () => {
    const keys = pgKeyRegistry(db);
    const a = await keys.create({ env: 'live', project: 'rev', scopes: ['records:read'] });
    const b = await keys.create({ env: 'live', project: 'rev', scopes: ['records:read'] });
    const byKey = await keys.revoke(a.key);
    assert.ok(byKey?.revoked_at);
    assert.equal((await keys.byHash(a.record.hash))?.revoked_at, byKey.revoked_at);
    assert.equal(
      (await keys.revoke(a.record.id))?.revoked_at,
      byKey.revoked_at,
      'revoking again changes nothing',
    );
    assert.equal(await keys.revoke(b.record.id, () => false), null, 'a key the caller may not see is none');
    assert.ok(await keys.byHash(b.record.hash));
    assert.ok((await keys.revoke(b.record.id))?.revoked_at);
    assert.equal(await keys.revoke('key_nope'), null);
  });
});

const server = await serverForTests();
describe('the key registry shared by several processes', { skip: server.skip }, () => {
  it('a revoke by one process is refused on the next lookup of another', async () => {
    const [one, two] = (await migratedDatabase(server.cluster(), 2)).map((c) => pgKeyRegistry(c));
    const { key, record } = await one!.create({ env: 'test', project: 'p', scopes: ['context:read'] });
    assert.equal((await two!.byHash(hashKey(key)))?.id, record.id);
    await two!.revoke(key);
    assert.ok((await one!.byHash(hashKey(key)))?.revoked_at);
  });
});
