import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Context } from '../contract/index.ts';
import { createThoroughSync } from './thorough-sync.ts';

const ctx = (id: string) => ({ id, status: 'ready' }) as unknown as Context;
const processing = () => ({ id: 'ctx_p', status: 'processing' }) as unknown as Context;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('thorough synchronous budget', () => {
  it('answers in time when assembly is quick', async () => {
    const s = createThoroughSync({ syncMs: 200 });
    assert.equal((await s.run('k', async () => ctx('ctx_a'), processing)).id, 'ctx_a');
  });

  it('answers processing when over budget, then the finished Context to the same request', async () => {
    const s = createThoroughSync({ syncMs: 20 });
    let calls = 0;
    const slow = async () => {
      calls += 1;
      await delay(80);
      return ctx('ctx_slow');
    };
    assert.equal((await s.run('k', slow, processing)).status, 'processing');
    // Still running: the retry waits on the same assembly, not a new one.
    assert.equal((await s.run('k', slow, processing)).status, 'processing');
    await delay(100);
    assert.equal((await s.run('k', slow, processing)).id, 'ctx_slow');
    assert.equal(calls, 1);
    // Served once: the next identical request assembles afresh.
    assert.equal((await s.run('k', slow, processing)).status, 'processing');
    assert.equal(calls, 2);
  });

  it('forgets a failed assembly so the next request tries again', async () => {
    const s = createThoroughSync({ syncMs: 10 });
    const failing = async () => {
      await delay(30);
      throw new Error('boom');
    };
    assert.equal((await s.run('k', failing, processing)).status, 'processing');
    await delay(50);
    assert.equal((await s.run('k', async () => ctx('ctx_ok'), processing)).id, 'ctx_ok');
  });
});
