/**
 * The search backends behind the lanes' scores. A learned reranker sees those scores as features (BM25
 * from the lexical index, distances from the vector index), so a model trained on one backend's numbers
 * is not to be fed another's: the model file names the backends it was trained on and retrieve() keeps
 * the fusion's order on any other.
 */
export interface RetrievalBackends {
  /** The lexical index and its scoring, e.g. `sqlite-fts5/bm25`. */
  lexical: string;
  /** The vector index and its distance, e.g. `sqlite-vec/int8-l2`. */
  vector: string;
}

/**
 * The SQLite store's: FTS5's BM25 over turn_fts and sqlite-vec's L2 over int8 vectors. The in-memory
 * copies (adapters/sqlite/turn-copies.ts, vector-copy.ts) answer exactly as these do, so they are not
 * backends of their own.
 */
export const sqliteBackends: RetrievalBackends = {
  lexical: 'sqlite-fts5/bm25',
  vector: 'sqlite-vec/int8-l2',
};

/**
 * The PostgreSQL store's: each query word's `ts_rank` over the turns' tsvector times its IDF in the
 * Brain, summed; pgvector's cosine distance.
 */
export const postgresBackends: RetrievalBackends = {
  lexical: 'postgres-tsvector-turns/idf-ts_rank',
  vector: 'pgvector/hnsw-cosine',
};

/** The same backends, by name: a reranker that names none was trained on no particular one. */
export function sameBackends(a: RetrievalBackends, b: RetrievalBackends): boolean {
  return a.lexical === b.lexical && a.vector === b.vector;
}
