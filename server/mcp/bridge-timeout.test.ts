import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { jsonRpcLines, type ToolResult } from '../../test/support/json-rpc-lines.ts';
import { runStdioBridge } from './stdio-bridge.ts';

/**
 * The bridge in front of a server that takes the connection and never answers (a frozen app, one
 * stopped in a debugger): `call` sends a tools/call and returns its result, `received` what the
 * server was sent.
 */
async function silentBridge(
  run: (o: {
    call: (name: string, args: object) => Promise<ToolResult>;
    received: () => string;
  }) => Promise<void>,
) {
  const held: Socket[] = [];
  let received = '';
  const silent = createServer((s) => {
    held.push(s);
    s.on('data', (c: Buffer) => (received += c.toString('utf8')));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  const input = new PassThrough();
  const output = new PassThrough();
  const running = runStdioBridge({
    env: {
      MNEMO_PROJECT: 'home',
      MNEMO_BRAIN: 'me',
      MNEMO_KEY: `sk_test_home_${'a'.repeat(32)}`,
      MNEMO_URL: `http://127.0.0.1:${port}/v1`,
    },
    input,
    output,
    log: () => {},
    defaultUrl: `http://127.0.0.1:${port}/v1`,
    requestTimeoutMs: 150,
  });
  const mcp = jsonRpcLines(input, output);
  try {
    await mcp.initialize();
    await run({
      call: mcp.call,
      received: () => received,
    });
    assert.ok(held.length >= 1, 'the requests reached the silent server');
  } finally {
    input.end();
    await running;
    for (const s of held) s.destroy();
    silent.close();
  }
}

test('a tool call to a server that never answers ends in a tool error saying so, not a wait for ever', async () => {
  await silentBridge(async ({ call }) => {
    const result = await call('get_profile', {});
    assert.equal(result.isError, true);
    assert.match(
      result.content[0]!.text,
      /^network_error \(no HTTP answer\): no answer in 0\.15 s from \S+: Mnemo took the connection but did not answer/,
    );
  });
});

test('a remember without idempotency_key whose outcome is unknown names the key it sent, to replay it', async () => {
  await silentBridge(async ({ call, received }) => {
    const result = await call('remember', { content: 'My dentist is Dr. Okafor.' });
    assert.equal(result.isError, true);
    const sent = [...received().matchAll(/^idempotency-key: (\S+)\r$/gim)].map((m) => m[1]);
    assert.equal(sent.length, 2, 'the client retried once, with the same key');
    assert.equal(sent[1], sent[0]);
    const key = sent[0]!;
    assert.match(key, /^idem_/);
    assert.ok(
      result.content[0]!.text.includes(
        `whether the Record was written is unknown: call remember again with the same arguments and ` +
          `idempotency_key ${JSON.stringify(key)}`,
      ),
      result.content[0]!.text,
    );
    assert.equal(result.structuredContent?.['idempotency_key'], key);
    assert.equal(result.structuredContent?.['code'], 'network_error');
    assert.equal(result.structuredContent?.['reached_server'], null);
  });
});

test('a remember_conversation without idempotency_key whose outcome is unknown names the key and thread it used, to replay it', async () => {
  await silentBridge(async ({ call, received }) => {
    const messages = [{ speaker: 'user', text: 'My dentist is Dr. Okafor.' }, { text: 'Noted.' }];
    const result = await call('remember_conversation', { messages });
    assert.equal(result.isError, true);
    const key = result.structuredContent?.['idempotency_key'];
    const thread = result.structuredContent?.['thread'];
    assert.ok(typeof key === 'string' && key.startsWith('idem_'), String(key));
    assert.equal(thread, `mcp:${key}`);
    // What was sent is what a second call with these makes: the first message's key, in that thread.
    const sent = [...received().matchAll(/^idempotency-key: (\S+)\r$/gim)].map((m) => m[1]);
    assert.deepEqual(sent, [`${key}#0`, `${key}#0`], 'the client retried once, with the same key');
    assert.ok(received().includes(`"thread":${JSON.stringify(thread)}`));
    assert.match(
      result.content[0]!.text,
      new RegExp(
        `^network_error \\(no HTTP answer\\): messages\\[0\\]: no answer in 0\\.15 s .*; whether it was ` +
          'written is unknown: call remember_conversation again with the same arguments and idempotency_key ' +
          `"${key}" and thread "${thread}", which writes each message once\\n`,
      ),
    );
    assert.equal(result.structuredContent?.['code'], 'network_error');
  });
});
