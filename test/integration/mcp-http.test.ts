import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import { mountMcp } from '../../server/mcp/mount-mcp.ts';
import { awayFromMinuteEnd } from '../contract/harness.ts';
import { mcpToolNames } from '../../server/mcp/mcp-tools.ts';
import { maxJsonDepth } from '../../server/http/json-depth.ts';
import { errorCodes, type ErrorCode } from '../../engine/errors/codes.ts';
import { storeUnavailableError } from '../../engine/errors/store-unavailable.ts';
import { serveApp, type ServedApp } from '../../server/http/testing/serve-app.ts';

// The /v1 app with /mcp mounted, on a real loopback socket, with a real key registry file.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-mcp-http-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
const engine = createReferenceEngine({ deployment: 'local' });
let server: ServedApp;
let origin = '';

before(async () => {
  server = await serveApp({ engine, registry, mounts: [(a) => mountMcp(a, { engine, registry })] });
  origin = server.origin;
  await engine.createBrain(
    { project: 'acme', env: 'test' },
    { id: 'notes', self: { type: 'person', name: 'Ana' } },
  );
});

after(async () => {
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const textOf = (r: Awaited<ReturnType<Client['callTool']>>) =>
  (r.content as { type: string; text: string }[])[0]!.text;

/**
 * The first line of the tool error a raw JSON-RPC answer carries (`<code> (<status> <type>): <message>`);
 * fails when it carries none, or when its second line and structuredContent do not name the call as a
 * /v1 error does: the request's X-Request-Id (`requestId`, when given) and its code's docs_url.
 */
function toolErrorText(answer: Record<string, unknown>, requestId?: string): string {
  const result = answer.result as
    | { isError?: boolean; content?: { text: string }[]; structuredContent?: Record<string, unknown> }
    | undefined;
  assert.equal(result?.isError, true, JSON.stringify(answer).slice(0, 300));
  const [first, second] = result!.content![0]!.text.split('\n');
  const body = result!.structuredContent!;
  const traced = typeof body.trace_id === 'string' ? `; trace_id: ${body.trace_id}` : '';
  assert.equal(second, `request_id: ${String(body.request_id)}${traced}; docs_url: ${String(body.docs_url)}`);
  assert.equal(body.docs_url, `${origin}/docs/errors/${String(body.code)}`);
  if (requestId) assert.equal(body.request_id, requestId, 'the /mcp request the tool error answers');
  assert.equal(
    first,
    `${String(body.code)} (${errorCodes[body.code as ErrorCode].status} ${String(body.type)}): ${String(body.message)}`,
  );
  return first!;
}

async function rawPost(
  headers: Record<string, string>,
  body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
) {
  const res = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  return {
    status: res.status,
    requestId: res.headers.get('x-request-id') ?? '',
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('hosted MCP endpoint /mcp (Streamable HTTP)', () => {
  test('a Brain-bound key lists exactly the tools of mcpToolNames, never acceptObject', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const client = await connect(key);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...mcpToolNames].sort());
    assert.ok(
      tools.every((t) => !/object|accept/i.test(t.name)),
      'acceptObject is never exposed',
    );
    for (const t of tools) {
      assert.ok((t.description ?? '').length > 40, `${t.name} has a real description`);
      assert.equal(t.inputSchema.type, 'object');
    }
    const remember = tools.find((t) => t.name === 'remember')!;
    assert.ok(remember.inputSchema.required?.includes('content'));
    await client.close();
  });

  test('a key that may only read is offered only the tools that read', async () => {
    const key = (
      await registry.create({
        env: 'test',
        project: 'acme',
        brain: 'notes',
        scopes: ['records:read', 'memories:read', 'context:read'],
      })
    ).key;
    const client = await connect(key);
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      mcpToolNames.filter((n) => !['remember', 'remember_conversation', 'forget_record'].includes(n)).sort(),
    );
    await client.close();
  });

  test('remember then recall through the tools, reading its own write', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const client = await connect(key);
    const written = JSON.parse(
      textOf(
        await client.callTool({
          name: 'remember',
          arguments: {
            content: { kind: 'message', text: 'My dentist is Dr. Okafor on Elm Street', speaker: 'self' },
          },
        }),
      ),
    ) as { record: { id: string; source: { name: string }; erasable: boolean }; watermark: string };
    assert.match(written.record.id, /^rec_/);
    assert.equal(written.record.source.name, 'mcp');
    assert.equal(written.record.erasable, true, 'agent-written Records are API-origin, so erasable');

    const ctx = JSON.parse(
      textOf(
        await client.callTool({
          name: 'get_context',
          arguments: { query: 'dentist', watermark: written.watermark },
        }),
      ),
    ) as { object: string; status: string; text: string | null; citations: { record_id: string }[] };
    // The Context itself, as its description says and /v1 serves it (not wrapped with an HTTP status).
    assert.equal(ctx.object, 'context');
    assert.equal(ctx.status, 'ready');
    assert.match(ctx.text ?? '', /Okafor/);
    assert.ok(ctx.citations.some((c) => c.record_id === written.record.id));

    const page = JSON.parse(
      textOf(await client.callTool({ name: 'list_memories', arguments: { q: 'Okafor', limit: 5 } })),
    ) as {
      data: { id: string }[];
    };
    assert.ok(page.data.length >= 1);
    const memory = JSON.parse(
      textOf(await client.callTool({ name: 'get_memory', arguments: { memory_id: page.data[0]!.id } })),
    ) as {
      evidence: { record_id: string }[];
    };
    assert.equal(memory.evidence[0]!.record_id, written.record.id);
    const record = JSON.parse(
      textOf(await client.callTool({ name: 'get_record', arguments: { record_id: written.record.id } })),
    ) as {
      content: { text: string };
    };
    assert.match(record.content.text, /Elm Street/);
    await client.close();
  });

  test('remember retried with its idempotency_key returns the original Record, flagged as replayed', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const client = await connect(key);
    const call = async () =>
      JSON.parse(
        textOf(
          await client.callTool({
            name: 'remember',
            arguments: { content: 'The spare key is under the blue pot', idempotency_key: 'spare-key-1' },
          }),
        ),
      ) as { record: { id: string }; replayed: boolean };
    const first = await call();
    const again = await call();
    assert.equal(again.record.id, first.record.id);
    assert.deepEqual([first.replayed, again.replayed], [false, true]);
    await client.close();
  });

  test('engine errors come back as tool errors with the code', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const client = await connect(key);
    const r = await client.callTool({
      name: 'get_record',
      arguments: { record_id: 'rec_00000000000000000000000000' },
    });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^record_not_found \(404 not_found\)/);
    await client.close();
  });

  test('a failed get_context leaves a Trace, named where the model reads, that get_trace reads', async () => {
    // As on /v1 and through the stdio bridge: get_trace says it reads "the trc_... id an error names".
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const client = await connect(key);
    const r = await client.callTool({
      name: 'get_context',
      arguments: { query: 'dentist', watermark: 'wm_forged' },
    });
    assert.equal(r.isError, true);
    const body = r.structuredContent as { code: string; request_id: string; trace_id?: string };
    assert.equal(body.code, 'invalid_watermark');
    assert.match(body.trace_id ?? '', /^trc_\w+$/);
    assert.equal(
      textOf(r).split('\n')[1],
      `request_id: ${body.request_id}; trace_id: ${body.trace_id}; docs_url: ${origin}/docs/errors/invalid_watermark`,
    );
    const trace = JSON.parse(
      textOf(await client.callTool({ name: 'get_trace', arguments: { trace_id: body.trace_id } })),
    ) as { id: string; request_id: string; query: string };
    assert.deepEqual(trace, { ...trace, id: body.trace_id, request_id: body.request_id, query: 'dentist' });
    await client.close();
  });

  test('a narrowed key gets missing_scope from the tool that needs more', async () => {
    const key = (
      await registry.create({
        env: 'test',
        project: 'acme',
        brain: 'notes',
        scopes: ['memories:read'],
      })
    ).key;
    const client = await connect(key);
    const r = await client.callTool({ name: 'remember', arguments: { content: 'x' } });
    assert.equal(r.isError, true);
    assert.match(
      textOf(r),
      /^missing_scope \(403 permission\): Authorization: this key lacks the scope "records:write" that the tool remember needs \(it calls rememberRecord\)\n/,
    );
    // forget_record reads the Record first: the scope it lacks for that is named as the tool's.
    const read = await client.callTool({ name: 'forget_record', arguments: { record_id: 'rec_x' } });
    assert.match(
      textOf(read),
      /lacks the scope "records:\w+" that the tool forget_record needs \(it calls \w+\)/,
    );
    await client.close();
  });

  test('a key bound to a Brain of another project sees no such Brain', async () => {
    const key = (await registry.create({ env: 'test', project: 'other', brain: 'notes' })).key;
    const client = await connect(key);
    const r = await client.callTool({ name: 'get_context', arguments: { query: 'dentist' } });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^brain_not_found/);
    await client.close();
  });

  test('a key bound to a Brain that does not exist is told so, on every tool, not of a brain_id it never sent', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'ghost' })).key;
    const client = await connect(key);
    for (const [name, args] of [
      ['get_context', { query: 'dentist' }],
      ['remember', { content: 'x' }],
      ['list_memories', {}],
      ['get_record', { record_id: 'rec_x' }],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      assert.equal(r.isError, true, name);
      assert.match(
        textOf(r),
        /^brain_not_found \(404 not_found\): this key is bound to Brain "ghost", which this project does not hold: create it /,
        name,
      );
    }
    await client.close();
  });

  test('403 mcp_brain_unbound for a key not bound to one Brain', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme' })).key;
    const raw = await rawPost({ authorization: `Bearer ${key}` });
    assert.equal(raw.status, 403);
    assert.equal(raw.body.code, 'mcp_brain_unbound');
    assert.equal(raw.body.type, 'permission');
    assert.match(String(raw.body.request_id), /^req_/);
    await assert.rejects(connect(key), /403|mcp_brain_unbound/);
  });

  test('401 without a key, http_403 for a foreign Origin', async () => {
    const none = await rawPost({});
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'invalid_api_key');
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const evil = await rawPost({ authorization: `Bearer ${key}`, origin: 'http://evil.example' });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.code, 'http_403');
    const same = await rawPost({ authorization: `Bearer ${key}`, origin });
    assert.equal(same.status, 200, "the server's own origin is allowed");
  });

  test('the transport refusals have the one error shape, and only POST is served', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const send = async (method: string, headers: Record<string, string>, body?: string) => {
      const res = await fetch(`${origin}/mcp`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...headers },
        ...(body === undefined ? {} : { body }),
      });
      const json = (await res.json()) as { code?: unknown; message?: unknown };
      assert.deepEqual(Object.keys(json).sort(), ['code', 'docs_url', 'message', 'request_id', 'type']);
      return { status: res.status, allow: res.headers.get('allow'), ...json };
    };
    const jsonAccept = { accept: 'application/json, text/event-stream' };
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const r = await send(method, { accept: 'text/event-stream' });
      assert.equal(r.status, 405, method);
      assert.equal(r.code, 'http_405');
      assert.equal(r.allow, 'POST');
    }
    const html = await send('POST', { accept: 'text/html', 'content-type': 'application/json' }, '{}');
    assert.equal(html.status, 406);
    assert.equal(html.code, 'http_406');
    assert.match(String(html.message), /^Accept: .*text\/event-stream/);
    const text = await send('POST', { ...jsonAccept, 'content-type': 'text/plain' }, '{}');
    assert.equal(text.status, 415);
    assert.equal(text.code, 'unsupported_media_type');
    const bad = await send('POST', { ...jsonAccept, 'content-type': 'application/json' }, '{"jsonrpc":');
    assert.equal(bad.status, 400);
    assert.equal(bad.code, 'invalid_request_body');
    assert.match(String(bad.message), /^body: .*JSON/);
    const notRpc = await send('POST', { ...jsonAccept, 'content-type': 'application/json' }, '{}');
    assert.equal(notRpc.code, 'invalid_request_body');
    // A protocol version the transport does not take is the header's fault, and said so.
    const version = await send(
      'POST',
      { ...jsonAccept, 'content-type': 'application/json', 'mcp-protocol-version': '1999-01-01' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    );
    assert.equal(version.status, 400);
    assert.match(String(version.message), /^MCP-Protocol-Version: .*protocol version/i);
    const huge = await send(
      'POST',
      { ...jsonAccept, 'content-type': 'application/json' },
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { pad: 'x'.repeat(5 * 1024 * 1024) },
      }),
    );
    assert.equal(huge.code, 'invalid_request_body');
    // A JSON-RPC error inside a served exchange stays JSON-RPC: it is the protocol's answer, not a failure.
    const res = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...jsonAccept },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'no/such/method' }),
    });
    assert.equal(res.status, 200);
    const rpc = (await res.json()) as { id: number; error: { code: number } };
    assert.equal(rpc.id, 7);
    assert.equal(rpc.error.code, -32601);
  });

  test('tools/call with arguments that are not an object is -32602 naming the field, not an internal error', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    for (const params of [{ name: 'recall', arguments: 'rec_x' }, { arguments: {} }, 'recall']) {
      const res = await rawPost(
        { authorization: `Bearer ${key}` },
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params }),
      );
      const body = res.body as { id?: number; error?: { code: number; message: string } };
      if (typeof params === 'string') {
        // Not a JSON-RPC request at all (params must be structured): the transport refuses it.
        assert.equal(res.status, 400);
        continue;
      }
      assert.equal(res.status, 200);
      assert.equal(body.id, 9);
      assert.equal(body.error?.code, -32602, JSON.stringify(body));
      assert.match(body.error!.message, /^Invalid params: params\.(arguments|name): /);
      assert.doesNotMatch(body.error!.message, /invalid_type|expected/);
    }
  });

  test('tools/call with arguments nested past the JSON depth limit is a tool error naming the limit', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const res = await rawPost(
      { authorization: `Bearer ${key}` },
      `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"remember","arguments":{"content":${deep}}}}`,
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.error, undefined, JSON.stringify(res.body).slice(0, 300));
    assert.equal(
      toolErrorText(res.body, res.requestId),
      `invalid_request_body (400 invalid_request): arguments: nests arrays and objects more than ${maxJsonDepth} levels deep`,
    );
  });

  test("tools/call whose arguments fail a list query's own checks is a tool error naming them, not a 500", async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const res = await rawPost(
      { authorization: `Bearer ${key}` },
      '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"list_records",' +
        '"arguments":{"since":"2024-05-01T00:00:00Z","until":"2024-04-01T00:00:00Z"}}}',
    );
    assert.equal(res.status, 200);
    assert.equal(res.body.error, undefined, JSON.stringify(res.body));
    assert.equal(
      toolErrorText(res.body, res.requestId),
      'invalid_request_body (400 invalid_request): since: must not be later than until',
    );
  });

  test('tools/call with a lone surrogate in its arguments is a tool error naming the field; nothing is stored', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const res = await rawPost(
      { authorization: `Bearer ${key}` },
      '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"remember",' +
        '"arguments":{"content":{"kind":"message","text":"Bob owns a \\ud83d parrot"}}}}',
    );
    assert.equal(res.body.error, undefined, JSON.stringify(res.body));
    assert.match(
      toolErrorText(res.body, res.requestId),
      /^invalid_request_body \(400 invalid_request\): content\.text: holds a lone surrogate/,
    );
    const records = await engine.listRecords({ project: 'acme', env: 'test' }, 'notes', { limit: 200 });
    assert.ok(!records.data.some((r) => JSON.stringify(r.content).includes('parrot')));
  });

  test('tools/call with a number a double would not keep is a tool error naming the field, alone or in a batch; nothing is stored', async () => {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const call = (id: number, args: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"remember","arguments":${args}}}`;
    const fact = (value: string) =>
      `{"content":{"kind":"fact","subject":"Ana","predicate":"account_number","value":${value}}}`;
    const res = await rawPost({ authorization: `Bearer ${key}` }, call(13, fact('12345678901234567890')));
    assert.equal(res.body.error, undefined, JSON.stringify(res.body));
    assert.equal(
      toolErrorText(res.body, res.requestId),
      'invalid_request_body (400 invalid_request): content.value: 12345678901234567890 would not be kept exactly: ' +
        'JSON numbers are read as IEEE 754 doubles, which hold it only as 12345678901234567000; ' +
        'send it as a string to keep every digit',
    );
    // In a batch, each request is read for its own arguments: the number of another is not its problem.
    const batch = await fetch(`${origin}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `[${call(14, fact('"12345678901234567890"'))},${call(15, fact('9007199254740993'))}]`,
    });
    const answers = (await batch.json()) as Record<string, unknown>[];
    const byId = new Map(answers.map((a) => [a.id, a]));
    assert.ok(!(byId.get(14)!.result as { isError?: boolean }).isError, JSON.stringify(answers));
    assert.match(
      toolErrorText(byId.get(15)!),
      /^invalid_request_body \(400 invalid_request\): content\.value: 9007199254740993 /,
    );
    const records = await engine.listRecords({ project: 'acme', env: 'test' }, 'notes', { limit: 200 });
    const values = records.data.flatMap((r) => (r.content.kind === 'fact' ? [r.content.value] : []));
    assert.deepEqual(values, ['12345678901234567890'], 'only the string was written');
  });

  test('a revoked key is refused on its next request', async () => {
    const { key, record: entry } = await registry.create({ env: 'test', project: 'acme', brain: 'notes' });
    assert.equal((await rawPost({ authorization: `Bearer ${key}` })).status, 200);
    await registry.revoke(entry.id);
    const after = await rawPost({ authorization: `Bearer ${key}` });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'key_revoked');
  });
});

test('/mcp and /v1 count against one rate limit per key: a key over it on /v1 cannot go on through /mcp', async () => {
  const limited = await serveApp({
    engine,
    registry,
    rateLimit: 3,
    mounts: [(a) => mountMcp(a, { engine, registry })],
  });
  try {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const auth = { Authorization: `Bearer ${key}` };
    await awayFromMinuteEnd();
    const mcp = () =>
      fetch(`${limited.origin}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...auth,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    assert.equal((await mcp()).status, 200);
    for (let i = 0; i < 2; i++)
      assert.equal((await fetch(`${limited.origin}/v1/brains/notes`, { headers: auth })).status, 200);
    const over = await mcp();
    assert.equal(over.status, 429);
    const body = (await over.json()) as { code: string; request_id: string };
    assert.equal(body.code, 'too_many_requests');
    assert.match(body.request_id, /^req_/);
    assert.equal((await fetch(`${limited.origin}/v1/brains/notes`, { headers: auth })).status, 429);
  } finally {
    await limited.close();
  }
});

test("the GET an MCP client sends on connecting is answered 405 and spends none of the key's rate limit", async () => {
  const limited = await serveApp({
    engine,
    registry,
    rateLimit: 3,
    mounts: [(a) => mountMcp(a, { engine, registry })],
  });
  const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
  const client = new Client({ name: 'mcp-get-test', version: '1.0.0' });
  const get = async () =>
    (
      await fetch(`${limited.origin}/mcp`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      })
    ).status;
  try {
    await awayFromMinuteEnd();
    // initialize and its notification are two POSTs of the three; the client's GET follows them.
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${limited.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    // As a client reconnecting sends it, again and again.
    for (let i = 0; i < 3; i++) assert.equal(await get(), 405);
    const r = await client.callTool({ name: 'get_profile', arguments: {} });
    assert.equal(r.isError, undefined, textOf(r));
    const over = await client.callTool({ name: 'get_profile', arguments: {} });
    assert.equal((over.structuredContent as { code: string }).code, 'too_many_requests');
    assert.equal(await get(), 405, 'a GET over the limit is still the 405 it is, not a 429');
  } finally {
    await client.close();
    await limited.close();
  }
});

test('a tools/call over the rate limit on /mcp is a tool error naming retry_after_seconds, as over stdio; nothing is written', async () => {
  const limited = await serveApp({
    engine,
    registry,
    rateLimit: 4,
    mounts: [(a) => mountMcp(a, { engine, registry })],
  });
  const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
  const client = new Client({ name: 'mcp-limit-test', version: '1.0.0' });
  try {
    await awayFromMinuteEnd();
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${limited.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    // Reads until the limit is met (connecting took some of it: initialize and its notification).
    for (let calls = 1; !(await client.callTool({ name: 'get_profile', arguments: {} })).isError; calls += 1)
      assert.ok(calls < 4, 'the limit of 4 was met');
    const tenant = { project: 'acme', env: 'test' } as const;
    const before = (await engine.listRecords(tenant, 'notes', { limit: 200 })).data.length;
    const r = await client.callTool({ name: 'remember', arguments: { content: 'Sam parks in bay 12.' } });
    assert.equal(r.isError, true);
    const body = r.structuredContent as { code: string; type: string; retry_after_seconds: number };
    assert.equal(body.code, 'too_many_requests');
    assert.equal(body.type, 'rate_limit');
    assert.ok(Number.isInteger(body.retry_after_seconds) && body.retry_after_seconds > 0);
    assert.match(
      textOf(r),
      new RegExp(
        `^too_many_requests \\(429 rate_limit\\): Rate limit of 4 requests per minute for this key exceeded\\n` +
          `request_id: req_\\w+; retry_after_seconds: ${body.retry_after_seconds}; docs_url: ${limited.origin}/docs/errors/too_many_requests$`,
      ),
    );
    // One the transport would refuse under the limit is no tool's call: 406 (it takes no event stream),
    // 415 (a media type that only opens with JSON's), 400 (a protocol version it does not speak).
    for (const refused of [
      { accept: 'text/html' } as Record<string, string>,
      { 'content-type': 'application/json-rpc' },
      { 'mcp-protocol-version': '1999-01-01' },
    ]) {
      const raw = await fetch(`${limited.origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...refused,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 99,
          method: 'tools/call',
          params: { name: 'get_profile', arguments: {} },
        }),
      });
      assert.equal(raw.status, 429, JSON.stringify(refused));
    }
    // A call too long to be worth reading over the limit (64 KiB) is refused unread.
    await assert.rejects(
      client.callTool({ name: 'remember', arguments: { content: 'Sam parks in bay 12. '.repeat(4_000) } }),
      /429|too_many_requests/,
    );
    assert.equal((await engine.listRecords(tenant, 'notes', { limit: 200 })).data.length, before);
    // What is not a tool's call has no tool error to be: the listing stays the HTTP 429.
    await assert.rejects(client.listTools(), /429|too_many_requests/);
  } finally {
    await client.close();
    await limited.close();
  }
});

/** TOOL over /mcp against an engine whose METHOD fails with FAILURE, and what was logged. */
async function toolFailing(method: string, tool: string, args: Record<string, unknown>, failure: unknown) {
  const broken = new Proxy(engine, {
    get: (target, name, receiver) =>
      name === method ? () => Promise.reject(failure) : (Reflect.get(target, name, receiver) as unknown),
  });
  const logged: string[] = [];
  const served = await serveApp({
    engine: broken,
    registry,
    mounts: [(a) => mountMcp(a, { engine: broken, registry, log: (l) => logged.push(l) })],
  });
  try {
    const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
    const client = new Client({ name: 'mcp-fault-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${served.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const r = await client.callTool({ name: tool, arguments: args });
    await client.close();
    return { r, logged, origin: served.origin };
  } finally {
    await served.close();
  }
}

test("a tool's fault is internal_error without its own words, and is logged with its stack", async () => {
  // A store's own exception (not one of Mnemo's errors) carries what a caller must not read: a path,
  // a statement, a database host.
  const { r, logged, origin } = await toolFailing(
    'createContext',
    'get_context',
    { query: 'dentist' },
    new Error('SQLITE_IOERR: disk I/O error reading /home/ana/.mnemo/mnemo.db'),
  );
  assert.equal(r.isError, true);
  const [said, named] = textOf(r).split('\n');
  assert.equal(
    said,
    'internal_error (500 internal): An unhandled failure occurred; it was logged on the server.',
  );
  const { request_id: requestId, trace_id: traceId } = r.structuredContent as {
    request_id: string;
    trace_id: string;
  };
  assert.match(traceId, /^trc_\w+$/, 'a failed Context leaves a Trace, as on /v1');
  assert.equal(
    named,
    `request_id: ${requestId}; trace_id: ${traceId}; docs_url: ${origin}/docs/errors/internal_error`,
  );
  assert.equal(logged.length, 1, logged.join('\n'));
  // Logged under the id the caller was told, so the one can be found from the other.
  assert.ok(
    logged[0]!.startsWith(
      `internal_error ${requestId}: Error: SQLITE_IOERR: disk I/O error reading /home/ana`,
    ),
    logged[0],
  );
  assert.ok(logged[0]!.includes('\n    at '), 'with its stack');
});

test('an error told on purpose, with its cause kept, is no fault to log, as on /v1; a read is not told to resend', async () => {
  const full = storeUnavailableError('the disk is full', new Error('SQLITE_FULL: database or disk is full'));
  for (const [method, tool, args] of [
    ['listMemories', 'list_memories', {}],
    ['createContext', 'get_context', { query: 'dentist' }],
  ] as const) {
    const { r, logged } = await toolFailing(method, tool, args, full);
    assert.match(textOf(r), /^store_unavailable \(503 internal\): the disk is full\./, tool);
    // A read-only tool wrote nothing: /v1's advice to resend a write is not for it.
    assert.doesNotMatch(textOf(r), /Idempotency-Key|rememberRecord/, tool);
    assert.deepEqual(logged, [], tool);
  }
});

/**
 * RUN with a client of /mcp against an engine that commits each remembered Record and then, while
 * `faults.left` (after `faults.skip` more writes), fails before it answers: a step after the commit,
 * an answer lost. In process, as after the bridge's dropped connection, whether it was written is
 * unknown. `count` is how many Records the Brain holds; `logged` what the server logged.
 */
async function failingAfterCommit(
  run: (o: {
    client: Client;
    faults: { skip: number; left: number };
    logged: string[];
    count: () => Promise<number>;
  }) => Promise<void>,
) {
  const faults = { skip: 0, left: 0 };
  const broken = new Proxy(engine, {
    get: (target, name, receiver) =>
      name === 'rememberRecord'
        ? async (...args: Parameters<typeof engine.rememberRecord>) => {
            const done = await engine.rememberRecord(...args);
            if (faults.skip > 0) faults.skip -= 1;
            else if (faults.left > 0) {
              faults.left -= 1;
              throw new Error('connection reset as the commit was answered');
            }
            return done;
          }
        : (Reflect.get(target, name, receiver) as unknown),
  });
  const logged: string[] = [];
  const served = await serveApp({
    engine: broken,
    registry,
    mounts: [(a) => mountMcp(a, { engine: broken, registry, log: (l) => logged.push(l) })],
  });
  const key = (await registry.create({ env: 'test', project: 'acme', brain: 'notes' })).key;
  const client = new Client({ name: 'mcp-replay-test', version: '1.0.0' });
  const tenant = { project: 'acme', env: 'test' } as const;
  const count = async () => (await engine.listRecords(tenant, 'notes', { limit: 200 })).data.length;
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${served.origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    await run({ client, faults, logged, count });
  } finally {
    await client.close();
    await served.close();
  }
}

test('a remember the engine failed on after its commit names the key that replays it on /mcp, and the replay writes nothing twice', async () => {
  await failingAfterCommit(async ({ client, faults, logged, count }) => {
    const before = await count();
    faults.left = 1;
    const args = { content: 'Sam parks in bay 14.' };
    const failed = await client.callTool({ name: 'remember', arguments: args });
    const body = failed.structuredContent as { code: string; idempotency_key: string };
    assert.equal(body.code, 'internal_error');
    assert.match(body.idempotency_key, /^idem_/);
    assert.equal(
      textOf(failed).split('\n')[0],
      'internal_error (500 internal): An unhandled failure occurred; it was logged on the server; whether the ' +
        'Record was written is unknown: call remember again with the same arguments and idempotency_key ' +
        `${JSON.stringify(body.idempotency_key)}, which returns the Record if it was written and writes it once if not`,
    );
    assert.equal(logged.length, 1, 'the fault is logged');
    assert.match(logged[0]!, /connection reset as the commit was answered/);
    assert.equal(await count(), before + 1, 'it was written');
    const again = await client.callTool({
      name: 'remember',
      arguments: { ...args, idempotency_key: body.idempotency_key },
    });
    assert.equal((JSON.parse(textOf(again)) as { replayed: boolean }).replayed, true);
    assert.equal(await count(), before + 1, 'and not twice');
  });
});

test('a remember_conversation without idempotency_key that failed after a commit names the key and thread that replay it', async () => {
  await failingAfterCommit(async ({ client, faults, count }) => {
    const before = await count();
    const messages = [
      { speaker: 'user', text: 'I moved to bay 15.' },
      { speaker: 'assistant', text: 'Noted: bay 15.' },
      { speaker: 'user', text: 'Until June.' },
    ];
    // The second message's write fails after its commit.
    Object.assign(faults, { skip: 1, left: 1 });
    const stopped = await client.callTool({ name: 'remember_conversation', arguments: { messages } });
    const told = stopped.structuredContent as { code: string; idempotency_key: string; thread: string };
    assert.match(told.idempotency_key, /^idem_/);
    assert.equal(told.thread, `mcp:${told.idempotency_key}`);
    assert.match(
      textOf(stopped).split('\n')[0]!,
      new RegExp(
        '^internal_error \\(500 internal\\): messages\\[1\\]: .*; whether it was written is unknown \\(the 1 ' +
          'before it was written \\(rec_\\w+\\)\\): call remember_conversation again with the same arguments and ' +
          `idempotency_key "${told.idempotency_key}" and thread "${told.thread}", which writes each message once$`,
      ),
    );
    assert.equal(await count(), before + 2, 'two were written');
    const replayed = await client.callTool({
      name: 'remember_conversation',
      arguments: { messages, idempotency_key: told.idempotency_key, thread: told.thread },
    });
    const done = JSON.parse(textOf(replayed)) as { thread: string; records: { replayed: boolean }[] };
    assert.equal(done.thread, told.thread);
    assert.deepEqual(
      done.records.map((r) => r.replayed),
      [true, true, false],
    );
    assert.equal(await count(), before + 3, 'the third once, the first two not again');
  });
});

test('a store_unavailable on a remember on /mcp names the key to replay it, in the words of the tool', async () => {
  const full = storeUnavailableError('the disk is full', new Error('SQLITE_FULL: database or disk is full'));
  const { r, logged } = await toolFailing(
    'rememberRecord',
    'remember',
    { content: 'Sam parks in bay 16.' },
    full,
  );
  const key = (r.structuredContent as { idempotency_key: string }).idempotency_key;
  assert.match(key, /^idem_/);
  assert.equal(
    textOf(r).split('\n')[0],
    'store_unavailable (503 internal): the disk is full; whether the Record was written is unknown: call ' +
      `remember again with the same arguments and idempotency_key ${JSON.stringify(key)}, which returns the ` +
      'Record if it was written and writes it once if not',
  );
  assert.deepEqual(logged, [], 'told on purpose: no fault to log');
});
