import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { ErrorBody } from '../../engine/contract/index.ts';
import { createMnemoClient } from '../../server/client/index.ts';
import { mcpToolNames } from '../../server/mcp/mcp-tools.ts';
import { mnemoJsonRpcError } from '../../server/mcp/stdio-bridge.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { awayFromMinuteEnd } from '../contract/harness.ts';
import { cliBundleEnv } from '../support/cli-env.ts';
import { serveProcess } from './serve-process.ts';

// `mnemo mcp` spawned as a real child process, driven by the SDK's own client over stdio, reaching a
// real server on loopback (reference engine: no registry, so any well-formed key of the project works).
let server: RunningServer;
const key = 'sk_test_household_bridgesecret';

before(async () => {
  server = await startServer({ engine: 'reference', port: 0 });
  await createMnemoClient({ baseUrl: server.url, apiKey: key }).createBrain({
    id: 'family',
    self: { type: 'person', name: 'Sam' },
  });
});
after(() => server.close());

function bridge(env: Record<string, string>): {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
} {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/mnemo.mjs', 'mcp'],
    env: { PATH: process.env.PATH ?? '', MNEMO_LOG: 'silent', ...cliBundleEnv, ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  return { client: new Client({ name: 'mcp-stdio-test', version: '1.0.0' }), transport, stderr: () => err };
}

/** The bridge of project "household" to Brain "family" of the server at URL, with this file's key. */
const householdBridge = (url: string, env: Record<string, string> = {}) =>
  bridge({ MNEMO_PROJECT: 'household', MNEMO_BRAIN: 'family', MNEMO_KEY: key, MNEMO_URL: url, ...env });

const textOf = (r: Awaited<ReturnType<Client['callTool']>>) =>
  (r.content as { type: string; text: string }[])[0]!.text;

describe('mnemo mcp (stdio bridge)', () => {
  test('piped input that ends at once still gets every answer (echo REQUEST | mnemo mcp)', async () => {
    const child = spawn(process.execPath, ['bin/mnemo.mjs', 'mcp'], {
      env: {
        PATH: process.env.PATH ?? '',
        MNEMO_LOG: 'silent',
        ...cliBundleEnv,
        MNEMO_PROJECT: 'household',
        MNEMO_BRAIN: 'family',
        MNEMO_KEY: key,
        MNEMO_URL: server.url,
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    const line = (m: object) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`;
    child.stdin.end(
      line({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'pipe', version: '1' },
        },
      }) +
        line({ method: 'notifications/initialized' }) +
        line({
          id: 2,
          method: 'tools/call',
          params: { name: 'remember', arguments: { content: 'Sam takes the 7:40 train on Mondays.' } },
        }) +
        line({ id: 3, method: 'tools/call', params: { name: 'recall', arguments: 'rec_x' } }) +
        // As sent: JSON.stringify could not write a number a double does not hold.
        '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"remember","arguments":' +
        '{"content":{"kind":"fact","subject":"Sam","predicate":"card","value":12345678901234567890}}}}\n',
    );
    assert.equal(await exited, 0);
    const answers = out
      .trim()
      .split('\n')
      .map(
        (l) => JSON.parse(l) as { id: number; result?: unknown; error?: { code: number; message: string } },
      );
    assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2, 3, 4]);
    const byId = new Map(answers.map((a) => [a.id, a]));
    assert.match(JSON.stringify(byId.get(2)!.result), /rec_/, 'the write was answered with its Record');
    assert.equal(byId.get(3)!.error?.code, -32602, 'arguments that are not an object: invalid params');
    assert.match(byId.get(3)!.error!.message, /^Invalid params: params\.arguments: /);
    // A number a double would not keep: a tool error the model reads (MCP's input validation errors).
    const four = byId.get(4)!.result as { isError?: boolean; content: { text: string }[] };
    assert.equal(four.isError, true, JSON.stringify(byId.get(4)));
    assert.match(
      four.content[0]!.text,
      /^invalid_request_body \(400 invalid_request\): content\.value: 12345678901234567890 would not be kept exactly: .*send it as a string/,
    );
  });

  test('an SDK client remembers and recalls through the bridge', async () => {
    const { client, transport } = householdBridge(server.url);
    await client.connect(transport);
    // Closed however the test ends: a bridge left running keeps the test file from ending.
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...mcpToolNames].sort());

      const wrote = JSON.parse(
        textOf(
          await client.callTool({
            name: 'remember',
            arguments: {
              content: { kind: 'fact', subject: 'Sam', predicate: 'allergy', value: 'penicillin' },
              occurred_at: '2024-02-01T10:00:00Z',
            },
          }),
        ),
      ) as { record: { id: string }; watermark: string };
      assert.match(wrote.watermark, /^wm_/);

      const ctx = JSON.parse(
        textOf(
          await client.callTool({
            name: 'get_context',
            arguments: { query: 'penicillin allergy', watermark: wrote.watermark },
          }),
        ),
      ) as { object: string; status: string; text: string; citations: { record_id: string }[] };
      assert.equal(ctx.object, 'context');
      assert.equal(ctx.status, 'ready');
      assert.match(ctx.text, /penicillin/);
      assert.equal(ctx.citations[0]!.record_id, wrote.record.id);

      // The Record went through the server: visible over /v1 too.
      const rec = await createMnemoClient({ baseUrl: server.url, apiKey: key }).getRecord(
        'family',
        wrote.record.id,
      );
      assert.equal(rec.source.name, 'mcp');

      const bad = await client.callTool({
        name: 'get_memory',
        arguments: { memory_id: 'mem_0000000000000000000000000' },
      });
      assert.equal(bad.isError, true);
      assert.match(textOf(bad), /^memory_not_found \(404 not_found\)/);

      // A tool error carries what the /v1 error carries: structuredContent is its body, field for field,
      // and the text's second line names the call. The request id is the /v1 request's own: the Trace a
      // failed Context leaves (its trace_id, an additive field, comes along too) was made under it.
      const refused = await client.callTool({
        name: 'get_context',
        arguments: { query: 'penicillin', watermark: 'wm_forged' },
      });
      const body = ErrorBody.parse(refused.structuredContent);
      assert.equal(body.code, 'invalid_watermark');
      assert.equal(body.docs_url, `${server.origin}/docs/errors/invalid_watermark`);
      assert.equal(
        textOf(refused).split('\n')[1],
        `request_id: ${body.request_id}; trace_id: ${String(body.trace_id)}; docs_url: ${body.docs_url}`,
      );
      const trace = await fetch(`${server.url}/brains/family/traces/${String(body.trace_id)}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(((await trace.json()) as { request_id: string }).request_id, body.request_id);

      // An argument too long for a request's address is named, not answered as headers too large.
      const long = await client.callTool({
        name: 'list_memories',
        arguments: { subject: 'Ana'.repeat(6000) },
      });
      assert.equal(long.isError, true);
      assert.match(textOf(long), /^invalid_request_body \(400 invalid_request\): subject: too long to send/);
      const hidden = await client.callTool({
        name: 'get_record',
        arguments: { record_id: `rec_${'x'.repeat(20_000)}` },
      });
      assert.match(
        textOf(hidden),
        /^invalid_request_body \(400 invalid_request\): record_id: too long to send/,
      );

      // What the bridge refuses itself names a call of its own and the server's error pages.
      const unread = await client.callTool({ name: 'get_memory', arguments: { memory_id: 'nope' } });
      const own = ErrorBody.parse(unread.structuredContent);
      assert.equal(own.code, 'invalid_request_body');
      assert.match(own.request_id, /^req_\w+$/);
      assert.equal(own.docs_url, `${server.origin}/docs/errors/invalid_request_body`);
    } finally {
      await client.close();
    }
  });

  test('a Brain that does not exist is named as the MNEMO_BRAIN setting to fix, on every tool', async () => {
    const { client, transport } = householdBridge(server.url, { MNEMO_BRAIN: 'nobrain' });
    await client.connect(transport);
    for (const [name, args] of [
      ['remember', { content: 'Sam takes the 7:40 train on Mondays.' }],
      ['get_context', { query: 'train' }],
      ['list_memories', {}],
    ] as const) {
      const r = await client.callTool({ name, arguments: args });
      assert.equal(r.isError, true, name);
      assert.match(
        textOf(r),
        /^brain_not_found \(404 not_found\): .*; MNEMO_BRAIN names "nobrain": if MNEMO_KEY is bound to one Brain, set MNEMO_BRAIN to that Brain .*; else create "nobrain" first .*POST \/v1\/brains with \{"id":"nobrain"\}/,
        name,
      );
    }
    await client.close();
  });

  for (const [label, env, says] of [
    ['MNEMO_BRAIN missing', { MNEMO_PROJECT: 'household', MNEMO_KEY: key }, /MNEMO_BRAIN/],
    ['MNEMO_PROJECT missing', { MNEMO_BRAIN: 'family', MNEMO_KEY: key }, /MNEMO_PROJECT/],
    [
      'key of another project',
      { MNEMO_PROJECT: 'elsewhere', MNEMO_BRAIN: 'family', MNEMO_KEY: key },
      /MNEMO_KEY belongs to project/,
    ],
    // The server's root, not its API base: every tool answered http_404 without naming the setting.
    [
      'MNEMO_URL without /v1',
      { MNEMO_PROJECT: 'household', MNEMO_BRAIN: 'family', MNEMO_KEY: key, MNEMO_URL: 'root' },
      /MNEMO_URL: ".*" is not the API's base: it ends in \/v1/,
    ],
  ] as const) {
    test(`401 mcp_identity_unconfigured as an MCP error: ${label}`, async () => {
      const url = 'MNEMO_URL' in env ? server.url.replace(/\/v1\/?$/, '') : server.url;
      const { client, transport, stderr } = bridge({ ...env, MNEMO_URL: url });
      // Closed however the test ends: a bridge left running keeps the test file from ending.
      try {
        const e = await client.connect(transport).then(
          () => null,
          (x: unknown) => x,
        );
        assert.ok(e instanceof McpError, `expected an McpError, got ${String(e)}`);
        assert.equal(e.code, mnemoJsonRpcError);
        assert.match(e.message, /mcp_identity_unconfigured/);
        assert.match(e.message, says);
        assert.deepEqual(
          { status: (e.data as { status: number }).status, code: (e.data as { code: string }).code },
          { status: 401, code: 'mcp_identity_unconfigured' },
        );
        // The spec's error body too, as /v1 would answer it: a request id, and where the code is explained.
        const data = ErrorBody.parse(e.data);
        assert.match(data.request_id, /^req_\w+$/);
        assert.equal(data.docs_url, `${url.replace(/\/v1$/, '')}/docs/errors/mcp_identity_unconfigured`);
        assert.match(stderr(), /mcp_identity_unconfigured/, 'the reason is logged on stderr too');
      } finally {
        await transport.close();
      }
    });
  }
});

test('a bridge that could only refuse exits 2 when its host goes; one that served exits 0', async () => {
  // The host closes stdin at once: the exit code is all a host that watches only that sees.
  const run = (env: Record<string, string>) =>
    new Promise<number | null>((done) => {
      const child = spawn(process.execPath, ['bin/mnemo.mjs', 'mcp'], {
        env: { PATH: process.env.PATH ?? '', MNEMO_LOG: 'silent', ...cliBundleEnv, ...env },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.stdin.end();
      child.on('close', (code) => done(code));
    });
  assert.equal(await run({ MNEMO_PROJECT: 'household', MNEMO_KEY: key, MNEMO_URL: server.url }), 2);
  assert.equal(
    await run({ MNEMO_PROJECT: 'household', MNEMO_BRAIN: 'family', MNEMO_KEY: key, MNEMO_URL: server.url }),
    0,
  );
});

test('a write through a Mnemo that froze and died mid-call is not said to have reached nothing', async () => {
  // The server froze (SIGSTOP) with the write sent to it, then died: the bridge's retry is refused, but
  // the attempt before it went out, and a server that dies after writing looks the same from here. So
  // the tool error must not carry reached_server false ("nothing was sent, so nothing was applied").
  const { child, url } = await serveProcess(['--engine', 'reference'], {
    PATH: process.env.PATH ?? '',
    MNEMO_LOG: 'silent',
    ...cliBundleEnv,
  });
  await createMnemoClient({ baseUrl: url, apiKey: key }).createBrain({ id: 'family' });
  const { client, transport } = householdBridge(url);
  await client.connect(transport);
  try {
    assert.equal((await client.callTool({ name: 'get_profile', arguments: {} })).isError, undefined);
    child.kill('SIGSTOP');
    setTimeout(() => child.kill('SIGKILL'), 500);
    const r = await client.callTool({ name: 'remember', arguments: { content: 'Sam parks in bay 12.' } });
    assert.equal(r.isError, true);
    // network_error is the client's own code (status 0), outside the server's table: read as it is.
    const body = r.structuredContent as { code: string; reached_server?: unknown };
    assert.equal(body.code, 'network_error');
    assert.equal(body.reached_server, null);
    assert.match(textOf(r), /whether the call was applied is unknown/);
  } finally {
    await client.close();
  }
});

test('a key the server refuses is named as the MNEMO_KEY setting to fix, not the Authorization header', async () => {
  // The person set MNEMO_KEY; "Authorization: …" names a header the bridge sent, which they never see.
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-mcp-key-'));
  const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
  const guarded = await startServer({ engine: 'reference', port: 0, keyRegistry: join(dir, 'keys.json') });
  after(async () => {
    await guarded.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const revoked = (await registry.create({ env: 'test', project: 'household' })).key;
  await registry.revoke(revoked);
  for (const [label, k, says] of [
    [
      'not issued',
      'sk_test_household_neverissued',
      /^invalid_api_key \(401 authentication\): MNEMO_KEY: this key was not issued by this server's key registry; set MNEMO_KEY to a key this server issued/,
    ],
    [
      'revoked',
      revoked,
      /^key_revoked \(401 authentication\): MNEMO_KEY: the key sk_test_household_….{4} was revoked; set MNEMO_KEY to a key this server issued/,
    ],
  ] as const) {
    const { client, transport } = householdBridge(guarded.url, { MNEMO_KEY: k });
    await client.connect(transport);
    try {
      const r = await client.callTool({ name: 'get_context', arguments: { query: 'train' } });
      assert.equal(r.isError, true, label);
      assert.match(textOf(r), says, label);
    } finally {
      await client.close();
    }
  }
});

test('a rate limit is a tool error saying when to call again, not a wait past the host timeout', async () => {
  // The bridge waited out the limit (up to a minute, five times over) while the host gave up on the
  // call at its own timeout; the write then went through behind the model's back.
  const limited = await startServer({ engine: 'reference', port: 0, rateLimit: 2 });
  after(() => limited.close());
  const k = 'sk_test_household_ratelimited';
  await awayFromMinuteEnd(15_000);
  await createMnemoClient({ baseUrl: limited.url, apiKey: k, retry: false }).createBrain({ id: 'family' });
  const { client, transport } = householdBridge(limited.url, { MNEMO_KEY: k });
  await client.connect(transport);
  try {
    assert.equal((await client.callTool({ name: 'get_profile', arguments: {} })).isError, undefined);
    const started = Date.now();
    const r = await client.callTool({ name: 'remember', arguments: { content: 'Sam parks in bay 12.' } });
    assert.ok(Date.now() - started < 5_000, `answered after ${Date.now() - started} ms`);
    assert.equal(r.isError, true);
    const wait = (r.structuredContent as { retry_after_seconds: number }).retry_after_seconds;
    assert.ok(wait > 0);
    assert.match(
      textOf(r),
      new RegExp(
        `^too_many_requests \\(429 rate_limit\\): .*\\nrequest_id: req_\\w+; retry_after_seconds: ${wait}; docs_url: `,
      ),
    );
  } finally {
    await client.close();
  }
});

test('a remember_conversation stopped part way by a rate limit names the key and thread that write the rest', async () => {
  // Each message is a request of /v1 through the bridge: the third meets a limit of three.
  const limited = await startServer({ engine: 'reference', port: 0, rateLimit: 3 });
  after(() => limited.close());
  const k = 'sk_test_household_ratelimitedtalk';
  await awayFromMinuteEnd(15_000);
  await createMnemoClient({ baseUrl: limited.url, apiKey: k, retry: false }).createBrain({ id: 'family' });
  const { client, transport } = householdBridge(limited.url, { MNEMO_KEY: k });
  await client.connect(transport);
  try {
    const messages = ['I moved to bay 15.', 'Noted.', 'Until June.'].map((text) => ({ text }));
    const r = await client.callTool({ name: 'remember_conversation', arguments: { messages } });
    assert.equal(r.isError, true);
    const body = r.structuredContent as { code: string; idempotency_key: string; thread: string };
    assert.equal(body.code, 'too_many_requests');
    assert.match(body.idempotency_key, /^idem_/);
    assert.equal(body.thread, `mcp:${body.idempotency_key}`);
    assert.match(
      textOf(r),
      new RegExp(
        '^too_many_requests \\(429 rate_limit\\): messages\\[2\\]: .*; the 2 before it were written ' +
          `\\(rec_\\w+, rec_\\w+\\): send the call again with idempotency_key "${body.idempotency_key}" and ` +
          `thread "${body.thread}" to write the rest\\n`,
      ),
    );
  } finally {
    await client.close();
  }
});
