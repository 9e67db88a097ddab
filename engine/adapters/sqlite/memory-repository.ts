import { slotPrefix } from '../../core/derive/slot-key.ts';
import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type { MemoryFilter, MemoryReads, MemoryVersionRow } from '../../ports/index.ts';
import { citationRows, currentSql, servedSql, shareableSql, statusSql } from './memory-view.ts';
import type { SqlParam, Store } from './store.ts';

/** A MemoryVersionRow's columns over memories (alias m); `pending` is 0 or 1 until `versionOf`. */
const versionColumns = `m.n, m.id, m.brain_uid, m.lineage, m.slot, m.version, m.statement, m.norm, m.subject,
  m.predicate, m.owner_state, m.owner_entity, m.source_key, m.valid_from, m.valid_from_ms, m.valid_to,
  m.valid_to_ms, m.status, m.pending, m.corrects, m.retracted_by, m.revised_by, m.seq, m.learned_at, m.cause`;

type SqlVersion = Omit<MemoryVersionRow, 'pending'> & { pending: number };

const versionOf = (r: SqlVersion): MemoryVersionRow => ({ ...r, pending: r.pending === 1 });

/**
 * What a MemoryFilter selects, as SQL over memories (alias m): the Brain's versions not pending
 * re-derivation, as the reader is served them, at `asOfMs`, of the status, subject, owner, slot and
 * words asked. The temporal conditions are memory-view.ts' translations of core/temporal.
 */
export function memoryFilterSql(brainUid: string, f: MemoryFilter): { conds: string[]; params: SqlParam[] } {
  const conds = ['m.brain_uid = ?', 'm.pending = 0'];
  const params: SqlParam[] = [brainUid];
  const add = (cond: string, ...p: SqlParam[]) => {
    conds.push(cond);
    params.push(...p);
  };
  if (f.shareableOnly) add(shareableSql());
  if (f.asOfMs !== undefined) {
    const s = servedSql(f.asOfMs, f.nowMs);
    add(s.sql, ...s.params);
  }
  if (f.status !== 'all') {
    const s = f.status === 'current' ? currentSql(f.nowMs) : statusSql(f.status, f.nowMs);
    add(s.sql, ...s.params);
  }
  if (f.subject !== undefined) {
    // Supersession keys a slot by its normalized subject (case, spacing, trailing punctuation; the
    // Brain's own name for "me"), so "Bob"/age and "bob"/Age are one lineage, and one filter: slot values
    // match on the slot's subject part (a range on the (brain, slot) index); every Memory also matches
    // its own subject case-insensitively (ASCII, as lower() does, like the owner filter) on the
    // (brain, subject NOCASE) index, so `subject=me` still finds the facts written about "me".
    const norm = slotPrefix(f.subject);
    add(
      `m.id IN (SELECT s.id FROM memories s WHERE s.brain_uid = ? AND s.slot >= ? AND s.slot < ?
                UNION ALL
                SELECT s.id FROM memories s
                WHERE s.brain_uid = ? AND s.subject = ? COLLATE NOCASE)`,
      brainUid,
      norm,
      `${norm.slice(0, -1)}\u0020`,
      brainUid,
      f.subject,
    );
  }
  if (f.owner !== undefined) add('(m.owner_state = ? OR lower(m.owner_entity) = lower(?))', f.owner, f.owner);
  if (f.contested === true) {
    // A conflict: current now, and another value of its slot current too (as the census counts them;
    // hosted, the other value must be one hosted serves).
    const mine = currentSql(f.nowMs, 'm');
    const other = currentSql(f.nowMs, 'o');
    add(
      `m.slot IS NOT NULL AND ${mine.sql} AND EXISTS (SELECT 1 FROM memories o WHERE o.lineage = m.lineage
         AND o.id <> m.id AND ${other.sql} ${f.shareableOnly ? `AND ${shareableSql('o')}` : ''})`,
      ...mine.params,
      ...other.params,
    );
  }
  // A lineage is exactly the versions of one slot (migration 014): its id is the slot's key. Read on
  // the (lineage, version) index, not by walking the Brain.
  if (f.slot !== undefined) {
    add('m.id IN (SELECT s.id FROM memories s WHERE s.lineage = ? AND s.slot IS NOT NULL)', f.slot);
  }
  // Every word, in any order, case and accents ignored in every script (mnemo_has_words folds as
  // searchWords does).
  if (f.words !== undefined && f.words.length > 0)
    add('mnemo_has_words(m.statement, ?) = 1', f.words.join('\u0000'));
  return { conds, params };
}

/** One page of a full read (limit + 1 rows, to tell whether more follow), by id. */
export function memoryPageSql(
  brainUid: string,
  q: MemoryFilter & { limit: number; cursor?: string | undefined },
): { sql: string; params: SqlParam[] } {
  const { conds, params } = memoryFilterSql(brainUid, q);
  if (q.cursor !== undefined) {
    conds.push('m.id > ?');
    params.push(decodeCursor(q.cursor));
  }
  return {
    sql: `SELECT ${versionColumns} FROM memories m WHERE ${conds.join(' AND ')} ORDER BY m.id LIMIT ?`,
    params: [...params, q.limit + 1],
  };
}

/**
 * The reads of one Brain's Memory versions over SQLite (memories, citations; `n` is the rowid). A delta
 * read pages on the (brain, seq) index, a full read on (brain, id).
 */
export function sqliteMemories(store: Store, brainUid: string): MemoryReads {
  return {
    async get(id) {
      const r = store.get<SqlVersion>(
        `SELECT ${versionColumns} FROM memories m WHERE m.id = ? AND m.brain_uid = ?`,
        id,
        brainUid,
      );
      return r ? versionOf(r) : null;
    },
    lineage: async (lineage, opts) =>
      store
        .all<SqlVersion>(
          `SELECT ${versionColumns} FROM memories m WHERE m.lineage = ? AND m.brain_uid = ?
           ${opts.shareableOnly ? `AND ${shareableSql()}` : ''} ORDER BY m.version`,
          lineage,
          brainUid,
        )
        .map(versionOf),
    citations: async (memoryIds, opts) => citationRows(store, memoryIds, opts),
    async list(q) {
      const { sql, params } = memoryPageSql(brainUid, q);
      const rows = store.all<SqlVersion>(sql, ...params).map(versionOf);
      const page = rows.slice(0, q.limit);
      return {
        rows: page,
        next: rows.length > q.limit ? encodeCursor(page[page.length - 1]!.id) : null,
      };
    },
    async changes(q) {
      const { conds, params } = memoryFilterSql(brainUid, q);
      conds.push('m.seq > ?');
      params.push(q.afterSeq);
      if (q.throughSeq !== undefined) {
        conds.push('m.seq <= ?');
        params.push(q.throughSeq);
      }
      const limit = q.limit !== undefined ? ' LIMIT ?' : '';
      return store
        .all<SqlVersion>(
          `SELECT ${versionColumns} FROM memories m WHERE ${conds.join(' AND ')} ORDER BY m.seq, m.n${limit}`,
          ...params,
          ...(q.limit !== undefined ? [q.limit] : []),
        )
        .map(versionOf);
    },
  };
}
