import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearerToken, hashKey, parseApiKey } from './api-key.ts';

describe('parseApiKey', () => {
  it('takes project and env from sk_<env>_<project>_<secret>', () => {
    assert.deepEqual(parseApiKey('sk_live_acme_s3cretXYZW'), {
      env: 'live',
      project: 'acme',
      secret: 's3cretXYZW',
      prefix: 'sk_live_acme',
      last4: 'XYZW',
    });
  });

  it('refuses anything but four non-empty segments with env test or live', () => {
    for (const bad of [
      '',
      'sk_test_acme',
      'sk_test_acme_s_x',
      'sk_dev_acme_s',
      'pk_test_acme_s',
      'sk__acme_s',
      'sk_test__s',
      'sk_test_acme_',
      'sk_test_ac me_s',
    ]) {
      assert.equal(parseApiKey(bad), null, bad);
    }
  });
});

describe('bearerToken', () => {
  it('reads Bearer credentials only', () => {
    assert.equal(bearerToken('Bearer abc'), 'abc');
    assert.equal(bearerToken('bearer abc'), 'abc');
    assert.equal(bearerToken('Basic abc'), null);
    assert.equal(bearerToken('Bearer'), null);
    assert.equal(bearerToken(undefined), null);
  });
});

describe('hashKey', () => {
  it('is a stable SHA-256 that never contains the key', () => {
    assert.equal(hashKey('sk_test_p_s'), hashKey('sk_test_p_s'));
    assert.notEqual(hashKey('sk_test_p_s'), hashKey('sk_test_p_t'));
    assert.match(hashKey('sk_test_p_s'), /^[0-9a-f]{64}$/);
  });
});
