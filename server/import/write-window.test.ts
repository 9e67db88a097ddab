import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriteWindow } from './write-window.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('WriteWindow', () => {
  it('keeps up to its limit under way, started in order, and waits for room', async () => {
    const w = new WriteWindow(3);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const adds: Promise<void>[] = [];
    for (let i = 0; i < 5; i++) {
      adds.push(
        w.add(() => {
          started.push(i);
          return new Promise<void>((r) => finish.push(r));
        }),
      );
    }
    await tick();
    assert.deepEqual(started, [0, 1, 2], 'the fourth waits for room');
    for (const f of finish.splice(0)) f();
    await tick();
    assert.deepEqual(started, [0, 1, 2, 3, 4]);
    for (const f of finish.splice(0)) f();
    await Promise.all(adds);
    await w.settle();
  });

  it('lets the writes under way finish, then throws the first failure', async () => {
    const w = new WriteWindow(4);
    const done: string[] = [];
    await w.add(async () => {
      await tick();
      throw new Error('first failure');
    });
    await w.add(async () => {
      await tick();
      await tick();
      done.push('slow one');
    });
    await assert.rejects(w.settle(), /first failure/);
    assert.deepEqual(done, ['slow one'], 'settled only once every write under way had finished');
    await assert.rejects(
      w.add(async () => {
        done.push('after');
      }),
      /first failure/,
      'nothing more starts',
    );
    assert.deepEqual(done, ['slow one']);
  });
});
