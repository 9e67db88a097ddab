import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import type { Engine } from '../../engine/types.ts';
import { backoffWait, createSyncService } from './sync-service.ts';

describe('the wait between sync runs', () => {
  afterEach(() => mock.timers.reset());

  it('is the interval after a success and after the first failure, then doubles up to the cap', () => {
    const minute = 60_000;
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 50].map((failures) => backoffWait(failures, minute, 15 * minute) / minute),
      [1, 1, 2, 4, 8, 15, 15, 15],
    );
  });

  it('spaces the runs of a Brain that keep failing 1, 2, 4, 8, then 15 minutes apart', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    let clock = 0;
    const runs: number[] = [];
    const engine = {
      info: { deployment: 'local' },
      sync: {
        pairedBrains: () => Promise.resolve([{ project: 'home', env: 'test', brainId: 'ana' }]),
        // Each run fails at its start.
        remoteOf: () => {
          runs.push(clock);
          return Promise.reject(new Error('the remote is away'));
        },
        status: () => Promise.resolve({}),
      },
    } as unknown as Engine;
    const service = createSyncService({ engine, log: () => {} });
    await service.start();
    for (let second = 0; second < 50 * 60; second++) {
      clock += 1_000;
      mock.timers.tick(1_000);
      await new Promise((r) => setImmediate(r));
    }
    await service.close();
    const gaps = runs.slice(1).map((at, i) => (at - runs[i]!) / 60_000);
    assert.equal(runs[0], 2_000, 'the first run, 2 s after the start');
    assert.deepEqual(gaps, [1, 2, 4, 8, 15, 15]);
  });

  it('does not run again at once for a write during a run that failed: the next waits its turn', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    let clock = 0;
    const runs: number[] = [];
    const engine = {
      info: { deployment: 'local' },
      sync: {
        pairedBrains: () => Promise.resolve([{ project: 'home', env: 'test', brainId: 'ana' }]),
        // Each run takes 5 s, then fails.
        remoteOf: () => {
          runs.push(clock);
          return new Promise((_, reject) => setTimeout(() => reject(new Error('the remote is away')), 5_000));
        },
        status: () => Promise.resolve({}),
      },
    } as unknown as Engine;
    const service = createSyncService({ engine, log: () => {} });
    await service.start();
    for (let second = 0; second < 150; second++) {
      clock += 1_000;
      mock.timers.tick(1_000);
      await new Promise((r) => setImmediate(r));
      // An agent writes all the while: a write lands in the middle of each run.
      if (runs.length > 0 && clock - runs[runs.length - 1]! === 3_000)
        service.noteWrite({ project: 'home', env: 'test' }, 'ana');
    }
    await service.close();
    // 2 s in, failing at 7 s; then a minute after it, failing at 72 s; then two minutes after that.
    assert.deepEqual(runs, [2_000, 67_000]);
  });
});
