import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createMnemoClient } from '../../server/client/index.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { cliBundleEnv } from '../support/cli-env.ts';

// Fuzzed stdin never produces a byte on stdout that is not a JSON-RPC message, and never kills the
// bridge: after the garbage, a well-formed initialize still gets its answer.
let server: RunningServer;
const key = 'sk_test_fuzz_secret1234';

before(async () => {
  server = await startServer({ engine: 'reference', port: 0 });
  await createMnemoClient({ baseUrl: server.url, apiKey: key }).createBrain({ id: 'b' });
});
after(() => server.close());

const methods = [
  'initialize',
  'tools/list',
  'tools/call',
  'ping',
  'notifications/initialized',
  'resources/list',
  'prompts/get',
];
const jsonRpcish = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('1.0'), fc.integer()),
    id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
    method: fc.oneof(fc.constantFrom(...methods), fc.string()),
    params: fc.oneof(
      fc.anything(),
      fc.record({
        name: fc.constantFrom('remember', 'get_context', 'get_record', 'nope'),
        arguments: fc.anything(),
      }),
    ),
    result: fc.anything(),
  },
  { requiredKeys: [] },
);
const line = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 100 }),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  jsonRpcish.map((v) => JSON.stringify(v)),
  jsonRpcish.map((v) => JSON.stringify(v).slice(0, -3)),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constant('\r'),
  fc.constant(
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_context","arguments":{"query":""}}}',
  ),
);

async function fuzzBridge(env: Record<string, string>, seed: number, exitCode = 0): Promise<void> {
  const child = spawn(process.execPath, ['bin/mnemo.mjs', 'mcp'], {
    env: { PATH: process.env.PATH ?? '', ...cliBundleEnv, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.resume();
  const lines = fc.sample(line, { numRuns: 400, seed });
  for (const l of lines) child.stdin.write(`${l}\n`);
  const probe = {
    jsonrpc: '2.0',
    id: 'probe-after-fuzz',
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
  };
  child.stdin.write(`${JSON.stringify(probe)}\n`);
  const deadline = Date.now() + 20_000;
  while (!stdout.includes('"probe-after-fuzz"') && Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(child.exitCode, null, 'the bridge is still running after the fuzz');
  assert.ok(stdout.includes('"probe-after-fuzz"'), 'a well-formed request after the fuzz is answered');
  for (const out of stdout.split('\n').filter((l) => l !== '')) {
    const msg = JSON.parse(out) as Record<string, unknown>;
    assert.equal(msg.jsonrpc, '2.0', `stdout line is JSON-RPC: ${out.slice(0, 200)}`);
    assert.ok(
      'id' in msg || 'method' in msg,
      `stdout line is a response or a notification: ${out.slice(0, 200)}`,
    );
  }
  assert.ok(stdout.endsWith('\n'), 'every message is newline-terminated');
  // The fuzz reached the JSON-RPC layer (some fuzzed requests were answered), not only the line reader.
  assert.ok(stdout.split('\n').length > 10, 'fuzzed requests were answered');
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  // 2: a bridge that could only refuse says so to a host that reads the exit code alone.
  assert.equal(child.exitCode, exitCode, 'closing stdin ends the bridge cleanly');
}

describe('mnemo mcp under fuzzed stdin', () => {
  test('configured bridge', () =>
    fuzzBridge({ MNEMO_PROJECT: 'fuzz', MNEMO_BRAIN: 'b', MNEMO_KEY: key, MNEMO_URL: server.url }, 20261122));
  test('unconfigured bridge (answers with mcp_identity_unconfigured)', () => fuzzBridge({}, 7, 2));
});
