import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KeyRegistry } from '../../engine/auth/key-registry.ts';
import { startServer, type RunningServer } from '../start-server.ts';

describe('POST /v1/keys', () => {
  let server: RunningServer;
  let admin: string;
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-create-key-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  before(async () => {
    const keyRegistry = KeyRegistry.ensure(join(dir, 'keys.json')).path;
    server = await startServer({ engine: 'reference', port: 0, keyRegistry });
    admin = server.registry!.create({ env: 'live', project: 'p1', admin: true }).key;
  });
  after(() => server.close());

  const post = async (body: unknown) => {
    const res = await fetch(`${server.url}/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json' },
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
    assert.equal(server.registry!.list().filter((e) => e.prefix.endsWith('_p2')).length, 0);
  });

  it('its own project, named or not, is minted', async () => {
    for (const body of [{ env: 'test', project: 'p1' }, { env: 'test' }]) {
      const r = await post(body);
      assert.equal(r.status, 201);
      assert.equal(r.body.prefix, 'sk_test_p1');
    }
  });
});
