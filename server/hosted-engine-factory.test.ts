import assert from 'node:assert/strict';
import { test } from 'node:test';
import { poolSizeFromEnv, preparedFromEnv } from './hosted-engine-factory.ts';

test('MNEMO_PG_POOL_SIZE sizes each process pool; anything but a whole number from 2 to 1000 is refused', () => {
  assert.deepEqual(poolSizeFromEnv(undefined), {});
  assert.deepEqual(poolSizeFromEnv(''), {});
  assert.deepEqual(poolSizeFromEnv('4'), { poolSize: 4 });
  for (const bad of ['1', '0', '2.5', 'ten', '1001', '-3'])
    assert.throws(() => poolSizeFromEnv(bad), new RegExp(`MNEMO_PG_POOL_SIZE must be .* not "${bad}"`));
});

test('MNEMO_PG_PREPARE off sends statements unnamed; on or unset prepares them; anything else is refused', () => {
  assert.deepEqual(preparedFromEnv(undefined), {});
  assert.deepEqual(preparedFromEnv('on'), {});
  assert.deepEqual(preparedFromEnv('off'), { preparedStatements: false });
  for (const bad of ['0', 'false', 'OFF'])
    assert.throws(() => preparedFromEnv(bad), new RegExp(`MNEMO_PG_PREPARE must be on or off, not "${bad}"`));
});
