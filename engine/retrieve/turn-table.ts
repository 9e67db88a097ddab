/** turn_fts's columns, in table order (migration 005). */
export const turnColumns = ['text', 'speaker', 'before', 'after', 'scope'] as const;

/** turn_fts's tokenizer (migration 005); a test checks the store's table still declares it. */
export const turnTokenizer = 'porter unicode61 remove_diacritics 2';

/**
 * Column weights of turn_fts for BM25: the Record's own text counts fully, its speaker half, the two
 * messages before it 0.6 and the one after 0.2 (tuned on the LoCoMo dev half: docs/decisions/retrieval.md);
 * the Brain's scope token 0.
 */
export const turnWeights = [1, 0.5, 0.6, 0.2, 0] as const;
