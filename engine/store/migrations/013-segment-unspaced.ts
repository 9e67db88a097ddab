import type { Db } from '../open-database.ts';
import { hasUnspaced } from '../../retrieve/segment-words.ts';

/**
 * Text in scripts written without spaces (Japanese, Chinese) is now cut into words before it
 * is indexed for full-text search (engine/retrieve/segment-words.ts). Rows indexed before held such a
 * run as one token, so their Records are queued to be indexed again; re-indexing a Record rewrites its
 * thread neighbours' rows as well, which quote its text. Nothing else changes, and no vector is redone.
 */
export const segmentUnspaced = {
  version: 13,
  name: 'segment-unspaced',
  sql: '',
  after(db: Db): void {
    // The content, not only the text: a speaker's name is indexed too.
    const page = db.prepare('SELECT n, content FROM records WHERE n > ? ORDER BY n LIMIT 5000');
    const queue = db.prepare(
      "INSERT INTO index_queue (owner, owner_n, lexical) VALUES ('record', ?, 0) ON CONFLICT (owner, owner_n) DO UPDATE SET lexical = 0",
    );
    for (let rows = page.all(0) as { n: number; content: string }[]; rows.length > 0;) {
      for (const r of rows) if (hasUnspaced(r.content)) queue.run(r.n);
      rows = page.all(rows[rows.length - 1]!.n) as { n: number; content: string }[];
    }
  },
};
