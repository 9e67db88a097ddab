import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import type { Store } from './store.ts';
import { tempStore } from './testing.ts';

/** A store with a table of its own, whose transactions (commits) are counted. */
function countedStore(maxBatch?: number) {
  const store = tempStore('mnemo-write-batches-', maxBatch === undefined ? {} : { maxBatch });
  store.db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE item (v TEXT NOT NULL, parent INTEGER REFERENCES parent(id))`);
  let commits = 0;
  const exec = store.db.exec.bind(store.db);
  store.db.exec = (sql: string) => {
    if (sql === 'COMMIT') commits += 1;
    return exec(sql);
  };
  const insert = (v: string) => async () => store.run('INSERT INTO item (v) VALUES (?)', v);
  const items = () => store.all<{ v: string }>('SELECT v FROM item ORDER BY rowid').map((r) => r.v);
  /** A write unit that asks to share its commit. */
  const batched = <T>(work: () => Promise<T>) => store.unit('write', work, { batch: true });
  return { store, insert, items, batched, commits: () => commits };
}

/** What another connection sees: only committed rows. */
const committedItems = (store: Store) => {
  const other = new Database(store.file, { readonly: true });
  try {
    return (other.prepare('SELECT v FROM item ORDER BY rowid').all() as { v: string }[]).map((r) => r.v);
  } finally {
    other.close();
  }
};

describe('batched write units', () => {
  it('commits units that arrive in one turn of the event loop together, in the order given', async () => {
    const s = countedStore();
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((v) => s.batched(s.insert(v))));
    assert.equal(s.commits(), 1);
    assert.deepEqual(s.items(), ['a', 'b', 'c', 'd']);
    assert.deepEqual(
      results.map((r) => r.changes),
      [1, 1, 1, 1],
      "each caller gets its own unit's result",
    );
    await s.batched(s.insert('e'));
    assert.equal(s.commits(), 2, 'a later turn is a transaction of its own');
  });

  it('runs each unit whole, though it awaits between its writes, before the next one starts', async () => {
    const s = countedStore();
    const unit = (name: string) =>
      s.batched(async () => {
        for (const i of [1, 2]) {
          await s.insert(`${name}${i}`)();
          await new Promise((r) => setTimeout(r, 2));
        }
      });
    await Promise.all([unit('a'), unit('b')]);
    assert.deepEqual(committedItems(s.store), ['a1', 'a2', 'b1', 'b2']);
    assert.equal(s.commits(), 1);
  });

  it('answers a caller only once its unit is committed: another connection sees it then', async () => {
    const s = countedStore();
    const seen: string[][] = [];
    const done = s.batched(s.insert('a')).then(() => seen.push(committedItems(s.store)));
    assert.deepEqual(committedItems(s.store), [], 'not written before the batch runs');
    await done;
    assert.deepEqual(seen, [['a']]);
  });

  it('a unit that rejects rolls back only itself and rejects only its caller', async () => {
    const s = countedStore();
    const failing = async () => {
      s.store.run("INSERT INTO item (v) VALUES ('half-written')");
      await Promise.resolve();
      throw new Error('the unit failed after its first row');
    };
    const outcomes = await Promise.allSettled([
      s.batched(s.insert('a')),
      s.batched(failing),
      s.batched(s.insert('c')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /after its first row/);
    assert.deepEqual(committedItems(s.store), ['a', 'c']);
    assert.equal(s.commits(), 1);
    await assert.rejects(s.batched(failing), /after its first row/, 'alone in its batch');
    assert.deepEqual(committedItems(s.store), ['a', 'c']);
    assert.equal(s.store.db.inTransaction, false);
  });

  it('when the commit fails, every unit of the batch rejects and none is kept', async () => {
    const s = countedStore();
    // Checked at COMMIT: a row pointing at a parent that does not exist, with the check deferred.
    const orphan = async () => {
      s.store.db.pragma('defer_foreign_keys = ON');
      return s.store.run("INSERT INTO item (v, parent) VALUES ('orphan', 42)");
    };
    const outcomes = await Promise.allSettled([s.batched(s.insert('a')), s.batched(orphan)]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
    for (const o of outcomes) assert.match(String((o as PromiseRejectedResult).reason), /FOREIGN KEY/);
    assert.equal(s.store.db.inTransaction, false);
    assert.deepEqual(committedItems(s.store), []);
    await s.batched(s.insert('after'));
    assert.deepEqual(committedItems(s.store), ['after'], 'the store takes writes again');
  });

  it('a failure that ends the whole transaction (the disk full) rejects the batch and runs none after it', async () => {
    const s = countedStore();
    s.store.db.exec('CREATE TABLE blob (b BLOB)');
    const pages = s.store.db.pragma('page_count', { simple: true }) as number;
    s.store.db.pragma(`max_page_count = ${pages + 3}`);
    const ran: string[] = [];
    const write =
      (v: string, bytes = 0) =>
      async () => {
        ran.push(v);
        // One row, no trigger: SQLite keeps no statement journal and rolls back the whole transaction.
        return bytes > 0
          ? s.store.run('INSERT INTO blob (b) VALUES (?)', Buffer.alloc(bytes))
          : s.insert(v)();
      };
    const outcomes = await Promise.allSettled([
      s.batched(write('a')),
      s.batched(write('big', 200_000)),
      s.batched(write('c')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const o of outcomes) assert.match(String((o as PromiseRejectedResult).reason), /full/i);
    assert.deepEqual(ran, ['a', 'big'], 'nothing runs once the transaction is gone');
    assert.deepEqual(committedItems(s.store), [], 'and nothing of the batch was kept');
    assert.equal(s.store.db.inTransaction, false);
    s.store.db.pragma('max_page_count = 1073741823');
    await s.batched(s.insert('after'));
    assert.deepEqual(committedItems(s.store), ['after']);
  });

  it('cuts a long burst into batches and lets other work run between them', async () => {
    const s = countedStore(3);
    const order: string[] = [];
    const writes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((v) =>
      s.batched(async () => {
        order.push(v);
        return s.insert(v)();
      }),
    );
    // Queued after the first batch's turn: runs before the second batch if batches take turns.
    setImmediate(() => setImmediate(() => order.push('other')));
    await Promise.all(writes);
    assert.equal(s.commits(), 3);
    assert.deepEqual(order.slice(0, 3), ['a', 'b', 'c']);
    assert.ok(order.indexOf('other') > 2 && order.indexOf('other') < 7, order.join(' '));
    assert.deepEqual(s.items(), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('flushBatches commits what is waiting now (before the store closes)', async () => {
    const s = countedStore(2);
    const writes = ['a', 'b', 'c'].map((v) => s.batched(s.insert(v)));
    await s.store.flushBatches();
    assert.deepEqual(committedItems(s.store), ['a', 'b', 'c']);
    await Promise.all(writes);
    assert.equal(s.commits(), 2);
  });

  it('waits for a unit of work open now and commits apart from it', async () => {
    const s = countedStore();
    let written: Promise<unknown> | null = null;
    // Arrives while the unit below awaits, as a request would.
    setTimeout(() => (written = s.batched(s.insert('batch'))), 5);
    await assert.rejects(
      s.store.unit('write', async () => {
        s.store.run("INSERT INTO item (v) VALUES ('unit')");
        await new Promise((r) => setTimeout(r, 30));
        assert.deepEqual(s.items(), ['unit']);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.ok(written);
    await written;
    assert.deepEqual(committedItems(s.store), ['batch']);
  });

  it('refuses a write from outside while a batch is open, and a unit opened inside a batched one', async () => {
    const s = countedStore();
    let refused: unknown = null;
    // Another task's write (made from outside the unit, so not the unit's own), run once it is open.
    let open!: () => void;
    const outside = new Promise<void>((r) => (open = r)).then(() => {
      try {
        s.store.run("INSERT INTO item (v) VALUES ('outside')");
      } catch (e) {
        refused = e;
      }
    });
    await s.batched(async () => {
      await s.insert('inside')();
      open();
      await outside;
    });
    assert.match(String(refused), /a write outside the open unit of work would join it/);
    await assert.rejects(
      s.batched(async () => s.batched(s.insert('inner'))),
      /a unit of work cannot open inside another/,
    );
    assert.deepEqual(committedItems(s.store), ['inside']);
  });
});
