import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostAllowed, loopbackHosts, originAllowed } from './loopback-guard.ts';

describe('loopback guard', () => {
  const policy = { hosts: () => loopbackHosts('127.0.0.1', 7821) };

  it('accepts loopback names with this port only', () => {
    for (const h of ['127.0.0.1:7821', 'localhost:7821', 'LOCALHOST:7821', '[::1]:7821'])
      assert.ok(hostAllowed(policy, h), h);
    for (const h of [
      undefined,
      '127.0.0.1',
      '127.0.0.1:80',
      'evil.example:7821',
      'localhost.evil.example:7821',
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
  });

  it('adds an explicitly bound non-loopback host', () => {
    assert.ok(loopbackHosts('192.168.1.5', 80).has('192.168.1.5:80'));
    assert.ok(!loopbackHosts('0.0.0.0', 80).has('0.0.0.0:80'));
  });
});
