import { indexedWords, mayHoldCompounds } from '../../core/retrieve/segment-words.ts';
import { foldText } from '../../core/shared/fold-text.ts';
import type { PgQueryable } from './client.ts';

/**
 * A Record's `words` (migration 030): its text as the index reads it where it holds Han, kana or Hangul,
 * folded and cut as the local engine's turn_fts holds it; null for any other text, which the database
 * folds and the `english` parser cuts as before.
 */
export function compoundWordsOf(text: string): string | null {
  return mayHoldCompounds(text) ? indexedWords(foldText(text)) : null;
}

/** Characters of those scripts, as a PostgreSQL pattern: the rows that may want their words. */
const compoundScripts =
  '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uff66-\uff9f]';

/**
 * Gives the Records written before migration 030 their words, `pageSize` at a time, then writes again
 * every turn that may hold them (one holding a lexeme that is not ASCII: its own text's or a
 * neighbour's, as migration 018 found them). Run once, in the migrations' transaction, when 030 is
 * applied. Whether any Record was given words.
 */
export async function indexCompoundWords(tx: PgQueryable, pageSize = 1000): Promise<boolean> {
  let after = { brain: '', n: 0 };
  let any = false;
  for (;;) {
    const page = await tx.query<{ brain_uid: string; n: number; text: string }>(
      `SELECT brain_uid, n, text FROM records
       WHERE words IS NULL AND text ~ $1 AND (brain_uid, n) > ($2, $3)
       ORDER BY brain_uid, n LIMIT $4`,
      [compoundScripts, after.brain, after.n, pageSize],
    );
    if (page.rows.length === 0) break;
    const rows = page.rows.map((r) => ({ ...r, words: compoundWordsOf(r.text) }));
    await tx.query(
      `UPDATE records r SET words = v.words
       FROM unnest($1::text[], $2::bigint[], $3::text[]) AS v(brain_uid, n, words)
       WHERE r.brain_uid = v.brain_uid AND r.n = v.n AND v.words IS NOT NULL`,
      [rows.map((r) => r.brain_uid), rows.map((r) => r.n), rows.map((r) => r.words)],
    );
    any ||= rows.some((r) => r.words !== null);
    const last = page.rows[page.rows.length - 1]!;
    after = { brain: last.brain_uid, n: last.n };
  }
  if (any)
    await tx.query(
      `SELECT count(*) FROM (
         SELECT mnemo_write_turn(t.brain_uid, t.n) FROM turns t
         WHERE octet_length(t.tsv::text) <> length(t.tsv::text)) w`,
    );
  return any;
}
