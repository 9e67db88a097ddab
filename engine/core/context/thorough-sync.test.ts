import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Context } from '../../contract/index.ts';
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

  it('a finished Context the caller finds stale is dropped, and the request assembled afresh', async () => {
    const s = createThoroughSync({ syncMs: 20, newId });
    const slow = async (id: string) => (await delay(40), ctx(id));
    const first = await s.run('k', slow, processing);
    await delay(80);
    const seen: string[] = [];
    const stale = (done: Context) => (seen.push(done.id), true);
    const again = await s.run('k', slow, processing, undefined, stale);
    assert.deepEqual(seen, [first.id]);
    assert.equal(again.status, 'processing');
    assert.notEqual(again.id, first.id);
    await delay(80);
    // Assembled again once: served when finished, though the Brain changed again meanwhile (a client
    // polling a Brain that never stops changing still gets an answer).
    const fresh = await s.run('k', slow, processing, undefined, stale);
    assert.deepEqual([fresh.status, fresh.id], ['ready', again.id]);
    assert.deepEqual(seen, [first.id]);
  });

  it('a failure its caller awaits is thrown to it, and nothing is kept', async () => {
    const s = createThoroughSync({ syncMs: 200, newId });
    await assert.rejects(
      s.run('k', async () => Promise.reject(new Error('at once')), processing),
      /at once/,
    );
    assert.equal((await s.run('k', async (id) => ctx(id), processing)).status, 'ready');
  });

  it('an assembly that fails after its 202 is told to the next identical request, once', async () => {
    const s = createThoroughSync({ syncMs: 10, newId });
    const told: string[] = [];
    const failing = async () => {
      await delay(30);
      throw new Error('lane exploded');
    };
    const first = await s.run('k', failing, processing, (id) => void told.push(id));
    assert.equal(first.status, 'processing');
    await delay(60);
    assert.deepEqual(told, [first.id]);
    await assert.rejects(s.run('k', failing, processing), /lane exploded/);
    assert.equal((await s.run('k', async (id) => ctx(id), processing)).status, 'ready');
  });

  it('a forgotten assembly settling late never disturbs the newer one under its key', async () => {
    const s = createThoroughSync({ syncMs: 10, newId });
    const old = async () => {
      await delay(40);
      throw new Error('old one failed');
    };
    const fresh = async (id: string) => {
      await delay(60);
      return ctx(id);
    };
    assert.equal((await s.run('k', old, processing)).status, 'processing');
    s.forget('k');
    const second = await s.run('k', fresh, processing);
    assert.equal(second.status, 'processing');
    await delay(100);
    const done = await s.run('k', fresh, processing);
    assert.deepEqual([done.status, done.id], ['ready', second.id]);
  });
});
