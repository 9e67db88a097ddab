import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { runStdioBridge } from './stdio-bridge.ts';

// A server that takes the connection and never answers: a frozen app, one stopped in a debugger.
test('a tool call to a server that never answers ends in a tool error saying so, not a wait for ever', async () => {
  const held: Socket[] = [];
  const silent = createServer((s) => held.push(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  output.on('data', (c: Buffer) => {
    buffered += c.toString('utf8');
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      lines.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
      buffered = buffered.slice(at + 1);
    }
  });
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
  const send = (m: object) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  const answer = async (id: number) => {
    for (let i = 0; i < 200; i += 1) {
      const found = lines.find((l) => l['id'] === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 25));
    }
    assert.fail(`no answer to request ${id}`);
  };
  try {
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    await answer(1);
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'get_profile', arguments: {} } });
    const result = (await answer(2))['result'] as { isError?: boolean; content: { text: string }[] };
    assert.equal(result.isError, true);
    assert.match(
      result.content[0]!.text,
      /^network_error \(no HTTP answer\): .*no answer in 0\.15 s: Mnemo took the connection but did not answer/,
    );
    assert.ok(held.length >= 1, 'the request reached the silent server');
  } finally {
    input.end();
    await running;
    for (const s of held) s.destroy();
    silent.close();
  }
});
