import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixedWindowLimiter } from './rate-limiter.ts';

describe('FixedWindowLimiter', () => {
  it('counts per key within a fixed minute and resets at the boundary', () => {
    let t = 60_000 * 10 + 45_000;
    const limiter = new FixedWindowLimiter(2, () => t);
    assert.equal(limiter.hit('a'), null);
    assert.equal(limiter.hit('a'), null);
    assert.equal(limiter.hit('a'), 15, 'seconds until the window resets');
    assert.equal(limiter.hit('b'), null, 'other keys have their own count');
    t = 60_000 * 11;
    assert.equal(limiter.hit('a'), null, 'a fixed window, not a sliding one');
  });

  it('0 turns it off', () => {
    const limiter = new FixedWindowLimiter(0);
    for (let i = 0; i < 100; i += 1) assert.equal(limiter.hit('a'), null);
  });
});
