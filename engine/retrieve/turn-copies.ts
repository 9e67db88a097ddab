import type { Store } from '../store/store.ts';
import { createTurnCopy, type TurnCopy } from './turn-copy.ts';
import { createTurnTokens, turnColumns, type TurnTokens } from './turn-tokens.ts';

// ---- The in-memory copy of turn_fts --------------------------------------------------------------
//
// One copy per store (turn_fts holds every Brain; BM25's statistics are the whole table's), loaded in
// the background when the retrieval indexer starts, kept exact through turn_log (migration 011):
// - every change of a turn_fts row names the row in turn_log, in the same transaction;
// - the copy remembers the last sequence number it applied; to catch up it re-reads only the rows named
//   since, tokenized by FTS5 itself (turn-tokens.ts);
// - it catches up before each search and after each batch the indexer commits; never inside a
//   transaction, which might still roll back what it would read;
// - a load reads FTS5's index one range of terms at a time, yielding between ranges, so requests go on
//   (searched in FTS5 meanwhile); the rows written during the load are named in turn_log and re-read at
//   its end, whatever parts of them the ranges saw;
// - the indexer prunes turn_log as the copy passes it.
// The copy is a cache: when it is not loaded or is behind a long log, searches go to FTS5, which gives
// the same results.

export interface TurnCopyState {
  copy: TurnCopy;
  tokens: TurnTokens;
  /** The last turn_log sequence number applied (during a load: the one it started from; 0 before). */
  seen: number;
  ready: boolean;
  loading: Promise<void> | null;
  released: boolean;
  /** A catch-up too long for a request is queued for the next turn of the event loop. */
  syncQueued: boolean;
  /** Query words already tokenized (a request's lanes search the same words several times). */
  phrases: Map<string, string[] | null>;
}

/** Changes to re-read at a catch-up beyond which a reload (in the background) is cheaper. */
const replayMax = 20_000;
/** Changes a request re-reads before it searches; past that FTS5 answers it, and the copy catches up after. */
const requestReplayMax = 1_000;
/** FTS5 index entries (token instances) read per slice of a load, between yields (~50 ms). */
const loadSlice = 50_000;

const states = new WeakMap<Store, TurnCopyState>();
/** How many loads each store has run (tests check that a catch-up did not reload). */
const loads = new WeakMap<Store, number>();

function lastSeq(store: Store): number {
  return store.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'turn_log'")?.seq ?? 0;
}

/** fts5vocab names an instance's column; the copy counts by position. */
const columnCase = `CASE col ${turnColumns.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ')} END`;

/**
 * Starts loading the store's copy (once; later calls return the same load). Resolves when the copy is
 * ready, or when it was released first.
 */
export function loadTurnCopy(
  store: Store,
  weights: readonly number[],
  opts: { slice?: number } = {},
): Promise<void> {
  let state = states.get(store);
  if (state?.loading) return state.loading;
  if (state?.ready) return Promise.resolve();
  const rows = store.get<{ c: number }>('SELECT count(*) AS c FROM turn_fts_docsize')?.c ?? 0;
  state = {
    copy: createTurnCopy(weights, Math.ceil(rows * 1.25) + 64),
    tokens: state?.tokens ?? createTurnTokens(),
    seen: 0,
    ready: false,
    loading: null,
    released: false,
    syncQueued: false,
    phrases: state?.phrases ?? new Map(),
  };
  states.set(store, state);
  const s = state;
  s.loading = load(store, s, weights, opts.slice ?? loadSlice).finally(() => (s.loading = null));
  return s.loading;
}

/**
 * Waits for the next turn of the event loop at which no transaction is open (one might still roll back
 * what a slice would read); false when the copy was released meanwhile.
 */
async function betweenTransactions(store: Store, s: TurnCopyState): Promise<boolean> {
  do await new Promise((r) => setImmediate(r));
  while (store.db.inTransaction && !s.released);
  return !s.released;
}

async function load(
  store: Store,
  s: TurnCopyState,
  weights: readonly number[],
  slice: number,
): Promise<void> {
  // Started outside any transaction: one still open might roll back the log entries counted in `seen`.
  if (!(await betweenTransactions(store, s))) return;
  s.seen = lastSeq(store);
  store.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.turn_terms USING fts5vocab(main, turn_fts, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.turn_term_rows USING fts5vocab(main, turn_fts, row);`);
  // The ranges of terms to read, each about loadSlice instances, fixed up front (one pass over the
  // terms, ~0.15 s at 100,000 threaded Records): terms a write adds later belong to rows turn_log names.
  const bounds: string[] = [];
  let count = 0;
  for (const [term, cnt] of store.db
    .prepare('SELECT term, cnt FROM temp.turn_term_rows')
    .raw(true)
    .iterate() as Iterable<[string, number]>) {
    count += cnt;
    if (count >= slice) {
      bounds.push(term);
      count = 0;
    }
  }
  // One row per term: its instances as "row * 8 + column", in the index's order (row, column, offset);
  // 30 times fewer rows to cross into JavaScript than one per instance (1.7 s against 5.4 s at 100,000
  // threaded Records).
  const select = `SELECT term, group_concat(doc * 8 + ${columnCase}, ' ') FROM temp.turn_terms`;
  const ranges = store.db.prepare(`${select} WHERE term > ? AND term <= ? GROUP BY term`).raw(true);
  const lastRange = store.db.prepare(`${select} WHERE term > ? GROUP BY term`).raw(true);
  const counts = turnColumns.map(() => 0);
  let after = '';
  for (let i = 0; i <= bounds.length; i++) {
    if (!(await betweenTransactions(store, s))) return;
    const range = i < bounds.length ? ranges.iterate(after, bounds[i]) : lastRange.iterate(after);
    for (const [term, list] of range as Iterable<[string, string]>) addPostings(s.copy, term, list, counts);
    if (i < bounds.length) after = bounds[i]!;
  }
  loads.set(store, (loads.get(store) ?? 0) + 1);
  s.ready = true;
  // Rows written while the ranges were read: re-read whole.
  syncTurnCopy(store, weights);
}

/** Adds one term's postings from its "row * 8 + column" list (one posting per row). */
function addPostings(copy: TurnCopy, term: string, list: string, counts: number[]): void {
  const codes = list.split(' ').map(Number);
  // fts5vocab lists a term's instances row by row; should an aggregate ever reorder them, sort.
  for (let i = 1; i < codes.length; i++)
    if (codes[i]! < codes[i - 1]!) {
      codes.sort((a, b) => a - b);
      break;
    }
  let doc = -1;
  for (const code of codes) {
    const d = Math.floor(code / 8);
    if (d !== doc) {
      if (doc >= 0) copy.addTerm(doc, term, counts);
      doc = d;
      counts.fill(0);
    }
    counts[code % 8]!++;
  }
  if (doc >= 0) copy.addTerm(doc, term, counts);
}

/**
 * Re-reads the rows turn_log names past the copy's sequence number, when there are at most `most`
 * ('later' past that); 'reload' when a reload is cheaper than the catch-up.
 */
function catchUp(store: Store, s: TurnCopyState, most: number): 'done' | 'later' | 'reload' {
  const last = lastSeq(store);
  if (last === s.seen) return 'done';
  const ns = store
    .all<{ n: number }>('SELECT DISTINCT n FROM turn_log WHERE seq > ?', s.seen)
    .map((r) => r.n);
  if (ns.length > replayMax) return 'reload';
  if (ns.length > most) return 'later';
  let forgotten = false;
  for (let i = 0; i < ns.length; i += 500) {
    const batch = ns.slice(i, i + 500);
    const rows = store.all<Record<string, string | number>>(
      `SELECT rowid AS n, ${turnColumns.join(', ')} FROM turn_fts WHERE rowid IN (${batch.map(() => '?').join(', ')})`,
      ...batch,
    );
    const terms = s.tokens.rows(
      rows.map((r) => ({ n: r.n as number, cols: turnColumns.map((c) => String(r[c] ?? '')) })),
    );
    for (const n of batch) {
      const t = terms.get(n);
      if (t) s.copy.set(n, t);
      else if (s.copy.has(n)) {
        s.copy.remove(n);
        forgotten = true;
      }
    }
  }
  // A Record was forgotten (or its Brain deleted): its words leave memory now, not at some later
  // compaction or eviction (the terms only it held, the lines it shared with its neighbours' rows).
  if (forgotten) {
    s.copy.compact();
    s.tokens.forget();
  }
  s.seen = last;
  return 'done';
}

/**
 * The store's copy, caught up with every committed change; null while it loads, inside a transaction,
 * or when it is further behind than a request should wait for (~0.1 ms a row): the catch-up then runs
 * on the next turn of the event loop, or a reload in the background when that is cheaper.
 */
export function turnCopyFor(
  store: Store,
  weights: readonly number[],
  most = requestReplayMax,
): TurnCopy | null {
  const s = states.get(store);
  if (!s?.ready || s.released || store.db.inTransaction) return null;
  const caught = catchUp(store, s, most);
  if (caught === 'done') return s.copy;
  if (caught === 'later') {
    if (!s.syncQueued) {
      s.syncQueued = true;
      setImmediate(() => {
        s.syncQueued = false;
        syncTurnCopy(store, weights);
      });
    }
    return null;
  }
  s.ready = false;
  void loadTurnCopy(store, weights);
  return null;
}

/**
 * The query words as turn_fts phrases (each word tokenized by FTS5: one token, stemmed); null when a
 * word is not exactly one token (FTS5 would make it a multi-token phrase, or none): FTS5 ranks those.
 */
function phrasesOf(s: TurnCopyState, words: readonly string[]): string[] | null {
  const key = words.join('\n');
  const hit = s.phrases.get(key);
  if (hit !== undefined) return hit;
  const terms = s.tokens.rows(words.map((w, i) => ({ n: i + 1, cols: [w] })));
  const phrases: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = terms.get(i + 1)!;
    const [only, more] = [...t.entries()];
    if (!only || more || only[1][0] !== 1) {
      s.phrases.set(key, null);
      return null;
    }
    phrases.push(only[0]);
  }
  if (s.phrases.size >= 512) s.phrases.clear();
  s.phrases.set(key, phrases);
  return phrases;
}

/**
 * FTS5's ranking of turn_fts for an OR of the words (restricted to rows holding the scope token),
 * from the copy: the best `cut` rowids with their bm25 scores (negated, higher is better), in FTS5's
 * order. null when the copy cannot answer (not loaded, or a word FTS5 would not read as one token).
 */
export function rankTurns(
  store: Store,
  weights: readonly number[],
  words: readonly string[],
  scope: string | null,
  cut: number,
): Array<{ n: number; score: number }> | null {
  const copy = turnCopyFor(store, weights);
  const s = states.get(store);
  if (!copy || !s) return null;
  const phrases = phrasesOf(s, words);
  // The scope token is stemmed like any word (a Brain uid ending in "s" loses it).
  const scopeTerm = scope === null ? null : phrasesOf(s, [scope])?.[0];
  if (!phrases || scopeTerm === undefined) return null;
  const rows = copy.rows;
  // fts5_aux.c's IDF, with SQLite's ln() (the C library's log, as FTS5 uses), not Math.log.
  const idf = phrases.map((p) => {
    const hits = copy.hits(p);
    const x = (rows - hits + 0.5) / (hits + 0.5);
    const l = store.get<{ l: number }>('SELECT ln(?) AS l', x)!.l;
    return l <= 0 ? 1e-6 : l;
  });
  return copy.rank(phrases, idf, scopeTerm, cut);
}

/** Catches the copy up now (the indexer, after each batch it commits). */
export function syncTurnCopy(store: Store, weights: readonly number[]): void {
  turnCopyFor(store, weights, replayMax);
}

/**
 * Drops the turn_log entries every copy has applied (all of them when no copy is loaded or loading);
 * called inside the indexer's write transactions.
 */
export function pruneTurnLog(store: Store): void {
  const s = states.get(store);
  if (s && !s.released) store.run('DELETE FROM turn_log WHERE seq <= ?', s.seen);
  else store.run('DELETE FROM turn_log');
}

/** Stops any load and lets go of the copy (the store is closing). */
export function releaseTurnCopy(store: Store): void {
  const s = states.get(store);
  if (!s) return;
  s.released = true;
  s.ready = false;
  states.delete(store);
  s.tokens.close();
}

export function turnCopyUsage(store: Store): {
  rows: number;
  terms: number;
  lines: number;
  bytes: number;
  ready: boolean;
  loads: number;
} {
  const s = states.get(store);
  return {
    rows: s?.copy.rows ?? 0,
    terms: s?.copy.terms ?? 0,
    lines: s?.tokens.lines ?? 0,
    bytes: s?.copy.bytes ?? 0,
    ready: s?.ready ?? false,
    loads: loads.get(store) ?? 0,
  };
}
