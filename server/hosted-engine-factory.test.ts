import assert from 'node:assert/strict';
import { test } from 'node:test';
import { poolSizeFromEnv } from './hosted-engine-factory.ts';

test('MNEMO_PG_POOL_SIZE sizes each process pool; anything but a whole number from 2 to 1000 is refused', () => {
  assert.deepEqual(poolSizeFromEnv(undefined), {});
  assert.deepEqual(poolSizeFromEnv(''), {});
  assert.deepEqual(poolSizeFromEnv('4'), { poolSize: 4 });
  for (const bad of ['1', '0', '2.5', 'ten', '1001', '-3'])
    assert.throws(() => poolSizeFromEnv(bad), new RegExp(`MNEMO_PG_POOL_SIZE must be .* not "${bad}"`));
});
