import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCodes } from '../../engine/errors/codes.ts';
import { errorPage } from './docs-pages.ts';

const retryOf = (code: string) => /<th>Retry\?<\/th><td>([^<]*)<\/td>/.exec(errorPage(code) ?? '')?.[1];

test('every error code has a page whose retry advice fits the code, not only its type', () => {
  for (const code of Object.keys(errorCodes)) assert.ok(retryOf(code), code);
  // A stale Object version is re-read and re-applied; a taken Brain id or a used key is not.
  assert.match(retryOf('stale_version')!, /if_version/);
  for (const code of ['brain_exists', 'idempotency_conflict', 'correction_conflict'])
    assert.doesNotMatch(retryOf(code)!, /if_version/, code);
  assert.match(retryOf('brain_exists')!, /another id/);
  assert.match(retryOf('sync_remote_key_refused')!, /records:read and records:write/);
  assert.equal(errorPage('no_such_code'), null);
});

test('the codes a client raises itself have pages too: a bridge or sync error links to one that exists', () => {
  for (const code of ['network_error', 'remote_timeout', 'response_too_large', 'remote_redirected'])
    assert.ok(retryOf(code), code);
  assert.match(errorPage('network_error')!, /raised by the client/);
  assert.equal(errorPage('constructor'), null);
});
