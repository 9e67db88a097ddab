import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createCostLedger } from '../core/context/cost-ledger.ts';
import { openStore, type Store } from '../adapters/sqlite/store.ts';
import { createSqliteSlotIndex } from '../adapters/sqlite/slot-index.ts';
import { createSqliteThreadIndex } from '../adapters/sqlite/thread-index.ts';
import { queryPlan } from '../adapters/sqlite/testing.ts';
import { eligibilitySql } from '../adapters/sqlite/eligibility-sql.ts';
import type { Eligibility, LaneInput } from './lane.ts';
import { createRetrievalIndexer } from './retrieval-indexer.ts';
import { sqliteIndexQueue } from '../adapters/sqlite/index-queue.ts';
import { createTurnCopies } from '../adapters/sqlite/turn-copies.ts';
import { createSqliteVectorIndex } from '../adapters/sqlite/vector-index.ts';
import { searchTurns } from './turn-lexical-lane.ts';
import { createSqliteLexicalIndex, rankedRowsSql } from '../adapters/sqlite/lexical-index.ts';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const day = 86_400_000;
const t0 = Date.UTC(2023, 4, 1);

function brainStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-lex-'));
  dirs.push(dir);
  const store = openStore({ dataDir: dir, key: null });
  const now = new Date(t0).toISOString();
  store.run(
    "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('brn_a', 'p', 'test', 'a', ?)",
    now,
  );
  const texts = ['the kayak trip to Porto', 'a kayak lesson', 'kayak repairs', 'bread recipe'];
  texts.forEach((text, i) => {
    const at = t0 + i * day;
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (?, ?, 'brn_a', ?, 'message', ?, ?, 'high', 'shareable', ?, ?, ?)`,
      i + 1,
      `rec_${i + 1}`,
      i + 1,
      JSON.stringify({ kind: 'message', speaker: 'Ana', text }),
      text,
      new Date(at).toISOString(),
      at,
      now,
    );
  });
  indexerOf(store).catchUp('brn_a');
  return store;
}

/** A retrieval indexer over the store, with indexes of its own. */
function indexerOf(store: Store, turns = createTurnCopies(store)) {
  return createRetrievalIndexer({
    queue: sqliteIndexQueue(store, { vectors: createSqliteVectorIndex(store, { now: () => '' }), turns }),
    logger: { warn() {}, error() {} },
  });
}

/** The store, counting the full-text searches run through it. */
function spying(store: Store): { store: Store; searches: () => number } {
  let n = 0;
  const all: Store['all'] = (sql, ...params) => {
    if (sql.includes('turn_fts MATCH')) n++;
    return store.all(sql, ...params);
  };
  return { store: { ...store, all }, searches: () => n };
}

function input(store: Store, e: Partial<Eligibility> = {}): LaneInput {
  return {
    lexical: createSqliteLexicalIndex(store),
    slots: createSqliteSlotIndex(store),
    threads: createSqliteThreadIndex(store),
    vectors: createSqliteVectorIndex(store, { now: () => '' }),
    query: 'kayak',
    terms: ['kayak'],
    eligibility: { brainUid: 'brn_a', excludeLocalOnly: false, ...e },
    limit: 10,
    ledger: createCostLedger(),
  };
}

describe('searchTurns time windows', () => {
  it('a window holding none of the Brain’s Records answers nothing without a full-text search', async () => {
    const base = brainStore();
    const { store, searches } = spying(base);
    const ids = (rows: Array<{ recordId: string }>) => rows.map((r) => r.recordId).sort();
    assert.deepEqual(ids(await searchTurns(input(store), { terms: ['kayak'], limit: 10 })), [
      'rec_1',
      'rec_2',
      'rec_3',
    ]);
    assert.equal(searches(), 1);
    // A window with Records in it still searches (and filters) as before.
    const inWindow = await searchTurns(input(store), {
      terms: ['kayak'],
      limit: 10,
      fromMs: t0 + day,
      toMs: t0 + 3 * day,
    });
    assert.deepEqual(ids(inWindow), ['rec_2', 'rec_3']);
    assert.equal(searches(), 2);
    // Empty windows: before the first Record, toMs exclusive, and the eligibility's since/until/as_of.
    for (const [e, s] of [
      [{}, { fromMs: t0 - 30 * day, toMs: t0 }],
      [{}, { fromMs: t0 + 10 * day }],
      [{ sinceMs: t0 + 10 * day }, {}],
      [{ untilMs: t0 - 1 }, {}],
      [{ asOfMs: t0 - 1 }, {}],
      [{ sinceMs: t0 + 2 * day }, { toMs: t0 + 2 * day }],
    ] as const) {
      assert.deepEqual(await searchTurns(input(store, e), { terms: ['kayak'], limit: 10, ...s }), []);
    }
    assert.equal(searches(), 2);
    // until and as_of are inclusive: the Record at that instant counts.
    assert.deepEqual(ids(await searchTurns(input(store, { untilMs: t0 }), { terms: ['kayak'], limit: 10 })), [
      'rec_1',
    ]);
    assert.deepEqual(ids(await searchTurns(input(store, { asOfMs: t0 }), { terms: ['kayak'], limit: 10 })), [
      'rec_1',
    ]);
    base.close();
  });
});

describe('searchTurns scope', () => {
  it('ranks the same without the Brain’s scope token when the store holds no other Brain, and keeps to the Brain when it does', async () => {
    const store = brainStore();
    const search = async () =>
      (await searchTurns(input(store), { terms: ['kayak', 'porto'], limit: 10 })).map((r) => [
        r.recordId,
        r.score,
      ]);
    const alone = await search();
    assert.equal(alone.length, 3);
    store.run(
      "INSERT INTO brains (uid, project, env, id, created_at) VALUES ('brn_b', 'p', 'test', 'b', '2023-01-01T00:00:00Z')",
    );
    assert.deepEqual(await search(), alone, 'same rows and scores through the scope token');
    store.run(
      `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       VALUES (9, 'rec_b', 'brn_b', 1, 'message', '{}', 'kayak kayak to Porto', 'high', 'shareable', '2023-05-01T00:00:00Z', ?, '2023-05-01T00:00:00Z')`,
      t0,
    );
    indexerOf(store).catchUp('brn_b');
    assert.deepEqual(
      (await searchTurns(input(store), { terms: ['kayak', 'porto'], limit: 10 }))
        .map((r) => r.recordId)
        .sort(),
      ['rec_1', 'rec_2', 'rec_3'],
    );
    store.close();
  });
});

describe('the Records of a ranking', () => {
  it('are read by rowid from the ranked list, whatever the request filters (never a scan of the Brain)', () => {
    const store = brainStore();
    for (const e of [
      {},
      { excludeLocalOnly: true },
      { sinceMs: t0, untilMs: t0 + day, asOfMs: t0 + day },
      { sources: ['notes'] },
    ]) {
      const el = eligibilitySql({ brainUid: 'brn_a', excludeLocalOnly: false, ...e });
      const plan = queryPlan(store, rankedRowsSql(el.sql), '[1, 2]', ...el.params);
      assert.match(plan, /^SCAN j VIRTUAL TABLE/, plan);
      assert.match(plan, /SEARCH r USING INTEGER PRIMARY KEY \(rowid=\?\)/, plan);
      assert.doesNotMatch(plan, /records_brain/, plan);
    }
    store.close();
  });
});

describe('searchTurns from the in-memory copy of turn_fts', () => {
  it('finds the same Records, in the same order, with the same scores as FTS5, under every filter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-lex-'));
    dirs.push(dir);
    const store = openStore({ dataDir: dir, key: null });
    const words = 'kayak porto lesson bread recipe garden lake sister trip paint run running'.split(' ');
    const sources = ['notes', 'mail', null];
    let n = 0;
    for (const brain of ['brn_a', 'brn_bs']) {
      store.run(
        "INSERT INTO brains (uid, project, env, id, created_at) VALUES (?, 'p', 'test', ?, '2023-01-01T00:00:00Z')",
        brain,
        brain,
      );
      for (let i = 0; i < 150; i++) {
        n++;
        const at = t0 + (i % 30) * day;
        // Duplicate texts tie on score; the threads put neighbours' words in each row.
        const text = `${words[(i * 7) % 12]} ${words[(i * 3) % 12]} ${i % 5 === 0 ? words[i % 12] : 'and'}`;
        store.run(
          `INSERT INTO records (n, id, brain_uid, seq, kind, content, text, trust, visibility, source_name, occurred_at, occurred_ms, created_at)
           VALUES (?, ?, ?, ?, 'message', ?, ?, 'high', ?, ?, ?, ?, ?)`,
          n,
          `rec_${n}`,
          brain,
          i + 1,
          JSON.stringify({ kind: 'message', speaker: i % 2 ? 'Ana' : 'Bob', text, thread: `t${i % 4}` }),
          text,
          i % 6 === 0 ? 'local_only' : 'shareable',
          sources[i % 3] ?? null,
          new Date(at).toISOString(),
          at,
          new Date(t0).toISOString(),
        );
      }
    }
    const turns = createTurnCopies(store);
    const indexer = indexerOf(store, turns);
    indexer.catchUp('brn_a');
    indexer.catchUp('brn_bs');
    await indexer.idle();
    let compared = 0;
    for (const e of [
      {},
      { excludeLocalOnly: true },
      { sinceMs: t0 + 5 * day, untilMs: t0 + 20 * day },
      { asOfMs: t0 + 10 * day },
      { sources: ['notes'] },
      { excludeLocalOnly: true, sources: ['mail', 'notes'], sinceMs: t0 + 2 * day },
    ]) {
      for (const brainUid of ['brn_a', 'brn_bs']) {
        for (const s of [
          { terms: ['kayak', 'running'], limit: 10 },
          { terms: ['lake', 'sister', 'paint'], limit: 3 },
          { terms: ['bread'], limit: 40, fromMs: t0 + 3 * day, toMs: t0 + 12 * day },
          { terms: ['recipe', 'trip'], limit: 1, fromMs: t0 + 25 * day },
        ]) {
          // Without the indexes (no copy) the search goes to FTS5.
          const at = (copies: typeof turns | undefined) =>
            searchTurns(
              {
                ...input(store, e),
                lexical: createSqliteLexicalIndex(store, copies),
                eligibility: { brainUid, excludeLocalOnly: false, ...e },
              },
              s,
            );
          const before = turns.usage().answers;
          const mine = await at(turns);
          // More than once where the texts repeat: a page of repeats is searched again, deeper.
          if (mine.length > 0) assert.ok(turns.usage().answers > before, 'the copy answered');
          assert.deepEqual(mine, await at(undefined), JSON.stringify({ brainUid, e, s }));
          compared += mine.length;
        }
      }
    }
    assert.ok(compared > 200, `Records compared: ${compared}`);
    await indexer.close();
    store.close();
  });
});
