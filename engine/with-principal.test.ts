import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allScopes, type Scope } from './contract/common.ts';
import { operations } from './contract/operations.ts';
import type { Engine, Tenant } from './types.ts';
import { withPrincipal, type Principal } from './with-principal.ts';

const tenant: Tenant = { project: 'p', env: 'test' };

/** An engine that records each call (method and arguments) and answers with an empty list. */
function recordingEngine(deployment: 'local' | 'hosted' = 'local'): {
  engine: Engine;
  calls: { method: string; args: unknown[] }[];
} {
  const calls: { method: string; args: unknown[] }[] = [];
  const engine = new Proxy({} as Engine, {
    get: (_target, method: string) =>
      method === 'info'
        ? { name: 'reference', deployment }
        : async (...args: unknown[]) => {
            calls.push({ method, args });
            if (method === 'listBrains') return [{ id: 'a' }, { id: 'b' }];
            return method === 'getMemory'
              ? { evidence: [{ quote: 'Wanda', text: 'The boat is Wanda.' }] }
              : {};
          },
  });
  return { engine, calls };
}

const principal = (over: Partial<Principal> = {}): Principal => ({
  tenant,
  scopes: allScopes,
  brain: null,
  admin: false,
  ...over,
});

/**
 * Operations of the table the engine itself serves (keys are the registry's, imports the server's, and
 * sync's routes check through authorize(), tested over HTTP).
 */
const besideTheEngine = ['listKeys', 'createKey', 'revokeKey', 'importFiles'];
const syncOperations = [
  'replicateRecords',
  'forgetReplicas',
  'getSync',
  'pairSync',
  'unpairSync',
  'runSync',
  'acceptSyncForgets',
];
const engineOperations = operations.filter(
  (op) => !besideTheEngine.includes(op.id) && !syncOperations.includes(op.id),
);

/** Arguments after the Brain id, enough for the wrapper to pass through. */
const argsOf = (id: string): unknown[] => (id === 'createBrain' || id === 'listBrains' ? [] : ['a']);

describe('withPrincipal', () => {
  it('refuses each scoped operation to a key without its scope, naming the scope, and calls nothing', async () => {
    const scoped = engineOperations.filter((op) => op.scope !== null && op.scope !== 'admin');
    assert.ok(scoped.length >= 15);
    for (const op of scoped) {
      const { engine, calls } = recordingEngine();
      const without = allScopes.filter((s) => s !== op.scope);
      const call = withPrincipal(engine, principal({ scopes: without }))[op.id as 'getRecord'] as (
        ...a: unknown[]
      ) => Promise<unknown>;
      const body = op.id === 'createBrain' ? [{ id: 'a' }] : [];
      await assert.rejects(call(...argsOf(op.id), ...body), {
        code: 'missing_scope',
        message: `Authorization: this key lacks the scope "${op.scope as Scope}" that ${op.id} needs`,
      });
      // Only whether the Brain is there was asked (a Brain the project lacks is not found instead).
      assert.deepEqual(
        calls.map((c) => c.method),
        argsOf(op.id).length > 0 ? ['getBrain'] : [],
        op.id,
      );
    }
  });

  it('answers a key without the scope brain_not_found for a Brain its project does not have, never 403', async () => {
    const { engine, calls } = recordingEngine();
    const missing = new Proxy(engine, {
      get: (target, method: string) =>
        method === 'getBrain'
          ? async () => {
              throw Object.assign(new Error('brain_id: no Brain "x"'), { code: 'brain_not_found' });
            }
          : (target as unknown as Record<string, unknown>)[method],
    });
    const reader = withPrincipal(missing, principal({ scopes: ['records:read'] }));
    await assert.rejects(reader.listMemories('x', {} as never), { code: 'brain_not_found' });
    await assert.rejects(reader.authorizeOn('listMemories', 'x'), { code: 'brain_not_found' });
    // Held, the scope lets the call through to the engine, which answers for the Brain itself.
    await reader.listRecords('x', {} as never);
    assert.deepEqual(
      calls.map((c) => c.method),
      ['listRecords'],
    );
  });

  it('passes each operation through with the tenant of the credential when the scope is held', async () => {
    for (const op of engineOperations) {
      const { engine, calls } = recordingEngine();
      const scopes = op.scope === null || op.scope === 'admin' ? [] : [op.scope];
      const call = withPrincipal(engine, principal({ scopes }))[op.id as 'getRecord'] as (
        ...a: unknown[]
      ) => Promise<unknown>;
      // Every argument the operation takes, each one its own value: the Brain first, where there is one.
      const args =
        op.id === 'createBrain'
          ? [{ id: 'a' }]
          : Array.from({ length: call.length }, (_, n) => (n === 0 ? 'a' : `arg${n}`));
      await call(...args);
      assert.deepEqual(calls, [{ method: op.id, args: [tenant, ...args] }], op.id);
    }
  });

  it("gives getMemory's evidence without the Records' text to a key that may not read Records", async () => {
    const { engine } = recordingEngine();
    const evidence = async (scopes: Scope[]) =>
      (await withPrincipal(engine, principal({ scopes })).getMemory('a', 'mem_1')).evidence;
    assert.deepEqual(await evidence(['memories:read']), [{ quote: 'Wanda', text: null }]);
    assert.deepEqual(await evidence(['memories:read', 'records:read']), [
      { quote: 'Wanda', text: 'The boat is Wanda.' },
    ]);
  });

  it('records a failed Context under the scope of the Context request', async () => {
    const { engine, calls } = recordingEngine();
    const failure = {
      requestId: 'r',
      query: 'q',
      mode: 'fast' as const,
      request: {},
      error: { code: 'x', message: 'y' },
    };
    await assert.rejects(withPrincipal(engine, principal({ scopes: [] })).recordFailedContext('a', failure), {
      code: 'missing_scope',
      message: 'Authorization: this key lacks the scope "context:read" that createContext needs',
    });
    await withPrincipal(engine, principal({ scopes: ['context:read'] })).recordFailedContext('a', failure);
    assert.deepEqual(calls, [
      { method: 'getBrain', args: [tenant, 'a'] },
      { method: 'recordFailedContext', args: [tenant, 'a', failure] },
    ]);
  });

  it('keeps a bound key to its Brain: other Brains do not exist for it, and it creates no other', async () => {
    const { engine, calls } = recordingEngine();
    const bound = withPrincipal(engine, principal({ brain: 'a' }));
    assert.deepEqual(await bound.listBrains(), [{ id: 'a' }]);
    await bound.getRecord('a', 'rec_1');
    await assert.rejects(bound.getRecord('b', 'rec_1'), {
      code: 'brain_not_found',
      message: 'brain_id: no Brain "b" in this project',
    });
    await assert.rejects(bound.createBrain({ id: 'b' } as never), {
      code: 'http_403',
      message: 'id: this key is bound to Brain "a" and cannot create another',
    });
    assert.throws(() => bound.authorize('importFiles', 'b'), { code: 'brain_not_found' });
    bound.authorize('importFiles', 'a');
    assert.deepEqual(
      calls.map((c) => c.method),
      ['listBrains', 'getRecord'],
    );
  });

  it('lets an unbound key see every Brain', async () => {
    const { engine } = recordingEngine();
    assert.deepEqual(await withPrincipal(engine, principal()).listBrains(), [{ id: 'a' }, { id: 'b' }]);
  });

  it("keeps key management to the app's admin key", () => {
    const { engine } = recordingEngine();
    assert.throws(() => withPrincipal(engine, principal()).authorize('createKey'), {
      code: 'http_403',
      message: "Authorization: key management needs the app's admin key",
    });
    withPrincipal(engine, principal({ admin: true, scopes: [] })).authorize('createKey');
  });

  it('refuses an operation the table does not name', () => {
    const { engine } = recordingEngine();
    assert.throws(() => withPrincipal(engine, principal()).authorize('dropEverything'), /no operation/);
  });

  describe('the device routes of sync', () => {
    const device = ['getSync', 'pairSync', 'unpairSync', 'runSync', 'acceptSyncForgets'];
    const scopeOf = (id: string) => operations.find((op) => op.id === id)!.scope;

    it('are refused on a hosted deployment to every key, also the admin key', () => {
      const { engine } = recordingEngine('hosted');
      for (const id of device) {
        for (const who of [principal(), principal({ admin: true })]) {
          assert.throws(() => withPrincipal(engine, who).authorize(id, 'a'), {
            code: 'not_implemented',
            message: new RegExp(`^${id}: not served on a hosted deployment`),
          });
        }
      }
      // The hosted half of sync stays.
      withPrincipal(engine, principal()).authorize('replicateRecords', 'a');
    });

    it('need their scope: a read-only key reads the status only', () => {
      const { engine } = recordingEngine();
      const readOnly = withPrincipal(engine, principal({ scopes: ['records:read'] }));
      readOnly.authorize('getSync', 'a');
      for (const id of ['pairSync', 'unpairSync', 'runSync', 'acceptSyncForgets']) {
        assert.throws(() => readOnly.authorize(id, 'a'), {
          code: 'missing_scope',
          message: `Authorization: this key lacks the scope "records:write" that ${id} needs`,
        });
      }
    });

    it('pair only with a key that may also read the Records pairing brings in and sends out', () => {
      const { engine } = recordingEngine();
      const writeOnly = withPrincipal(engine, principal({ scopes: ['records:write'] }));
      assert.throws(() => writeOnly.authorize('pairSync', 'a'), {
        code: 'missing_scope',
        message: 'Authorization: this key lacks the scope "records:read" that pairSync needs',
      });
      assert.throws(() => writeOnly.authorize('getSync', 'a'), { code: 'missing_scope' });
      writeOnly.authorize('unpairSync', 'a');
      writeOnly.authorize('runSync', 'a');
      withPrincipal(engine, principal({ scopes: ['records:read', 'records:write'] })).authorize(
        'pairSync',
        'a',
      );
      assert.deepEqual(device.map(scopeOf), [
        'records:read',
        'records:write',
        'records:write',
        'records:write',
        'records:write',
      ]);
    });

    it('keep a bound key to its Brain', () => {
      const { engine } = recordingEngine();
      const bound = withPrincipal(engine, principal({ brain: 'a' }));
      for (const id of device) {
        bound.authorize(id, 'a');
        assert.throws(() => bound.authorize(id, 'b'), {
          code: 'brain_not_found',
          message: 'brain_id: no Brain "b" in this project',
        });
      }
    });
  });
});
