import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgThreadIndex } from './thread-index.ts';
import { addBrain, migratedPglite } from './testing/fixtures.ts';
import { insertRecord, type RecordSpec } from './testing/records.ts';

const db = await migratedPglite();
const threads = pgThreadIndex(db);

await addBrain(db, 'brn_th');
await addBrain(db, 'brn_th_other');
const n: Record<string, number> = {};
const message = async (
  id: string,
  thread: string | null,
  occurredMs: number,
  over: Partial<RecordSpec> = {},
) => {
  n[id] = await insertRecord(db, {
    brainUid: 'brn_th',
    id,
    text: id,
    occurredMs,
    content: thread === null ? { text: id } : { text: id, thread, speaker: 'ann' },
    ...over,
  });
};
// Written out of order: a thread is ordered by when its messages occurred, then by n.
await message('m4', 't1', 3_000);
await message('m1', 't1', 1_000);
await message('m2', 't1', 2_000);
await message('m3', 't1', 2_000);
await message('m5', 't1', 4_000);
await message('x1', 't2', 2_500);
await message('plain', null, 2_500);
await message('doc', 't1', 2_500, { kind: 'document' });
await message('elsewhere', 't1', 2_500, { brainUid: 'brn_th_other' });

const ids = (rows: { id: string; offset: number }[]) => rows.map((r) => [r.id, r.offset]);

describe('threads of messages over PostgreSQL (ThreadIndex)', () => {
  it("names each message's thread, in the order asked; anything else is in none", async () => {
    assert.deepEqual(await threads.threadsOf([n.m2!, n.doc!, n.plain!, 987_654_321, n.x1!, n.m2!]), [
      't1',
      null,
      null,
      null,
      't2',
      't1',
    ]);
    assert.deepEqual(await threads.threadsOf([]), []);
  });

  it("finds a message's neighbours in its thread and Brain, in thread order, with their offsets", async () => {
    assert.deepEqual(ids(await threads.neighbours(n.m3!, 2, 1)), [
      ['m1', -2],
      ['m2', -1],
      ['m4', 1],
    ]);
    assert.deepEqual(ids(await threads.neighbours(n.m2!, 5, 5)), [
      ['m1', -1],
      ['m3', 1],
      ['m4', 2],
      ['m5', 3],
    ]);
    assert.deepEqual(ids(await threads.neighbours(n.m1!, 2, 1)), [['m2', 1]]);
    assert.deepEqual(ids(await threads.neighbours(n.m5!, 1, 0)), [['m4', -1]]);
    assert.deepEqual(await threads.neighbours(n.m3!, 0, 0), []);
    assert.deepEqual(await threads.neighbours(n.doc!, 2, 2), [], 'a document is in no thread');
    assert.deepEqual(await threads.neighbours(n.plain!, 2, 2), []);
    assert.deepEqual(await threads.neighbours(n.x1!, 2, 2), []);
    const back = await threads.neighbours(n.m3!, 1, 0);
    assert.equal(back[0]?.n, n.m2);
  });
});
