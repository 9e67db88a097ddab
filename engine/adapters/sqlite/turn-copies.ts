import type { Store } from './store.ts';
import { createTurnCopy, type TurnCopy } from './turn-copy.ts';
import { ftsPhrase, ftsRankingSql, turnColumns, turnWeights } from './turn-table.ts';
import { createTurnTokens, type TurnTokens } from './turn-tokens.ts';

// ---- The in-memory copy of turn_fts --------------------------------------------------------------
//
// One copy per store (turn_fts holds every Brain; BM25's statistics are the whole table's), loaded in
// the background when the retrieval indexer starts, kept exact through turn_log (migration 011):
// - every change of a turn_fts row names the row in turn_log, in the same transaction;
// - the copy remembers the last sequence number it applied and re-reads only the rows named since,
//   tokenized by FTS5 itself (turn-tokens.ts): before each search (at most requestReplayMax rows; past
//   that FTS5 answers and the copy catches up on the next turns of the event loop, syncSlice rows a
//   turn), after each indexer batch and at every kick(); never inside a transaction, which might still
//   roll back what it would read;
// - committed sequence numbers have no gaps (AUTOINCREMENT, and a rollback rolls sqlite_sequence back
//   too): a gap means entries were pruned before this copy read them (another connection's copy, or one
//   with none, prunes as it goes), and the copy is loaded again, as it is when it is further behind
//   than replayMax;
// - a load reads FTS5's index one range of terms at a time, yielding between ranges; the rows written
//   meanwhile are named in turn_log and re-read once it is done;
// - once caught up after a load, the copy checks itself against FTS5 on one query; should it ever
//   disagree (a platform whose SQLite fuses multiply-adds, say) it stays off, and says so.
// The copy is a cache: whenever it cannot answer, FTS5 does, with the same results.

/** One store's copy, held by the engine that opened the store (two engines never share one). */
interface Holder {
  current: CopyState | undefined;
  /** How many loads ran (tests check that a catch-up did not reload). */
  loads: number;
}

interface CopyState {
  holder: Holder;
  copy: TurnCopy;
  tokens: TurnTokens;
  /** The last turn_log sequence number applied (during a load: the one it started from; 0 before). */
  seen: number;
  /** loading, then ready; off after a failure or a failed check (FTS5 answers; the log is not kept). */
  status: 'loading' | 'ready' | 'off';
  /** Checked against FTS5 after its load; not used before. */
  checked: boolean;
  loading: Promise<void>;
  /** Replaced or closed: its load and catch-ups stop. */
  released: boolean;
  syncQueued: boolean;
  /** Query words already tokenized (a request's lanes search the same words several times). */
  phrases: Map<string, string[] | null>;
  answers: number;
  /** The load's most frequent terms (by instances), which the self-check searches. */
  common: Array<{ term: string; instances: number }>;
  opts: TurnCopyOptions;
}

export interface TurnCopyOptions {
  /** Told why the copy went off (FTS5 answers from then on). */
  onError?: ((message: string, error?: unknown) => void) | undefined;
  /** Token instances read per slice of a load (tests use small slices). */
  slice?: number | undefined;
}

/** Logged changes beyond which loading again is cheaper than re-reading them (~0.1 ms a row). */
const replayMax = 20_000;
/** Logged changes a request re-reads before it searches. */
const requestReplayMax = 1_000;
/** Logged changes re-read per turn of the event loop in the background. */
const syncSlice = 2_000;
/**
 * Token instances read per slice of a load, between yields (~30 ms), a term counting as termCost more:
 * a range of 50,000 terms seen once each (numbers, names) took 350 ms, one of 50,000 instances of
 * common words ~60.
 */
const loadSlice = 25_000;
const termCost = 6;
/** Terms counted per turn of the event loop while a load divides them into slices (~10 ms). */
const boundsPage = 5_000;

function lastSeq(store: Store): number {
  return store.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'turn_log'")?.seq ?? 0;
}

const scopeColumn = turnColumns.indexOf('scope');
/** fts5vocab names an instance's column; the copy counts by position. */
const columnCase = `CASE col ${turnColumns.map((c, i) => `WHEN '${c}' THEN ${i}`).join(' ')} END`;

/** The in-memory copy of one store's turn_fts, and what keeps it exact. */
export interface TurnCopies {
  /**
   * Starts loading the copy, unless one is loaded or loading. Resolves when that load is done (whether
   * the copy came up, went off, or was replaced or released first); never rejects.
   */
  load(): Promise<void>;
  /**
   * Catches the copy up in the background: the indexer after each batch, kick() after each write, and
   * the next turns of the event loop while it is behind (syncSlice changes a turn).
   */
  sync(): void;
  /**
   * FTS5's ranking of turn_fts for an OR of the words (restricted to rows holding the scope token),
   * from the copy: the best `cut` rowids with their bm25 scores (negated, higher is better), in FTS5's
   * order. null when the copy cannot answer (see copyForRequest, or a word FTS5 would not read as one
   * token).
   */
  rank(
    words: readonly string[],
    scope: string | null,
    cut: number,
  ): Array<{ n: number; score: number }> | null;
  /**
   * Drops the turn_log entries the copy has applied (all but the last replayMax when there is no copy
   * to keep them for: none, or off). Called inside the indexer's write transactions.
   */
  pruneLog(): void;
  /** Stops any load and lets go of the copy (the store is closing). */
  release(): void;
  usage(): TurnCopyUsage;
}

export interface TurnCopyUsage {
  rows: number;
  terms: number;
  lines: number;
  bytes: number;
  ready: boolean;
  loads: number;
  /** Searches the copy answered (the others went to FTS5). */
  answers: number;
}

/** The copy of the store's turn_fts; nothing is read until load(). */
export function createTurnCopies(store: Store, opts: TurnCopyOptions = {}): TurnCopies {
  const holder: Holder = { current: undefined, loads: 0 };
  return {
    load() {
      const s = holder.current;
      return settled(s && !s.released ? s : start(store, holder, opts, null));
    },
    sync: () => syncTurnCopy(store, holder),
    rank: (words, scope, cut) => rankTurns(store, holder, words, scope, cut),
    pruneLog: () => pruneTurnLog(store, holder),
    release() {
      const s = holder.current;
      if (!s) return;
      s.released = true;
      holder.current = undefined;
      s.tokens.close();
    },
    usage() {
      const s = holder.current;
      return {
        rows: s?.copy.rows ?? 0,
        terms: s?.copy.terms ?? 0,
        lines: s?.tokens.lines ?? 0,
        bytes: s?.copy.bytes ?? 0,
        ready: s?.status === 'ready' && s.checked,
        loads: holder.loads,
        answers: s?.answers ?? 0,
      };
    },
  };
}

/** Resolves once the store's current load is done, following the loads that replaced it. */
async function settled(s: CopyState): Promise<void> {
  await s.loading;
  const next = s.holder.current;
  if (next && next !== s && !next.released) await settled(next);
}

function start(store: Store, holder: Holder, opts: TurnCopyOptions, previous: CopyState | null): CopyState {
  const s: CopyState = {
    holder,
    copy: createTurnCopy(turnWeights),
    tokens: previous?.tokens ?? createTurnTokens(),
    seen: 0,
    status: 'loading',
    checked: false,
    loading: Promise.resolve(),
    released: false,
    syncQueued: false,
    phrases: previous?.phrases ?? new Map(),
    answers: previous?.answers ?? 0,
    common: [],
    opts,
  };
  holder.current = s;
  s.loading = load(store, s).catch((e: unknown) =>
    goOff(s, 'loading the lexical index into memory failed', e),
  );
  return s;
}

/** Loads again from FTS5 (behind too far, or entries pruned before it read them). */
function restart(store: Store, s: CopyState): void {
  s.released = true;
  // A catch-up that would have let go of forgotten lines will not run: let go of every line now.
  s.tokens.forget();
  start(store, s.holder, s.opts, s);
}

function goOff(s: CopyState, message: string, error?: unknown): void {
  s.status = 'off';
  s.opts.onError?.(`${message}; FTS5 answers lexical searches`, error);
}

/**
 * Waits for the next turn of the event loop at which no transaction is open (one might still roll back
 * what a slice would read); false when the copy was released meanwhile.
 */
async function betweenTransactions(store: Store, s: CopyState): Promise<boolean> {
  do await new Promise((r) => setImmediate(r));
  while (store.db.inTransaction && !s.released);
  return !s.released;
}

async function load(store: Store, s: CopyState): Promise<void> {
  // Started outside any transaction: one still open might roll back the log entries counted in `seen`.
  if (!(await betweenTransactions(store, s))) return;
  s.seen = lastSeq(store);
  const rows = store.get<{ c: number }>('SELECT count(*) AS c FROM turn_fts_docsize')?.c ?? 0;
  s.copy = createTurnCopy(turnWeights, Math.ceil(rows * 1.25) + 64);
  store.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.turn_terms USING fts5vocab(main, turn_fts, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.turn_term_rows USING fts5vocab(main, turn_fts, row);`);
  // The ranges of terms to read, each about `slice` instances, fixed up front: terms a write adds later
  // belong to rows turn_log names. One pass over the terms, ~0.2 s at 100,000 Records, so read a page of
  // them a turn of the event loop, as the ranges are.
  const slice = s.opts.slice ?? loadSlice;
  const bounds: string[] = [];
  const termPage = store.db
    .prepare('SELECT term, cnt FROM temp.turn_term_rows WHERE term > ? ORDER BY term LIMIT ?')
    .raw(true);
  let count = 0;
  for (let from = '', more = true; more;) {
    if (!(await betweenTransactions(store, s))) return;
    more = false;
    for (const [term, cnt] of termPage.iterate(from, boundsPage) as Iterable<[string, number]>) {
      from = term;
      more = true;
      count += cnt + termCost;
      if (count >= slice) {
        bounds.push(term);
        count = 0;
      }
    }
  }
  // One row per term: its instances as "row * 8 + column", in the index's order (row, column, offset);
  // 30 times fewer rows to cross into JavaScript than one per instance (4.6 s against 8.9 s for a whole
  // load at 100,000 threaded Records).
  const select = `SELECT term, group_concat(doc * 8 + ${columnCase}, ' ') FROM temp.turn_terms`;
  const ranges = store.db.prepare(`${select} WHERE term > ? AND term <= ? GROUP BY term`).raw(true);
  const lastRange = store.db.prepare(`${select} WHERE term > ? GROUP BY term`).raw(true);
  const counts = turnColumns.map(() => 0);
  // The self-check searches the most frequent terms with at most one instance per 25 rows: the
  // arithmetic is the same for every term, and FTS5 then ranks a few thousand rows at 100k rather than
  // all of them (0.27 s for "the", "note" and "a").
  const checkCap = Math.max(50, rows / 25);
  let after = '';
  for (let i = 0; i <= bounds.length; i++) {
    if (!(await betweenTransactions(store, s))) return;
    const range = i < bounds.length ? ranges.iterate(after, bounds[i]) : lastRange.iterate(after);
    for (const [term, list] of range as Iterable<[string, string]>) {
      const { instances, weightless } = addPostings(s.copy, term, list, counts);
      // Candidates for the self-check: frequent terms, but not in every row, and never in the scope
      // column (it weighs 0: a check of scope tokens alone would compare zeros).
      if (
        !weightless &&
        instances <= checkCap &&
        (s.common.length < 20 || instances > s.common[19]!.instances)
      ) {
        s.common = [...s.common, { term, instances }].sort((a, b) => b.instances - a.instances).slice(0, 20);
      }
    }
    if (i < bounds.length) after = bounds[i]!;
  }
  s.holder.loads++;
  s.status = 'ready';
  // Rows written while the ranges were read are re-read, then the copy checks itself.
  while (!s.released && s.status === 'ready' && !s.checked) {
    syncTurnCopy(store, s.holder);
    if (!s.checked) await betweenTransactions(store, s);
  }
}

/**
 * Adds one term's postings from its "row * 8 + column" list (one posting per row); its instances, and
 * whether any is in the scope column.
 */
function addPostings(
  copy: TurnCopy,
  term: string,
  list: string,
  counts: number[],
): { instances: number; weightless: boolean } {
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
  return { instances: codes.length, weightless: codes.some((c) => c % 8 === scopeColumn) };
}

/**
 * How many logged changes the copy has not applied; 'lost' when some of them were pruned before it
 * read them (the committed sequence has no gaps, so fewer entries than numbers means that).
 */
function pending(store: Store, s: CopyState, last: number): number | 'lost' {
  const c = store.get<{ c: number }>('SELECT count(*) AS c FROM turn_log WHERE seq > ?', s.seen)!.c;
  return c === last - s.seen ? c : 'lost';
}

/** Re-reads the rows named by the next `most` log entries past the copy's sequence number. */
function applyLog(store: Store, s: CopyState, most: number): void {
  const entries = store.all<{ seq: number; n: number }>(
    'SELECT seq, n FROM turn_log WHERE seq > ? ORDER BY seq LIMIT ?',
    s.seen,
    most,
  );
  if (entries.length === 0) return;
  // Pruning removes a prefix of a gapless sequence: anything else means entries this copy had not read
  // are gone (another connection's commit between the counts in `pending` and this read).
  if (entries.some((e, i) => e.seq !== s.seen + 1 + i)) throw new LostEntries();
  const ns = [...new Set(entries.map((e) => e.n))];
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
  s.seen = entries[entries.length - 1]!.seq;
}

class LostEntries extends Error {}

/** Runs fn; an error turns the copy off (FTS5 answers) instead of failing a request or the process. */
function guarded<T>(store: Store, s: CopyState, what: string, fn: () => T): T | null {
  try {
    return fn();
  } catch (e) {
    if (e instanceof LostEntries) {
      restart(store, s);
      return null;
    }
    goOff(s, what, e);
    return null;
  }
}

function queueSync(store: Store, s: CopyState): void {
  if (s.syncQueued) return;
  s.syncQueued = true;
  setImmediate(() => {
    s.syncQueued = false;
    syncTurnCopy(store, s.holder);
  });
}

function syncTurnCopy(store: Store, holder: Holder): void {
  const s = holder.current;
  if (!s || s.released || s.status !== 'ready' || store.db.inTransaction) return;
  guarded(store, s, 'catching up the in-memory lexical index failed', () => {
    const last = lastSeq(store);
    if (last !== s.seen) {
      const behind = pending(store, s, last);
      // Far behind just after a load (written while it read), catching up beats loading again, which
      // writes as busy would leave as far behind.
      if (behind === 'lost' || (behind > replayMax && s.checked)) return restart(store, s);
      applyLog(store, s, syncSlice);
      if (s.seen !== last) return queueSync(store, s);
    }
    if (!s.checked) store.tx(() => (lastSeq(store) === s.seen ? selfCheck(store, s) : queueSync(store, s)));
  });
}

/**
 * The copy's ranking of three of the load's frequent terms against FTS5's own, once caught up after a
 * load, in one read transaction (a snapshot: another connection's commit cannot land between the two):
 * the tests prove the arithmetic on the build they run on; this proves it on the user's.
 */
function selfCheck(store: Store, s: CopyState): void {
  s.checked = true;
  // A stored term is already stemmed, and a query is stemmed again: porter takes "hous" (house) on to
  // "hou". Only terms that come back as themselves search what the copy ranks.
  const terms = s.common
    .map((c) => c.term)
    .filter((t) => phrasesOf(s, [t])?.[0] === t)
    .slice(0, 3);
  if (terms.length === 0) return;
  const fts = store.all<{ n: number; score: number }>(ftsRankingSql, terms.map(ftsPhrase).join(' OR '), 50);
  const mine = rankPhrases(store, s.copy, terms, null, 50);
  const same =
    mine.length === fts.length && mine.every((r, i) => r.n === fts[i]!.n && r.score === fts[i]!.score);
  if (!same) goOff(s, 'the in-memory lexical index does not rank as FTS5 does on this platform');
}

/**
 * The store's copy, caught up with every committed change, for a request; null while it loads, inside
 * a transaction, when it is off, or when it is further behind than a request should wait for.
 */
function copyForRequest(store: Store, s: CopyState): TurnCopy | null {
  if (s.released || s.status !== 'ready' || !s.checked || store.db.inTransaction) return null;
  return guarded(store, s, 'catching up the in-memory lexical index failed', () => {
    const last = lastSeq(store);
    if (last === s.seen) return s.copy;
    const behind = pending(store, s, last);
    if (behind === 'lost' || behind > replayMax) {
      restart(store, s);
      return null;
    }
    if (behind > requestReplayMax) {
      queueSync(store, s);
      return null;
    }
    applyLog(store, s, behind);
    return s.copy;
  });
}

/**
 * The query words as turn_fts phrases (each word tokenized by FTS5: one token, stemmed); null when a
 * word is not exactly one token (FTS5 would make it a multi-token phrase, or none): FTS5 ranks those.
 */
function phrasesOf(s: CopyState, words: readonly string[]): string[] | null {
  const key = JSON.stringify(words);
  const hit = s.phrases.get(key);
  if (hit !== undefined) return hit;
  if (s.phrases.size >= 512) s.phrases.clear();
  const terms = s.tokens.rows(words.map((w, i) => ({ n: i + 1, cols: [w] })));
  const phrases: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const [only, more] = [...terms.get(i + 1)!];
    if (!only || more || only[1][0] !== 1) {
      s.phrases.set(key, null);
      return null;
    }
    phrases.push(only[0]);
  }
  s.phrases.set(key, phrases);
  return phrases;
}

/** The copy's ranking of one-token phrases, with fts5_aux.c's IDF (SQLite's ln(): the C library's log). */
function rankPhrases(
  store: Store,
  copy: TurnCopy,
  phrases: readonly string[],
  scopeTerm: string | null,
  cut: number,
): Array<{ n: number; score: number }> {
  const rows = copy.rows;
  const idf = phrases.map((p) => {
    const hits = copy.hits(p);
    const l = store.get<{ l: number }>('SELECT ln(?) AS l', (rows - hits + 0.5) / (hits + 0.5))!.l;
    return l <= 0 ? 1e-6 : l;
  });
  return copy.rank(phrases, idf, scopeTerm, cut);
}

function rankTurns(
  store: Store,
  holder: Holder,
  words: readonly string[],
  scope: string | null,
  cut: number,
): Array<{ n: number; score: number }> | null {
  const s = holder.current;
  const copy = s ? copyForRequest(store, s) : null;
  if (!s || !copy) return null;
  return guarded(store, s, 'ranking in the in-memory lexical index failed', () => {
    const phrases = phrasesOf(s, words);
    // The scope token is stemmed like any word (a Brain uid ending in "s" loses it).
    const scopeTerm = scope === null ? null : phrasesOf(s, [scope])?.[0];
    if (!phrases || scopeTerm === undefined) return null;
    s.answers++;
    return rankPhrases(store, copy, phrases, scopeTerm, cut);
  });
}

function pruneTurnLog(store: Store, holder: Holder): void {
  const s = holder.current;
  // The last replayMax entries stay either way: another process's copy (a second server on the data
  // directory) catches up from them rather than loading again each time this one writes.
  const keep = lastSeq(store) - replayMax;
  const upTo = s && !s.released && s.status !== 'off' ? Math.min(s.seen, keep) : keep;
  if (upTo > 0) store.run('DELETE FROM turn_log WHERE seq <= ?', upTo);
}
