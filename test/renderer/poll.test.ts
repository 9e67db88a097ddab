// How often a screen reads again while the server cannot be reached (renderer/api/poll.ts), under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backingOff } from '../../renderer/api/poll.ts';

test('a poll backs off while its reads fail and is back to its pace after one succeeds', () => {
  const every = backingOff(2000);
  const q = { state: { errorUpdateCount: 0, errorUpdatedAt: 0, dataUpdatedAt: 1 } };
  assert.equal(every(q), 2000);
  const seen: number[] = [];
  for (let i = 1; i <= 6; i++) {
    q.state = { ...q.state, errorUpdateCount: i, errorUpdatedAt: 1 + i };
    seen.push(every(q));
  }
  assert.deepEqual(seen, [4000, 8000, 16000, 30000, 30000, 30000]);
  q.state = { ...q.state, dataUpdatedAt: 100 };
  assert.equal(every(q), 2000);
  // Failing again after that success starts from the pace, not from where the last run of failures ended.
  q.state = { ...q.state, errorUpdateCount: 7, errorUpdatedAt: 101 };
  assert.equal(every(q), 4000);
  // Each query counts its own failures.
  const other = { state: { errorUpdateCount: 1, errorUpdatedAt: 5, dataUpdatedAt: 0 } };
  assert.equal(every(other), 4000);
});
