import assert from 'node:assert/strict';
import type * as z from 'zod';
import { after, before, test } from 'node:test';
import {
  BrainCreate,
  ContextRequest,
  ImportRequest,
  MemoryListQuery,
  ObjectAccept,
  RecordCreate,
} from '../../engine/contract/index.ts';
import { createReferenceEngine } from '../../engine/reference/index.ts';
import { validationMessage } from './validate.ts';
import { serveApp, type ServedApp } from './testing/serve-app.ts';

const message = (schema: z.ZodType, input: unknown) =>
  validationMessage(schema.safeParse(input).error!, input, 'body', schema);
const files = [{ name: 'a.md', content_base64: '' }];
const formats =
  '"auto", "markdown", "obsidian", "chatgpt", "claude", "mbox", "whatsapp", "slack", "ics", "vcf"';

test('a union of literals and enums names every allowed value, not only its first branch', () => {
  assert.equal(message(ImportRequest, { format: 'docx', files }), `format: must be one of ${formats}`);
  assert.equal(message(ImportRequest, { format: 7, files }), `format: must be one of ${formats}`);
});

test('a union of types names every type; a discriminated union its tags; the deepest branch still wins', () => {
  const fact = { kind: 'fact', subject: 'Ana', predicate: 'age' };
  assert.equal(
    message(RecordCreate, { content: { ...fact, value: null } }),
    'content.value: must be a string, a number or a boolean, got null',
  );
  assert.equal(
    message(RecordCreate, { content: 5 }),
    'content: must be a string or an object, got an integer',
  );
  assert.equal(
    message(RecordCreate, { content: { kind: 'bogus', text: 'x' } }),
    'content.kind: must be one of "message", "document", "event", "fact", "correction"',
  );
  assert.equal(message(RecordCreate, { content: { kind: 'event' } }), 'content.title: is required');
  assert.equal(message(RecordCreate, {}), 'content: is required');
});

test('whitespace-only text where a Memory takes its words is refused as blank, naming the field', () => {
  assert.equal(message(RecordCreate, { content: '   ' }), 'content: must not be blank');
  assert.equal(message(RecordCreate, { content: '\n\n' }), 'content: must not be blank');
  assert.equal(message(RecordCreate, { content: '' }), 'content: must not be empty');
  // Said once: an empty query is empty, not blank as well.
  assert.equal(message(ContextRequest, { query: '' }), 'query: must not be empty');
  assert.equal(message(ContextRequest, { query: ' ' }), 'query: must not be blank');
  assert.equal(
    message(RecordCreate, { content: { kind: 'message', text: '   ' } }),
    'content.text: must not be blank',
  );
  assert.equal(
    message(RecordCreate, { content: { kind: 'fact', subject: ' ', predicate: ' ', value: ' ' } }),
    'content.subject: must not be blank; content.predicate: must not be blank; content.value: must not be blank',
  );
  assert.equal(
    message(RecordCreate, { content: { kind: 'event', title: '\t' } }),
    'content.title: must not be blank',
  );
  assert.equal(
    message(RecordCreate, { content: { kind: 'correction', corrects: 'mem_1', statement: ' ' } }),
    'content.statement: must not be blank',
  );
});

test("zod's own wording never reaches a message: sizes, articles, and everything a field accepts", () => {
  const object = { type: 'a', key: 'b', value: 1 };
  assert.equal(message(ObjectAccept, { ...object, if_version: -1 }), 'if_version: must be at least 0');
  assert.equal(
    message(ObjectAccept, { ...object, if_version: 'x' }),
    'if_version: must be an integer or null, got a string',
  );
  assert.equal(
    message(RecordCreate, { content: 'x', source: { name: {} } }),
    'source.name: must be a string, got an object',
  );
  assert.equal(
    message(RecordCreate, { content: { kind: 'fact', subject: 'a', predicate: 'b', value: {} } }),
    'content.value: must be a string, a number or a boolean, got an object',
  );
  assert.equal(message(ImportRequest, { files: {} }), 'files: must be an array, got an object');
  // 1e400 in a body: JSON.parse makes it Infinity, a number no field takes.
  assert.equal(
    message(RecordCreate, { content: { kind: 'fact', subject: 'a', predicate: 'b', value: Infinity } }),
    'content.value: must be a string, a number or a boolean, got a number beyond the largest double (±1.7976931348623157e308)',
  );
  assert.equal(
    message(ObjectAccept, { ...object, value: { n: -Infinity } }),
    'value: must be a JSON value, its numbers within the largest double (±1.7976931348623157e308)',
  );
  // A length check zod also ran on a value of the wrong type is not a second problem.
  assert.equal(
    message(RecordCreate, { content: [] }),
    'content: must be a string or an object, got an array',
  );
  assert.equal(
    message(ContextRequest, { query: 'x', include: 'memories' }),
    'include: must be an array, got a string',
  );
  assert.equal(
    message(ContextRequest, { query: 'x', budget: { tokens: 0 } }),
    'budget.tokens: must be at least 1',
  );
  assert.equal(
    message(ContextRequest, { query: 'x', budget: { ms: 60_001 } }),
    'budget.ms: must be at most 60000',
  );
  // Past 2^53 it is past the field's own maximum too: that one clause says what to send.
  assert.equal(
    message(ContextRequest, { query: 'x', budget: { tokens: 2 ** 64 } }),
    'budget.tokens: must be at most 100000',
  );
  assert.equal(
    message(ContextRequest, { query: 'x', filter: { sensitivity_lte: 5 } }),
    'filter.sensitivity_lte: must be a string or null, got an integer',
  );
  assert.equal(
    message(BrainCreate, { id: 'a', self: { type: 'person', name: '' } }),
    'self.name: must not be empty',
  );
  for (const input of [
    { ...object, if_version: -1 },
    { query: 'x', include: ['memories', 'memories', 'memories', 'memories', 'memories', 'memories'] },
    { id: 'a', self: { type: 'person', name: 'x'.repeat(201) } },
  ]) {
    const schema = 'if_version' in input ? ObjectAccept : 'query' in input ? ContextRequest : BrainCreate;
    assert.doesNotMatch(message(schema, input), /Too (small|big)|Invalid|expected|a object|a array/);
  }
});

test('limit is a plain decimal integer string: anything else is one message naming the range', () => {
  for (const limit of [
    '1e1',
    '0x10',
    ' 1',
    '1 ',
    '',
    '1.0',
    '+1',
    '-1',
    '0',
    '201',
    'ten',
    '99999999999999999999',
  ]) {
    assert.equal(
      message(MemoryListQuery, { limit }),
      'limit: must be an integer between 1 and 200',
      JSON.stringify(limit),
    );
  }
  assert.equal(MemoryListQuery.parse({ limit: '10' }).limit, 10);
  assert.equal(MemoryListQuery.parse({ limit: '200' }).limit, 200);
  assert.equal(MemoryListQuery.parse({}).limit, 50);
});

test('RFC 3339 date-times with a lower-case t or z are read as upper case; a space separator is still refused', () => {
  assert.equal(
    RecordCreate.parse({ content: 'x', occurred_at: '2024-05-01t09:30:00z' }).occurred_at,
    '2024-05-01T09:30:00Z',
  );
  assert.equal(
    ContextRequest.parse({ query: 'x', as_of: '2024-05-01t09:30:00+02:00' }).as_of,
    '2024-05-01T09:30:00+02:00',
  );
  assert.match(
    message(RecordCreate, { content: 'x', occurred_at: '2024-05-01 09:30:00Z' }),
    /^occurred_at: must be an RFC 3339 date-time with an offset/,
  );
});

// The same through the import endpoint of a real server on loopback.
let server: ServedApp;
let base = '';

before(async () => {
  const engine = createReferenceEngine();
  server = await serveApp({ engine, registry: null });
  base = `${server.origin}/v1`;
});

after(() => server.close());

test('POST /imports with an unknown format lists every format in its 400', async () => {
  const res = await fetch(`${base}/brains/imp1/imports`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_p_validatesecret', 'content-type': 'application/json' },
    body: JSON.stringify({ format: 'docx', files }),
  });
  assert.equal(res.status, 400);
  const body = (await res.json()) as { code: string; message: string };
  assert.equal(body.code, 'invalid_request_body');
  assert.equal(body.message, `format: must be one of ${formats}`);
});

test('GET with a loose limit is 400 invalid_request_body naming the range', async () => {
  for (const q of ['limit=1e1', 'limit=0x10', 'limit=%201', 'limit=']) {
    const res = await fetch(`${base}/brains/imp1/memories?${q}`, {
      headers: { authorization: 'Bearer sk_test_p_validatesecret' },
    });
    assert.equal(res.status, 400, q);
    const body = (await res.json()) as { code: string; message: string };
    assert.equal(body.code, 'invalid_request_body', q);
    assert.equal(body.message, 'limit: must be an integer between 1 and 200', q);
  }
});

test('POST /records with whitespace-only content is 400 invalid_request_body naming the field', async () => {
  await fetch(`${base}/brains`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_p_validatesecret', 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'blank1' }),
  });
  for (const [content, says] of [
    ['   ', 'content: must not be blank'],
    [{ kind: 'message', text: '   ' }, 'content.text: must not be blank'],
  ] as const) {
    const res = await fetch(`${base}/brains/blank1/records`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_p_validatesecret', 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { code: string; message: string };
    assert.equal(body.code, 'invalid_request_body');
    assert.equal(body.message, says);
  }
});
