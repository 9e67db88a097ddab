import { networkInterfaces } from 'node:os';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { apiBaseProblem, httpUrl, postgresUrl } from './options.ts';

test("the API's base is what the listening line prints, ending in /v1", () => {
  for (const ok of [
    'http://127.0.0.1:7821/v1',
    'http://127.0.0.1:7821/v1/',
    'https://mnemo.example.org/team/v1',
  ])
    assert.equal(apiBaseProblem(ok), null, ok);
  assert.match(
    apiBaseProblem('http://127.0.0.1:7821')!,
    /^"http:\/\/127\.0\.0\.1:7821" is not the API's base: it ends in \/v1.*\(http:\/\/127\.0\.0\.1:7821\/v1\?\)$/,
  );
  assert.match(apiBaseProblem('http://127.0.0.1:7821/v2')!, /ends in \/v1/);
  assert.match(apiBaseProblem('127.0.0.1:7821/v1')!, /not an http\(s\) URL|not a URL/);
  assert.match(apiBaseProblem('localhost')!, /is not a URL/);
});

test('mnemo import and mnemo sync refuse a --url or MNEMO_URL without /v1 before sending anything', () => {
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, ['bin/mnemo.mjs', ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, MNEMO_KEY: 'sk_test_p_secret', MNEMO_URL: '', ...env },
    });
  // Port 1: nothing listens there, so a request sent would fail otherwise.
  const imported = run(['import', 'notes', '--brain', 'b', '--url', 'http://127.0.0.1:1']);
  assert.equal(imported.status, 2, imported.stderr);
  assert.match(imported.stderr, /^mnemo import: --url: "http:\/\/127\.0\.0\.1:1" is not the API's base/);
  const synced = run(['sync', 'status', '--brain', 'b'], { MNEMO_URL: 'http://127.0.0.1:1/' });
  assert.equal(synced.status, 2, synced.stderr);
  assert.match(synced.stderr, /^mnemo sync: MNEMO_URL: "http:\/\/127\.0\.0\.1:1\/" is not the API's base/);
});

test('mnemo import, mcp and sync refuse to send their key over plain http beyond this machine', () => {
  const plain =
    'must be https: plain http is for this machine only (a loopback host, 0.0.0.0, [::] or one of its own addresses)';
  for (const ok of [
    'http://127.0.0.1:7821/v1',
    'http://127.3.4.5:7821/v1',
    'http://localhost:7821/v1',
    'http://[::1]:7821/v1',
    'https://mnemo.example.org/v1',
    // What `mnemo serve --host 0.0.0.0` prints, and this machine's own addresses: the key stays here.
    'http://0.0.0.0:7821/v1',
    'http://[::]:7821/v1',
    ...Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((a) => `http://${a.family === 'IPv6' ? `[${a.address.split('%')[0]}]` : a.address}:7821/v1`),
  ])
    assert.equal(apiBaseProblem(ok), null, ok);
  // Documentation addresses (RFC 5737, RFC 3849): never this machine's.
  for (const bad of [
    'http://mnemo.example.org/v1',
    'http://192.0.2.20:7821/v1',
    'http://[2001:db8::1]:7821/v1',
  ])
    assert.equal(apiBaseProblem(bad), `"${bad}" ${plain}`, bad);

  const env = { ...process.env, MNEMO_KEY: 'sk_test_p_secret', MNEMO_URL: '' };
  // `.invalid` never resolves: a request sent would fail with cannot reach, not this refusal.
  const url = 'http://mnemo.invalid:7821/v1';
  const run = (args: string[], more: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, ['bin/mnemo.mjs', ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...env, ...more },
    });
  const imported = run(['import', 'notes', '--brain', 'b', '--url', url]);
  assert.equal(imported.status, 2, imported.stderr);
  assert.equal(imported.stderr, `mnemo import: --url: "${url}" ${plain}\n`);
  const synced = run(['sync', 'status', '--brain', 'b'], { MNEMO_URL: url });
  assert.equal(synced.status, 2, synced.stderr);
  assert.equal(synced.stderr, `mnemo sync: MNEMO_URL: "${url}" ${plain}\n`);
  // The bridge answers its client's initialize with the refusal (test/integration/mcp-stdio.test.ts
  // drives that over MCP) and logs it on stderr; stdin at its end, it then stops.
  const bridged = run(['mcp'], { MNEMO_URL: url, MNEMO_PROJECT: 'p', MNEMO_BRAIN: 'b', MNEMO_LOG: 'silent' });
  assert.match(
    bridged.stderr,
    new RegExp(`mcp_identity_unconfigured: MNEMO_URL: "${url.replace(/[.]/g, '\\.')}" must be https`),
  );
});

test('a --docs-url-base that links cannot be built on, or that holds a password, is refused', () => {
  for (const ok of [
    'https://docs.example.com',
    'https://docs.example.com/mnemo/',
    'http://127.0.0.1:8080/docs',
  ])
    assert.equal(httpUrl(ok), ok);
  // Each would be sent in every error's docs_url, to callers without a key too.
  for (const bad of [
    'https://docs.example.com/mnemo?x=1',
    'https://docs.example.com/mnemo#top',
    'https://bob:hunter2@docs.example.com/',
    'https://bob@docs.example.com/',
  ])
    assert.throws(
      () => httpUrl(bad),
      (e: unknown) => e instanceof InvalidArgumentError && /no user, query or fragment/.test(e.message),
      bad,
    );
});

test('--database-url takes a Unix socket with no host before the path, and refuses what pg cannot read', () => {
  // libpq's and pg's socket form, which WHATWG URL alone refuses (a user with no host).
  const socket = 'postgresql://postgres@/postgres?host=/tmp/pgqa&port=55433';
  assert.equal(postgresUrl(socket), socket);
  for (const [bad, said] of [
    ['postgres://me:s3cret@?host=/tmp/pgqa', /^must be a postgres:\/\/user:password@host:port\/database URL/],
    [
      'postgres://me:s3cret@/mnemo?host=tmp/pgqa',
      /^must have a \?host= that is a host name or the Unix socket/,
    ],
  ] as const)
    assert.throws(
      () => postgresUrl(bad),
      (e: unknown) =>
        e instanceof InvalidArgumentError && said.test(e.message) && !e.message.includes('s3cret'),
      bad,
    );
});
