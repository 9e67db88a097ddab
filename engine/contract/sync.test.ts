import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SyncPairing } from './sync.ts';

const pairing = (remote: string) => SyncPairing.safeParse({ remote, remote_key: 'sk_test_home_x' });

describe('the remote of a pairing', () => {
  it('is https, or plain http on a loopback host', () => {
    for (const remote of [
      'https://mnemo.example.org/v1',
      'https://10.0.0.5:8443/v1/',
      'http://127.0.0.1:4100/v1',
      'http://127.8.9.10/v1',
      'http://localhost:4100/v1',
      'http://LOCALHOST/v1',
      'http://[::1]:4100/v1',
    ]) {
      assert.equal(pairing(remote).success, true, remote);
    }
  });

  it('refuses plain http to any other host, saying why', () => {
    for (const remote of [
      'http://mnemo.example.org/v1',
      'http://10.0.0.5/v1',
      'http://192.168.1.2:4100/v1',
      'http://128.0.0.1/v1',
      'http://localhost.example.org/v1',
      'http://127.0.0.1.example.org/v1',
      'http://[::2]/v1',
      'http://0.0.0.0/v1',
    ]) {
      const r = pairing(remote);
      assert.equal(r.success, false, remote);
      assert.deepEqual(
        r.error!.issues.map((i) => [i.path, i.message]),
        [[['remote'], 'must be https: plain http is for a loopback host only (127.0.0.0/8, ::1, localhost)']],
        remote,
      );
    }
  });

  it('refuses another scheme, a path that does not end in /v1, or no URL, naming what is wrong', () => {
    for (const [remote, message] of [
      // Plain http is allowed here: only /v1 is missing, and that is all that is said.
      ['http://127.0.0.1:4100', "must end in /v1, the API's base: http://127.0.0.1:4100/v1"],
      ['http://localhost:4100/', "must end in /v1, the API's base: http://localhost:4100/v1"],
      ['https://mnemo.example.org/api', "must end in /v1, the API's base; its path is /api"],
      ['ftp://127.0.0.1/v1', 'must be https (or plain http on a loopback host), not ftp:'],
      [
        'not a url',
        "must be a URL: the hosted Mnemo's base, ending in /v1 (https://mnemo.example.org/v1; plain http on a loopback host only)",
      ],
    ]) {
      assert.deepEqual(
        pairing(remote!).error!.issues.map((i) => i.message),
        [message],
        remote,
      );
    }
    // Both wrong: both said, the base named with https.
    assert.deepEqual(
      pairing('http://mnemo.example.org').error!.issues.map((i) => i.message),
      [
        'must be https: plain http is for a loopback host only (127.0.0.0/8, ::1, localhost)',
        "must end in /v1, the API's base: https://mnemo.example.org/v1",
      ],
    );
  });
});

describe('the remote of a pairing, with a user name or password', () => {
  it('is refused, saying why, without the password', () => {
    for (const remote of [
      'https://bob:hunter2@mnemo.example.org/v1',
      'https://bob@mnemo.example.org/v1',
      'https://:hunter2@mnemo.example.org/v1',
      'http://bob:hunter2@127.0.0.1:4100/v1',
    ]) {
      const r = pairing(remote);
      assert.equal(r.success, false, remote);
      const issues = r.error!.issues.map((i) => [i.path, i.message]);
      assert.deepEqual(
        issues,
        [[['remote'], 'must not hold a user name or password: the key goes in remote_key']],
        remote,
      );
      assert.ok(!JSON.stringify(issues).includes('hunter2'));
    }
  });
});

describe('the key of a pairing', () => {
  const withKey = (remote_key: string) =>
    SyncPairing.safeParse({ remote: 'https://mnemo.example.org/v1', remote_key });

  it('is a hosted Mnemo key: sk_<env>_<project>_<secret>', () => {
    for (const key of ['sk_test_home_x', 'sk_live_acme_AbC123-.~!$&+=/?']) {
      assert.equal(withKey(key).success, true, key);
    }
  });

  it('refuses anything else, whitespace and line breaks too, without showing it', () => {
    for (const key of [
      'sk_test_home_secretpart\nmore  ',
      'sk_test_home_secret part',
      ' sk_test_home_secret',
      'sk_test_home_secret\t',
      'sk_test_home_secrét',
      'sk_prod_home_secret',
      'sk_test_home',
      'sk_test_home_a_b',
      'sk_test__secret',
      'Bearer sk_test_home_secret',
      '',
    ]) {
      const r = withKey(key);
      assert.equal(r.success, false, JSON.stringify(key));
      const issues = r.error!.issues.map((i) => [i.path, i.message]);
      assert.deepEqual(
        issues,
        [
          [
            ['remote_key'],
            'must be a key of the hosted Mnemo, sk_<env>_<project>_<secret>: printable ASCII, no spaces or line breaks',
          ],
        ],
        JSON.stringify(key),
      );
    }
  });
});
