import type { Db } from '../open-database.ts';
import { textKey } from '../text-key.ts';

/**
 * The census read every Record of a Brain for its counts of noise (~600 ms at 100,000 Records, on the
 * event loop): the duplicates grouped every text (370 ms), and Records from low-trust sources were
 * found by reading each one. `text_key` fingerprints a Record's text (engine/adapters/sqlite/text-key.ts), so
 * the texts that repeat are found from an index that holds only the keys; low-trust Records have an
 * index of their own. Existing Records get their key in the same transaction.
 */
export const recordsTextKey = {
  version: 12,
  name: 'records-text-key',
  sql: `
ALTER TABLE records ADD COLUMN text_key INTEGER;
CREATE INDEX records_brain_text_key ON records (brain_uid, text_key);
CREATE INDEX records_brain_low_trust ON records (brain_uid, id) WHERE trust = 'low';
`,
  after(db: Db): void {
    // In pages: better-sqlite3 runs no other statement while an iteration is open.
    const page = db.prepare('SELECT n, text FROM records WHERE n > ? ORDER BY n LIMIT 5000');
    const set = db.prepare('UPDATE records SET text_key = ? WHERE n = ?');
    for (let rows = page.all(0) as { n: number; text: string }[]; rows.length > 0;) {
      for (const r of rows) set.run(textKey(r.text), r.n);
      rows = page.all(rows[rows.length - 1]!.n) as { n: number; text: string }[];
    }
  },
};
