import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeenKeys } from './seen-keys.ts';

test('the keys kept to skip duplicates never outnumber the window, however many items are read', () => {
  const seen = new SeenKeys(1000);
  for (let i = 0; i < 25_000; i++) {
    seen.add(`imp_${i}`, `line ${i}`);
    assert.ok(seen.size <= 1000, `${seen.size} keys after ${i + 1} items`);
  }
  assert.equal(seen.size, 1000);
  // The last thousand are the ones kept.
  assert.equal(seen.twinOf('imp_24000'), 'line 24000');
  assert.equal(seen.twinOf('imp_24999'), 'line 24999');
  assert.equal(seen.twinOf('imp_23999'), undefined);
  assert.equal(seen.twinOf('imp_0'), undefined);
});

test('a key read again keeps its first item and takes no second place in the window', () => {
  const seen = new SeenKeys(2);
  seen.add('a', 'first a');
  seen.add('b', 'b');
  seen.add('a', 'first a');
  assert.equal(seen.size, 2);
  assert.equal(seen.twinOf('b'), 'b', 'nothing was forgotten for a key already kept');
  seen.add('c', 'c');
  assert.equal(seen.twinOf('a'), undefined, 'the oldest goes first');
  assert.deepEqual([seen.twinOf('b'), seen.twinOf('c')], ['b', 'c']);
  assert.throws(() => new SeenKeys(0), RangeError);
});
