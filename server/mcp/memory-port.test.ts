import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMnemoClient } from '../client/index.ts';
import { MnemoApiError } from '../client/mnemo-api-error.ts';
import { clientPort } from './memory-port.ts';
import { freePort } from '../../test/support/free-port.ts';

test('a bridge whose MNEMO_URL nothing answers says Mnemo may not be running, and how to point it', async () => {
  const url = `http://127.0.0.1:${await freePort()}/v1`;
  const port = clientPort(createMnemoClient({ baseUrl: url, apiKey: 'sk_test_home_x', retry: false }), 'me');
  await assert.rejects(port.getProfile({}), (e: unknown) => {
    assert.ok(e instanceof MnemoApiError);
    assert.equal(e.code, 'network_error');
    assert.match(e.message, new RegExp(`^cannot reach ${url.replace(/[./]/g, '\\$&')}`));
    assert.match(e.message, /nothing answers at MNEMO_URL: start Mnemo \(the desktop app, or mnemo serve\)/);
    return true;
  });
});
