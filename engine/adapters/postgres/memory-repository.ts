import { slotPrefix } from '../../core/derive/slot-key.ts';
import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type { CitationRow, MemoryFilter, MemoryReads, MemoryVersionRow } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import {
  currentSql,
  foldSql,
  params,
  servedSql,
  shareableSql,
  statusSql,
  type Params,
} from './memory-view.ts';

/** A MemoryVersionRow's columns over memories (alias m): `pending` is a boolean, bigints read as numbers. */
const versionColumns = `m.n, m.id, m.brain_uid, m.lineage, m.slot, m.version, m.statement, m.norm, m.subject,
  m.predicate, m.owner_state, m.owner_entity, m.source_key, m.valid_from, m.valid_from_ms, m.valid_to,
  m.valid_to_ms, m.status, m.pending, m.corrects, m.retracted_by, m.revised_by, m.seq, m.learned_at, m.cause`;

/** ASCII case ignored, as SQLite's lower() and NOCASE: lower() under "C" folds ASCII alone. */
const asciiLower = (expr: string) => `lower(${expr} COLLATE "C")`;

/**
 * What a MemoryFilter selects, as conditions over memories (alias m), the SQLite adapter's to the
 * letter: the Brain's versions not pending re-derivation, as the reader is served them, at `asOfMs`,
 * of the status, subject, owner, slot and words asked. Text compares bytewise (COLLATE "C").
 */
function memoryFilterSql(p: Params, brain: string, f: MemoryFilter): string[] {
  const conds = [`m.brain_uid = ${brain}`, 'NOT m.pending'];
  if (f.shareableOnly) conds.push(shareableSql());
  if (f.asOfMs !== undefined) conds.push(servedSql(p, f.asOfMs, f.nowMs));
  if (f.status !== 'all')
    conds.push(f.status === 'current' ? currentSql(p, f.nowMs) : statusSql(p, f.status, f.nowMs));
  if (f.subject !== undefined) {
    // A slot value by its slot's normalized subject (a range of slot keys: the prefix ends in U+001F,
    // so U+0020 in its place bounds it), any Memory by its own subject, ASCII case ignored.
    const norm = slotPrefix(f.subject);
    conds.push(
      `(m.slot COLLATE "C" >= ${p.bind(norm)} AND m.slot COLLATE "C" < ${p.bind(`${norm.slice(0, -1)}\u0020`)}
        OR ${asciiLower('m.subject')} = ${asciiLower(`${p.bind(f.subject)}::text`)})`,
    );
  }
  if (f.owner !== undefined) {
    const owner = p.bind(f.owner);
    conds.push(
      `(m.owner_state = ${owner} OR ${asciiLower('m.owner_entity')} = ${asciiLower(`${owner}::text`)})`,
    );
  }
  if (f.contested === true) {
    // A conflict: current now, and another value of its slot current too (hosted, one hosted serves).
    conds.push(
      `m.slot IS NOT NULL AND ${currentSql(p, f.nowMs, 'm')} AND EXISTS (SELECT 1 FROM memories o
         WHERE o.brain_uid = m.brain_uid AND o.lineage = m.lineage AND o.id <> m.id
           AND ${currentSql(p, f.nowMs, 'o')} ${f.shareableOnly ? `AND ${shareableSql('o')}` : ''})`,
    );
  }
  // A lineage is exactly the versions of one slot: its id is the slot's key.
  if (f.slot !== undefined) conds.push(`m.lineage = ${p.bind(f.slot)} AND m.slot IS NOT NULL`);
  // Every word in the folded statement, in any order (the words come folded: searchWords).
  if (f.words !== undefined && f.words.length > 0)
    conds.push(
      `NOT EXISTS (SELECT 1 FROM unnest(${p.bind(f.words)}::text[]) AS w(word)
                   WHERE strpos(${foldSql('m.statement')}, w.word) = 0)`,
    );
  return conds;
}

/**
 * The reads of one Brain's Memory versions over PostgreSQL, as the SQLite adapter's (the same
 * filters, pages and cursors): ids compare bytewise (COLLATE "C", SQLite's BINARY) whatever the
 * database's collation, and a delta read orders by step then `n` (write order).
 */
export function pgMemories(q: PgQueryable, brainUid: string): MemoryReads {
  const select = async (p: Params, where: string[], tail: string) =>
    (
      await q.query<MemoryVersionRow>(
        `SELECT ${versionColumns} FROM memories m WHERE ${where.join(' AND ')} ${tail}`,
        p.values,
      )
    ).rows;
  return {
    get: async (id) =>
      (
        await q.query<MemoryVersionRow>(
          `SELECT ${versionColumns} FROM memories m WHERE m.brain_uid = $1 AND m.id = $2`,
          [brainUid, id],
        )
      ).rows[0] ?? null,
    lineage: async (lineage, opts) =>
      (
        await q.query<MemoryVersionRow>(
          `SELECT ${versionColumns} FROM memories m WHERE m.brain_uid = $1 AND m.lineage = $2
           ${opts.shareableOnly ? `AND ${shareableSql()}` : ''} ORDER BY m.version`,
          [brainUid, lineage],
        )
      ).rows,
    async citations(memoryIds, opts) {
      if (memoryIds.length === 0) return [];
      return (
        await q.query<CitationRow>(
          `SELECT c.memory_id, c.record_id, c.quote FROM citations c
           ${opts.shareableOnly ? 'JOIN records r ON r.brain_uid = c.brain_uid AND r.id = c.record_id' : ''}
           WHERE c.brain_uid = $1 AND c.memory_id = ANY($2::text[])
           ${opts.shareableOnly ? "AND r.visibility <> 'local_only'" : ''}
           ORDER BY c.memory_id COLLATE "C", c.record_id COLLATE "C"`,
          [brainUid, memoryIds],
        )
      ).rows;
    },
    async list(query) {
      const p = params();
      const where = memoryFilterSql(p, p.bind(brainUid), query);
      if (query.cursor !== undefined) where.push(`m.id COLLATE "C" > ${p.bind(decodeCursor(query.cursor))}`);
      const rows = await select(p, where, `ORDER BY m.id COLLATE "C" LIMIT ${p.bind(query.limit + 1)}`);
      const page = rows.slice(0, query.limit);
      return { rows: page, next: rows.length > query.limit ? encodeCursor(page.at(-1)!.id) : null };
    },
    changes(query) {
      const p = params();
      const where = memoryFilterSql(p, p.bind(brainUid), query);
      where.push(`m.seq > ${p.bind(query.afterSeq)}`);
      if (query.throughSeq !== undefined) where.push(`m.seq <= ${p.bind(query.throughSeq)}`);
      const limit = query.limit !== undefined ? `LIMIT ${p.bind(query.limit)}` : '';
      return select(p, where, `ORDER BY m.seq, m.n ${limit}`);
    },
  };
}
