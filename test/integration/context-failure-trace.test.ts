import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Engine } from '../../engine/types.ts';
import { serveApp, type ServedApp } from '../../server/http/testing/serve-app.ts';

// A real engine behind a real server, except that one query makes createContext fault the way a bug
// would (a TypeError, not a MnemoError): the failure must still leave a trc_ Trace and log its stack.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-context-failure-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
const tenant = { project: 'home', env: 'test' } as const;
const logged: string[] = [];
let engine: Engine;
let server: ServedApp;
let port = 0;
let key = '';

before(async () => {
  engine = await createLocalEngine({ dataDir: join(dir, 'data'), dbKey: 'f'.repeat(64), reranker: null });
  const faulty = new Proxy(engine, {
    get(target, prop, receiver) {
      if (prop !== 'createContext') return Reflect.get(target, prop, receiver) as unknown;
      const real: Engine['createContext'] = (...args) => {
        if (args[2].query === 'explode') return Promise.reject(new TypeError('boom in assembly'));
        if (args[2].query === 'explode later') {
          // Fails once the stream is open: after its first stage.
          args[3].onEvent?.({ event: 'stage', data: { stage: 'retrieve' } });
          return new Promise((_, reject) => setTimeout(() => reject(new RangeError('boom mid-stream')), 5));
        }
        return target.createContext(...args);
      };
      return real;
    },
  });
  server = await serveApp({ engine: faulty, registry, logger: (line: string) => void logged.push(line) });
  port = server.port;
  await engine.createBrain(tenant, { id: 'b' });
  key = (await registry.create(tenant)).key;
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}/v1/brains/b/context`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const traceOf = async (traceId: unknown) => {
  const r = await fetch(`http://127.0.0.1:${port}/v1/brains/b/traces/${String(traceId)}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(r.status, 200);
  return (await r.json()) as { status: string; query: string; error: { code: string } | null };
};

describe('failed Context requests leave a trc_ Trace', () => {
  test('an unhandled fault: 500 internal_error with trace_id, the Trace, and the original stack logged', async () => {
    const r = await post({ query: 'explode' });
    assert.equal(r.status, 500);
    const body = (await r.json()) as Record<string, unknown>;
    assert.equal(body.code, 'internal_error');
    assert.match(String(body.trace_id), /^trc_/);
    assert.ok(!JSON.stringify(body).includes('boom'), 'no internals in the response');
    const trace = await traceOf(body.trace_id);
    assert.deepEqual([trace.status, trace.query, trace.error?.code], ['failed', 'explode', 'internal_error']);
    assert.ok(
      logged.some((l) => l.includes('TypeError: boom in assembly')),
      logged.join('\n'),
    );
  });

  test('a stream asked of fast mode: 406 with trace_id', async () => {
    const r = await post({ query: 'tea' }, { accept: 'text/event-stream' });
    assert.equal(r.status, 406);
    const body = (await r.json()) as Record<string, unknown>;
    assert.equal(body.code, 'streaming_not_applicable');
    assert.equal((await traceOf(body.trace_id)).error?.code, 'streaming_not_applicable');
  });

  test('a fault once the event stream is open: an error frame with trace_id, and the stack logged', async () => {
    const r = await post({ query: 'explode later', mode: 'thorough' }, { accept: 'text/event-stream' });
    assert.equal(r.status, 200);
    const frames = (await r.text()).split('\n\n').filter(Boolean);
    const last = frames[frames.length - 1]!;
    assert.match(last, /^event: error$/m);
    const data = JSON.parse(
      last
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6),
    ) as Record<string, unknown>;
    assert.equal(data.code, 'internal_error');
    assert.equal((await traceOf(data.trace_id)).error?.code, 'internal_error');
    assert.ok(
      logged.some((l) => l.includes('in an event stream') && l.includes('RangeError: boom mid-stream')),
      logged.join('\n'),
    );
  });
});
