import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { startServer, type RunningServer } from '../start-server.ts';

describe('/v1/keys', () => {
  let server: RunningServer;
  let admin: string;
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-create-key-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  before(async () => {
    const keyRegistry = FileKeyRegistry.ensure(join(dir, 'keys.json')).path;
    server = await startServer({ engine: 'reference', port: 0, keyRegistry });
    admin = (await server.registry!.create({ env: 'live', project: 'p1', admin: true })).key;
  });
  after(() => server.close());

  const post = async (body: unknown, as = admin) => {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${as}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('a project that cannot be one segment of a key is 400 invalid_request_body naming project', async () => {
    const r = await post({ env: 'test', project: 'a_b' });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_request_body');
    assert.match(String(r.body.message), /^project: /);
  });

  it('an admin key mints keys for its own project only: another project is 403 http_403', async () => {
    const r = await post({ env: 'test', project: 'p2' });
    assert.equal(r.status, 403);
    assert.equal(r.body.code, 'http_403');
    assert.match(String(r.body.message), /^project: /);
    assert.equal((await server.registry!.list()).filter((e) => e.prefix.endsWith('_p2')).length, 0);
  });

  it("GET /v1/keys lists only the admin key's own project (both envs), never another project's", async () => {
    const foreign = (await server.registry!.create({ env: 'live', project: 'p2' })).record;
    const ownTest = (await server.registry!.create({ env: 'test', project: 'p1' })).record;
    const res = await fetch(`${server.url}/keys`, { headers: { Authorization: `Bearer ${admin}` } });
    assert.equal(res.status, 200);
    const ids = ((await res.json()) as { data: { id: string; prefix: string }[] }).data.map((k) => k.id);
    assert.ok(ids.includes(ownTest.id));
    assert.ok(!ids.includes(foreign.id), 'a key of project p2 is listed to an admin key of p1');
  });

  it("DELETE /v1/keys/{id} of another project's key is 404 http_404, as an unknown id, and revokes nothing", async () => {
    const foreign = await server.registry!.create({ env: 'live', project: 'p2' });
    for (const keyId of [foreign.record.id, encodeURIComponent(foreign.key)]) {
      const res = await fetch(`${server.url}/keys/${keyId}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${admin}` },
      });
      assert.equal(res.status, 404);
      const body = (await res.json()) as Record<string, unknown>;
      assert.equal(body.code, 'http_404');
      assert.match(String(body.message), /^key_id: no key /);
    }
    const unknown = await fetch(`${server.url}/keys/key_nope`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${admin}` },
    });
    assert.equal(unknown.status, 404);
    const stored = (await server.registry!.list()).find((e) => e.id === foreign.record.id)!;
    assert.equal(stored.revoked_at, null);
    const still = await fetch(`${server.url}/brains`, {
      headers: { Authorization: `Bearer ${foreign.key}` },
    });
    assert.equal(still.status, 200);
  });

  it('DELETE /v1/keys/{id} of its own project revokes it: the very next request with it is refused', async () => {
    const own = await server.registry!.create({ env: 'test', project: 'p1' });
    const brains = () => fetch(`${server.url}/brains`, { headers: { Authorization: `Bearer ${own.key}` } });
    assert.equal((await brains()).status, 200);
    const res = await fetch(`${server.url}/keys/${own.record.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${admin}` },
    });
    assert.equal(res.status, 200);
    assert.notEqual(((await res.json()) as { revoked_at: unknown }).revoked_at, null);
    const next = await brains();
    assert.equal(next.status, 401);
    assert.equal(((await next.json()) as { code: string }).code, 'key_revoked');
  });

  it('its own project, named or not, is minted', async () => {
    for (const body of [{ env: 'test', project: 'p1' }, { env: 'test' }]) {
      const r = await post(body);
      assert.equal(r.status, 201);
      assert.equal(r.body.prefix, 'sk_test_p1');
    }
  });

  it('a key bound to a Brain its project and env do not hold is minted with a warning, as the CLI says it', async () => {
    const brains = await fetch(`${server.url}/brains`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 'held' }),
    });
    assert.equal(brains.status, 201);
    // A typo, and a Brain of the live env bound to a test key: neither reaches anything yet.
    for (const [env, brain] of [
      ['live', 'hled'],
      ['test', 'held'],
    ] as const) {
      const r = await post({ env, brain });
      assert.equal(r.status, 201, 'issued all the same: a bound key may create its Brain');
      assert.equal(r.body.brain, brain);
      assert.equal(typeof r.body.secret, 'string');
      assert.deepEqual(r.body.warnings, [
        {
          code: 'brain_not_found',
          message:
            `there is no Brain "${brain}" in project p1 (${env}) yet; the key is bound to it all the same ` +
            'and reaches no other Brain (it may create this one): check the name if you meant a Brain that exists',
        },
      ]);
    }
    // A Brain that is there, or no Brain at all: nothing to check.
    assert.deepEqual((await post({ env: 'live', brain: 'held' })).body.warnings, []);
    assert.deepEqual((await post({ env: 'live' })).body.warnings, []);
  });

  describe('a key never mints a key wider than itself (spec, Authentication 6)', () => {
    const narrowAdmin = async () =>
      (await server.registry!.create({ env: 'live', project: 'p1', admin: true, scopes: ['context:read'] }))
        .key;
    const boundAdmin = async () =>
      (await server.registry!.create({ env: 'live', project: 'p1', admin: true, brain: 'ana' })).key;

    it('scopes it does not hold are 403 naming them; left out, the new key gets its own', async () => {
      const narrow = await narrowAdmin();
      const before = (await server.registry!.list()).length;
      const wider = await post({ env: 'test', scopes: ['context:read', 'records:write'] }, narrow);
      assert.equal(wider.status, 403);
      assert.equal(wider.body.code, 'http_403');
      assert.match(String(wider.body.message), /^scopes: .*records:write/);
      assert.equal((await server.registry!.list()).length, before, 'nothing was minted');
      const same = await post({ env: 'test' }, narrow);
      assert.equal(same.status, 201);
      assert.deepEqual(same.body.scopes, ['context:read']);
      const twice = await post({ env: 'test', scopes: ['context:read', 'context:read'] }, narrow);
      assert.deepEqual(twice.body.scopes, ['context:read'], 'a scope named twice is held once');
      const write = await fetch(`${server.url}/brains`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${String(same.body.secret)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id: 'escalated' }),
      });
      assert.equal(write.status, 403);
    });

    it('a Brain-bound key mints keys bound to its Brain, and sees and revokes only those', async () => {
      const bound = await boundAdmin();
      const other = await post({ env: 'test', brain: 'zzz' }, bound);
      assert.equal(other.status, 403);
      assert.match(String(other.body.message), /^brain: /);
      const minted = await post({ env: 'test' }, bound);
      assert.equal(minted.status, 201);
      assert.equal(minted.body.brain, 'ana');
      const unbound = (await server.registry!.create({ env: 'live', project: 'p1' })).record;
      const list = await fetch(`${server.url}/keys`, { headers: { Authorization: `Bearer ${bound}` } });
      const listed = ((await list.json()) as { data: { id: string; brain: string | null }[] }).data;
      assert.ok(listed.length > 0);
      assert.ok(
        listed.every((k) => k.brain === 'ana'),
        JSON.stringify(listed),
      );
      const revoke = await fetch(`${server.url}/keys/${unbound.id}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${bound}` },
      });
      assert.equal(revoke.status, 404);
      assert.equal((await server.registry!.list()).find((e) => e.id === unbound.id)!.revoked_at, null);
    });

    it('a test key mints test keys only', async () => {
      const testAdmin = (await server.registry!.create({ env: 'test', project: 'p1', admin: true })).key;
      const live = await post({ env: 'live' }, testAdmin);
      assert.equal(live.status, 403);
      assert.match(String(live.body.message), /^env: /);
      assert.equal((await post({ env: 'test' }, testAdmin)).status, 201);
      assert.equal((await post({ env: 'test' })).status, 201, 'a live admin key mints both');
      // Nor does it see or revoke live keys, the live admin key among them.
      const listed = await fetch(`${server.url}/keys`, { headers: { Authorization: `Bearer ${testAdmin}` } });
      const prefixes = ((await listed.json()) as { data: { prefix: string }[] }).data.map((k) => k.prefix);
      assert.ok(prefixes.length > 0 && prefixes.every((p) => p.startsWith('sk_test_')), prefixes.join());
      const liveAdmin = (await server.registry!.list()).find((e) => e.admin && e.prefix === 'sk_live_p1')!;
      const revoke = await fetch(`${server.url}/keys/${liveAdmin.id}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${testAdmin}` },
      });
      assert.equal(revoke.status, 404);
      assert.equal((await server.registry!.list()).find((e) => e.id === liveAdmin.id)!.revoked_at, null);
    });
  });
});
