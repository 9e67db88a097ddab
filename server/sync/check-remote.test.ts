import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { checkRemote } from './check-remote.ts';

/** A TCP server on `host` that treats each connection as `onSocket` says; its port, and how to stop it. */
async function tcp(
  host: string,
  onSocket: (s: Socket) => void,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
    onSocket(s);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    // A connection the client's pool keeps half-open would hold close() forever.
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The check's refusal for a remote at `host:port`, with the port written as PORT. */
async function refusal(
  host: string,
  port: number,
  log: string[],
): Promise<{ code: string; message: string }> {
  const e = await checkRemote(
    { remote: `http://${host}:${port}/v1`, remoteBrain: 'ana', remoteKey: 'sk_test_home_secret0000' },
    { timeoutMs: 2_000, log: (line) => log.push(line) },
  ).then(
    () => assert.fail('the check passed'),
    (err: unknown) => err,
  );
  assert.ok(e instanceof MnemoError, String(e));
  return { code: e.code, message: e.message.replaceAll(String(port), 'PORT') };
}

// 127.0.0.1 is asked over node:http (loopback-fetch.ts), 127.0.0.2 over the global fetch (undici).
for (const host of ['127.0.0.1', '127.0.0.2']) {
  test(`a port of ${host} that refuses, resets or is not HTTP gets one answer, the network error only in the log`, async () => {
    // Nothing listens: ECONNREFUSED.
    const closed = await tcp(host, () => {});
    await closed.stop();
    // A listener that resets each connection: ECONNRESET.
    const reset = await tcp(host, (s) => s.resetAndDestroy());
    // A listener that speaks another protocol (an SSH banner): a parse error.
    const banner = await tcp(host, (s) => s.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const log: string[] = [];
    try {
      const answers = [
        await refusal(host, closed.port, log),
        await refusal(host, reset.port, log),
        await refusal(host, banner.port, log),
      ];
      for (const a of answers) assert.deepEqual(a, answers[0]);
      assert.equal(answers[0]!.code, 'sync_remote_unavailable');
      assert.match(
        answers[0]!.message,
        new RegExp(
          `^remote: cannot reach http://${host.replaceAll('.', '\\.')}:PORT/v1 \\(GET /v1/brains/ana\\): ` +
            'no connection to it could be made or kept; check the address.*; nothing was paired or changed$',
        ),
      );
      // The person's log says what failed, each its own way; never the key.
      assert.equal(log.length, 3, log.join('\n'));
      assert.match(log[0]!, /ECONNREFUSED/);
      assert.doesNotMatch(log[1]!, /ECONNREFUSED/);
      assert.ok(!log.join('\n').includes('secret0000'));
    } finally {
      await Promise.all([reset.stop(), banner.stop()]);
    }
  });
}
