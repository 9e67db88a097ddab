import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { SyncPairing } from '../../engine/contract/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { MnemoApiError } from '../../server/client/index.ts';
import { checkRemote } from '../../server/sync/check-remote.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { allRecords, onLoopback, startNode, tempRoot, type Node } from './sync-helpers.ts';

/** A plain HTTP server on loopback answering every request as `answer` does: its /v1 URL. */
const httpServer = (answer: (req: IncomingMessage, res: ServerResponse) => void) =>
  onLoopback(createServer(answer));

/** A loopback port nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const s = await httpServer(() => {});
  await s.close();
  return Number(new URL(s.url).port);
}

const refused = async (p: Promise<unknown>): Promise<MnemoApiError> => {
  try {
    await p;
  } catch (e) {
    if (e instanceof MnemoApiError) return e;
    throw e;
  }
  assert.fail('expected the pairing to be refused');
};

/** `mnemo sync add` against the device's server: its exit code and output. */
function syncAdd(
  d: Node,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/mnemo.mjs', 'sync', 'add', '--url', d.server.url, ...args], {
      env: { ...process.env, MNEMO_KEY: d.key, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('pairing checks the remote before it stores anything', () => {
  const { root, remove } = tempRoot('mnemo-sync-check-');
  const logged: string[] = [];
  let d: Node;
  let h: Node;
  let reference: RunningServer;
  /** Pairings tried with a key: none of it may show in an answer or a log line. */
  const keysUsed: string[] = [];
  before(async () => {
    [d, h, reference] = await Promise.all([
      startNode(root, 'd', {
        log: (line) => logged.push(line),
        sync: { debounceMs: 3_600_000, intervalMs: 3_600_000, checkTimeoutMs: 400 },
      }),
      startNode(root, 'h', { deployment: 'hosted' }),
      startServer({ engine: 'reference', port: 0, rateLimit: 0 }),
    ]);
    await d.client.createBrain({ id: 'ana' });
  });
  after(async () => {
    await Promise.all([d.stop(), h.stop(), reference.close()]);
    remove();
  });

  /** A pairing of `ana` refused with `code`; the Brain stays unpaired, and the key is nowhere in the answer. */
  const pairRefused = async (body: SyncPairing, code: string, status: number): Promise<MnemoApiError> => {
    keysUsed.push(body.remote_key);
    const e = await refused(d.client.pairSync('ana', body));
    assert.equal(e.code, code, e.message);
    assert.equal(e.status, status);
    assert.ok(
      e.message.includes(body.remote.replace(/\/$/, '')),
      `the message names the remote: ${e.message}`,
    );
    assert.match(e.message, /; nothing was paired or changed$/);
    assert.ok(!JSON.stringify(e.body).includes(body.remote_key), 'the key is not in the answer');
    assert.equal((await d.client.getSync('ana')).paired, false);
    return e;
  };
  const hostedKey = (o: { scopes?: ('records:read' | 'records:write')[] } = {}) =>
    h.server.registry!.create({ env: 'test', project: 'home', ...o });

  it('refuses a remote nothing listens on: 502 sync_remote_unavailable, saying it cannot be reached', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const e = await pairRefused({ remote: url, remote_key: h.key }, 'sync_remote_unavailable', 502);
    assert.equal(e.type, 'internal');
    assert.match(
      e.message,
      /^remote: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \(GET \/v1\/brains\/ana\): no connection to it could be made or kept; check the address/,
    );
    // The network's own error is the server's log's, not the answer's (server/sync/check-remote.test.ts).
    assert.doesNotMatch(e.message, /ECONNREFUSED/);
    assert.ok(
      logged.some((l) => /^sync pairing check: cannot reach .*ECONNREFUSED/.test(l)),
      logged.join('\n'),
    );
    assert.equal(e.body.remote_code, undefined, 'nothing answered');
  });

  it('refuses a web server that is not a Mnemo, naming what it answered', async () => {
    const page = await httpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'),
    );
    const api = await httpServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}'),
    );
    try {
      const html = await pairRefused({ remote: page.url, remote_key: h.key }, 'sync_remote_unavailable', 502);
      assert.match(
        html.message,
        /is not a Mnemo API: GET \/v1\/brains\/ana answered HTTP 200 \(text\/html\), not Mnemo's JSON; check the address/,
      );
      const other = await pairRefused({ remote: api.url, remote_key: h.key }, 'sync_remote_unavailable', 502);
      assert.match(
        other.message,
        /is not a Mnemo API: GET \/v1\/brains\/ana answered HTTP 404 \(application\/json\)/,
      );
    } finally {
      await Promise.all([page.close(), api.close()]);
    }
  });

  it('refuses a remote that accepts the connection and never answers, within its timeout', async () => {
    const silent = await httpServer(() => {});
    try {
      const started = Date.now();
      const e = await pairRefused({ remote: silent.url, remote_key: h.key }, 'sync_remote_unavailable', 502);
      assert.match(
        e.message,
        /did not answer in time \(GET \/v1\/brains\/ana: not done within 0\.4 s; the request was cut\)/,
      );
      // The client tries a 502 once more: two checks of 0.4 s, not a run's minute.
      assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
    } finally {
      await silent.close();
    }
  });

  it('refuses a made-up key and a revoked one with 400 sync_remote_key_refused and the remote’s code', async () => {
    const madeUp = 'sk_test_home_madeupsecret000000000000';
    const e = await pairRefused({ remote: h.server.url, remote_key: madeUp }, 'sync_remote_key_refused', 400);
    assert.equal(e.type, 'invalid_request');
    assert.equal(e.body.remote_code, 'invalid_api_key');
    assert.match(
      e.message,
      /^remote_key: http:\/\/127\.0\.0\.1:\d+\/v1 refused the key: GET \/v1\/brains\/ana answered 401 invalid_api_key: /,
    );

    const { key, record } = await hostedKey();
    await h.server.registry!.revoke(record.id);
    const revoked = await pairRefused(
      { remote: h.server.url, remote_key: key },
      'sync_remote_key_refused',
      400,
    );
    assert.equal(revoked.body.remote_code, 'key_revoked');
  });

  it('refuses a key without records:write or without records:read, naming the scope', async () => {
    // A Brain there: of one not there yet, any key's request is answered brain_not_found.
    await h.client.createBrain({ id: 'scoped' });
    const readOnly = (await hostedKey({ scopes: ['records:read'] })).key;
    const e = await pairRefused(
      { remote: h.server.url, remote_key: readOnly, remote_brain: 'scoped' },
      'sync_remote_key_refused',
      400,
    );
    assert.equal(e.body.remote_code, 'missing_scope');
    assert.match(
      e.message,
      /POST \/v1\/brains\/scoped\/sync\/records answered 403 missing_scope: .*"records:write"/,
    );
    assert.match(e.message, /a sync run needs a key with records:read and records:write/);

    const writeOnly = (await hostedKey({ scopes: ['records:write'] })).key;
    const w = await pairRefused(
      { remote: h.server.url, remote_key: writeOnly, remote_brain: 'scoped' },
      'sync_remote_key_refused',
      400,
    );
    assert.match(
      w.message,
      /GET \/v1\/brains\/scoped\/records\?since_watermark=start&limit=1 answered 403 missing_scope: .*"records:read"/,
    );
    // A key without records:write, where the Brain is not there yet: paired; the first run will tell.
    await d.client.pairSync('ana', { remote: h.server.url, remote_key: readOnly, remote_brain: 'not-yet' });
    await d.client.unpairSync('ana');
  });

  it('refuses a remote that holds this very Brain: the local server itself', async () => {
    const e = await pairRefused({ remote: d.server.url, remote_key: d.key }, 'sync_remote_unsupported', 400);
    assert.match(
      e.message,
      /holds this very Brain \(ana, made at \d{4}-[^)]+\): it is this server, or a copy of its store/,
    );
  });

  it('refuses a Mnemo that cannot serve sync (the reference engine) with 400 sync_remote_unsupported', async () => {
    const e = await pairRefused(
      { remote: reference.url, remote_key: 'sk_test_home_referencekey0000' },
      'sync_remote_unsupported',
      400,
    );
    assert.equal(e.body.remote_code, 'not_implemented');
    assert.match(
      e.message,
      /cannot serve sync: GET \/v1\/brains\/ana\/records\?since_watermark=start&limit=1 answered 501 not_implemented: /,
    );
  });

  it('refuses a remote that fails (5xx) as unavailable, and keeps a key it echoes out of the message', async () => {
    const echo = await httpServer((req, res) =>
      res.writeHead(503, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          type: 'internal',
          code: 'overloaded',
          // The secret segment alone is the key too: its prefix is no secret.
          message: `busy; you sent ${req.headers.authorization}, secret ${req.headers.authorization?.split('_').at(-1)}`,
        }),
      ),
    );
    try {
      const key = 'sk_test_home_echoedsecret0000000000';
      const e = await pairRefused({ remote: echo.url, remote_key: key }, 'sync_remote_unavailable', 502);
      assert.equal(e.body.remote_code, 'overloaded');
      assert.match(
        e.message,
        /failed: GET \/v1\/brains\/ana answered 503 overloaded: busy; you sent Bearer \[remote key\], secret \[remote key\]; try again later/,
      );
      assert.doesNotMatch(e.message, /echoedsecret/);
    } finally {
      await echo.close();
    }
  });

  it('pairs with a remote that works, leaves a pairing as it was when a change is refused, and pairs again', async () => {
    await d.client.rememberRecord('ana', { content: 'The ferry leaves at seven.' });
    const paired = await d.client.pairSync('ana', { remote: h.server.url, remote_key: h.key });
    assert.equal(paired.paired, true);
    assert.equal((await d.client.runSync('ana')).last_error, null);
    assert.equal((await allRecords(h.client, 'ana')).length, 1);
    const before = await d.client.getSync('ana');

    const e = await refused(
      d.client.pairSync('ana', { remote: h.server.url, remote_key: 'sk_test_home_typo0000000000' }),
    );
    assert.equal(e.code, 'sync_remote_key_refused');
    const kept = await d.client.getSync('ana');
    assert.deepEqual(
      [kept.paired, kept.remote, kept.remote_brain, kept.paired_at, kept.pushed],
      [true, before.remote, before.remote_brain, before.paired_at, before.pushed],
    );
    assert.equal((await d.client.runSync('ana')).last_error, null, 'the kept pairing still syncs');

    // Pairing again with the same remote and key: the Brain exists there now; its cursors are kept.
    const again = await d.client.pairSync('ana', { remote: h.server.url, remote_key: h.key });
    assert.equal(again.paired, true);
    const run = await d.client.runSync('ana');
    assert.deepEqual([run.last_error, run.pending], [null, 0]);
    assert.equal((await allRecords(h.client, 'ana')).length, 1);
    await d.client.unpairSync('ana');
  });

  it('checks nothing for a Brain that does not exist here', async () => {
    const e = await refused(d.client.pairSync('nobody', { remote: h.server.url, remote_key: h.key }));
    assert.equal(e.code, 'brain_not_found');
  });

  it('mnemo sync add prints the refusal and exits 1; it pairs when the remote works', async () => {
    const port = await closedPort();
    const typo = await syncAdd(d, ['--brain', 'ana', '--remote', `http://127.0.0.1:${port}/v1`], {
      MNEMO_REMOTE_KEY: h.key,
    });
    assert.equal(typo.status, 1, typo.stderr);
    assert.equal(typo.stdout, '');
    assert.match(
      typo.stderr,
      new RegExp(
        `^mnemo sync: sync_remote_unavailable: remote: cannot reach http://127\\.0\\.0\\.1:${port}/v1 .*; nothing was paired or changed\\n$`,
      ),
    );
    // The /v1 left out of a loopback URL: what is missing is said, not that http is not allowed.
    const noV1 = await syncAdd(d, ['--brain', 'ana', '--remote', new URL(h.server.url).origin], {
      MNEMO_REMOTE_KEY: h.key,
    });
    assert.equal(noV1.status, 1, noV1.stderr);
    assert.equal(
      noV1.stderr,
      `mnemo sync: invalid_request_body: remote: must end in /v1, the API's base: ${h.server.url}\n`,
    );
    const badKey = await syncAdd(d, [
      '--brain',
      'ana',
      '--remote',
      h.server.url,
      '--remote-key',
      'sk_test_home_wrong000000000',
    ]);
    assert.equal(badKey.status, 1);
    // The flag still works (scripts use it), with one line on where the key now shows.
    assert.match(
      badKey.stderr,
      /^mnemo sync add: warning: --remote-key on the command line is visible to other programs \(ps\) and kept in shell history; set MNEMO_REMOTE_KEY instead\nmnemo sync: sync_remote_key_refused: remote_key: .* refused the key: .*401 invalid_api_key/,
    );
    assert.ok(!badKey.stderr.includes('sk_test_home_wrong000000000'));
    assert.equal((await d.client.getSync('ana')).paired, false);

    // A key read from a file ends in a line break, which is not part of it.
    const ok = await syncAdd(d, ['--brain', 'ana', '--remote', h.server.url], {
      MNEMO_REMOTE_KEY: `${h.key}\n`,
    });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^Brain ana <-> ana at http:\/\/127\.0\.0\.1:\d+\/v1\n/);
    await d.client.unpairSync('ana');

    // With --json, a refusal is JSON on stdout too: the spec's error body under "error".
    const refusedJson = await syncAdd(
      d,
      ['--brain', 'ana', '--remote', `http://127.0.0.1:${port}/v1`, '--json'],
      { MNEMO_REMOTE_KEY: h.key },
    );
    assert.equal(refusedJson.status, 1);
    const { error } = JSON.parse(refusedJson.stdout) as {
      error: { code: string; type: string; message: string };
    };
    assert.equal(error.code, 'sync_remote_unavailable');
    assert.match(error.message, /nothing was paired or changed$/);
    assert.match(refusedJson.stderr, /^mnemo sync: sync_remote_unavailable: /);
    const pairedJson = await syncAdd(d, ['--brain', 'ana', '--remote', h.server.url, '--json'], {
      MNEMO_REMOTE_KEY: h.key,
    });
    assert.equal(pairedJson.status, 0, pairedJson.stderr);
    assert.equal((JSON.parse(pairedJson.stdout) as { paired: boolean }).paired, true);
    await d.client.unpairSync('ana');
    // A usage error too: no remote key given.
    const noKeyJson = await syncAdd(d, ['--brain', 'ana', '--remote', h.server.url, '--json'], {
      MNEMO_REMOTE_KEY: '',
    });
    assert.equal(noKeyJson.status, 2);
    assert.deepEqual(JSON.parse(noKeyJson.stdout), {
      error: {
        type: 'invalid_request',
        code: 'invalid_request_body',
        message: 'remote_key: pass --remote-key or set MNEMO_REMOTE_KEY',
      },
    });
  });

  it('refuses a remote URL with a user name or password before asking it, not showing the password', async () => {
    const port = new URL(h.server.url).port;
    const e = await refused(
      d.client.pairSync('ana', { remote: `http://bob:hunter2@127.0.0.1:${port}/v1`, remote_key: h.key }),
    );
    assert.deepEqual([e.status, e.code], [400, 'invalid_request_body'], e.message);
    assert.equal(e.message, 'remote: must not hold a user name or password: the key goes in remote_key');
    assert.ok(!JSON.stringify(e.body).includes('hunter2'));
    assert.equal((await d.client.getSync('ana')).paired, false);
  });

  it('refuses a key with a line break or a space before asking the remote, showing none of it', async () => {
    for (const key of ['sk_test_home_hiddenpart\nmore  ', 'sk_test_home_hidden part']) {
      keysUsed.push(key);
      const e = await refused(d.client.pairSync('ana', { remote: h.server.url, remote_key: key }));
      assert.deepEqual([e.status, e.code], [400, 'invalid_request_body'], e.message);
      assert.match(e.message, /^remote_key: must be a key of the hosted Mnemo, sk_<env>_<project>_<secret>/);
      assert.ok(!JSON.stringify(e.body).includes('hidden'), JSON.stringify(e.body));
    }
    assert.equal((await d.client.getSync('ana')).paired, false);
  });

  it('names no part of the key when fetch refuses to send it (the check called as it is)', async () => {
    // Headers trims the value it quotes, so the key as given is not what its message holds.
    const key = 'sk_test_home_hiddenpart\nmore  ';
    keysUsed.push(key);
    // 127.0.0.1 goes over node:http, 127.0.0.2 over the global fetch: each refuses the header its way.
    for (const remote of [h.server.url, `http://127.0.0.2:${await closedPort()}/v1`]) {
      const e = await checkRemote({ remote, remoteBrain: 'ana', remoteKey: key }).then(
        () => assert.fail('checked'),
        (err: unknown) => err,
      );
      assert.ok(e instanceof MnemoError, String(e));
      assert.equal(e.code, 'sync_remote_unavailable');
      assert.ok(!e.message.includes('hidden'), e.message);
      assert.equal(
        e.message,
        `remote: ${remote} (GET /v1/brains/ana): the request could not be sent (TypeError); ` +
          'nothing was paired or changed',
      );
    }
  });

  it('logs no key it was given, accepted or refused', () => {
    const all = logged.join('\n');
    for (const key of [...keysUsed, h.key]) assert.ok(!all.includes(key), 'a key in the log');
  });
});
