import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BoundedQueue } from './bounded-queue.ts';

test('the producer waits for room: never more than capacity items are held', async () => {
  const q = new BoundedQueue<number>(2);
  let produced = 0;
  const producer = (async () => {
    for (let i = 1; i <= 10; i++) {
      await q.put(i);
      produced = i;
    }
    q.close();
  })();
  await new Promise((r) => setImmediate(r));
  assert.equal(produced, 2, 'two held, the third waits');
  const got: number[] = [];
  for (let v = await q.take(); v !== undefined; v = await q.take()) {
    got.push(v);
    assert.ok(produced - got.length <= 2, `${produced} produced, ${got.length} taken`);
  }
  await producer;
  assert.deepEqual(got, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('consumers waiting when it closes get undefined; abort drops what waits and frees the producer', async () => {
  const q = new BoundedQueue<string>(1);
  const waiting = [q.take(), q.take()];
  await q.put('a');
  q.close();
  assert.deepEqual(await Promise.all(waiting), ['a', undefined]);

  const r = new BoundedQueue<string>(1);
  await r.put('x');
  const blocked = r.put('y');
  r.abort();
  assert.equal(await blocked, false);
  assert.equal(await r.take(), undefined);
});
