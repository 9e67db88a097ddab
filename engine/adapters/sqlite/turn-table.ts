import { indexedWords, segmentWords } from '../../core/retrieve/segment-words.ts';
import { turnWeights as weight } from '../../core/retrieve/turn-shape.ts';
import { foldText } from '../../core/shared/fold-text.ts';

/** turn_fts's columns, in table order (migration 005). */
export const turnColumns = ['text', 'speaker', 'before', 'after', 'scope'] as const;

/**
 * turn_fts's tokenizer (migration 013); a test checks the store's table still declares it. Combining
 * marks belong to words: Thai, Devanagari and Tamil vowel signs are marks.
 */
export const turnTokenizer = "porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'";
/** turnTokenizer as the body of an SQL string literal. */
export const turnTokenizerSql = turnTokenizer.replaceAll("'", "''");

/**
 * Text as turn_fts holds it, and a search's word as it is looked up there: folded as every search folds
 * (foldText, as PostgreSQL's turns are: "ß" is "ss"), then cut into words (segmentWords, which also
 * drops the marks folding may leave alone). unicode61 folds case one letter to one letter, so "straße"
 * stayed "straße" and "strasse" missed it; what it folds itself comes to it folded already.
 */
export const turnText = (text: string): string => segmentWords(foldText(text));

/**
 * A turn's words as turn_fts indexes them: turnText, with the bigrams of CJK and Hangul compounds
 * (indexedWords), so that a word inside one is found.
 */
export const turnIndexText = (text: string): string => indexedWords(foldText(text));

/**
 * Column weights of turn_fts for BM25, in turnColumns' order: a turn's parts as the core weighs them
 * (tuned on the LoCoMo dev half: docs/decisions/retrieval.md); the Brain's scope token 0.
 */
export const turnWeights = [weight.text, weight.speaker, weight.before, weight.after, 0] as const;

/** A word as an FTS5 phrase: quoted, so FTS5's query syntax in it is only text. */
export const ftsPhrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

/**
 * FTS5's own ranking of turn_fts for a MATCH expression (the first parameter): the best rowids (as many
 * as the second) with their bm25() scores negated, higher first. The lexical lane searches with it while
 * the in-memory copy is not ready, the copy's self-check and the tests compare the copy with it.
 */
const bm25 = `bm25(turn_fts, ${turnWeights.join(', ')})`;
export const ftsRankingSql = `SELECT rowid AS n, -${bm25} AS score
  FROM turn_fts WHERE turn_fts MATCH ? ORDER BY ${bm25} LIMIT ?`;

/** The Brain as one full-text token (letters and digits only, so the tokenizer keeps it whole). */
export function scopeToken(brainUid: string): string {
  return `s${brainUid.replace(/[^A-Za-z0-9]/g, '').toLowerCase()}`;
}
