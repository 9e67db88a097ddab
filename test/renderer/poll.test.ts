// How often a screen reads again while the server cannot be reached (renderer/api/poll.ts), under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backingOff } from '../../renderer/api/poll.ts';

test('a poll backs off while its reads fail and is back to its pace after one succeeds', () => {
  const every = backingOff(2000);
  let state = { errorUpdateCount: 0, errorUpdatedAt: 0, dataUpdatedAt: 1000 };
  assert.equal(every({ state }), 2000);
  // Each read fails when the wait before it has passed: the wait doubles, up to 10 s.
  const seen: number[] = [];
  let at = 1000 + 2000;
  for (let i = 1; i <= 6; i++) {
    state = { ...state, errorUpdateCount: i, errorUpdatedAt: at };
    const wait = every({ state });
    seen.push(wait);
    at += wait;
  }
  assert.deepEqual(seen, [2000, 4000, 8000, 10000, 10000, 10000]);
  state = { ...state, dataUpdatedAt: at };
  assert.equal(every({ state }), 2000);
  // Failing again after that success starts from the pace, not from where the last run of failures ended.
  state = { ...state, errorUpdateCount: 7, errorUpdatedAt: at + 2000 };
  assert.equal(every({ state }), 2000);
  // Computed from the state alone: another copy of the poll (options made again on a render) agrees.
  assert.equal(backingOff(2000)({ state }), every({ state }));
});

test('a poll whose reads never succeeded doubles by its count of failures', () => {
  const every = backingOff(2000);
  const seen = [1, 2, 3, 4, 5].map((n) =>
    every({ state: { errorUpdateCount: n, errorUpdatedAt: 1000 * n, dataUpdatedAt: 0 } }),
  );
  assert.deepEqual(seen, [4000, 8000, 10000, 10000, 10000]);
});
