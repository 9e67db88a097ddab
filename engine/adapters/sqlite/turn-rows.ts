import { contextAfter, contextBefore, maxNeighbourChars } from '../../core/retrieve/turn-shape.ts';
import type { Store } from './store.ts';
import { threadSide, type ThreadPlace } from './thread-index.ts';
import { scopeToken, turnIndexText, turnText } from './turn-table.ts';

/*
 * The SQLite adapter's turn rows: turn_fts, a message with its neighbours' words in its thread (the
 * shape is the core's, core/retrieve/turn-shape.ts), rewritten by the indexer as messages arrive or
 * go. PostgreSQL keeps its `turns` by trigger instead (migration 005).
 */

type Row = ThreadPlace & { speaker: string | null };

function neighbours(
  store: Store,
  r: Row,
  dir: 'before' | 'after',
  limit: number,
): Array<{ n: number; text: string }> {
  if (r.thread === null || limit === 0) return [];
  return threadSide(store, r, dir, limit, `substr(r.text, 1, ${maxNeighbourChars}) AS text`);
}

/**
 * Rewrites the turn_fts row of each given Record from its text, speaker and current neighbours, and
 * returns the Records whose rows depend on them (so a message arriving out of order refreshes the
 * context of the messages around it).
 */
export function affectedBy(store: Store, n: number): number[] {
  const r = store.get<Row>('SELECT * FROM retrieval_index WHERE record_n = ?', n);
  if (!r) return [];
  return [
    n,
    ...neighbours(store, r, 'before', contextAfter).map((x) => x.n),
    ...neighbours(store, r, 'after', contextBefore).map((x) => x.n),
  ];
}

export function writeTurnRow(store: Store, n: number): void {
  const r = store.get<Row>('SELECT * FROM retrieval_index WHERE record_n = ?', n);
  const rec = store.get<{ text: string }>('SELECT text FROM records WHERE n = ?', n);
  store.run('DELETE FROM turn_fts WHERE rowid = ?', n);
  // The in-memory copy of turn_fts re-reads the rows named here (adapters/sqlite/turn-copies.ts).
  store.run('INSERT INTO turn_log (n) VALUES (?)', n);
  if (!r || !rec) return;
  const before = neighbours(store, r, 'before', contextBefore)
    .reverse()
    .map((x) => turnIndexText(x.text))
    .join('\n');
  const after = neighbours(store, r, 'after', contextAfter)
    .map((x) => turnIndexText(x.text))
    .join('\n');
  store.run(
    'INSERT INTO turn_fts (rowid, text, speaker, before, after, scope) VALUES (?, ?, ?, ?, ?, ?)',
    n,
    turnIndexText(rec.text),
    turnText(r.speaker ?? ''),
    before,
    after,
    scopeToken(r.brain_uid),
  );
}
