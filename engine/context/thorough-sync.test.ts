import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Context } from '../contract/index.ts';
import { createThoroughSync } from './thorough-sync.ts';

const ctx = (id: string) => ({ id, status: 'ready' }) as unknown as Context;
const processing = (id: string) => ({ id, status: 'processing' }) as unknown as Context;
let ids = 0;
const newId = () => `ctx_${++ids}`;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('thorough synchronous budget', () => {
  it('answers in time when assembly is quick', async () => {
    const s = createThoroughSync({ syncMs: 200, newId });
    assert.equal((await s.run('k', async () => ctx('ctx_a'), processing)).id, 'ctx_a');
  });

  it('answers processing when over budget, then the finished Context to the same request', async () => {
    const s = createThoroughSync({ syncMs: 20, newId });
    let calls = 0;
    const slow = async (id: string) => {
      calls += 1;
      await delay(80);
      return ctx(id);
    };
    const first = await s.run('k', slow, processing);
    assert.equal(first.status, 'processing');
    // Still running: the retry waits on the same assembly, not a new one, and hears of the same id.
    const second = await s.run('k', slow, processing);
    assert.deepEqual([second.status, second.id], ['processing', first.id]);
    await delay(100);
    const done = await s.run('k', slow, processing);
    assert.deepEqual([done.status, done.id], ['ready', first.id]);
    assert.equal(calls, 1);
    // Served once: the next identical request assembles afresh, under a new id.
    const fresh = await s.run('k', slow, processing);
    assert.equal(fresh.status, 'processing');
    assert.notEqual(fresh.id, first.id);
    assert.equal(calls, 2);
  });

  it('forgets a failed assembly so the next request tries again', async () => {
    const s = createThoroughSync({ syncMs: 10, newId });
    const failing = async () => {
      await delay(30);
      throw new Error('boom');
    };
    assert.equal((await s.run('k', failing, processing)).status, 'processing');
    await delay(50);
    assert.equal((await s.run('k', async () => ctx('ctx_ok'), processing)).id, 'ctx_ok');
  });
});
