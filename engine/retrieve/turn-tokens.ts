import Database from 'better-sqlite3-multiple-ciphers';

/** turn_fts's columns, in table order (migration 005). */
export const turnColumns = ['text', 'speaker', 'before', 'after', 'scope'] as const;
/** turn_fts's tokenizer (migration 005); a test checks the store's table still declares it. */
export const turnTokenizer = 'porter unicode61 remove_diacritics 2';

/** A row's tokens: for each term, how many times it occurs in each column (turnColumns order). */
export type RowTerms = Map<string, number[]>;

export interface TurnTokens {
  /** The terms of each row, as FTS5 itself tokenizes them for turn_fts. */
  rows(rows: ReadonlyArray<{ n: number; cols: readonly string[] }>): Map<number, RowTerms>;
  close(): void;
}

const colIndex = new Map<string, number>(turnColumns.map((c, i) => [c, i]));

/** Rows indexed before the scratch table is recreated (FTS5 keeps merging the segments deletes leave). */
const recreateAfter = 50_000;

/**
 * Tokenizes text exactly as turn_fts does, by indexing it in a scratch FTS5 table with the same
 * columns and tokenizer (in a private in-memory database) and reading the tokens back through
 * fts5vocab. A JavaScript unicode61 + porter would have to match SQLite's Unicode tables and stemmer
 * to the letter; asking SQLite cannot differ.
 */
export function createTurnTokens(): TurnTokens {
  const db = new Database(':memory:');
  // Freed pages of the scratch table held Record text: zeroed, as in the store.
  db.pragma('secure_delete = ON');
  let indexed = 0;
  const create = () => {
    db.exec(`DROP TABLE IF EXISTS scratch; DROP TABLE IF EXISTS scratch_terms;
      CREATE VIRTUAL TABLE scratch USING fts5(${turnColumns.join(', ')}, tokenize = '${turnTokenizer}');
      CREATE VIRTUAL TABLE scratch_terms USING fts5vocab(scratch, instance);`);
    return {
      insert: db.prepare(`INSERT INTO scratch (rowid, ${turnColumns.join(', ')}) VALUES (?, ?, ?, ?, ?, ?)`),
      read: db.prepare('SELECT doc, term, col FROM scratch_terms').raw(true),
      clear: db.prepare('DELETE FROM scratch'),
    };
  };
  let st = create();
  const index = db.transaction((rows: ReadonlyArray<{ n: number; cols: readonly string[] }>) => {
    for (const r of rows) st.insert.run(r.n, ...turnColumns.map((_, i) => r.cols[i] ?? ''));
  });
  return {
    rows(rows) {
      const out = new Map<number, RowTerms>();
      if (rows.length === 0) return out;
      if (indexed > recreateAfter) {
        st = create();
        indexed = 0;
      }
      for (const r of rows) out.set(r.n, new Map());
      index(rows);
      try {
        for (const [doc, term, col] of st.read.iterate() as Iterable<[number, string, string]>) {
          const terms = out.get(doc)!;
          let counts = terms.get(term);
          if (!counts) terms.set(term, (counts = [0, 0, 0, 0, 0]));
          counts[colIndex.get(col)!]!++;
        }
      } finally {
        st.clear.run();
        indexed += rows.length;
      }
      return out;
    },
    close: () => db.close(),
  };
}
