import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3-multiple-ciphers';
import type { Store } from '../adapters/sqlite/store.ts';
import { tempStore } from '../adapters/sqlite/testing.ts';
import { createWriteGroup } from './write-group.ts';

/** A store whose top-level transactions (commits) are counted, with a table of its own. */
function countedStore() {
  const store = tempStore('mnemo-write-group-');
  store.db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE item (v TEXT NOT NULL, parent INTEGER REFERENCES parent(id))`);
  let commits = 0;
  const counted: Store = {
    ...store,
    tx: (fn) => {
      if (!store.db.inTransaction) commits += 1;
      return store.tx(fn);
    },
  };
  const insert = (v: string) => () => store.run('INSERT INTO item (v) VALUES (?)', v);
  const items = () => store.all<{ v: string }>('SELECT v FROM item ORDER BY rowid').map((r) => r.v);
  return { store, counted, insert, items, commits: () => commits };
}

const groups = new WeakMap<object, ReturnType<typeof createWriteGroup>>();
/** The one write group of a counted store (made on first use). */
const group = (s: ReturnType<typeof countedStore>) => {
  let g = groups.get(s);
  if (!g) groups.set(s, (g = createWriteGroup(s.counted)));
  return g;
};

/** What another connection sees: only committed rows. */
const committedItems = (store: Store) => {
  const other = new Database(store.file, { readonly: true });
  try {
    return (other.prepare('SELECT v FROM item ORDER BY rowid').all() as { v: string }[]).map((r) => r.v);
  } finally {
    other.close();
  }
};

describe('the write group', () => {
  it('commits writes that arrive in one turn of the event loop together, in the order given', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((v) => group.run(s.insert(v))));
    assert.equal(s.commits(), 1);
    assert.deepEqual(s.items(), ['a', 'b', 'c', 'd']);
    assert.deepEqual(
      results.map((r) => r.changes),
      [1, 1, 1, 1],
      "each caller gets its own write's result",
    );
    await group.run(s.insert('e'));
    assert.equal(s.commits(), 2, 'a later turn is a transaction of its own');
  });

  it('answers a caller only once its write is committed: another connection sees it then', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted);
    const seen: string[][] = [];
    const done = group.run(s.insert('a')).then(() => seen.push(committedItems(s.store)));
    assert.deepEqual(committedItems(s.store), [], 'not written before the group runs');
    await done;
    assert.deepEqual(seen, [['a']]);
  });

  it('a write that throws rolls back only itself and rejects only its caller', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted);
    const failing = () => {
      s.store.run("INSERT INTO item (v) VALUES ('half-written')");
      throw new Error('the write failed after its first row');
    };
    const outcomes = await Promise.allSettled([
      group.run(s.insert('a')),
      group.run(failing),
      group.run(s.insert('c')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((outcomes[1] as PromiseRejectedResult).reason), /after its first row/);
    assert.deepEqual(committedItems(s.store), ['a', 'c']);
    assert.equal(s.commits(), 1);
  });

  it('when the commit fails, every write of the group rejects and none is kept', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted);
    // Checked at COMMIT: a row pointing at a parent that does not exist, with the check deferred.
    const orphan = () => {
      s.store.db.pragma('defer_foreign_keys = ON');
      return s.store.run("INSERT INTO item (v, parent) VALUES ('orphan', 42)");
    };
    const outcomes = await Promise.allSettled([group.run(s.insert('a')), group.run(orphan)]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected'],
    );
    for (const o of outcomes) assert.match(String((o as PromiseRejectedResult).reason), /FOREIGN KEY/);
    assert.equal(s.store.db.inTransaction, false);
    assert.deepEqual(committedItems(s.store), []);
    await group.run(s.insert('after'));
    assert.deepEqual(committedItems(s.store), ['after'], 'the store takes writes again');
  });

  it('a failure that ends the whole transaction (the disk full) rejects the group and runs none after it', async () => {
    const s = countedStore();
    s.store.db.exec('CREATE TABLE blob (b BLOB)');
    const pages = s.store.db.pragma('page_count', { simple: true }) as number;
    s.store.db.pragma(`max_page_count = ${pages + 3}`);
    const ran: string[] = [];
    const write =
      (v: string, bytes = 0) =>
      () => {
        ran.push(v);
        // One row, no trigger: SQLite keeps no statement journal and rolls back the whole transaction.
        return bytes > 0
          ? s.store.run('INSERT INTO blob (b) VALUES (?)', Buffer.alloc(bytes))
          : s.insert(v)();
      };
    const outcomes = await Promise.allSettled([
      group(s).run(write('a')),
      group(s).run(write('big', 200_000)),
      group(s).run(write('c')),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const o of outcomes) assert.match(String((o as PromiseRejectedResult).reason), /full/i);
    assert.deepEqual(ran, ['a', 'big'], 'nothing runs once the transaction is gone');
    assert.deepEqual(committedItems(s.store), [], 'and nothing of the group was kept');
    assert.equal(s.store.db.inTransaction, false);
    s.store.db.pragma('max_page_count = 1073741823');
    await group(s).run(s.insert('after'));
    assert.deepEqual(committedItems(s.store), ['after']);
  });

  it('cuts a long burst into groups and lets other work run between them', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted, 3);
    const order: string[] = [];
    const writes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((v) =>
      group.run(() => {
        order.push(v);
        return s.insert(v)();
      }),
    );
    // Queued after the first group's turn: runs before the second group if groups take turns.
    setImmediate(() => setImmediate(() => order.push('other')));
    await Promise.all(writes);
    assert.equal(s.commits(), 3);
    assert.deepEqual(order.slice(0, 3), ['a', 'b', 'c']);
    assert.ok(order.indexOf('other') > 2 && order.indexOf('other') < 7, order.join(' '));
    assert.deepEqual(s.items(), ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('flush commits what is waiting at once (before the store closes)', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted, 2);
    const writes = ['a', 'b', 'c'].map((v) => group.run(s.insert(v)));
    group.flush();
    assert.deepEqual(committedItems(s.store), ['a', 'b', 'c']);
    await Promise.all(writes);
    assert.equal(s.commits(), 2);
  });

  it('waits for a unit of work open now and commits apart from it', async () => {
    const s = countedStore();
    const group = createWriteGroup(s.counted);
    let written: Promise<unknown> | null = null;
    // Arrives while the unit below awaits, as a request would.
    setTimeout(() => (written = group.run(s.insert('group'))), 5);
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
    assert.deepEqual(committedItems(s.store), ['group']);
  });
});
