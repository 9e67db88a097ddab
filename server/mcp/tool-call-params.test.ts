import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { guardToolCalls, inexactArgumentProblem } from './tool-call-params.ts';

const asRequest = (raw: string, at?: number) => {
  const parsed = JSON.parse(raw) as JSONRPCRequest | JSONRPCRequest[];
  return Array.isArray(parsed) ? parsed[at!]! : parsed;
};

test("a number of a tool's arguments that a double would not keep is named; one elsewhere in the request is not", () => {
  const fact =
    '{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"remember",' +
    '"arguments":{"content":{"kind":"fact","subject":"s","predicate":"p","value":9007199254740993}}}}';
  assert.equal(
    inexactArgumentProblem(fact, asRequest(fact)),
    'content.value: 9007199254740993 would not be kept exactly: JSON numbers are read ' +
      'as IEEE 754 doubles, which hold it only as 9007199254740992; send it as a string to keep every digit',
  );
  const id = '{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"x"}}';
  assert.equal(inexactArgumentProblem(id, asRequest(id)), null, "the id is the protocol's, not an argument");
});

test('a field that takes only a number is not told to send a string', () => {
  const raw =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_memories",' +
    '"arguments":{"limit":10.000000000000000001}}}';
  assert.equal(
    inexactArgumentProblem(raw, asRequest(raw)),
    'limit: 10.000000000000000001 would not be kept exactly: JSON numbers are read as ' +
      'IEEE 754 doubles, which hold it only as 10',
  );
});

test('in a batch, each request is read for its own arguments', () => {
  const call = (id: number, value: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"remember","arguments":{"content":` +
    `{"kind":"fact","subject":"s","predicate":"p","value":${value}}}}}`;
  const batch = `[${call(1, '1.5')},${call(2, '1e-400')}]`;
  assert.equal(inexactArgumentProblem(batch, asRequest(batch, 0)), null);
  assert.match(
    inexactArgumentProblem(batch, asRequest(batch, 1)) ?? '',
    /^content\.value: 1e-400 would not be kept exactly: .* only as 0;/,
  );
});

test("a batch's text is read once for all its tool calls, not again for each", () => {
  // 100 calls (the SDK's most in a batch), the first with a number a double would not keep: each call
  // reading the whole text again made a 4 MB batch a hundred parses and scans of it.
  const calls = Array.from(
    { length: 100 },
    (_, i) =>
      `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"remember","arguments":` +
      `{"content":{"kind":"fact","subject":"s","predicate":"p","value":${i === 0 ? '1e-400' : '1.5'}}}}}`,
  );
  const raw = `[${calls.join(',')}]`;
  const messages = JSON.parse(raw) as JSONRPCMessage[];
  const delivered: JSONRPCMessage[] = [];
  const refused: JSONRPCMessage[] = [];
  const transport = {
    onmessage: (m: JSONRPCMessage) => void delivered.push(m),
    send: (m: JSONRPCMessage) => Promise.resolve(void refused.push(m)),
  } as unknown as Transport;
  guardToolCalls(transport, undefined, () => raw);
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = ((...a: Parameters<typeof parse>) => (parses++, parse(...a))) as typeof JSON.parse;
  try {
    for (const m of messages) transport.onmessage!(m);
  } finally {
    JSON.parse = parse;
  }
  assert.deepEqual(
    refused.map((m) => (m as { id: number }).id),
    [0],
  );
  assert.equal(delivered.length, 99);
  // One scan of the text (which decodes the four field names above the number) and one parse of the
  // batch, to find the request by its id.
  assert.ok(parses <= 5, `${parses} parses of the text or its field names`);
});

/** A transport that records what the guard sends and what it lets through. */
function guarded(raw?: string) {
  const delivered: JSONRPCMessage[] = [];
  const sent: JSONRPCMessage[] = [];
  const transport = {
    onmessage: (m: JSONRPCMessage) => void delivered.push(m),
    send: (m: JSONRPCMessage) => Promise.resolve(void sent.push(m)),
  } as unknown as Transport;
  guardToolCalls(transport, undefined, raw === undefined ? undefined : () => raw);
  return { transport, delivered, sent };
}

test('arguments whose values no tool may read are a tool error the model can read and correct, not a protocol error', () => {
  const cases: [string, RegExp][] = [
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":' +
        '{"content":{"kind":"message","text":"Bob owns a \\ud83d parrot"}}}}',
      /^invalid_request_body \(400 invalid_request\): content\.text: holds a lone surrogate/,
    ],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":' +
        '{"content":"a\\u0000b"}}}',
      /^invalid_request_body \(400 invalid_request\): content: holds U\+0000/,
    ],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":' +
        '{"content":{"kind":"fact","subject":"s","predicate":"p","value":12345678901234567890}}}}',
      /^invalid_request_body \(400 invalid_request\): content\.value: 12345678901234567890 would not be kept exactly: .*send it as a string/,
    ],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"content":' +
        `${'['.repeat(200)}${']'.repeat(200)}}}}`,
      /^invalid_request_body \(400 invalid_request\): arguments: nests arrays and objects more than 100 levels deep/,
    ],
    // JSON.parse keeps the second: the tool would have run on a value its caller may not have meant.
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"forget_record","arguments":' +
        '{"record_id":"rec_A","record_id":"rec_B"}}}',
      /^invalid_request_body \(400 invalid_request\): record_id: must be given once/,
    ],
    [
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":' +
        '{"content":{"kind":"message","text":"a","\\u0074ext":"b"}}}}',
      /^invalid_request_body \(400 invalid_request\): content\.text: must be given once/,
    ],
  ];
  for (const [raw, message] of cases) {
    const { transport, delivered, sent } = guarded(raw);
    transport.onmessage!(JSON.parse(raw) as JSONRPCMessage);
    assert.equal(delivered.length, 0, 'the tool never sees them');
    const answer = sent[0] as {
      id: number;
      error?: unknown;
      result?: { isError?: boolean; content: { text: string }[] };
    };
    assert.equal(answer.error, undefined, `no protocol error: ${JSON.stringify(answer)}`);
    assert.equal(answer.id, 1);
    assert.equal(answer.result?.isError, true);
    assert.match(answer.result!.content[0]!.text, message);
  }
});

test("a name given twice elsewhere in the JSON-RPC message is not the arguments' to refuse", () => {
  const raw =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_record","name":"get_record",' +
    '"arguments":{"record_id":"rec_A"}}}';
  const { transport, delivered } = guarded(raw);
  transport.onmessage!(JSON.parse(raw) as JSONRPCMessage);
  assert.equal(delivered.length, 1);
});

test('a tools/call with no tool name or arguments that are not an object stays a protocol error (-32602)', () => {
  for (const params of [{ name: 'remember', arguments: 'rec_x' }, { arguments: {} }]) {
    const { transport, delivered, sent } = guarded();
    transport.onmessage!({ jsonrpc: '2.0', id: 2, method: 'tools/call', params } as JSONRPCMessage);
    assert.equal(delivered.length, 0);
    const answer = sent[0] as { error?: { code: number; message: string } };
    assert.equal(answer.error?.code, -32602);
    assert.match(answer.error!.message, /^Invalid params: params\.(arguments|name): /);
  }
});
