import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  absoluteTarget,
  hostAllowed,
  isLoopbackHost,
  loopbackHosts,
  loopbackPolicy,
  originAllowed,
  parsePublicUrl,
  publicApiBase,
  publicDocsBase,
} from './loopback-guard.ts';

describe('loopback guard', () => {
  const policy = loopbackPolicy('127.0.0.1', () => 7821);

  it('accepts loopback names with this port only', () => {
    for (const h of ['127.0.0.1:7821', 'localhost:7821', 'LOCALHOST:7821', '[::1]:7821'])
      assert.ok(hostAllowed(policy, h), h);
    for (const h of [
      undefined,
      '127.0.0.1',
      '127.0.0.1:80',
      'evil.example:7821',
      'localhost.evil.example:7821',
      // Bound to loopback, an address is not this server's name however it is spelt.
      '192.168.1.5:7821',
      '0.0.0.0:7821',
      '[::]:7821',
    ])
      assert.ok(!hostAllowed(policy, h), String(h));
  });

  it('allows requests without Origin and same-origin ones; refuses others', () => {
    assert.ok(originAllowed(policy, undefined, undefined));
    assert.ok(originAllowed(policy, 'http://localhost:7821', 'same-origin'));
    assert.ok(!originAllowed(policy, 'http://localhost:7821', 'cross-site'));
    assert.ok(!originAllowed(policy, 'https://evil.example', undefined));
    assert.ok(!originAllowed(policy, 'null', undefined));
    assert.ok(!originAllowed(policy, 'http://127.0.0.1:9999', undefined));
    assert.ok(!originAllowed(policy, 'http://192.168.1.5:7821', undefined));
  });

  it('adds an explicitly bound non-loopback host', () => {
    assert.ok(loopbackHosts('192.168.1.5', 80).has('192.168.1.5:80'));
    assert.ok(!loopbackHosts('0.0.0.0', 80).has('0.0.0.0:80'));
  });

  for (const bound of ['0.0.0.0', '::', '192.168.1.5', 'mnemo.lan']) {
    it(`bound to ${bound}: any IP literal with this port, the bound name and localhost; no other name`, () => {
      const p = loopbackPolicy(bound, () => 7821);
      for (const h of [
        '0.0.0.0:7821',
        '[::]:7821',
        '192.168.1.5:7821',
        '10.0.0.7:7821',
        '[fe80::1]:7821',
        '127.0.0.1:7821',
        'localhost:7821',
        '[::1]:7821',
      ])
        assert.ok(hostAllowed(p, h), h);
      if (bound === 'mnemo.lan') assert.ok(hostAllowed(p, 'MNEMO.lan:7821'));
      for (const h of [
        'evil.example:7821',
        '10.0.0.7.nip.io:7821',
        '10.0.0.7:80',
        '10.0.0.7',
        '10.0.0.7:07821',
        // Spellings a URL would normalise: whatever they are, they are not how clients name a server.
        '127.1:7821',
        '[0:0:0:0:0:0:0:1]:7821',
        'user@10.0.0.7:7821',
      ])
        assert.ok(!hostAllowed(p, h), h);
      assert.ok(originAllowed(p, 'http://192.168.1.5:7821', 'same-origin'));
      assert.ok(originAllowed(p, 'http://192.168.1.5:7821', undefined, '192.168.1.5:7821'));
      // Another machine's address on the same port is another origin, though both are IP literals.
      assert.ok(!originAllowed(p, 'http://192.168.1.5:7821', undefined, '10.0.0.2:7821'));
      assert.ok(!originAllowed(p, 'http://evil.example:7821', undefined));
      assert.match(p.refusal, /IP address/);
    });
  }

  it('tells loopback hosts from others', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', 'localhost', 'LocalHost', '::1', '[::1]', '0:0:0:0:0:0:0:1'])
      assert.ok(isLoopbackHost(h), h);
    for (const h of ['0.0.0.0', '::', '192.168.1.5', 'mnemo.lan', 'localhost.evil.example', 'fe80::1'])
      assert.ok(!isLoopbackHost(h), h);
  });
});

describe('a request target in absolute form', () => {
  it('gives its authority and the rest as a path; other forms are not absolute', () => {
    assert.deepEqual(absoluteTarget('http://127.0.0.1:7821/v1/brains?x=1'), {
      authority: '127.0.0.1:7821',
      path: '/v1/brains?x=1',
    });
    assert.deepEqual(absoluteTarget('HTTPS://Evil.example'), { authority: 'Evil.example', path: '/' });
    assert.deepEqual(absoluteTarget('http://localhost:1?q'), { authority: 'localhost:1', path: '/?q' });
    assert.deepEqual(absoluteTarget('http://user@localhost:1/'), {
      authority: 'user@localhost:1',
      path: '/',
    });
    for (const target of ['/v1/brains', '*', 'ftp://x/y', 'http:/x', '/http://x/'])
      assert.equal(absoluteTarget(target), null, target);
  });
});

describe('loopback guard with public URLs (a reverse proxy in front)', () => {
  const urls = ['https://mnemo.example.com/v1', 'http://lan.example:8080/v1'].map(parsePublicUrl);
  const policy = loopbackPolicy('127.0.0.1', () => 7821, urls);
  const without = loopbackPolicy('127.0.0.1', () => 7821);

  it("accepts each public URL's host (with its port when it names one) besides loopback", () => {
    // The scheme's default port written out is the same authority (RFC 9110 4.2.3); some proxies send it.
    for (const h of [
      'mnemo.example.com',
      'MNEMO.example.com',
      'mnemo.example.com:443',
      'lan.example:8080',
      '127.0.0.1:7821',
    ])
      assert.ok(hostAllowed(policy, h), h);
    for (const h of ['mnemo.example.com', 'lan.example:8080']) assert.ok(!hostAllowed(without, h), h);
    for (const h of [
      'mnemo.example.com:7821',
      'mnemo.example.com:80',
      'lan.example',
      'lan.example:80',
      'evil.example',
      'mnemo.example.com.evil.example',
      'x.mnemo.example.com',
    ])
      assert.ok(!hostAllowed(policy, h), h);
  });

  it('accepts the public origins, whatever Host the proxy passes on; refuses any other', () => {
    assert.ok(originAllowed(policy, 'https://mnemo.example.com', 'same-origin', '127.0.0.1:7821'));
    assert.ok(originAllowed(policy, 'https://mnemo.example.com', undefined, 'mnemo.example.com'));
    assert.ok(originAllowed(policy, 'http://lan.example:8080', undefined));
    assert.ok(!originAllowed(without, 'https://mnemo.example.com', undefined));
    assert.ok(
      !originAllowed(policy, 'http://mnemo.example.com', undefined),
      'another scheme is another origin',
    );
    assert.ok(!originAllowed(policy, 'https://evil.example', undefined, 'mnemo.example.com'));
    assert.ok(!originAllowed(policy, 'https://mnemo.example.com', 'cross-site'));
  });

  it('refuses what is not an absolute http(s) URL, or carries a user, query or fragment', () => {
    for (const bad of [
      'mnemo.example.com',
      '/v1',
      'ftp://mnemo.example.com',
      'https://u:p@mnemo.example.com/v1',
      'https://mnemo.example.com/v1?x=1',
      'https://mnemo.example.com/v1#f',
    ])
      assert.throws(() => parsePublicUrl(bad), RangeError, bad);
  });

  it('the API is at /v1 under the public URL, whether or not the URL names /v1', () => {
    for (const [given, base] of [
      ['https://mnemo.example.com/v1', 'https://mnemo.example.com/v1'],
      ['https://mnemo.example.com/v1/', 'https://mnemo.example.com/v1'],
      ['https://mnemo.example.com', 'https://mnemo.example.com/v1'],
      ['https://x.example:8443/mnemo/', 'https://x.example:8443/mnemo/v1'],
    ])
      assert.equal(publicApiBase(parsePublicUrl(given!)), base, given);
  });

  it('docs live beside /v1 under the public URL', () => {
    assert.equal(
      publicDocsBase(parsePublicUrl('https://mnemo.example.com/v1')),
      'https://mnemo.example.com/docs',
    );
    assert.equal(
      publicDocsBase(parsePublicUrl('https://x.example/mnemo/v1/')),
      'https://x.example/mnemo/docs',
    );
    assert.equal(
      publicDocsBase(parsePublicUrl('https://mnemo.example.com')),
      'https://mnemo.example.com/docs',
    );
  });
});
