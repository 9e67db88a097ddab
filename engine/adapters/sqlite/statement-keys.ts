import { statementKey, statementKeysVersion } from '../../core/derive/statement-key.ts';
import type { Db } from './open-database.ts';

/*
 * Every Memory's `norm` is its statement's key (core/derive/statement-key.ts): a claim looks a
 * statement up by its key alone. `meta.statement_keys` names the version of the keys the store holds
 * (`words` since migration 029: the words as normalised before `rules-v16`, for some). A store of
 * other keys is keyed again whole when it opens, in one transaction, before anything is looked up.
 */

const markerKey = 'statement_keys';

/**
 * Keys every Memory again when the store's keys are another version's; whether it did. A store with
 * no version recorded (its schema is older than migration 029's) is left alone.
 */
export function keyStatements(db: Db, pageSize = 5000): boolean {
  const held = db.prepare('SELECT value FROM meta WHERE key = ?').get(markerKey) as
    { value: string } | undefined;
  if (held === undefined || held.value === String(statementKeysVersion)) return false;
  db.transaction(() => {
    rekeyMemories(db, pageSize);
    db.exec(listLaterTwins);
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(String(statementKeysVersion), markerKey);
  })();
  return true;
}

/** Gives every Memory the key of its statement, `pageSize` rows at a time. */
export function rekeyMemories(db: Db, pageSize = 5000): void {
  // In pages: better-sqlite3 runs no other statement while an iteration is open.
  const page = db.prepare(`SELECT n, statement, norm FROM memories WHERE n > ? ORDER BY n LIMIT ${pageSize}`);
  const set = db.prepare('UPDATE memories SET norm = ? WHERE n = ?');
  type Row = { n: number; statement: string; norm: string };
  for (let rows = page.all(0) as Row[]; rows.length > 0; rows = page.all(rows.at(-1)!.n) as Row[])
    for (const r of rows) {
      const key = statementKey(r.statement);
      if (key !== r.norm) set.run(key, r.n);
    }
}

/**
 * Keyed alike, two current Memories of no slot of one subject and owner may now say one thing: a
 * paraphrase written while the upgrade pass had not reached the first yet ("I love hiking." still
 * under its words, "I really love hiking!" under its key). A claim finds the first written
 * (sameStatementSql); the Records citing a later one are listed to be derived again, so the pass folds
 * it into the first (upgrade-derivation.ts, wordTwins). A correction's Memory is never folded, as its
 * Record is not derived.
 */
const listLaterTwins = `
INSERT OR IGNORE INTO derive_upgrade (n)
  SELECT DISTINCT r.n FROM memories m
  JOIN citations c ON c.memory_id = m.id
  JOIN records r ON r.id = c.record_id
  WHERE m.slot IS NULL AND m.status = 'active' AND m.cause <> 'correction' AND r.kind <> 'correction'
    AND EXISTS (
      SELECT 1 FROM memories e INDEXED BY memories_brain_norm
      WHERE e.brain_uid = m.brain_uid AND e.norm = m.norm AND e.slot IS NULL AND e.subject = m.subject
        AND e.owner_state = m.owner_state AND e.owner_entity IS m.owner_entity AND e.status = 'active'
        AND e.n < m.n);
`;
