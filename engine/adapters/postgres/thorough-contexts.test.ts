import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Context } from '../../contract/index.ts';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { PgClient } from './client.ts';
import { addBrain, addRecord, migratedPglite } from './testing/fixtures.ts';
import { pgThoroughSync } from './thorough-contexts.ts';

const db = await migratedPglite();
let ids = 0;
const newId = () => `ctx_${++ids}`;
const ready = (id: string, recordIds: string[] = []) =>
  ({ id, status: 'ready', citations: recordIds.map((r) => ({ record_id: r })) }) as unknown as Context;
const processing = (id: string) => ({ id, status: 'processing' }) as unknown as Context;

/** An assembly that ends when the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { wait: () => opened, open };
}

/** A client that stops answering, as a process that died does: its lease is no longer renewed. */
function dying(client: PgClient) {
  let dead = false;
  const c: PgClient = {
    ...client,
    query: (sql, params) => (dead ? Promise.reject(new Error('process gone')) : client.query(sql, params)),
  };
  return { client: c, die: () => (dead = true) };
}

const rows = async (brain: string) =>
  (
    await db.query<{ context_id: string; state: string }>(
      'SELECT context_id, state FROM thorough_contexts WHERE brain_uid = $1 ORDER BY context_id',
      [brain],
    )
  ).rows.map((r) => [r.context_id, r.state]);

/** Polls until the Brain's rows are as expected (an assembly's end is stored in the background). */
async function until(brain: string, expected: string[][]) {
  for (let i = 0; i < 300 && JSON.stringify(await rows(brain)) !== JSON.stringify(expected); i++)
    await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(await rows(brain), expected);
}

describe('thorough Contexts kept in PostgreSQL (pgThoroughSync)', () => {
  it('answers within the budget and keeps nothing', async () => {
    await addBrain(db, 'brn_q1');
    const s = pgThoroughSync(db, { syncMs: 500, newId });
    const out = await s.run('brn_q1\nw\n{}', async (id) => ready(id), processing);
    assert.equal(out.status, 'ready');
    assert.deepEqual(await rows('brn_q1'), []);
  });

  it('a request left by a process that died is assembled by the next retry, under the same id', async () => {
    await addBrain(db, 'brn_q2');
    const gone = dying(db);
    const a = pgThoroughSync(gone.client, { syncMs: 20, newId, leaseMs: 150 });
    const b = pgThoroughSync(db, { syncMs: 200, newId, leaseMs: 150 });
    const key = 'brn_q2\nw\n{"query":"x"}';
    const first = await a.run(key, () => new Promise<Context>(() => {}), processing);
    assert.equal(first.status, 'processing');
    let assembled = 0;
    const compute = async (id: string) => (assembled++, ready(id));
    // Within the lease the other process waits on it and answers the same 202.
    const meanwhile = await b.run(key, compute, processing);
    assert.deepEqual([meanwhile.status, meanwhile.id, assembled], ['processing', first.id, 0]);
    gone.die();
    await new Promise((r) => setTimeout(r, 250));
    const taken = await b.run(key, compute, processing);
    assert.deepEqual([taken.status, taken.id, assembled], ['ready', first.id, 1]);
    assert.deepEqual(await rows('brn_q2'), []);
  });

  it('a retry that waited on an assembly served meanwhile is answered, not told of a spent id', async () => {
    await addBrain(db, 'brn_q8');
    const a = pgThoroughSync(db, { syncMs: 2_000, newId });
    const b = pgThoroughSync(db, { syncMs: 2_000, newId });
    const key = 'brn_q8\nw\n{}';
    const end = gate();
    const first = a.run(key, async (id) => (await end.wait(), ready(id)), processing);
    for (let i = 0; i < 300 && (await rows('brn_q8')).length === 0; i++)
      await new Promise((r) => setTimeout(r, 5));
    const waiting = b.run(key, async (id) => ready(id), processing);
    await new Promise((r) => setTimeout(r, 50));
    end.open();
    assert.equal((await first).status, 'ready');
    // Its row went with the answer to the first request: the second is answered all the same.
    assert.equal((await waiting).status, 'ready');
  });

  it('an assembly whose lease was taken over stores nothing over the one that took it', async () => {
    await addBrain(db, 'brn_q9');
    // A's renewals do not reach the database (a slow link, not a dead process): its lease lapses.
    const slow: PgClient = {
      ...db,
      query: (sql, params) =>
        sql.includes('SET lease_until') ? Promise.reject(new Error('timeout')) : db.query(sql, params),
    };
    const a = pgThoroughSync(slow, { syncMs: 20, newId, leaseMs: 150 });
    const b = pgThoroughSync(db, { syncMs: 20, newId, leaseMs: 150 });
    const key = 'brn_q9\nw\n{}';
    const endA = gate();
    const told: string[] = [];
    const first = await a.run(
      key,
      async () => {
        await endA.wait();
        throw new MnemoError('store_unavailable', 'A hiccup');
      },
      processing,
      (id) => void told.push(id),
    );
    await new Promise((r) => setTimeout(r, 250));
    const endB = gate();
    const taken = await b.run(key, async (id) => (await endB.wait(), ready(id)), processing);
    assert.deepEqual([taken.status, taken.id], ['processing', first.id]);
    endB.open();
    await until('brn_q9', [[first.id, 'ready']]);
    endA.open();
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await rows('brn_q9'), [[first.id, 'ready']], "A's late failure left it as B stored it");
    assert.deepEqual(told, [], 'nor replaced its Trace');
    assert.deepEqual((await b.run(key, async (id) => ready(id), processing)).status, 'ready');
  });

  it("tells the retry on another process of an announced assembly's failure, once", async () => {
    await addBrain(db, 'brn_q3');
    const a = pgThoroughSync(db, { syncMs: 20, newId });
    const b = pgThoroughSync(db, { syncMs: 20, newId });
    const key = 'brn_q3\nw\n{}';
    const end = gate();
    const told: string[] = [];
    const failing = async (): Promise<Context> => {
      await end.wait();
      throw new MnemoError('store_unavailable', 'the store went away');
    };
    const first = await a.run(key, failing, processing, (id) => void told.push(id));
    end.open();
    await until('brn_q3', [[first.id, 'failed']]);
    assert.deepEqual(told, [first.id]);
    await assert.rejects(
      b.run(key, async (id) => ready(id), processing),
      (e: unknown) =>
        e instanceof MnemoError && e.code === 'store_unavailable' && /went away/.test(e.message),
    );
    const after = await b.run(key, async (id) => ready(id), processing);
    assert.equal(after.status, 'ready');
    assert.notEqual(after.id, first.id);
  });

  it('a finished Context the caller finds stale is assembled afresh once, and that one served', async () => {
    await addBrain(db, 'brn_q4');
    const a = pgThoroughSync(db, { syncMs: 20, newId });
    const key = 'brn_q4\nw\n{}';
    let end = gate();
    const slow = async (id: string) => (await end.wait(), ready(id));
    const first = await a.run(key, slow, processing);
    end.open();
    await until('brn_q4', [[first.id, 'ready']]);
    end = gate();
    const again = await a.run(key, slow, processing, undefined, () => true);
    assert.equal(again.status, 'processing');
    assert.notEqual(again.id, first.id);
    end.open();
    await until('brn_q4', [[again.id, 'ready']]);
    const served = await a.run(key, slow, processing, undefined, () => true);
    assert.deepEqual([served.status, served.id], ['ready', again.id]);
  });

  it('does not keep a Context citing a Record forgotten while it was assembled', async () => {
    await addBrain(db, 'brn_q5');
    await addRecord(db, 'brn_q5', 'rec_gone');
    const a = pgThoroughSync(db, { syncMs: 20, newId });
    const end = gate();
    const first = await a.run(
      'brn_q5\nw\n{}',
      async (id) => (await end.wait(), ready(id, ['rec_gone'])),
      processing,
    );
    assert.equal(first.status, 'processing');
    await db.query("DELETE FROM records WHERE brain_uid = 'brn_q5' AND id = 'rec_gone'");
    end.open();
    await until('brn_q5', []);
  });

  it('a kept Context citing a Record gone since is served to nobody, and the request assembled again', async () => {
    await addBrain(db, 'brn_q10');
    await addRecord(db, 'brn_q10', 'rec_secret');
    const a = pgThoroughSync(db, { syncMs: 20, newId });
    const key = 'brn_q10\nw\n{}';
    const end = gate();
    const first = await a.run(key, async (id) => (await end.wait(), ready(id, ['rec_secret'])), processing);
    end.open();
    await until('brn_q10', [[first.id, 'ready']]);
    // Gone, and the forget's clearing of the kept rows never ran (a crash between the two).
    await db.query("DELETE FROM records WHERE brain_uid = 'brn_q10' AND id = 'rec_secret'");
    const again = await a.run(key, async (id) => ready(id), processing);
    assert.equal(again.status, 'ready');
    assert.notEqual(again.id, first.id);
    assert.deepEqual((again as unknown as { citations: unknown[] }).citations, []);
  });

  it("a forget drops the Brain's rows, finished or under way, and no other Brain's", async () => {
    await addBrain(db, 'brn_q6');
    await addBrain(db, 'brn_q7');
    const a = pgThoroughSync(db, { syncMs: 20, newId });
    const end = gate();
    const never = () => new Promise<Context>(() => {});
    await a.run('brn_q6\nw\n{"a":1}', async (id) => ready(id), processing).then(() => undefined);
    await a.run('brn_q6\nw\n{"a":2}', async (id) => (await end.wait(), ready(id)), processing);
    const other = await a.run('brn_q7\nw\n{}', never, processing);
    await a.forget('brn_q6\n');
    end.open();
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await rows('brn_q6'), []);
    assert.deepEqual(await rows('brn_q7'), [[other.id, 'assembling']]);
  });
});
