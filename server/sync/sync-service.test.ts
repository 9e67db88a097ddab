import assert from 'node:assert/strict';
import { afterEach, describe, it, mock } from 'node:test';
import type { Engine } from '../../engine/types.ts';
import { backoffWait, createSyncService } from './sync-service.ts';

/**
 * A sync service over an engine whose one paired Brain's every run fails, `runMs` after it starts,
 * on mocked timers stepped a second at a time for `seconds`; `during` runs after each step. The
 * runs' start times (ms).
 */
async function failingRuns(
  o: { runMs: number; seconds: number },
  during: (s: {
    clock: number;
    runs: number[];
    service: ReturnType<typeof createSyncService>;
  }) => void = () => {},
): Promise<number[]> {
  mock.timers.enable({ apis: ['setTimeout'] });
  let clock = 0;
  const runs: number[] = [];
  const failure = () => new Error('the remote is away');
  const engine = {
    info: { deployment: 'local' },
    sync: {
      pairedBrains: () => Promise.resolve([{ project: 'home', env: 'test', brainId: 'ana' }]),
      remoteOf: () => {
        runs.push(clock);
        return o.runMs === 0
          ? Promise.reject(failure())
          : new Promise((_, reject) => setTimeout(() => reject(failure()), o.runMs));
      },
      status: () => Promise.resolve({}),
    },
  } as unknown as Engine;
  const service = createSyncService({ engine, log: () => {} });
  await service.start();
  for (let second = 0; second < o.seconds; second++) {
    clock += 1_000;
    mock.timers.tick(1_000);
    await new Promise((r) => setImmediate(r));
    during({ clock, runs, service });
  }
  await service.close();
  return runs;
}

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
    const runs = await failingRuns({ runMs: 0, seconds: 50 * 60 });
    const gaps = runs.slice(1).map((at, i) => (at - runs[i]!) / 60_000);
    assert.equal(runs[0], 2_000, 'the first run, 2 s after the start');
    assert.deepEqual(gaps, [1, 2, 4, 8, 15, 15]);
  });

  it('does not run again at once for a write during a run that failed: the next waits its turn', async () => {
    // An agent writes all the while: a write lands in the middle of each 5 s run.
    const runs = await failingRuns({ runMs: 5_000, seconds: 150 }, ({ clock, runs, service }) => {
      if (runs.length > 0 && clock - runs[runs.length - 1]! === 3_000)
        service.noteWrite({ project: 'home', env: 'test' }, 'ana');
    });
    // 2 s in, failing at 7 s; then a minute after it, failing at 72 s; then two minutes after that.
    assert.deepEqual(runs, [2_000, 67_000]);
  });
});
