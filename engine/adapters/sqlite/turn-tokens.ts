import { newDatabase } from './sqlite-binding.ts';

import { keepTempDataInMemory } from './temp-store.ts';
import { turnColumns, turnTokenizerSql } from './turn-table.ts';

/** A row's tokens: for each term, how many times it occurs in each column (turnColumns order). */
export type RowTerms = Map<string, number[]>;

export interface TurnTokens {
  /** The terms of each row, as FTS5 itself tokenizes them for turn_fts. */
  rows(rows: ReadonlyArray<{ n: number; cols: readonly string[] }>): Map<number, RowTerms>;
  /** Lines whose tokens are kept now. */
  readonly lines: number;
  /** Lets go of every line kept and of the scratch table (text was forgotten). */
  forget(): void;
  close(): void;
}

/** Lines indexed before the scratch table is recreated (FTS5 keeps merging the segments it leaves). */
const recreateAfter = 50_000;
/** Lines whose tokens are kept: a thread's messages recur in the rows of up to three neighbours. */
const cachedLines = 8_192;

/**
 * Tokenizes text exactly as turn_fts does, by indexing it in a scratch FTS5 table with the same
 * tokenizer (in a private in-memory database) and reading the tokens back through fts5vocab. A
 * JavaScript unicode61 + porter would have to match SQLite's Unicode tables and stemmer to the letter;
 * asking SQLite cannot differ.
 *
 * Each column is tokenized line by line: a newline separates tokens (unicode61 keeps only letters,
 * digits and private-use characters), so a value's tokens are its lines' tokens, and a line met again
 * (a message in its neighbours' rows) is not tokenized again. Reading the tokens back is the cost
 * (~1.3 us per token through fts5vocab): ~100 us for a threaded row.
 */
export function createTurnTokens(): TurnTokens {
  const db = newDatabase(':memory:');
  // An in-memory database still sorts its GROUP BY in a temporary file unless told otherwise.
  keepTempDataInMemory(db);
  // Freed pages of the scratch table held Record text: zeroed, as in the store.
  db.pragma('secure_delete = ON');
  let indexed = 0;
  const create = () => {
    db.exec(`DROP TABLE IF EXISTS scratch; DROP TABLE IF EXISTS scratch_terms;
      CREATE VIRTUAL TABLE scratch USING fts5(line, tokenize = '${turnTokenizerSql}', content = '');
      CREATE VIRTUAL TABLE scratch_terms USING fts5vocab(scratch, instance);`);
    return {
      insert: db.prepare('INSERT INTO scratch (rowid, line) VALUES (?, ?)'),
      read: db.prepare("SELECT doc, group_concat(term, ' ') FROM scratch_terms GROUP BY doc").raw(true),
      // Contentless: no copy of the text, and emptied at once rather than line by line.
      clear: db.prepare("INSERT INTO scratch (scratch) VALUES ('delete-all')"),
    };
  };
  let st = create();
  const cache = new Map<string, Array<[string, number]>>();

  function tokenizeLines(lines: string[]): void {
    if (indexed > recreateAfter) {
      st = create();
      indexed = 0;
    }
    db.transaction(() => lines.forEach((line, i) => st.insert.run(i + 1, line)))();
    const found = lines.map(() => new Map<string, number>());
    try {
      // One row per line with its terms joined (a term holds no space): reading instance by instance
      // costs three times as much.
      for (const [doc, terms] of st.read.iterate() as Iterable<[number, string]>) {
        const counts = found[doc - 1]!;
        for (const term of terms.split(' ')) counts.set(term, (counts.get(term) ?? 0) + 1);
      }
    } finally {
      st.clear.run();
      indexed += lines.length;
    }
    lines.forEach((line, i) => {
      if (cache.size >= cachedLines) cache.delete(cache.keys().next().value!);
      cache.set(line, [...found[i]!]);
    });
  }

  return {
    rows(rows) {
      const missing = new Set<string>();
      for (const r of rows)
        for (const v of r.cols)
          for (const line of v.split('\n')) if (line && !cache.has(line)) missing.add(line);
      if (missing.size > 0) tokenizeLines([...missing]);
      const out = new Map<number, RowTerms>();
      for (const r of rows) {
        const terms: RowTerms = new Map();
        r.cols.forEach((v, c) => {
          for (const line of v.split('\n')) {
            if (!line) continue;
            let tokens = cache.get(line);
            if (!tokens) {
              // Evicted by this very call (more lines than the cache holds).
              tokenizeLines([line]);
              tokens = cache.get(line)!;
            }
            for (const [term, k] of tokens) {
              let counts = terms.get(term);
              if (!counts) terms.set(term, (counts = turnColumns.map(() => 0)));
              counts[c] = counts[c]! + k;
            }
          }
        });
        out.set(r.n, terms);
      }
      return out;
    },
    get lines() {
      return cache.size;
    },
    forget() {
      cache.clear();
      st = create();
      indexed = 0;
    },
    close: () => {
      cache.clear();
      db.close();
    },
  };
}
