import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { apiBaseProblem, httpUrl } from './options.ts';

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
