import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Brain, BrainList, DeletionReceipt, type Scope } from '../../engine/contract/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import {
  assertError,
  assertShape,
  awayFromMinuteEnd,
  client,
  freshKey,
  type ServerFactory,
} from './harness.ts';

export function brainAndAuthChecks(factory: ServerFactory): void {
  describe('brains', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('createBrain returns 201 Brain; getBrain and listBrains return it', async () => {
      const api = client(server, await freshKey(server));
      const created = await api.post('/brains', {
        id: 'b-1',
        name: 'Ana',
        self: { type: 'person', name: 'Ana' },
      });
      assert.equal(created.status, 201);
      const brain = assertShape(Brain, created.body);
      assert.deepEqual(
        [brain.id, brain.object, brain.name, brain.self?.name],
        ['b-1', 'brain', 'Ana', 'Ana'],
      );
      assert.deepEqual((await api.get('/brains/b-1')).body, created.body);
      const list = assertShape(BrainList, (await api.get('/brains')).body);
      assert.deepEqual(
        list.data.map((b) => b.id),
        ['b-1'],
      );
    });

    it('a repeated create is brain_exists even with the same Idempotency-Key', async () => {
      const api = client(server, await freshKey(server));
      const h = { 'Idempotency-Key': 'same' };
      assert.equal((await api.post('/brains', { id: 'dup' }, h)).status, 201);
      assertError(await api.post('/brains', { id: 'dup' }, h), 409, 'conflict', 'brain_exists');
    });

    it('getBrain of an unknown id is brain_not_found', async () => {
      assertError(
        await client(server, await freshKey(server)).get('/brains/nope'),
        404,
        'not_found',
        'brain_not_found',
      );
    });

    it('forgetBrain returns a receipt and the Brain is gone', async () => {
      const api = client(server, await freshKey(server));
      await api.post('/brains', { id: 'gone' });
      await api.post('/brains/gone/records', { content: 'a note to forget' });
      // Objects count as the Census counts them: each type/key once, however many versions it has.
      for (const value of [1, 2, 3])
        await api.post('/brains/gone/objects', { type: 'contact', key: 'bob', value });
      await api.post('/brains/gone/objects', { type: 'note', key: 'n', value: 'x' });
      const r = await api.del('/brains/gone');
      assert.equal(r.status, 200);
      const receipt = assertShape(DeletionReceipt, r.body);
      assert.equal(receipt.target.type, 'brain');
      assert.equal(receipt.deleted.records, 1);
      assert.equal(receipt.deleted.objects, 2);
      assertError(await api.get('/brains/gone'), 404, 'not_found', 'brain_not_found');
    });

    it('forgetBrain sent several times at once forgets once: one receipt, then brain_not_found', async () => {
      const api = client(server, await freshKey(server));
      await api.post('/brains', { id: 'raced' });
      await api.post('/brains/raced/records', { content: 'a note forgotten once' });
      const replies = await Promise.all(Array.from({ length: 6 }, () => api.del('/brains/raced')));
      const receipts = replies.filter((r) => r.status === 200);
      assert.equal(receipts.length, 1, 'only the forget that removed the Brain has a receipt to give');
      assert.equal(assertShape(DeletionReceipt, receipts[0]!.body).deleted.records, 1);
      for (const r of replies.filter((x) => x.status !== 200))
        assertError(r, 404, 'not_found', 'brain_not_found');
    });

    it('updateBrain sets a name and a self, keeps what it is not given, and answers the Brain', async () => {
      const api = client(server, await freshKey(server));
      const made = assertShape(Brain, (await api.post('/brains', { id: 'later' })).body);
      assert.equal(made.self, null);
      const lea = { type: 'person', name: 'Lea Horvat' };
      const set = await api.post('/brains/later', { self: lea });
      assert.equal(set.status, 200);
      assert.match(set.headers.get('brain-watermark') ?? '', /^wm_/);
      assert.deepEqual(assertShape(Brain, set.body), { ...made, self: lea });
      const named = assertShape(Brain, (await api.post('/brains/later', { name: 'Lea' })).body);
      assert.deepEqual([named.name, named.self], ['Lea', lea]);
      // Sent again, the same change changes nothing: the Brain as it was.
      assert.deepEqual((await api.post('/brains/later', { name: 'Lea', self: lea })).body, named);
      assert.deepEqual((await api.get('/brains/later')).body, named);
      assert.deepEqual(
        assertShape(BrainList, (await api.get('/brains')).body).data.find((b) => b.id === 'later'),
        named,
      );
    });

    it('updateBrain refuses an empty change, a blank self, a removal and unknown fields; no Brain is brain_not_found', async () => {
      const api = client(server, await freshKey(server));
      await api.post('/brains', { id: 'kept', self: { type: 'person', name: 'Ana' } });
      for (const [body, field] of [
        [{}, /must hold name or self/],
        [{ self: { type: 'person', name: '  ' } }, /^self\.name: /],
        [{ self: null }, /^self: /],
        [{ name: '' }, /^name: /],
        [{ id: 'other' }, /id: unknown field/],
      ] as const) {
        const e = assertError(
          await api.post('/brains/kept', body),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(e.message), field, JSON.stringify(body));
      }
      assert.deepEqual((await api.get('/brains/kept')).body.self, { type: 'person', name: 'Ana' });
      assertError(await api.post('/brains/nope', { name: 'x' }), 404, 'not_found', 'brain_not_found');
    });

    it('invalid slugs and unknown fields are invalid_request_body naming the field', async () => {
      const api = client(server, await freshKey(server));
      for (const body of [
        { id: 'has space' },
        { id: '' },
        { id: 'x'.repeat(129) },
        { id: '-lead' },
        { id: 5 },
      ]) {
        const e = assertError(
          await api.post('/brains', body),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(e.message), /^id: /);
      }
      // Letters of other alphabets, or accented, are letters to whoever sent them: the message says
      // which letters a Slug takes.
      for (const id of ['são-paulo', '東京']) {
        const e = assertError(
          await api.post('/brains', { id }),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.equal(
          e.message,
          'id: must be 1-128 characters of ASCII letters (A-Z, a-z), digits (0-9), ".", "_" or "-", starting with a letter or digit',
          id,
        );
      }
      const e = assertError(
        await api.post('/brains', { id: 'ok', colour: 'red' }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(e.message), /colour: unknown field/);
      const s = assertError(
        await api.post('/brains', { id: 'ok', self: { type: 'robot', name: 'x' } }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(s.message), /^self\.type: /);
      // Whom the Brain's "I" is must be someone: a name of spaces says no one.
      const blank = assertError(
        await api.post('/brains', { id: 'ok', self: { type: 'person', name: '   ' } }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.equal(blank.message, 'self.name: must not be blank');
      assert.equal((await api.get('/brains/ok')).status, 404);
    });
  });

  describe('authentication and tenancy', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('no header, a non-Bearer credential or a malformed key is 401 invalid_api_key, even on unknown paths', async () => {
      const anon = client(server, null);
      assertError(await anon.get('/brains'), 401, 'authentication', 'invalid_api_key');
      assertError(await anon.get('/no/such/path'), 401, 'authentication', 'invalid_api_key');
      for (const auth of [
        'Basic abc',
        'Bearer',
        'Bearer sk_test_p',
        'Bearer sk_prod_p_s',
        'Bearer sk_test__s',
        'Bearer sk_test_p_',
        'Bearer sk_test_p_s_extra',
        'Bearer pk_test_p_s',
      ]) {
        assertError(
          await anon.get('/brains', { Authorization: auth }),
          401,
          'authentication',
          'invalid_api_key',
        );
      }
    });

    it('another project, or the other environment, cannot see a Brain: 404 brain_not_found, never 403', async () => {
      const owner = client(server, await freshKey(server, 'alpha', 'test'));
      await owner.post('/brains', { id: 'private' });
      assertError(
        await client(server, await freshKey(server, 'beta', 'test')).get('/brains/private'),
        404,
        'not_found',
        'brain_not_found',
      );
      assertError(
        await client(server, await freshKey(server, 'alpha', 'live')).get('/brains/private'),
        404,
        'not_found',
        'brain_not_found',
      );
      assert.deepEqual((await client(server, await freshKey(server, 'alpha', 'live')).get('/brains')).body, {
        data: [],
        has_more: false,
        next_cursor: null,
      });
      assert.equal(
        (await client(server, await freshKey(server, 'alpha', 'test')).get('/brains/private')).status,
        200,
      );
    });
  });

  describe('key registry, scopes and binding', () => {
    let server: RunningServer;
    let registryPath: string;
    before(async () => {
      registryPath = join(mkdtempSync(join(tmpdir(), 'mnemo-reg-')), 'keys.json');
      writeFileSync(registryPath, JSON.stringify({ version: 1, keys: [] }));
      server = await factory({ keyRegistry: registryPath });
    });
    after(async () => {
      await server.close();
      rmSync(dirname(registryPath), { recursive: true, force: true });
    });

    it('a well-formed key the registry never issued is invalid_api_key', async () => {
      assertError(
        await client(server, 'sk_test_proj_neverissued1234').get('/brains'),
        401,
        'authentication',
        'invalid_api_key',
      );
    });

    it('revocation by `mnemo keys revoke` in another process applies on the next request', async () => {
      const key = (await server.registry!.create({ env: 'test', project: 'rev' })).key;
      const api = client(server, key);
      assert.equal((await api.get('/brains')).status, 200);
      // Asynchronously: a blocked event loop would also block this in-process server, and its keep-alive
      // timer would then race the next request for the same socket.
      await promisify(execFile)(process.execPath, [
        'bin/mnemo.mjs',
        'keys',
        'revoke',
        key,
        '--key-registry',
        registryPath,
      ]);
      assertError(await api.get('/brains'), 401, 'authentication', 'key_revoked');
      assertError(await api.get('/brains'), 401, 'authentication', 'key_revoked');
    });

    it('a narrowed key gets 403 missing_scope naming the scope; headers cannot escalate', async () => {
      const key = (
        await server.registry!.create({ env: 'test', project: 'narrow', scopes: ['records:read'] })
      ).key;
      const api = client(server, key);
      const e = assertError(
        await api.post('/brains', { id: 'x' }, { 'X-Scopes': 'records:write' }),
        403,
        'permission',
        'missing_scope',
      );
      assert.match(String(e.message), /records:write/);
      const full = client(server, (await server.registry!.create({ env: 'test', project: 'narrow' })).key);
      assert.equal((await full.post('/brains', { id: 'x' })).status, 201);
      const c = assertError(
        await api.post('/brains/x/context', { query: 'q' }),
        403,
        'permission',
        'missing_scope',
      );
      assert.match(String(c.message), /context:read/);
      // A Brain the key's project does not have is not found, whatever the key may do (Authentication 7).
      assertError(
        await api.post('/brains/nowhere/context', { query: 'q' }),
        404,
        'not_found',
        'brain_not_found',
      );
      assertError(await api.get('/brains/nowhere/memories'), 404, 'not_found', 'brain_not_found');
    });

    it('each operation needs the scope docs/decisions.md gives it: without it 403 missing_scope naming it, with it alone no scope refusal', async () => {
      const project = 'perop';
      const full = client(server, (await server.registry!.create({ env: 'test', project })).key);
      assert.equal((await full.post('/brains', { id: 'sc' })).status, 201);
      const all: Scope[] = [
        'records:write',
        'records:read',
        'memories:read',
        'objects:write',
        'objects:read',
        'context:read',
      ];
      const keyWith = async (scopes: Scope[]) =>
        client(server, (await server.registry!.create({ env: 'test', project, scopes })).key);
      // Brain-level reads take any valid key.
      const narrow = await keyWith(['objects:read']);
      assert.equal((await narrow.get('/brains/sc')).status, 200);
      assert.equal((await narrow.get('/brains')).status, 200);
      // The decision's table ("Scope per operation"), written out here so that a change to the router's
      // table that the decision does not make fails.
      const table: Array<[string, string, Scope, Scope[]?]> = [
        ['POST', '/brains', 'records:write'],
        ['POST', '/brains/sc', 'records:write'],
        ['POST', '/brains/sc/records', 'records:write'],
        ['DELETE', '/brains/sc/records/rec_x', 'records:write'],
        ['DELETE', '/brains/sc/sources/src', 'records:write'],
        ['POST', '/brains/sc/sources/src/forget', 'records:write'],
        ['POST', '/brains/sc/imports', 'records:write'],
        ['GET', '/brains/sc/records/rec_x', 'records:read'],
        ['GET', '/brains/sc/records', 'records:read'],
        ['GET', '/brains/sc/sources', 'records:read'],
        ['GET', '/brains/sc/memories', 'memories:read'],
        ['GET', '/brains/sc/memories/mem_x', 'memories:read'],
        ['GET', '/brains/sc/profile', 'memories:read'],
        ['GET', '/brains/sc/census', 'memories:read'],
        ['POST', '/brains/sc/objects', 'objects:write'],
        ['GET', '/brains/sc/objects/t/k', 'objects:read'],
        ['GET', '/brains/sc/objects', 'objects:read'],
        ['POST', '/brains/sc/context', 'context:read'],
        ['GET', '/brains/sc/traces', 'context:read'],
        ['GET', '/brains/sc/traces/ctx_x', 'context:read'],
        ['POST', '/brains/sc/sync', 'records:write', ['records:read']],
        ['DELETE', '/brains/sc/sync', 'records:write'],
        ['POST', '/brains/sc/sync/run', 'records:write'],
        ['POST', '/brains/sc/sync/records', 'records:write'],
        ['GET', '/brains/sc/sync', 'records:read'],
        // Last: with its scope it forgets the Brain, and a missing Brain is brain_not_found, not 403.
        ['DELETE', '/brains/sc', 'records:write'],
      ];
      for (const [method, path, scope, also = []] of table) {
        for (const needed of [scope, ...also]) {
          const without = await keyWith(all.filter((s) => s !== needed));
          const e = assertError(
            await without.call(method, path, method === 'POST' ? {} : undefined),
            403,
            'permission',
            'missing_scope',
          );
          assert.match(String(e.message), new RegExp(needed), `${method} ${path}`);
        }
        const only = await keyWith([scope, ...also]);
        const r = await only.call(method, path, method === 'POST' ? {} : undefined);
        assert.notEqual((r.body as { code?: string }).code, 'missing_scope', `${method} ${path}: ${r.text}`);
      }
    });

    it('a key bound to one Brain sees only that Brain', async () => {
      const full = client(server, (await server.registry!.create({ env: 'test', project: 'bind' })).key);
      await full.post('/brains', { id: 'mine' });
      await full.post('/brains', { id: 'theirs' });
      const bound = client(
        server,
        (await server.registry!.create({ env: 'test', project: 'bind', brain: 'mine' })).key,
      );
      assert.equal((await bound.get('/brains/mine')).status, 200);
      assertError(await bound.get('/brains/theirs'), 404, 'not_found', 'brain_not_found');
      assertError(await bound.post('/brains/theirs', { name: 'x' }), 404, 'not_found', 'brain_not_found');
      assert.deepEqual(
        ((await bound.get('/brains')).body as { data: { id: string }[] }).data.map((b) => b.id),
        ['mine'],
      );
    });

    it('an unreadable registry refuses every key with 500 key_registry_unreadable', async () => {
      const key = (await server.registry!.create({ env: 'test', project: 'broken' })).key;
      writeFileSync(registryPath, '{ not json');
      try {
        assertError(await client(server, key).get('/brains'), 500, 'internal', 'key_registry_unreadable');
      } finally {
        writeFileSync(registryPath, JSON.stringify({ version: 1, keys: [] }));
      }
    });
  });

  describe('rate limit', () => {
    let server: RunningServer;
    before(async () => (server = await factory({ rateLimit: 3 })));
    after(() => server.close());

    it('past the per-key limit: 429 too_many_requests with retry_after_seconds and Retry-After; other keys unaffected', async () => {
      const api = client(server, await freshKey(server));
      await awayFromMinuteEnd();
      for (let i = 0; i < 3; i += 1) assert.equal((await api.get('/brains')).status, 200);
      const r = await api.get('/brains');
      const e = assertError(r, 429, 'rate_limit', 'too_many_requests');
      assert.ok(
        Number.isInteger(e.retry_after_seconds) &&
          (e.retry_after_seconds as number) >= 1 &&
          (e.retry_after_seconds as number) <= 60,
      );
      assert.equal(r.headers.get('retry-after'), String(e.retry_after_seconds));
      assert.equal((await client(server, await freshKey(server)).get('/brains')).status, 200);
    });
  });
}
