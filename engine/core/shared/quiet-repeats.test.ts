import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quietRepeats } from './quiet-repeats.ts';

test('a recurring failure is said once a minute with its count; another error at once', () => {
  let t = 0;
  const lines: Array<[string, Record<string, unknown>]> = [];
  const say = quietRepeats(
    (m, f) => lines.push([m, f]),
    60_000,
    () => t,
  );
  for (let i = 0; i <= 400; i++, t += 150) say('indexing failed', { error: 'disk is full' });
  say('indexing failed', { error: 'disk I/O error' });
  assert.deepEqual(lines, [
    ['indexing failed', { error: 'disk is full' }],
    ['indexing failed', { error: 'disk is full', repeated: 399 }],
    ['indexing failed', { error: 'disk I/O error' }],
  ]);
});
