import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sqliteIndexQueue } from './index-queue.ts';
import type { Store } from './store.ts';
import { brainWithRecords, tempStore } from './testing.ts';
import { createTurnCopies } from './turn-copies.ts';
import { createSqliteVectorIndex } from './vector-index.ts';

const now = '2024-01-01T00:00:00.000Z';
const model = { provider: 'test', model: 'queue', dims: 4 };

/** A store with Brain brn_a and Records 1..count, the first `embedded` of them embedded by `model`. */
function storeWith(count: number, embedded: number) {
  const store = tempStore('mnemo-index-queue-');
  brainWithRecords(store, count, now);
  const vectors = createSqliteVectorIndex(store, { now: () => now });
  const m = store.tx(() => vectors.sync.model(model));
  const vector = Float32Array.from([1, 0, 0, 0]);
  vectors.sync.put(
    m,
    'record',
    Array.from({ length: embedded }, (_, i) => ({ n: i + 1, brainUid: 'brn_a', vector })),
  );
  // Every insert queued its Record: only what queueUnembedded adds is looked at.
  store.run('DELETE FROM index_queue');
  const queue = sqliteIndexQueue(store, { vectors, turns: createTurnCopies(store) });
  return { store, queue };
}

const queued = (store: Store) =>
  store
    .all<{ n: number }>("SELECT owner_n AS n FROM index_queue WHERE owner = 'record' ORDER BY owner_n")
    .map((r) => r.n);

/** A write unit of work, open once this resolves and held across turns of the event loop until ended. */
async function heldUnit(store: Store): Promise<() => Promise<void>> {
  let release!: () => void;
  let opened!: () => void;
  const open = new Promise<void>((r) => (opened = r));
  const held = store.unit('write', () => {
    opened();
    return new Promise<void>((r) => (release = r));
  });
  await open;
  return async () => {
    release();
    await held;
  };
}

describe("the index queue's writes that start on their own", () => {
  it('queues what a model has not embedded after a unit of work open across awaits, not inside it', async () => {
    const { store, queue } = storeWith(6, 2);
    const end = await heldUnit(store);
    const queueing = queue.queueUnembedded(model);
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(queued(store), [], 'nothing written while the unit is open');
    await end();
    await queueing;
    assert.deepEqual(queued(store), [3, 4, 5, 6], 'the Records without its vector, once the unit ended');
  });

  it('indexes a Brain for a Context between units of work, not inside one', async () => {
    const { store, queue } = storeWith(3, 0);
    store.run("INSERT INTO index_queue (owner, owner_n) VALUES ('record', 1), ('record', 2)");
    const end = await heldUnit(store);
    const indexing = queue.indexBrain('brn_a', 10, () => ({
      thread: null,
      speaker: null,
      speakerNorm: null,
    }));
    await new Promise((r) => setTimeout(r, 20));
    const indexed = () =>
      store.all<{ n: number }>('SELECT record_n AS n FROM retrieval_index ORDER BY record_n').map((r) => r.n);
    assert.deepEqual(indexed(), [], 'nothing written while the unit is open');
    await end();
    await indexing;
    assert.deepEqual(indexed(), [1, 2]);
  });
});
