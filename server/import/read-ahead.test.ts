import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { readAhead } from './read-ahead.ts';

async function drain<R>(items: AsyncIterable<R>): Promise<R[]> {
  const out: R[] = [];
  for await (const x of items) out.push(x);
  return out;
}

test('results come in input order while up to `limit` reads run at once', async () => {
  let running = 0;
  let most = 0;
  const got = await drain(
    readAhead(
      Array.from({ length: 20 }, (_, i) => i),
      4,
      async (x) => {
        running += 1;
        most = Math.max(most, running);
        // The later ones finish first: order must still be the inputs'.
        await sleep(20 - x);
        running -= 1;
        return x % 5 === 0 ? null : x * 10;
      },
    ),
  );
  assert.deepEqual(
    got,
    Array.from({ length: 20 }, (_, i) => i)
      .filter((i) => i % 5 !== 0)
      .map((i) => i * 10),
  );
  assert.equal(most, 4);
});

test('a read that fails throws in its turn, after every result before it', async () => {
  const got: number[] = [];
  await assert.rejects(
    (async () => {
      for await (const x of readAhead([0, 1, 2, 3, 4, 5], 3, async (x) => {
        await sleep(x === 3 ? 0 : 5);
        if (x === 3) throw new Error('cannot read 3');
        return x;
      }))
        got.push(x);
    })(),
    /cannot read 3/,
  );
  assert.deepEqual(got, [0, 1, 2]);
});

test('inputs that fail part way: what came before is yielded, then the error', async () => {
  async function* inputs() {
    yield 1;
    yield 2;
    throw new Error('folder cannot be read');
  }
  const got: number[] = [];
  await assert.rejects(
    (async () => {
      for await (const x of readAhead(inputs(), 8, async (x) => x)) got.push(x);
    })(),
    /folder cannot be read/,
  );
  assert.deepEqual(got, [1, 2]);
});

test('stopping early, or on a failure, ends once no read is under way', async () => {
  let running = 0;
  const read = async (x: number) => {
    running += 1;
    await sleep(x === 2 ? 0 : 10);
    running -= 1;
    if (x === 2) throw new Error('cannot read 2');
    return x;
  };
  for await (const x of readAhead([0, 1, 3, 4, 5, 6], 4, read)) if (x === 1) break;
  assert.equal(running, 0, 'reads still under way after a break');
  await assert.rejects(async () => {
    for await (const x of readAhead([0, 1, 2, 3, 4, 5], 4, read)) assert.ok(x < 2);
  }, /cannot read 2/);
  assert.equal(running, 0, 'reads still under way after a failure');
});

test('stopping early (a cancel) stops asking for inputs and ends them', async () => {
  let pulled = 0;
  let ended = false;
  async function* inputs() {
    try {
      for (let i = 0; ; i++) {
        pulled += 1;
        yield i;
      }
    } finally {
      ended = true;
    }
  }
  const got: number[] = [];
  for await (const x of readAhead(inputs(), 4, async (x) => x)) {
    got.push(x);
    if (got.length === 3) break;
  }
  assert.deepEqual(got, [0, 1, 2]);
  assert.ok(pulled <= 3 + 4, `pulled ${pulled}`);
  assert.equal(ended, true);
});
