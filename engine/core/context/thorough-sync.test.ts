import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Context } from '../../contract/index.ts';
import { createThoroughSync } from './thorough-sync.ts';

const ctx = (id: string) => ({ id, status: 'ready' }) as unknown as Context;
const processing = (id: string) => ({ id, status: 'processing' }) as unknown as Context;
let ids = 0;
const newId = () => `ctx_${++ids}`;
/**
 * An assembly's end, opened by the test: its runs finish when the test says, not after a timer that a
 * loaded machine may fire late (the budget's own timer is the only real one left).
 */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { wait: () => opened, open };
}
/** Lets the settled assembly's callbacks run. */
const settle = () => new Promise((r) => setImmediate(r));

describe('thorough synchronous budget', () => {
  it('answers in time when assembly is quick', async () => {
    const s = createThoroughSync({ syncMs: 200, newId });
    assert.equal((await s.run('k', async () => ctx('ctx_a'), processing)).id, 'ctx_a');
  });

  it('answers processing when over budget, then the finished Context to the same request', async () => {
    const s = createThoroughSync({ syncMs: 20, newId });
    let calls = 0;
    let end = gate();
    const slow = async (id: string) => {
      calls += 1;
      await end.wait();
      return ctx(id);
    };
    const first = await s.run('k', slow, processing);
    assert.equal(first.status, 'processing');
    // Still running: the retry waits on the same assembly, not a new one, and hears of the same id.
    const second = await s.run('k', slow, processing);
    assert.deepEqual([second.status, second.id], ['processing', first.id]);
    end.open();
    await settle();
    const done = await s.run('k', slow, processing);
    assert.deepEqual([done.status, done.id], ['ready', first.id]);
    assert.equal(calls, 1);
    // Served once: the next identical request assembles afresh, under a new id.
    end = gate();
    const fresh = await s.run('k', slow, processing);
    assert.equal(fresh.status, 'processing');
    assert.notEqual(fresh.id, first.id);
    assert.equal(calls, 2);
  });

  it('a finished Context the caller finds stale is dropped, and the request assembled afresh', async () => {
    const s = createThoroughSync({ syncMs: 20, newId });
    let end = gate();
    const slow = async (id: string) => (await end.wait(), ctx(id));
    const first = await s.run('k', slow, processing);
    end.open();
    await settle();
    end = gate();
    const seen: string[] = [];
    const stale = (done: Context) => (seen.push(done.id), true);
    const again = await s.run('k', slow, processing, undefined, stale);
    assert.deepEqual(seen, [first.id]);
    assert.equal(again.status, 'processing');
    assert.notEqual(again.id, first.id);
    end.open();
    await settle();
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
    const end = gate();
    const failing = async () => {
      await end.wait();
      throw new Error('lane exploded');
    };
    const first = await s.run('k', failing, processing, (id) => void told.push(id));
    assert.equal(first.status, 'processing');
    end.open();
    await settle();
    assert.deepEqual(told, [first.id]);
    await assert.rejects(s.run('k', failing, processing), /lane exploded/);
    assert.equal((await s.run('k', async (id) => ctx(id), processing)).status, 'ready');
  });

  it('a forgotten assembly settling late never disturbs the newer one under its key', async () => {
    const s = createThoroughSync({ syncMs: 10, newId });
    const oldEnd = gate();
    const freshEnd = gate();
    const old = async () => {
      await oldEnd.wait();
      throw new Error('old one failed');
    };
    const fresh = async (id: string) => {
      await freshEnd.wait();
      return ctx(id);
    };
    assert.equal((await s.run('k', old, processing)).status, 'processing');
    s.forget('k');
    const second = await s.run('k', fresh, processing);
    assert.equal(second.status, 'processing');
    oldEnd.open();
    await settle();
    freshEnd.open();
    await settle();
    const done = await s.run('k', fresh, processing);
    assert.deepEqual([done.status, done.id], ['ready', second.id]);
  });
});
