import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore, type Store } from './store.ts';
import { tempStore } from './testing.ts';
import { segmentWords } from '../../core/retrieve/segment-words.ts';
import { scopeToken } from './turn-table.ts';
import { createTurnCopies, type TurnCopies } from './turn-copies.ts';
import { ftsPhrase, ftsRankingSql, turnColumns, turnTokenizerSql, turnWeights } from './turn-table.ts';

// Words that stem together (run, runs, running), fold (Café, cafe, a combining accent), repeat and
// collide, so scores tie and frequencies sum over columns; words whose vowel signs are combining marks
// (Hindi, Thai), which are token characters.
const vocabulary = `run runs running runner walk walked walking café Cafe CAFE Cafe\u0301 dance dancing danced
  हिन्दी जाना ฉัน กิน ゲーム
  tomato tomatoes garden gardens paint painted painting trip trips travel travelled beach beaches
  store stores shop shopping dog dogs cat cats read reading book books cook cooking cooked
  sister brother mother father friend friends school work job jobs city cities lake lakes`.split(/\s+/);

/** A deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number, words: number): string {
  return Array.from({ length: words }, () => vocabulary[Math.floor(rand() * vocabulary.length)]!).join(' ');
}

/** Brains whose scope tokens the stemmer shortens ("...s", "...ing") and one it keeps. */
const brains = ['brn_01stores', 'brn_02running', 'brn_03lake'];

function writeRow(store: Store, rand: () => number, n: number): void {
  store.run('DELETE FROM turn_fts WHERE rowid = ?', n);
  store.run(
    'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
    n,
    sentence(rand, 1 + Math.floor(rand() * 12)),
    rand() < 0.5 ? 'Mary Ann' : 'Bob',
    rand() < 0.7 ? sentence(rand, Math.floor(rand() * 20)) : '',
    rand() < 0.5 ? sentence(rand, Math.floor(rand() * 8)) : '',
    scopeToken(brains[n % brains.length]!),
  );
  store.run('INSERT INTO turn_log (n) VALUES (?)', n);
}

function deleteRow(store: Store, n: number): void {
  store.run('DELETE FROM turn_fts WHERE rowid = ?', n);
  store.run('INSERT INTO turn_log (n) VALUES (?)', n);
}

/** FTS5's own answer, as the lexical lane asks it. */
function ftsRanking(store: Store, words: string[], scope: string | null, cut: number) {
  const any = `(${words.map(ftsPhrase).join(' OR ')})`;
  return store.all<{ n: number; score: number }>(
    ftsRankingSql,
    scope === null ? any : `scope:${scope} AND ${any}`,
    cut,
  );
}

/** Every query: the copy's ranking equals FTS5's, rowid for rowid and score for score (no tolerance). */
function assertSameRankings(store: Store, tc: TurnCopies, rand: () => number, queries: number): number {
  let compared = 0;
  for (let q = 0; q < queries; q++) {
    const words = [
      ...new Set(
        sentence(rand, 1 + Math.floor(rand() * 5))
          .toLowerCase()
          .split(' '),
      ),
    ];
    const scope = rand() < 0.3 ? null : scopeToken(brains[Math.floor(rand() * brains.length)]!);
    const cut = [1, 5, 30, 200][Math.floor(rand() * 4)]!;
    const copy = tc.rank(words, scope, cut);
    assert.ok(copy, 'the copy answers');
    assert.deepEqual(
      copy,
      ftsRanking(store, words, scope, cut),
      `${words.join(' ')} in ${scope}, cut ${cut}`,
    );
    compared += copy.length;
  }
  return compared;
}

describe('the in-memory copy of turn_fts', () => {
  it('ranks exactly as FTS5 bm25() does, through writes, rewrites and deletes', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const tc = createTurnCopies(store);
    // ~14,000 one-row commits: what is checked is the ranking, not durability, so none waits for fsync.
    store.db.pragma('synchronous = OFF');
    const rand = random(7);
    for (let n = 1; n <= 400; n++) writeRow(store, rand, n);
    await tc.load();
    assert.equal(tc.usage().rows, 400);
    assert.ok(assertSameRankings(store, tc, rand, 150) > 1000, 'the queries found rows to compare');

    // Rewrites (a neighbour changed), deletes and new rows, then a catch-up from turn_log only.
    for (let i = 0; i < 300; i++) {
      const n = 1 + Math.floor(rand() * 500);
      if (rand() < 0.25) deleteRow(store, n);
      else writeRow(store, rand, n);
    }
    assertSameRankings(store, tc, rand, 150);
    assert.equal(tc.usage().loads, 1, 'caught up from the log, not reloaded');
    const live = store.get<{ c: number }>('SELECT count(*) AS c FROM turn_fts')!.c;
    assert.equal(tc.usage().rows, live);

    // Rows rewritten over and over (a thread growing): dead slots pile up until the copy compacts.
    for (let round = 0; round < 4; round++) {
      for (let n = 1; n <= 400; n++) writeRow(store, rand, n);
      assertSameRankings(store, tc, rand, 20);
    }
    // Enough deletes that the copy compacts its postings, and it still agrees.
    for (let n = 1; n <= 500; n++) if (n % 5 !== 0) deleteRow(store, n);
    for (let n = 501; n <= 1900; n++) writeRow(store, rand, n);
    for (let n = 501; n <= 1700; n++) deleteRow(store, n);
    // Too many rows for a request to re-read first: FTS5 answers it, and the copy catches up right after.
    assert.equal(tc.rank(['run'], null, 5), null);
    await new Promise((r) => setImmediate(r));
    assertSameRankings(store, tc, rand, 100);
    assert.equal(tc.usage().loads, 1, 'still caught up from the log');
    tc.release();
  });

  it('loads in slices while rows are written, and re-reads those rows at the end', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const rand = random(11);
    for (let n = 1; n <= 300; n++) writeRow(store, rand, n);
    let done = false;
    const tc = createTurnCopies(store, { slice: 200 });
    const load = tc.load().then(() => (done = true));
    let writes = 0;
    while (!done) {
      // Between the load's slices: rows it has read and rows it has not.
      const n = 1 + Math.floor(rand() * 350);
      if (rand() < 0.2) deleteRow(store, n);
      else writeRow(store, rand, n);
      writes++;
      await new Promise((r) => setImmediate(r));
    }
    await load;
    assert.ok(writes > 3, `writes landed during the load (${writes})`);
    assertSameRankings(store, tc, rand, 150);
    tc.release();
  });

  it('leaves to FTS5 a word it reads as several tokens, and answers nothing while not loaded', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const tc = createTurnCopies(store);
    const rand = random(3);
    for (let n = 1; n <= 20; n++) writeRow(store, rand, n);
    assert.equal(tc.rank(['run'], null, 5), null, 'not loaded yet');
    await tc.load();
    assert.ok(tc.rank(['run'], null, 5));
    // The lexical lane's words are letters and digits; a character unicode61 splits on makes two.
    assert.equal(tc.rank(['run\u2019s'], null, 5), null);
    store.tx(() => {
      writeRow(store, rand, 21);
      assert.equal(tc.rank(['run'], null, 5), null, 'not inside a transaction');
    });
    tc.release();
    assert.equal(tc.rank(['run'], null, 5), null, 'released');
  });

  it('prunes turn_log up to what the copy has applied, keeping the last 20,000 for other connections', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const tc = createTurnCopies(store);
    const rand = random(5);
    for (let n = 1; n <= 10; n++) writeRow(store, rand, n);
    const logged = () => store.get<{ c: number }>('SELECT count(*) AS c FROM turn_log')!.c;
    const relog = (count: number) =>
      store.tx(() => {
        for (let i = 0; i < count; i++) store.run('INSERT INTO turn_log (n) VALUES (?)', 1 + (i % 10));
      });
    tc.pruneLog();
    assert.equal(logged(), 10, 'the tail stays');
    relog(20_100);
    tc.pruneLog();
    assert.equal(logged(), 20_000, 'no copy: only the tail stays');
    await tc.load();
    relog(5_000);
    tc.pruneLog();
    assert.equal(logged(), 20_000, 'the tail, which holds the 5,000 the copy has not applied');
    for (let i = 0; i < 10 && !tc.rank(['run'], null, 5); i++) await new Promise((r) => setImmediate(r));
    assert.ok(tc.rank(['run'], null, 5), 'caught up');
    tc.pruneLog();
    assert.equal(logged(), 20_000);
    // A pruned log does not restart its numbering (AUTOINCREMENT): a new change is still new.
    writeRow(store, rand, 16);
    assert.ok(assertSameRankings(store, tc, rand, 20) > 0);
    assert.equal(tc.usage().loads, 1);
    tc.release();
  });

  it('lets go of a forgotten row’s words at the catch-up: its own terms and the lines kept for neighbours', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const tc = createTurnCopies(store);
    const rand = random(9);
    for (let n = 1; n <= 30; n++) writeRow(store, rand, n);
    await tc.load();
    const secret = (n: number) => {
      store.run('DELETE FROM turn_fts WHERE rowid = ?', n);
      store.run(
        "INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, 'it was zanzibarquokka', 'Ana', 'run\ncafe', '', ?)",
        n,
        scopeToken(brains[0]!),
      );
      store.run('INSERT INTO turn_log (n) VALUES (?)', n);
    };
    secret(31);
    tc.sync();
    const withSecret = tc.usage();
    assert.ok(withSecret.lines > 0, 'lines kept from the catch-up');
    assert.equal(tc.rank(['zanzibarquokka'], null, 5)?.length, 1);
    // A neighbour's rewrite keeps the lines; a deletion drops them, and the term only it held.
    writeRow(store, rand, 5);
    tc.sync();
    assert.ok(tc.usage().lines > 0);
    deleteRow(store, 31);
    tc.sync();
    const after = tc.usage();
    assert.equal(after.lines, 0);
    const indexed = () => store.get<{ c: number }>('SELECT count(*) AS c FROM temp.turn_term_rows')!.c;
    assert.ok(after.terms < withSecret.terms);
    assert.equal(after.terms, indexed(), 'the terms FTS5 still holds, no more');
    assert.deepEqual(tc.rank(['zanzibarquokka'], null, 5), []);
    assertSameRankings(store, tc, rand, 30);
    tc.release();
  });

  it('loads again when entries it had not read were pruned (another connection), or it is far behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-turn-copy-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const store = openStore({ dataDir: dir, key: null });
    const tc = createTurnCopies(store);
    const other = openStore({ dataDir: dir, key: null });
    const rand = random(13);
    for (let n = 1; n <= 40; n++) writeRow(store, rand, n);
    await tc.load();
    // The other connection has no copy: it prunes all but the last 20,000 entries as it writes.
    for (let n = 41; n <= 60; n++) writeRow(other, rand, n);
    createTurnCopies(other).pruneLog();
    assert.ok(tc.rank(['run'], null, 5), 'within the tail: caught up');
    for (let n = 61; n <= 80; n++) writeRow(other, rand, n);
    other.tx(() => {
      for (let i = 0; i < 20_000; i++) other.run('INSERT INTO turn_log (n) VALUES (?)', 1 + (i % 80));
    });
    createTurnCopies(other).pruneLog();
    assert.equal(tc.rank(['run'], null, 5), null, 'entries lost: the copy does not answer');
    await tc.load();
    assert.equal(tc.usage().loads, 2);
    assertSameRankings(store, tc, rand, 30);

    // Further behind than a catch-up is worth (20,000 changes): a reload, whose tokenizer keeps no line.
    store.tx(() => {
      for (let i = 0; i < 20_001; i++) store.run('INSERT INTO turn_log (n) VALUES (?)', 1 + (i % 80));
    });
    tc.sync();
    assert.equal(tc.usage().lines, 0);
    await tc.load();
    assert.equal(tc.usage().loads, 3);
    assertSameRankings(store, tc, rand, 30);

    // Far behind at the end of a load (written between its slices): it catches up in slices (loading
    // again would leave it as far behind while writes go on).
    tc.release();
    const sliced = createTurnCopies(store, { slice: 50 });
    const first = sliced.load();
    await new Promise((r) => setImmediate(r));
    store.tx(() => {
      for (let i = 0; i < 20_001; i++) store.run('INSERT INTO turn_log (n) VALUES (?)', 1 + (i % 80));
    });
    await first;
    await sliced.load();
    assert.ok(sliced.usage().ready);
    assertSameRankings(store, sliced, rand, 30);
    sliced.release();
    other.close();
    store.close();
  });

  it('checks itself against FTS5 once loaded, and stays off (FTS5 answers) if they differ', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const rand = random(17);
    for (let n = 1; n <= 40; n++) writeRow(store, rand, n);
    const errors: string[] = [];
    const tc = createTurnCopies(store, { slice: 50, onError: (m) => errors.push(m) });
    const load = tc.load();
    // Past the load's first slices (~30 in all), which read the terms before "bob".
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    // A row written behind the log's back: the copy cannot know of it, and its check must notice.
    store.run(
      "INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (99, 'run run run', 'Bob', '', '', 'sx')",
    );
    await load;
    assert.deepEqual(errors, [
      'the in-memory lexical index does not rank as FTS5 does on this platform; FTS5 answers lexical searches',
    ]);
    assert.equal(tc.rank(['run'], null, 5), null);
    tc.release();
  });

  it('checks with terms FTS5 reads back as themselves, never only weightless ones: no false alarm', async () => {
    const store = tempStore('mnemo-turn-copy-');
    // "because", "house", "please" (40 rows each) are stored as "becaus", "hous", "pleas", which porter
    // stems again when queried; "walk", "home" and "day" are in too many rows to be checked.
    for (let n = 1; n <= 120; n++) {
      store.run(
        'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
        n,
        n % 3 ? `walked home, day ${n}` : 'because the house please',
        'Ana',
        '',
        '',
        scopeToken(`brn_${n % 40}`),
      );
      store.run('INSERT INTO turn_log (n) VALUES (?)', n);
    }
    const errors: string[] = [];
    const tc = createTurnCopies(store, { onError: (m) => errors.push(m) });
    await tc.load();
    assert.deepEqual(errors, []);
    assert.ok(tc.usage().ready);
    assert.ok(assertSameRankings(store, tc, random(1), 10) >= 0);
    tc.release();
  });

  it('rows as writeTurnRow writes them: lone marks and emoji selectors leave no empty or stray token', async () => {
    const store = tempStore('mnemo-turn-copy-');
    const texts = [
      'garden \u0301 party',
      'Do I ❤️ sushi?',
      'Thanks for the ride ✌️',
      'Cafe\u0301 au lait in the garden',
      'मैं कल दिल्ली जाऊँगा',
      'テレビゲームをした',
      'ฉันกินข้าวกับแม่',
    ];
    const put = (n: number, text: string) => {
      store.run(
        'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
        n,
        segmentWords(text),
        '',
        '',
        '',
        scopeToken(brains[0]!),
      );
      store.run('INSERT INTO turn_log (n) VALUES (?)', n);
    };
    texts.slice(0, 4).forEach((t, i) => put(i + 1, t));
    const errors: string[] = [];
    const tc = createTurnCopies(store, { onError: (m) => errors.push(m) });
    await tc.load();
    texts.slice(4).forEach((t, i) => put(i + 5, t));
    for (const words of [['garden'], ['cafe', 'lait'], ['sushi'], ['दिल्ली'], ['ゲーム'], ['กิน'], ['ride']]) {
      const copy = tc.rank(words, null, 10);
      assert.ok(copy, `the copy answers ${words.join(' ')}`);
      assert.deepEqual(copy, ftsRanking(store, words, null, 10), words.join(' '));
    }
    assert.deepEqual(errors, []);
    assert.ok(tc.usage().ready);
    tc.release();
  });

  it('tokenizes with the columns and tokenizer turn_fts declares', () => {
    const store = tempStore('mnemo-turn-copy-');
    const sql = store.get<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'turn_fts'")!.sql;
    assert.ok(sql.includes(`fts5(${turnColumns.join(', ')}, tokenize = '${turnTokenizerSql}')`), sql);
    assert.equal(turnWeights.length, turnColumns.length);
  });
});
