import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { includeValues } from '../../engine/contract/context.ts';
import { FileKeyRegistry } from '../../engine/auth/key-registry.ts';
import { errorCodes, type ErrorCode } from '../../engine/errors/codes.ts';
import { createLocalEngine } from '../../engine/local/index.ts';
import type { Memory, Profile } from '../../engine/contract/index.ts';
import { shownProfile } from './listed-memory.ts';
import type { Engine } from '../../engine/types.ts';
import { mountMcp } from './mount-mcp.ts';
import type { TextWindow } from './text-window.ts';
import { serveApp, type ServedApp } from '../http/testing/serve-app.ts';
import { cliBundleEnv } from '../../test/support/cli-env.ts';

// The local engine (an encrypted SQLite file) behind /v1 and /mcp on loopback; `mnemo mcp` spawned
// against it. Each bad tool call must read as the documented tool error, as /v1 words the same input.
const dir = mkdtempSync(join(tmpdir(), 'mnemo-mcp-args-'));
const registry = FileKeyRegistry.ensure(join(dir, 'keys.json'));
const tenant = { project: 'home', env: 'test' } as const;
let engine: Engine;
let server: ServedApp;
let origin = '';
let key = '';
let bridge: Client;
let hosted: Client;

before(async () => {
  engine = await createLocalEngine({ dataDir: join(dir, 'data'), dbKey: 'm'.repeat(64), reranker: null });
  server = await serveApp({ engine, registry, mounts: [(a) => mountMcp(a, { engine, registry })] });
  origin = server.origin;
  await engine.createBrain(tenant, { id: 'me' });
  key = (await registry.create({ ...tenant, brain: 'me' })).key;

  bridge = new Client({ name: 'mcp-args-test', version: '1.0.0' });
  await bridge.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['bin/mnemo.mjs', 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        MNEMO_LOG: 'silent',
        ...cliBundleEnv,
        MNEMO_PROJECT: tenant.project,
        MNEMO_BRAIN: 'me',
        MNEMO_KEY: key,
        MNEMO_URL: `${origin}/v1`,
      },
      stderr: 'ignore',
    }),
  );
  hosted = new Client({ name: 'mcp-args-test', version: '1.0.0' });
  await hosted.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
});

after(async () => {
  await bridge.close();
  await hosted.close();
  await server.close();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What /v1 answers, as the tool error text docs/agents.md promises: `<code> (<status> <type>): <message>`. */
async function v1(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${origin}/v1/brains/me${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const e = (await res.json()) as { code: ErrorCode; message: string };
  assert.equal(res.status, errorCodes[e.code].status);
  return `${e.code} (${res.status} ${errorCodes[e.code].type}): ${e.message}`;
}

/** A tool error's first line, `<code> (<status> <type>): <message>`; the second names the call. */
async function toolText(client: Client, name: string, args?: Record<string, unknown>) {
  const r = await client.callTool({ name, ...(args ? { arguments: args } : {}) });
  assert.equal(r.isError, true, JSON.stringify(r.content));
  const [first, second, ...more] = (r.content as { text: string }[])[0]!.text.split('\n');
  assert.match(
    second ?? '',
    /^request_id: req_\w+(?:; trace_id: trc_\w+)?; docs_url: \S+\/errors\/[a-z_0-9]+$/,
  );
  assert.deepEqual(more, []);
  return first!;
}

const cases: { tool: string; args?: Record<string, unknown>; http: () => Promise<string>; says: RegExp }[] = [
  {
    tool: 'remember',
    args: { content: { kind: 'bogus', text: 'x' } },
    http: () => v1('POST', '/records', { content: { kind: 'bogus', text: 'x' } }),
    says: /^unknown_kind \(400 invalid_request\): content\.kind: must be one of message, document, event, fact, correction; got "bogus"$/,
  },
  {
    tool: 'remember',
    http: () => v1('POST', '/records', {}),
    says: /^invalid_request_body \(400 invalid_request\): content: is required$/,
  },
  {
    tool: 'remember',
    args: { content: 'x', occurred_at: 'yesterday' },
    http: () => v1('POST', '/records', { content: 'x', occurred_at: 'yesterday' }),
    says: /^invalid_request_body \(400 invalid_request\): occurred_at: must be an RFC 3339 date-time/,
  },
  {
    tool: 'remember',
    args: { content: { kind: 'fact', subject: 'Ana', predicate: 'age', value: null } },
    http: () =>
      v1('POST', '/records', { content: { kind: 'fact', subject: 'Ana', predicate: 'age', value: null } }),
    says: /: content\.value: must be a string, a number or a boolean, got null$/,
  },
  {
    tool: 'remember',
    args: {
      content: {
        kind: 'event',
        title: 'Dentist',
        starts_at: '2024-05-01T10:00:00Z',
        ends_at: '2024-05-01T09:00:00Z',
      },
    },
    http: () =>
      v1('POST', '/records', {
        content: {
          kind: 'event',
          title: 'Dentist',
          starts_at: '2024-05-01T10:00:00Z',
          ends_at: '2024-05-01T09:00:00Z',
        },
      }),
    says: /^invalid_request_body \(400 invalid_request\): content\.ends_at: must not be earlier than starts_at$/,
  },
  {
    tool: 'list_memories',
    args: { limit: 0 },
    http: () => v1('GET', '/memories?limit=0'),
    says: /^invalid_request_body \(400 invalid_request\): limit: must be an integer between 1 and 200$/,
  },
  {
    tool: 'list_memories',
    args: { contested: 'maybe' },
    http: () => v1('GET', '/memories?contested=maybe'),
    says: /^invalid_request_body \(400 invalid_request\): contested: must be one of "true", "false"$/,
  },
  {
    tool: 'list_memories',
    args: { since_watermark: 'not-a-watermark' },
    http: () => v1('GET', '/memories?since_watermark=not-a-watermark'),
    says: /^invalid_watermark \(400 invalid_request\): /,
  },
  {
    tool: 'list_memories',
    args: { since_watermark: '' },
    http: () => v1('GET', '/memories?since_watermark='),
    says: /^invalid_watermark \(400 invalid_request\): /,
  },
  {
    tool: 'get_context',
    args: { query: 'dentist', watermark: '' },
    // /v1 names its header; the tool names its argument, as the caller wrote it.
    http: async () =>
      (await v1('POST', '/context', { query: 'dentist' }, { 'brain-watermark': '' })).replace(
        'Brain-Watermark: ',
        'watermark: ',
      ),
    says: /^invalid_watermark \(400 invalid_request\): watermark: not a watermark issued by this Brain/,
  },
  {
    tool: 'get_context',
    args: { query: 'dentist', watermark: 'wm_forged' },
    http: async () =>
      (await v1('POST', '/context', { query: 'dentist' }, { 'brain-watermark': 'wm_forged' })).replace(
        'Brain-Watermark: ',
        'watermark: ',
      ),
    says: /^invalid_watermark \(400 invalid_request\): watermark: not a watermark issued by this Brain/,
  },
  {
    tool: 'list_memories',
    args: { order: 'newest' },
    http: () => v1('GET', '/memories?order=newest'),
    says: /^invalid_request_body \(400 invalid_request\): order: must be one of "asc", "desc"$/,
  },
  {
    tool: 'list_memories',
    args: { since_watermark: 'start', order: 'desc' },
    http: () => v1('GET', '/memories?since_watermark=start&order=desc'),
    says: /^conflicting_parameters \(400 invalid_request\): since_watermark, order: /,
  },
  {
    tool: 'list_memories',
    args: { since_watermark: 'w', cursor: 'c' },
    http: () => v1('GET', '/memories?since_watermark=w&cursor=c'),
    says: /^conflicting_parameters \(400 invalid_request\): /,
  },
  {
    tool: 'get_context',
    args: { query: 'dentist', filter: { sources: [] } },
    http: () => v1('POST', '/context', { query: 'dentist', filter: { sources: [] } }),
    says: /^invalid_request_body \(400 invalid_request\): filter\.sources: must hold at least one source name; /,
  },
  {
    tool: 'get_context',
    args: { query: 'dentist', mode: 'slow' },
    http: () => v1('POST', '/context', { query: 'dentist', mode: 'slow' }),
    says: /^invalid_request_body \(400 invalid_request\): mode: must be one of "fast", "thorough"$/,
  },
  {
    tool: 'get_context',
    args: {},
    http: () => v1('POST', '/context', {}),
    says: /^invalid_request_body \(400 invalid_request\): query: is required$/,
  },
  {
    tool: 'remember',
    args: { content: '   ' },
    http: () => v1('POST', '/records', { content: '   ' }),
    says: /^invalid_request_body \(400 invalid_request\): content: must not be blank$/,
  },
  {
    tool: 'remember',
    args: { content: { kind: 'fact', subject: ' ', predicate: ' ', value: ' ' } },
    http: () =>
      v1('POST', '/records', { content: { kind: 'fact', subject: ' ', predicate: ' ', value: ' ' } }),
    says: /: content\.subject: must not be blank; content\.predicate: must not be blank; content\.value: must not be blank$/,
  },
  {
    tool: 'remember',
    args: { content: 'x', ocurred_at: '2024-05-01T09:30:00Z' },
    http: () => v1('POST', '/records', { content: 'x', ocurred_at: '2024-05-01T09:30:00Z' }),
    says: /^invalid_request_body \(400 invalid_request\): ocurred_at: unknown field$/,
  },
  {
    tool: 'get_context',
    args: { query: 'dentist', top_k: 3 },
    http: () => v1('POST', '/context', { query: 'dentist', top_k: 3 }),
    says: /^invalid_request_body \(400 invalid_request\): top_k: unknown field$/,
  },
];

for (const c of cases) {
  test(`${c.tool} ${JSON.stringify(c.args ?? null)}: a tool error worded as /v1 words it`, async () => {
    const http = await c.http();
    assert.match(http, c.says);
    assert.equal(await toolText(bridge, c.tool, c.args), http, 'mnemo mcp (stdio bridge)');
    assert.equal(await toolText(hosted, c.tool, c.args), http, 'hosted /mcp');
  });
}

test('a date-time argument is listed by its format alone, not with RFC 3339 written out again each time', async () => {
  const { tools } = await hosted.listTools();
  const dateTimes: Record<string, unknown>[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o['format'] === 'date-time') dateTimes.push(o);
      Object.values(o).forEach(walk);
    }
  };
  tools.forEach((t) => walk(t.inputSchema));
  assert.ok(dateTimes.length >= 5, `${dateTimes.length} date-time arguments listed`);
  for (const d of dateTimes) assert.equal(d['pattern'], undefined);
  // Still checked when the tool runs (the contract's schema).
  assert.match(
    await toolText(hosted, 'list_records', { since: '2024-13-01T00:00:00Z' }),
    /^invalid_request_body \(400 invalid_request\): since: /,
  );
});

test("tools/list writes each definition where it is used, and a client's validator reads the schemas as the tools do", async () => {
  const listing = await hosted.listTools();
  const text = JSON.stringify(listing);
  // Every session of a model pays the listing; a definition's description for /v1's readers (333 bytes
  // of Visibility, twice) went beside the argument's own. Raise this only for words a model needs.
  assert.ok(Buffer.byteLength(text) < 18_700, `tools/list is ${Buffer.byteLength(text)} bytes`);
  assert.doesNotMatch(text, /"\$ref"|"definitions"|"\$schema"/);
  const schemaOf = (name: string) => listing.tools.find((t) => t.name === name)!.inputSchema;
  for (const name of ['remember', 'remember_conversation'])
    assert.deepEqual(schemaOf(name).properties?.['visibility'], {
      type: 'string',
      enum: ['local_only', 'redacted_summary', 'shareable'],
      description:
        'Where the Record may go when the Brain syncs: "shareable" (default), "redacted_summary", or "local_only" (this device only).',
    });
  // The SDK's own validator (draft-07, as the SDK client validates with): what a tool takes, it takes.
  const validator = new AjvJsonSchemaValidator();
  const valid = (name: string, args: unknown) => validator.getValidator(schemaOf(name))(args).valid;
  assert.equal(
    valid('remember', { content: { kind: 'fact', subject: 'Ana', predicate: 'tea', value: 3 } }),
    true,
  );
  assert.equal(
    valid('remember', { content: { kind: 'event', title: 'Dentist', starts_at: '2024-05-01T10:00:00Z' } }),
    true,
  );
  assert.equal(valid('remember', { content: 'I like tea.', visibility: 'local_only' }), true);
  assert.equal(valid('remember', { content: { kind: 'fact', subject: 'Ana' } }), false);
  assert.equal(valid('remember', { content: 'I like tea.', visibility: 'public' }), false);
  assert.equal(
    valid('remember_conversation', { messages: [{ text: 'hi', speaker: 'user' }], visibility: 'shareable' }),
    true,
  );
  assert.equal(valid('remember_conversation', { messages: [{ text: 'hi' }], visibility: 'everyone' }), false);
  assert.equal(valid('list_memories', { detail: 'full', limit: 5 }), true);
  assert.equal(valid('list_memories', { detail: 'everything' }), false);
});

test('unknown arguments of every tool are a tool error naming them, and the listed schemas forbid them', async () => {
  const { tools } = await hosted.listTools();
  for (const t of tools) {
    assert.equal(t.inputSchema.additionalProperties, false, `${t.name} inputSchema`);
    const text = await toolText(hosted, t.name, { bogus_argument: 1 });
    assert.match(text, /^invalid_request_body \(400 invalid_request\): /, t.name);
    assert.match(text, /(: |; )bogus_argument: unknown field(;|$)/, t.name);
  }
});

test('an unknown tool is a tool error naming the tools', async () => {
  assert.match(
    await toolText(bridge, 'forget_everything', {}),
    /^invalid_request_body \(400 invalid_request\): name: must be one of "remember", "remember_conversation", "get_context", /,
  );
});

test('valid arguments still reach the store', async () => {
  const r = await bridge.callTool({
    name: 'remember',
    arguments: { content: { kind: 'fact', subject: 'Ana', predicate: 'dentist', value: 'Dr. Reis' } },
  });
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
});

test("a tool's result is compact JSON, as /v1 sends it: indentation is tokens a model pays for", async () => {
  for (const client of [bridge, hosted]) {
    const r = await client.callTool({ name: 'list_records', arguments: { limit: 2 } });
    const text = (r.content as { text: string }[])[0]!.text;
    assert.equal(text, JSON.stringify(JSON.parse(text)));
  }
});

test('list_memories takes contested as a model writes it (a JSON boolean) or as the URL does, slot and order', async () => {
  const at = '2024-01-01T00:00:00Z';
  for (const [value, source] of [
    ['Porto', 'phone'],
    ['Lisbon', 'laptop'],
  ] as const) {
    await engine.rememberRecord(
      tenant,
      'me',
      {
        content: { kind: 'fact', subject: 'Bo', predicate: 'lives in', value },
        source: { name: source },
        occurred_at: at,
      },
      {},
    );
  }
  const listed = async (client: Client, args: Record<string, unknown>) => {
    for (let i = 0; i < 100; i += 1) {
      const r = await client.callTool({ name: 'list_memories', arguments: args });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      const page = JSON.parse((r.content as { text: string }[])[0]!.text) as { data: Memory[] };
      if (page.data.length === 2) return page.data;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`list_memories ${JSON.stringify(args)}: not two values`);
  };
  for (const client of [bridge, hosted]) {
    const asBoolean = await listed(client, { contested: true });
    const asString = await listed(client, { contested: 'true' });
    assert.deepEqual(asBoolean, asString);
    const slot = asBoolean[0]!.slot!;
    assert.deepEqual(await listed(client, { slot }), asBoolean, 'the slot lists its two values');
    assert.deepEqual(await listed(client, { slot, order: 'desc' }), [...asBoolean].reverse(), 'newest first');
  }
});

test('list_memories follows changes with since_watermark, as a delta read of /v1 does', async () => {
  for (const client of [bridge, hosted]) {
    const remember = async (value: string) => {
      const r = await client.callTool({
        name: 'remember',
        arguments: { content: { kind: 'fact', subject: 'Cy', predicate: 'plays', value } },
      });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      return (JSON.parse((r.content as { text: string }[])[0]!.text) as { watermark: string }).watermark;
    };
    const since = await remember(`chess ${client === bridge ? 'bridge' : 'hosted'}`);
    await remember(`go ${client === bridge ? 'bridge' : 'hosted'}`);
    let page: { data: Memory[]; watermark?: string; next_cursor: string | null } = {
      data: [],
      next_cursor: null,
    };
    // Derivation runs after the writes are answered: the first value's Memory alone can be the first change.
    const holdsGo = () => page.data.some((m) => m.statement.startsWith('Cy plays: go'));
    for (let i = 0; i < 100 && !holdsGo(); i += 1) {
      const r = await client.callTool({ name: 'list_memories', arguments: { since_watermark: since } });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      page = JSON.parse((r.content as { text: string }[])[0]!.text) as typeof page;
      if (!holdsGo()) await new Promise((r) => setTimeout(r, 50));
    }
    // Only what changed after the first write: the second value, and the first as it was superseded.
    assert.ok(
      page.data.some((m) => m.statement.startsWith('Cy plays: go')),
      JSON.stringify(page.data),
    );
    assert.ok(
      page.data.every((m) => m.statement.startsWith('Cy plays')),
      JSON.stringify(page.data.map((m) => m.statement)),
    );
    assert.equal(typeof page.watermark, 'string');
    assert.equal(page.next_cursor, null);
  }
});

test('get_context offers only the filters a Context enforces: subjects and owner are refused by name, not ignored', async () => {
  // A Context records filter.subjects, owner and sensitivity_lte and enforces none: a model that set
  // owner "other" was served the Brain's own evidence as if it were someone else's.
  const { tools } = await hosted.listTools();
  const filter = tools.find((t) => t.name === 'get_context')!.inputSchema.properties!['filter'] as {
    properties: Record<string, unknown>;
    description?: string;
  };
  assert.deepEqual(Object.keys(filter.properties).sort(), ['since', 'sources', 'until']);
  assert.match(filter.description ?? '', /list_memories/, 'says where subject and owner filtering is');
  for (const [field, value] of [
    ['owner', 'other'],
    ['subjects', ['Bob']],
    ['sensitivity_lte', 'low'],
  ] as const) {
    const args = { query: 'dentist', filter: { [field]: value } };
    for (const client of [bridge, hosted])
      assert.equal(
        await toolText(client, 'get_context', args),
        `invalid_request_body (400 invalid_request): filter.${field}: unknown field`,
      );
  }
});

test('every argument of every tool says what it is for, and get_context its budget in tokens with the default', async () => {
  const { tools } = await bridge.listTools();
  for (const t of tools)
    for (const [name, schema] of Object.entries(t.inputSchema.properties ?? {}))
      assert.ok(((schema as { description?: string }).description ?? '').length > 10, `${t.name}.${name}`);
  const budget = tools.find((t) => t.name === 'get_context')!.inputSchema.properties!['budget'] as {
    properties: Record<string, { description?: string }>;
  };
  assert.match(budget.properties['tokens']!.description ?? '', /tokens .*default 4,000/);
  assert.match(budget.properties['ms']!.description ?? '', /milliseconds/);
});

test('remember with its idempotency_key reused for other content names the argument, not the /v1 header', async () => {
  for (const [client, idempotency_key] of [
    [bridge, 'reuse-bridge'],
    [hosted, 'reuse-hosted'],
  ] as const) {
    const first = await client.callTool({ name: 'remember', arguments: { content: 'A', idempotency_key } });
    assert.equal(first.isError, undefined, JSON.stringify(first.content));
    assert.equal(
      await toolText(client, 'remember', { content: 'B', idempotency_key }),
      'idempotency_conflict (409 conflict): idempotency_key: already used with a different body',
    );
    const conversation = (text: string) => ({
      messages: [{ text, speaker: 'user' }],
      idempotency_key: `${idempotency_key}-conversation`,
    });
    const said = await client.callTool({ name: 'remember_conversation', arguments: conversation('A') });
    assert.equal(said.isError, undefined, JSON.stringify(said.content));
    assert.equal(
      await toolText(client, 'remember_conversation', conversation('B')),
      'idempotency_conflict (409 conflict): messages[0]: idempotency_key: already used with a different body; none was written',
    );
  }
});

test('remember tells a model how to keep what the user said as theirs, and that is how the store reads it', async () => {
  // A message without a speaker (or a plain string) leaves its Memory's owner unresolved, so "my ..."
  // questions and owner filters miss it; only the description can tell a model so.
  const { tools } = await bridge.listTools();
  const description = tools.find((t) => t.name === 'remember')!.description ?? '';
  assert.match(description, /speaker "user"/);
  await engine.createBrain(tenant, { id: 'ana', self: { type: 'person', name: 'Ana' } });
  const ana = new Client({ name: 'mcp-speaker-test', version: '1.0.0' });
  await ana.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: {
        headers: { Authorization: `Bearer ${(await registry.create({ ...tenant, brain: 'ana' })).key}` },
      },
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) =>
    JSON.parse(
      ((await ana.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text,
    ) as Record<string, unknown>;
  const { watermark } = await call('remember', {
    content: { kind: 'message', speaker: 'user', text: 'My bike is a red Brompton.' },
  });
  const ask = { query: 'What bike do I have?', include: ['memories'], watermark };
  let context = await call('get_context', ask);
  for (let i = 0; context['status'] === 'processing' && i < 50; i++) {
    await new Promise((r) => setTimeout(r, 100));
    context = await call('get_context', ask);
  }
  const memories = (context['memories'] ?? []) as { owner: unknown }[];
  assert.deepEqual(
    memories.map((m) => m.owner),
    [{ state: 'self', entity: 'Ana' }],
    JSON.stringify(context),
  );
  await ana.close();
});

test("list_records and get_profile answer as /v1 does (a Profile line's quotes shown short), on both transports, paging with their cursors and searching by words", async () => {
  const notes = ['First note.', 'Second note.', 'Third note.'];
  for (const [i, text] of notes.entries())
    await engine.rememberRecord(
      tenant,
      'me',
      {
        content: { kind: 'document', text },
        source: { name: 'notes' },
        occurred_at: `2024-05-0${i + 1}T09:00:00Z`,
      },
      {},
    );
  // Derived first: a Record's status and memory_ids change until then, between the two reads.
  await engine.idle();
  const v1Json = async (path: string) =>
    (await fetch(`${origin}/v1/brains/me${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
  const answer = async (client: Client, name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    assert.equal(r.isError, undefined, JSON.stringify(r.content));
    return JSON.parse((r.content as { text: string }[])[0]!.text) as {
      data: { content: { text: string } }[];
      next_cursor: string | null;
    };
  };
  const texts = (page: { data: { content: { text: string } }[] }) => page.data.map((r) => r.content.text);
  for (const client of [bridge, hosted]) {
    const first = await answer(client, 'list_records', { source: 'notes', limit: 2 });
    assert.deepEqual(first, await v1Json('/records?source=notes&limit=2'));
    assert.deepEqual(texts(first), ['Third note.', 'Second note.'], 'newest first');
    const rest = await answer(client, 'list_records', {
      source: 'notes',
      limit: 2,
      cursor: first.next_cursor,
    });
    assert.deepEqual(texts(rest), ['First note.']);
    const may = await answer(client, 'list_records', {
      since: '2024-05-02T00:00:00Z',
      until: '2024-05-02T23:59:59Z',
    });
    assert.deepEqual(texts(may), ['Second note.']);
    // Words find one to forget, as /v1's q does.
    const found = await answer(client, 'list_records', { q: 'THIRD' });
    assert.deepEqual(texts(found), ['Third note.']);
    assert.deepEqual(found, await v1Json('/records?q=THIRD'));
    assert.deepEqual(
      await answer(client, 'get_profile', { limit: 5 }),
      shownProfile((await v1Json('/profile?limit=5')) as Profile),
    );
    // The change feed is sync's, not a tool's.
    assert.match(
      await toolText(client, 'list_records', { since_watermark: 'start' }),
      /since_watermark: unknown field/,
    );
  }
});

test('forget_record erases what an agent remembered, with its Memories, and refuses what the person wrote', async () => {
  for (const client of [bridge, hosted]) {
    const said = await client.callTool({
      name: 'remember',
      arguments: { content: { kind: 'fact', subject: 'Ana', predicate: 'gym', value: 'Fitlab' } },
    });
    const { record } = JSON.parse((said.content as { text: string }[])[0]!.text) as {
      record: { id: string };
    };
    await engine.idle();
    const memoryIds = (await engine.getRecord(tenant, 'me', record.id)).memory_ids;
    assert.equal(memoryIds.length, 1);
    const r = await client.callTool({ name: 'forget_record', arguments: { record_id: record.id } });
    assert.equal(r.isError, undefined, JSON.stringify(r.content));
    const receipt = JSON.parse((r.content as { text: string }[])[0]!.text) as { target: unknown };
    assert.deepEqual(receipt.target, { type: 'record', id: record.id });
    await assert.rejects(engine.getRecord(tenant, 'me', record.id), { code: 'record_not_found' });
    await assert.rejects(engine.getMemory(tenant, 'me', memoryIds[0]!), { code: 'memory_not_found' });

    // The person's own note, imported or written in the app: theirs to forget, not a model's.
    const note = await engine.rememberRecord(
      tenant,
      'me',
      { content: 'Passport number is in the blue folder.', source: { name: 'obsidian' } },
      {},
    );
    assert.match(
      await toolText(client, 'forget_record', { record_id: note.record.id }),
      /^record_not_erasable \(403 policy\): record_id: rec_\w+ came from "obsidian", not through this MCP server \(source "mcp"\), and this tool erases only those: the person forgets it, in the Mnemo app on their device \(a forget there reaches the servers it syncs with\), or with DELETE \/v1\/brains\/\{brain_id\}\/records\/rec_\w+$/,
    );
    // Another agent's Record written over /v1 with no source is named as that, not "from null".
    const overHttp = await engine.rememberRecord(tenant, 'me', { content: 'Gate B12.' }, {});
    assert.match(
      await toolText(client, 'forget_record', { record_id: overHttp.record.id }),
      /record_id: rec_\w+ was written over the \/v1 API with no source, or came from a device by sync, not through this MCP server/,
    );
    assert.equal((await engine.getRecord(tenant, 'me', note.record.id)).id, note.record.id, 'still there');
    // An imported one goes with its import: /v1 refuses it alone too.
    const mail = await engine.rememberRecord(
      tenant,
      'me',
      { content: 'Flight at 7.', source: { name: 'mbox', external_id: '<m1@example.com>' } },
      {},
    );
    assert.match(
      await toolText(client, 'forget_record', { record_id: mail.record.id }),
      /came from "mbox", not through this MCP server \(source "mcp"\), and this tool erases only those: the person forgets it, in the Mnemo app on their device \(a forget there reaches the servers it syncs with\), or by removing its import \(mnemo import --remove "mbox" --brain BRAIN\)$/,
    );
  }
  assert.equal(
    (await hosted.listTools()).tools.find((t) => t.name === 'forget_record')?.annotations?.destructiveHint,
    true,
  );
});

test('remember_conversation writes each message in order under one thread, and a retry writes none twice', async () => {
  const messages = [
    { speaker: 'user', text: 'I started learning the cello in March.', occurred_at: '2024-06-01T18:00:00Z' },
    { speaker: 'assistant', text: 'Nice! How are the lessons going?', occurred_at: '2024-06-01T18:00:05Z' },
    { speaker: 'user', text: 'My teacher is Marta Silva.', occurred_at: '2024-06-01T18:01:00Z' },
  ];
  type Written = { thread: string; records: { id: string; replayed: boolean | null }[]; watermark: string };
  const answer = async (client: Client, args: Record<string, unknown>) => {
    const r = await client.callTool({ name: 'remember_conversation', arguments: args });
    assert.equal(r.isError, undefined, JSON.stringify(r.content));
    return JSON.parse((r.content as { text: string }[])[0]!.text) as Written;
  };
  for (const [i, client] of [bridge, hosted].entries()) {
    const key = `cello-session-${i}`;
    const first = await answer(client, { messages, idempotency_key: key });
    assert.equal(first.thread, `mcp:${key}`);
    assert.equal(first.records.length, 3);
    const stored = await Promise.all(first.records.map((r) => engine.getRecord(tenant, 'me', r.id)));
    assert.deepEqual(
      stored.map((r) => [r.content, r.source.name, r.occurred_at]),
      messages.map((m) => [
        { kind: 'message', text: m.text, speaker: m.speaker, thread: `mcp:${key}` },
        'mcp',
        m.occurred_at,
      ]),
    );
    const again = await answer(client, { messages, idempotency_key: key });
    assert.deepEqual(
      again.records,
      first.records.map((r) => ({ id: r.id, replayed: true })),
    );

    // Stopped part way: the message the store refuses is named, with what was written before it.
    const changed = [messages[0], { ...messages[1]!, text: 'Something else.' }];
    assert.match(
      await toolText(client, 'remember_conversation', { messages: changed, idempotency_key: key }),
      new RegExp(
        `^idempotency_conflict \\(409 conflict\\): messages\\[1\\]: .*; the 1 before it was written \\(${first.records[0]!.id}\\)`,
      ),
    );
    // A message the contract refuses is named before anything is written.
    const before = (await engine.listRecords(tenant, 'me', { limit: 200 })).data.length;
    assert.match(
      await toolText(client, 'remember_conversation', { messages: [messages[0], { text: '   ' }] }),
      /^invalid_request_body \(400 invalid_request\): messages\[1\]\.text: must not be blank/,
    );
    assert.equal((await engine.listRecords(tenant, 'me', { limit: 200 })).data.length, before);
  }
});

test('a long text comes in windows: the first characters echoed, a page cut, get_record reading on', async () => {
  // An emoji across each cut: a window never ends between the halves of a surrogate pair.
  const text = `${'a'.repeat(199)}🙂${'b'.repeat(1_798)}🙂${'c'.repeat(40_000)}`;
  for (const client of [bridge, hosted]) {
    const parsed = async (name: string, args: Record<string, unknown>) => {
      const r = await client.callTool({ name, arguments: args });
      assert.equal(r.isError, undefined, JSON.stringify(r.content));
      return JSON.parse((r.content as { text: string }[])[0]!.text) as {
        record: { id: string; content: { text: string }; text_window: unknown };
        data: { id: string; content: { text: string }; text_window: unknown }[];
        content: { text: string };
        text_window: { offset: number; shown: number; total: number; next_offset: number | null };
      };
    };
    const written = await parsed('remember', { content: { kind: 'document', title: 'Long', text } });
    assert.equal(written.record.content.text, 'a'.repeat(199));
    assert.deepEqual(written.record.text_window, {
      offset: 0,
      shown: 199,
      total: text.length,
      next_offset: 199,
    });
    const id = written.record.id;

    const page = await parsed('list_records', { kind: 'document', limit: 1 });
    assert.equal(page.data[0]!.id, id);
    assert.equal(page.data[0]!.content.text.length, 1_999, 'up to the emoji the cut would split');
    let read = '';
    let offset: number | null = 0;
    while (offset !== null) {
      const r = await parsed('get_record', { record_id: id, text_offset: offset });
      assert.equal(r.text_window.offset, offset);
      read += r.content.text;
      offset = r.text_window.next_offset;
    }
    assert.equal(read, text);
  }
  // A short text is whole, with no window.
  const short = await bridge.callTool({ name: 'remember', arguments: { content: 'I like tea.' } });
  assert.doesNotMatch((short.content as { text: string }[])[0]!.text, /text_window/);
});

test('get_trace reads how a get_context answer was made, on both transports; an unknown one is not found', async () => {
  await engine.rememberRecord(tenant, 'me', { content: 'The spare key is under the blue pot.' }, {});
  await engine.idle();
  for (const client of [bridge, hosted]) {
    const asked = await client.callTool({
      name: 'get_context',
      arguments: { query: 'Where is the spare key?' },
    });
    assert.equal(asked.isError, undefined, JSON.stringify(asked.content));
    const { id } = JSON.parse((asked.content as { text: string }[])[0]!.text) as { id: string };
    const r = await client.callTool({ name: 'get_trace', arguments: { trace_id: id } });
    assert.equal(r.isError, undefined, JSON.stringify(r.content));
    const trace = JSON.parse((r.content as { text: string }[])[0]!.text) as Record<string, unknown>;
    assert.equal(trace['id'], id);
    assert.match(
      await toolText(client, 'get_trace', { trace_id: 'ctx_0000000000000000000000000' }),
      /^trace_not_found /,
    );
    assert.match(
      await toolText(client, 'get_trace', { trace_id: 'mem_1' }),
      /trace_id: must be a Context id/,
    );
  }
});

/** A tool's answer, parsed from its text. */
async function answered<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, undefined, JSON.stringify(r.content));
  assert.equal(r.structuredContent, undefined, 'the data is in the text, once');
  return JSON.parse((r.content as { text: string }[])[0]!.text) as T;
}

/** The page /v1 serves for this query. */
async function v1Memories(query: string): Promise<{ data: Memory[] }> {
  const res = await fetch(`${origin}/v1/brains/me/memories?${query}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(res.status, 200);
  return (await res.json()) as { data: Memory[] };
}

test('list_memories lists each Memory in short, 20 to a page, with its citations counted; detail "full" as /v1 does', async () => {
  for (let k = 0; k < 24; k += 1)
    await engine.rememberRecord(
      tenant,
      'me',
      { content: { kind: 'fact', subject: 'Quinn', predicate: `hobby ${k}`, value: `craft ${k}` } },
      {},
    );
  for (const source of ['phone', 'laptop', 'tablet'])
    await engine.rememberRecord(
      tenant,
      'me',
      {
        content: { kind: 'fact', subject: 'Quinn', predicate: 'favourite tea', value: 'sencha' },
        source: { name: source },
      },
      {},
    );
  await engine.idle();
  const whole = (await v1Memories('subject=Quinn&limit=200')).data;
  assert.equal(whole.length, 25);
  const tea = whole.find((m) => m.predicate === 'favourite tea')!;
  assert.equal(tea.citations.length, 3, 'one Memory, cited by each of its three Records');
  for (const client of [bridge, hosted]) {
    type Page = { data: Record<string, unknown>[]; has_more: boolean; next_cursor: string | null };
    const first = await answered<Page>(client, 'list_memories', { subject: 'Quinn' });
    assert.equal(first.data.length, 20);
    assert.equal(first.has_more, true);
    const rest = await answered<Page>(client, 'list_memories', {
      subject: 'Quinn',
      cursor: first.next_cursor,
    });
    assert.equal(rest.has_more, false);
    // A fact's quote is its statement, said once: the short form names the Record it is in.
    assert.deepEqual(
      [...first.data, ...rest.data],
      whole.map((m) => ({
        id: m.id,
        statement: m.statement,
        subject: m.subject,
        predicate: m.predicate,
        slot: m.slot,
        owner: m.owner,
        status: m.status,
        version: m.version,
        valid_from: m.valid_from,
        valid_to: m.valid_to,
        citation_count: m.citations.length,
        first_citation: { record_id: m.citations[0]!.record_id },
      })),
    );
    const full = await answered<Page>(client, 'list_memories', {
      subject: 'Quinn',
      detail: 'full',
      limit: 200,
    });
    assert.deepEqual(full.data, whole, 'the old shape, as /v1 gives it');
  }
});

test('list_records gives 20 Records a page unless asked for more, as list_memories does', async () => {
  for (let k = 0; k < 23; k += 1)
    await engine.rememberRecord(
      tenant,
      'me',
      { content: { kind: 'document', text: `page note ${k}` }, source: { name: 'paged' } },
      {},
    );
  for (const client of [bridge, hosted]) {
    type Page = { data: { id: string }[]; has_more: boolean; next_cursor: string | null };
    const first = await answered<Page>(client, 'list_records', { source: 'paged' });
    assert.equal(first.data.length, 20);
    assert.equal(first.has_more, true);
    const rest = await answered<Page>(client, 'list_records', { source: 'paged', cursor: first.next_cursor });
    assert.equal(rest.data.length, 3);
    const all = await answered<Page>(client, 'list_records', { source: 'paged', limit: 50 });
    assert.deepEqual(
      all.data.map((r) => r.id),
      [...first.data, ...rest.data].map((r) => r.id),
    );
  }
});

test('get_profile gives 20 lines a page unless asked for more, as list_memories does, its cursor reading on', async () => {
  await engine.createBrain(tenant, { id: 'card', self: { type: 'person', name: 'Ana' } });
  const cardKey = (await registry.create({ ...tenant, brain: 'card' })).key;
  for (let k = 0; k < 23; k += 1)
    await engine.rememberRecord(
      tenant,
      'card',
      { content: { kind: 'fact', subject: 'Ana', predicate: `hobby ${k}`, value: `craft ${k}` } },
      {},
    );
  await engine.idle();
  const client = new Client({ name: 'mcp-profile-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${cardKey}` } },
    }),
  );
  try {
    type Card = { lines: { memory_id: string }[]; has_more: boolean; next_cursor: string | null };
    const first = await answered<Card>(client, 'get_profile', {});
    assert.equal(first.lines.length, 20);
    assert.equal(first.has_more, true);
    const rest = await answered<Card>(client, 'get_profile', { cursor: first.next_cursor });
    assert.equal(rest.lines.length, 3);
    assert.equal(rest.has_more, false);
    const all = await answered<Card>(client, 'get_profile', { limit: 50 });
    assert.deepEqual(
      all.lines.map((l) => l.memory_id),
      [...first.lines, ...rest.lines].map((l) => l.memory_id),
    );
    const v1 = await fetch(`${origin}/v1/brains/card/profile`, {
      headers: { authorization: `Bearer ${cardKey}` },
    });
    assert.equal(((await v1.json()) as Card).lines.length, 23, '/v1 keeps its 50');
  } finally {
    await client.close();
  }
});

test('a Memory of a long message is listed in under 1 KB, its statement cut, and get_memory gives it whole', async () => {
  // A chat message with no sentence end is its own statement, and each time it was said a citation
  // quoting all of it: ~8 KB of one Memory in a page that a model reads whole.
  const said = `so the zanzibarish plan is that ${Array.from({ length: 60 }, (_, i) => `we stop at place ${i} on the way`).join(' and then ')}`;
  for (let k = 0; k < 3; k += 1)
    await engine.rememberRecord(
      tenant,
      'me',
      { content: { kind: 'message', text: said, speaker: 'user' } },
      {},
    );
  await engine.idle();
  const [memory] = (await v1Memories('q=zanzibarish')).data;
  assert.ok(
    memory && memory.statement.length > 1_500 && memory.citations.length === 3,
    JSON.stringify(memory),
  );
  for (const client of [bridge, hosted]) {
    const r = await client.callTool({ name: 'list_memories', arguments: { q: 'zanzibarish' } });
    const text = (r.content as { text: string }[])[0]!.text;
    const full = await client.callTool({
      name: 'list_memories',
      arguments: { q: 'zanzibarish', detail: 'full' },
    });
    const fullText = (full.content as { text: string }[])[0]!.text;
    assert.ok(Buffer.byteLength(text) < 1_000, `${Buffer.byteLength(text)} bytes`);
    assert.ok(Buffer.byteLength(fullText) > 8_000, `${Buffer.byteLength(fullText)} bytes in full`);
    const listed = (JSON.parse(text) as { data: Record<string, unknown>[] }).data[0]!;
    assert.equal(listed['statement'], `${memory.statement.slice(0, 300)}…`);
    assert.equal(listed['statement_cut'], true);
    assert.equal(listed['citation_count'], 3);
    const whole: { statement: string } = await answered(client, 'get_memory', { memory_id: memory.id });
    assert.equal(whole.statement, memory.statement);
  }
});

test("get_memory's revisions give a statement only where it is not the Memory's, cut as list_memories cuts one", async () => {
  const motto = (word: string) =>
    `${word} ${Array.from({ length: 40 }, (_, i) => `and step ${i}`).join(' ')}`;
  for (const word of ['Slowly', 'Boldly'])
    await engine.rememberRecord(
      tenant,
      'me',
      { content: { kind: 'fact', subject: 'Rosa', predicate: 'motto', value: motto(word) } },
      {},
    );
  await engine.idle();
  const [memory] = (await v1Memories('subject=Rosa&status=active')).data;
  assert.ok(memory && memory.statement.includes('Boldly'), JSON.stringify(memory));
  const v1 = (await (
    await fetch(`${origin}/v1/brains/me/memories/${memory.id}`, {
      headers: { authorization: `Bearer ${key}` },
    })
  ).json()) as { revisions: { id: string; statement: string }[] };
  const [older, current] = v1.revisions;
  assert.equal(v1.revisions.length, 2, 'both versions of the slot, as /v1 gives them');
  assert.equal(current!.id, memory.id);
  assert.ok(older!.statement.length > 300 && older!.statement.includes('Slowly'));
  for (const client of [bridge, hosted]) {
    const r = await client.callTool({ name: 'get_memory', arguments: { memory_id: memory.id } });
    const text = (r.content as { text: string }[])[0]!.text;
    const { statement, revisions } = JSON.parse(text) as {
      statement: string;
      revisions: Record<string, unknown>[];
    };
    assert.equal(statement, memory.statement, 'the Memory whole');
    const { statement: _cut, statement_cut: _flag, ...olderRest } = revisions[0]!;
    assert.deepEqual(revisions, [
      { ...olderRest, statement: `${older!.statement.slice(0, 300)}…`, statement_cut: true },
      Object.fromEntries(Object.entries(current!).filter(([k]) => k !== 'statement')),
    ]);
    assert.deepEqual(
      olderRest,
      Object.fromEntries(Object.entries(older!).filter(([k]) => k !== 'statement')),
    );
    // The older version whole, by its id.
    const whole: { statement: string } = await answered(client, 'get_memory', { memory_id: older!.id });
    assert.equal(whole.statement, older!.statement);
  }
});

test("a listed Memory's first quote is shown where it is not the statement's words", async () => {
  await engine.createBrain(tenant, { id: 'quoted', self: { type: 'person', name: 'Ana' } });
  const anaKey = (await registry.create({ ...tenant, brain: 'quoted' })).key;
  const client = new Client({ name: 'mcp-quote-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${anaKey}` } },
    }),
  );
  try {
    await engine.rememberRecord(
      tenant,
      'quoted',
      { content: { kind: 'message', text: 'My birthday is March 14.', speaker: 'user' } },
      {},
    );
    await engine.idle();
    const page = await answered<{ data: { statement: string; first_citation: { quote?: string } }[] }>(
      client,
      'list_memories',
      { q: 'birthday' },
    );
    assert.deepEqual(
      page.data.map((m) => [m.statement, m.first_citation.quote]),
      [["Ana's birthday is March 14", 'My birthday is March 14.']],
    );
  } finally {
    await client.close();
  }
});

test("get_memory gives a cited Record's text as the window around its quote, which get_record reads on from", async () => {
  const filler = 'Lorem ipsum dolor sit amet consectetur. '.repeat(1_250);
  const said = 'My dentist is Dr. Xylander on Elm Street.';
  const text = `${filler}\n\n${said}\n\n${filler}`;
  await engine.rememberRecord(tenant, 'me', { content: { kind: 'document', title: 'Notes', text } }, {});
  await engine.idle();
  const [memory] = (await v1Memories('q=Xylander')).data;
  assert.ok(memory, 'the sentence became a Memory');
  for (const client of [bridge, hosted]) {
    const r = await client.callTool({ name: 'get_memory', arguments: { memory_id: memory.id } });
    const answer = (r.content as { text: string }[])[0]!.text;
    assert.ok(Buffer.byteLength(answer) < 8_000, `${Buffer.byteLength(answer)} bytes`);
    const { evidence, ...rest } = JSON.parse(answer) as {
      evidence: { record_id: string; quote: string; text: string; text_window: TextWindow }[];
    };
    // Each citation once, in evidence with its Record.
    assert.equal('citations' in rest, false);
    assert.deepEqual(
      evidence.map((e) => ({ record_id: e.record_id, quote: e.quote })),
      memory.citations,
    );
    const [cited] = evidence;
    assert.equal(cited!.quote, said);
    assert.ok(cited!.text.includes(said), 'the quote is in the window');
    assert.equal(cited!.text.length, 2_000);
    assert.deepEqual(cited!.text_window, {
      offset: cited!.text_window.offset,
      shown: 2_000,
      total: text.length,
      next_offset: cited!.text_window.offset + 2_000,
    });
    assert.ok(cited!.text_window.offset > 0);
    const read = await answered<{ content: { text: string } }>(client, 'get_record', {
      record_id: cited!.record_id,
      text_offset: cited!.text_window.offset,
    });
    assert.ok(read.content.text.startsWith(cited!.text), 'the same offsets as get_record');
  }
});

test("get_trace's description sends a model to explain for what selection dropped, which a Trace does not hold", async () => {
  const listing = await hosted.listTools();
  const described = listing.tools.find((t) => t.name === 'get_trace')!.description ?? '';
  // A Trace holds the budget's cuts only (budget.cut); why a Record was dropped is in explain.dropped.
  assert.match(described, /what it cut/u);
  assert.match(described, /what else was dropped and why: get_context include explain/u);
  assert.ok(includeValues.includes('explain'));
});
