import { saysHealth, type ProfileGroup } from '../../contract/index.ts';
import { slotPrefix } from '../../core/derive/slot-key.ts';
import { foldText } from '../../core/shared/fold-text.ts';
import { memoryChangeFields } from '../../core/shared/memory-change-fields.ts';
import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type {
  MemoryFilter,
  MemoryPageQuery,
  MemoryRepository,
  MemoryVersionRow,
  StatementsSaying,
  StatementsToldFrom,
} from '../../ports/index.ts';
import { citationRows, currentSql, servedSql, shareableSql, statusSql } from './memory-view.ts';
import type { SqlParam, Store } from './store.ts';

/** A MemoryVersionRow's columns over memories (alias m); `pending` is 0 or 1 until `versionOf`. */
export const versionColumns = `m.n, m.id, m.brain_uid, m.lineage, m.slot, m.version, m.statement, m.norm, m.subject,
  m.predicate, m.owner_state, m.owner_entity, m.source_key, m.valid_from, m.valid_from_ms, m.valid_to,
  m.valid_to_ms, m.status, m.pending, m.corrects, m.retracted_by, m.revised_by, m.seq, m.learned_at, m.cause`;

export type SqlVersion = Omit<MemoryVersionRow, 'pending'> & { pending: number };

export const versionOf = <R extends SqlVersion>(r: R): Omit<R, 'pending'> & { pending: boolean } => ({
  ...r,
  pending: r.pending === 1,
});

/**
 * The current Memory with the same statement, owner and subject as a claim without a slot. The
 * statement picks out at most a few rows, and the query names its index: the store keeps no table
 * statistics, so the planner's pick among fitting indexes is arbitrary, and the `(brain_uid, subject)`
 * index it once took (dropped in migration 010) read every Memory about the subject, for every claim
 * (at 100,000 Records writes slowed from 193 to 74 per second).
 */
/** The least string above every string that starts with `prefix` (bytewise, as SQLite's BINARY compares). */
const keysAfter = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

export const sameStatementSql = `SELECT id FROM memories INDEXED BY memories_brain_norm
  WHERE brain_uid = ? AND norm = ? AND slot IS NULL AND subject = ?
    AND owner_state = ? AND owner_entity IS ? AND status = 'active' LIMIT 1`;

/**
 * Every version of a lineage, by its (lineage, version) index: the planner, with no statistics, took
 * the Brain's seq index for `brain_uid = ?` and read every Memory of the Brain, each time a slot's value
 * was admitted (`+` keeps that term off the Brain's indexes).
 */
export const settlingSql = `SELECT ${versionColumns}, rv.occurred_at AS revised_at, rv.occurred_ms AS revised_ms
  FROM memories m LEFT JOIN records rv ON rv.id = m.revised_by
  WHERE m.lineage = ? AND +m.brain_uid = ? ORDER BY m.n`;

/**
 * The Memories one Record's citations name, from the Record's citations (CROSS JOIN fixes that order:
 * the planner's own pick walked every Memory of the Brain and looked each one up among them).
 */
export const citingSql = `SELECT m.id, m.lineage FROM citations c CROSS JOIN memories m ON m.id = c.memory_id
  WHERE c.record_id = ? AND m.brain_uid = ?`;

/** The lineages a Record retracted or revised, by the two partial indexes (as settlingSql, `+`). */
export const namedBySql =
  'SELECT lineage FROM memories WHERE (retracted_by = ? OR revised_by = ?) AND +brain_uid = ?';

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
  if (f.subjects !== undefined) {
    // Supersession keys a slot by its normalized subject (case, spacing, trailing punctuation; the
    // Brain's own name for "me"), so "Bob"/age and "bob"/Age are one lineage, and one filter: slot values
    // match on the slot's subject part (a range of the (brain, slot) index per subject: the prefix ends
    // in U+001F, so U+0020 in its place bounds it); every Memory also matches its own subject
    // case-insensitively on the (brain, subject NOCASE) index, so `subject=me` still finds the facts
    // written about "me". NOCASE folds ASCII alone: the subjects asked are the Brain's own spellings
    // (subjectNames), each of which one seek finds.
    const prefixes = [...new Set(f.subjects.map(slotPrefix))];
    add(
      `m.id IN (SELECT s.id FROM json_each(?) j CROSS JOIN memories s
                WHERE s.brain_uid = ? AND s.slot >= j.value AND s.slot < substr(j.value, 1, length(j.value) - 1) || ' '
                UNION ALL
                SELECT s.id FROM json_each(?) j CROSS JOIN memories s
                WHERE s.brain_uid = ? AND s.subject = j.value COLLATE NOCASE)`,
      JSON.stringify(prefixes),
      brainUid,
      JSON.stringify([...new Set(f.subjects)]),
      brainUid,
    );
  }
  // A state asks for its Memories (or an owner by that word, as ever); names are compared folded, on
  // the index of the folded owner each Memory is written with (migration 037): one name is a range of
  // it in id order, several are gathered from it first.
  if (f.owner !== undefined && 'state' in f.owner)
    add('(m.owner_state = ? OR mnemo_lower(m.owner_entity) = ?)', f.owner.state, f.owner.state);
  else if (f.owner !== undefined && f.owner.folded.length === 1)
    add('m.owner_folded = ?', f.owner.folded[0]!);
  else if (f.owner !== undefined)
    add(
      `m.id IN (SELECT s.id FROM json_each(?) j CROSS JOIN memories s
                WHERE s.brain_uid = ? AND s.owner_folded = j.value)`,
      JSON.stringify(f.owner.folded),
      brainUid,
    );
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
  // searchWords does), in the statement or in whom it is about or whose it is: "babic" finds what
  // Marko Babić said.
  if (f.words !== undefined && f.words.length > 0)
    add('mnemo_has_words(m.statement, ?, m.subject, m.owner_entity) = 1', f.words.join('\u0000'));
  return { conds, params };
}

/**
 * Each subject of a Brain's Memories once, one spelling for those equal but for ASCII case (as the
 * subject filter compares them; two parameters: the Brain's uid twice): one seek of the (brain,
 * subject NOCASE) index per subject, the least one past the last (a loose index scan), not a read of
 * every Memory.
 */
export const subjectNamesSql = `WITH RECURSIVE names(v) AS (
    SELECT (SELECT min(subject COLLATE NOCASE) FROM memories WHERE brain_uid = ?)
    UNION ALL
    SELECT (SELECT min(subject COLLATE NOCASE) FROM memories
            WHERE brain_uid = ? AND subject COLLATE NOCASE > names.v)
    FROM names WHERE names.v IS NOT NULL)
  SELECT v FROM names WHERE v IS NOT NULL`;

/** Each owner's folded name of a Brain's Memories once, as subjectNamesSql reads subjects. */
export const ownerNamesSql = `WITH RECURSIVE names(v) AS (
    SELECT (SELECT min(owner_folded) FROM memories WHERE brain_uid = ? AND owner_folded IS NOT NULL)
    UNION ALL
    SELECT (SELECT min(owner_folded) FROM memories WHERE brain_uid = ? AND owner_folded > names.v)
    FROM names WHERE names.v IS NOT NULL)
  SELECT v FROM names WHERE v IS NOT NULL`;

/**
 * One page of a full read (limit + 1 rows, to tell whether more follow), by id in `order`: either way
 * a range read of the (brain, id) index.
 */
export function memoryPageSql(brainUid: string, q: MemoryPageQuery): { sql: string; params: SqlParam[] } {
  const { conds, params } = memoryFilterSql(brainUid, q);
  const desc = q.order === 'desc';
  if (q.cursor !== undefined) {
    conds.push(desc ? 'm.id < ?' : 'm.id > ?');
    params.push(decodeCursor(q.cursor));
  }
  return {
    sql: `SELECT ${versionColumns} FROM memories m WHERE ${conds.join(' AND ')} ORDER BY m.id${desc ? ' DESC' : ''} LIMIT ?`,
    params: [...params, q.limit + 1],
  };
}

/**
 * Which of the self's Memories each of the profile's groups holds (health marks: health-lines.ts).
 * `unindexed`: the columns behind a unary plus, so SQLite reads them row by row rather than by their
 * partial indexes (which list every such Memory of the Brain) where another index narrows the rows.
 */
const profileGroupSql = (group: ProfileGroup, a = 'm', unindexed = false): string => {
  const c = `${unindexed ? '+' : ''}${a}`;
  return {
    health: `${c}.health = 1`,
    slot: `${c}.slot IS NOT NULL AND ${c}.health = 0`,
    other: `${c}.slot IS NULL AND ${c}.health = 0`,
  }[group];
};

/**
 * The card says a sentence once. Left out: an `other` line whose statement is, word for word, what a
 * health or slot line quotes from the same Record ("Petra and I broke up tonight." beside "… is no
 * longer Petra Novak" quoting it); and a line whose statement a line before it in its group says from
 * a Record they both cite (one "We cancelled Vienna." closing the plan, its booking and the agent's
 * note is a Memory of each). Read in SQL, so a page holds its limit and none repeats another's line.
 * Only lines the card shows count (a hosted card: those with a shareable Record).
 */
function saidOnceSql(
  group: ProfileGroup,
  nowMs: number,
  shareableOnly: boolean,
): { sql: string; params: SqlParam[] } {
  const shown = (a: string) => {
    const current = currentSql(nowMs, a);
    return {
      sql: `${a}.brain_uid = m.brain_uid AND ${a}.owner_state = 'self' AND ${current.sql}
            ${shareableOnly ? `AND ${shareableSql(a)}` : ''}`,
      params: current.params,
    };
  };
  const line = shown('l');
  const before = shown('o');
  // Each NOT EXISTS reads from the line's own side: its citations (CROSS JOIN keeps SQLite to that order)
  // or the Memories of its statement's key, never every Memory of the self for each line of the card.
  const quoted =
    group === 'other'
      ? {
          sql: `AND NOT EXISTS (
            SELECT 1 FROM citations c
            CROSS JOIN citations q ON q.record_id = c.record_id AND q.memory_id <> c.memory_id AND q.quote = m.statement
            CROSS JOIN memories l ON l.id = q.memory_id
            WHERE c.memory_id = m.id AND (l.slot IS NOT NULL OR l.health = 1) AND ${line.sql})`,
          params: line.params,
        }
      : { sql: '', params: [] };
  return {
    sql: `${quoted.sql} AND NOT EXISTS (
            SELECT 1 FROM citations c
            JOIN citations q ON q.record_id = c.record_id AND q.memory_id <> c.memory_id
            JOIN memories o ON o.id = q.memory_id
            WHERE c.memory_id = m.id AND o.norm = m.norm AND o.statement = m.statement
              AND ${profileGroupSql(group, 'o', true)}
              AND (o.valid_from_ms > m.valid_from_ms OR (o.valid_from_ms = m.valid_from_ms AND o.n > m.n))
              AND ${before.sql})`,
    params: [...quoted.params, ...before.params],
  };
}

/**
 * One group of the profile's read (currentOfSelf), on the (brain, valid_from) index of the self's
 * Memories of that group (the health lines', the slot lines', or all the self's), latest first.
 */
export function currentOfSelfSql(
  brainUid: string,
  q: {
    nowMs: number;
    shareableOnly: boolean;
    limit: number;
    group: ProfileGroup;
    after?: { validFromMs: number; n: number } | undefined;
  },
): { sql: string; params: SqlParam[] } {
  const current = currentSql(q.nowMs);
  const once = saidOnceSql(q.group, q.nowMs, q.shareableOnly);
  // Spelled so the index's valid_from_ms range bounds the read (a row value would not).
  const after = q.after
    ? {
        sql: 'AND m.valid_from_ms <= ? AND (m.valid_from_ms < ? OR m.n < ?)',
        params: [q.after.validFromMs, q.after.validFromMs, q.after.n],
      }
    : { sql: '', params: [] };
  return {
    sql: `SELECT ${versionColumns} FROM memories m
          WHERE m.brain_uid = ? AND m.owner_state = 'self' AND ${profileGroupSql(q.group)}
            AND ${current.sql} ${q.shareableOnly ? `AND ${shareableSql()}` : ''} ${once.sql} ${after.sql}
          ORDER BY m.valid_from_ms DESC, m.n DESC LIMIT ?`,
    params: [brainUid, ...current.params, ...once.params, ...after.params, q.limit],
  };
}

/**
 * Any of `words` anywhere in the statement, as its lower case holds them; none: any statement. LIKE
 * folds ASCII letters alone, so for a statement of ASCII it answers exactly (a word is lower case, with
 * LIKE's wildcards escaped), in C and on an index's copy of the statement; a statement holding any
 * other character ("Zoë", "I’m") is also asked of its Unicode lower case (mnemo_lower), which LIKE's
 * matches are a part of. So the whole is `instr(mnemo_lower(statement), word)`, 2-3 times cheaper on
 * the index.
 */
export function sayingAny(words: readonly string[]): { sql: string; params: SqlParam[] } {
  if (words.length === 0) return { sql: '', params: [] };
  const lower = words.map((w) => w.toLowerCase());
  const like = words.map(() => "statement LIKE ? ESCAPE '\\'").join(' OR ');
  const unicode = words.map(() => 'instr(mnemo_lower(statement), ?) > 0').join(' OR ');
  return {
    // Fewer characters than bytes: one beyond ASCII (cheaper than a GLOB for one, ~55 ns a statement).
    sql: `AND (${like} OR (length(statement) < octet_length(statement) AND (${unicode})))`,
    params: [...lower.map((w) => `%${w.replace(/[\\%_]/gu, '\\$&')}%`), ...lower],
  };
}

/**
 * The query of `statementsSaying` (an owner's) and `statementsToldFrom` (others', from one source, a
 * mail source's): active statements of no slot begun before (or, `ahead`, from) an instant, latest
 * begun first, by migration 046's indexes of them, so the words are tested on those statements only and
 * only until the limit is found; a source the Brain holds none of reads nothing. The entries hold the
 * statement (migration 047): the words are tested on the index, and the table is read for a match.
 * Without the indexes the planner took the Brain's every Memory and sorted them: ~80-140 ms at 100,000
 * Memories, for each claim that changes a plan.
 */
export function statementsSql(
  brainUid: string,
  q: StatementsSaying | StatementsToldFrom,
): { sql: string; params: SqlParam[] } {
  const [index, whose, whoseParams] =
    'source_key' in q
      ? ['memories_source_statements', "owner_state = 'other' AND source_key = ?", [q.source_key]]
      : [
          'memories_owner_statements',
          'owner_state = ? AND owner_entity IS ?',
          [q.owner_state, q.owner_entity],
        ];
  const ahead = q.ahead === true;
  const words = sayingAny(q.words);
  return {
    sql: `SELECT id, lineage, statement FROM memories INDEXED BY ${index}
         WHERE brain_uid = ? AND slot IS NULL AND status = 'active' AND pending = 0 AND ${whose}
           AND valid_from_ms ${ahead ? '>=' : '<'} ? ${words.sql}
         ORDER BY ${ahead ? 'valid_from_ms, n' : 'valid_from_ms DESC, n DESC'} LIMIT ?`,
    params: [brainUid, ...whoseParams, q.beforeMs, ...words.params, q.limit],
  };
}

/**
 * One Brain's Memory versions over SQLite (memories, citations; `n` is the rowid). A delta read pages
 * on the (brain, seq) index, a full read on (brain, id). Citations are written before their Memory:
 * the schema refuses a Memory row without one.
 */
export function sqliteMemories(store: Store, brainUid: string): MemoryRepository {
  const statementsOf = (q: StatementsSaying | StatementsToldFrom) => {
    const { sql, params } = statementsSql(brainUid, q);
    return store.all<{ id: string; lineage: string; statement: string }>(sql, ...params);
  };
  const cite = (memoryId: string, recordId: string, quote: string) =>
    store.run(
      // A quote the schema refuses fails the job (and shows) instead of leaving the Memory without it.
      'INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?) ON CONFLICT (memory_id, record_id) DO NOTHING',
      memoryId,
      recordId,
      quote,
    ).changes > 0;
  return {
    async get(id) {
      const r = store.get<SqlVersion>(
        `SELECT ${versionColumns} FROM memories m WHERE m.id = ? AND m.brain_uid = ?`,
        id,
        brainUid,
      );
      return r ? versionOf(r) : null;
    },
    subjectNames: async () => store.all<{ v: string }>(subjectNamesSql, brainUid, brainUid).map((r) => r.v),
    ownerNames: async () => store.all<{ v: string }>(ownerNamesSql, brainUid, brainUid).map((r) => r.v),
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
    async insert(row, citations) {
      for (const c of citations) cite(row.id, c.record_id, c.quote);
      store.run(
        `INSERT INTO memories (id, brain_uid, lineage, slot, version, statement, norm, subject, predicate,
           owner_state, owner_entity, owner_folded, source_key, valid_from, valid_from_ms, valid_to, valid_to_ms,
           status, pending, corrects, retracted_by, revised_by, seq, learned_at, cause, health)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.id,
        brainUid,
        row.lineage,
        row.slot,
        row.version,
        row.statement,
        row.norm,
        row.subject,
        row.predicate,
        row.owner_state,
        row.owner_entity,
        row.owner_entity === null ? null : foldText(row.owner_entity),
        row.source_key,
        row.valid_from,
        row.valid_from_ms,
        row.valid_to,
        row.valid_to_ms,
        row.status,
        row.pending ? 1 : 0,
        row.corrects,
        row.retracted_by,
        row.revised_by,
        row.seq,
        row.learned_at,
        row.cause,
        saysHealth(row.statement) ? 1 : 0,
      );
    },
    async update(id, changes) {
      const columns = memoryChangeFields.filter((c) => changes[c] !== undefined);
      if (columns.length === 0) return;
      // A statement said again in other words may speak of health, or no longer; an owner given
      // anew (a re-owned Memory, a plan's change taking the plan's owner) is folded as written.
      const derived: [string, SqlParam][] = [
        ...(changes.statement !== undefined
          ? [['health', saysHealth(changes.statement) ? 1 : 0] as [string, SqlParam]]
          : []),
        ...(changes.owner_entity !== undefined
          ? [
              ['owner_folded', changes.owner_entity === null ? null : foldText(changes.owner_entity)] as [
                string,
                SqlParam,
              ],
            ]
          : []),
      ];
      store.run(
        `UPDATE memories SET ${[...columns, ...derived.map(([c]) => c)].map((c) => `${c} = ?`).join(', ')}
         WHERE id = ? AND brain_uid = ?`,
        ...columns.map((c) => {
          const v = changes[c]!;
          return typeof v === 'boolean' ? (v ? 1 : 0) : v;
        }),
        ...derived.map(([, v]) => v),
        id,
        brainUid,
      );
    },
    async remove(ids) {
      for (const id of ids) store.run('DELETE FROM memories WHERE id = ? AND brain_uid = ?', id, brainUid);
    },
    async addCitation(c, seq) {
      const added =
        store.run(
          `INSERT INTO citations (memory_id, record_id, quote)
           SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM memories WHERE id = ? AND brain_uid = ?)
           ON CONFLICT (memory_id, record_id) DO NOTHING`,
          c.memory_id,
          c.record_id,
          c.quote,
          c.memory_id,
          brainUid,
        ).changes > 0;
      if (added) store.run('UPDATE memories SET seq = ? WHERE id = ?', seq, c.memory_id);
      return added;
    },
    citedAt: async (memoryId, occurredMs) =>
      store.all<{
        record_id: string;
        quote: string;
        source_key: string;
        speaker: string | null;
        total: number;
      }>(
        `SELECT c.record_id, c.quote, COALESCE(r.source_name, '') AS source_key,
                json_extract(r.content, '$.speaker') AS speaker,
                (SELECT count(*) FROM citations a WHERE a.memory_id = c.memory_id) AS total
         FROM citations c JOIN records r ON r.id = c.record_id
         WHERE c.memory_id = ? AND r.occurred_ms = ? AND r.brain_uid = ?`,
        memoryId,
        occurredMs,
        brainUid,
      ),
    async dropCitations(memoryId, recordIds) {
      if (recordIds.length === 0) return;
      store.run(
        `DELETE FROM citations WHERE memory_id = ? AND record_id IN (SELECT value FROM json_each(?))
           AND memory_id IN (SELECT id FROM memories WHERE id = ? AND brain_uid = ?)`,
        memoryId,
        JSON.stringify(recordIds),
        memoryId,
        brainUid,
      );
    },
    shareable: async (id) =>
      store.get<{ s: number }>(
        `SELECT ${shareableSql('m')} AS s FROM memories m WHERE m.id = ? AND m.brain_uid = ?`,
        id,
        brainUid,
      )?.s === 1,
    slotVersions: async (slot) =>
      store
        .all<SqlVersion>(
          `SELECT ${versionColumns} FROM memories m WHERE m.brain_uid = ? AND m.slot = ? ORDER BY m.n`,
          brainUid,
          slot,
        )
        .map(versionOf),
    // By the slot index, a range of it per first name (as the slot lane's ofFirstName reads it).
    subjectsFirstNamed: async (firsts) =>
      firsts.length === 0
        ? []
        : store.all<{ first: string; subject: string }>(
            `SELECT DISTINCT f.value AS first, m.subject FROM json_each(?) f
               JOIN memories m INDEXED BY memories_brain_slot
                 ON m.brain_uid = ? AND m.slot IS NOT NULL
                 AND m.slot >= f.value || ' ' AND m.slot < f.value || '!'`,
            JSON.stringify(firsts),
            brainUid,
          ),
    // By migration 016's index (partial: slot IS NOT NULL), which SQLite uses only for the same expression.
    slotStatements: async (predicates) =>
      predicates.length === 0
        ? []
        : store.all<{ subject: string; predicate: string | null; statement: string }>(
            `SELECT DISTINCT subject, predicate, statement FROM memories INDEXED BY memories_slot_predicate
              WHERE brain_uid = ? AND slot IS NOT NULL AND substr(slot, instr(slot, char(31)) + 1) IN (SELECT value FROM json_each(?))
                AND status <> 'retracted'`,
            brainUid,
            JSON.stringify(predicates),
          ),
    // A read here costs no round trip: each is asked when needed.
    prefetchSame: async () => {},
    sameStatement: async (q) =>
      store.get<{ id: string }>(sameStatementSql, brainUid, q.norm, q.subject, q.owner_state, q.owner_entity)
        ?.id ?? null,
    statementsSaying: async (q) => statementsOf(q),
    statementsToldFrom: async (q) => statementsOf(q),
    statementsStarting: async (q) =>
      store.all<{ id: string; lineage: string; statement: string }>(
        `SELECT id, lineage, statement FROM memories INDEXED BY memories_brain_norm
         WHERE brain_uid = ? AND norm >= ? AND norm < ? AND slot IS NULL AND status = 'active'
           AND pending = 0 AND owner_state = ? AND owner_entity IS ? AND valid_from_ms < ?
         ORDER BY valid_from_ms DESC, n DESC LIMIT ?`,
        brainUid,
        q.keyStart,
        keysAfter(q.keyStart),
        q.owner_state,
        q.owner_entity,
        q.beforeMs,
        q.limit,
      ),
    settling: async (lineage) =>
      store
        .all<SqlVersion & { revised_at: string | null; revised_ms: number | null }>(
          settlingSql,
          lineage,
          brainUid,
        )
        .map(versionOf),
    async citing(recordIds) {
      const cited = new Map<string, { id: string; lineage: string; remaining: number }>();
      // A Record named twice leaves a Memory one citation fewer, not two.
      for (const id of new Set(recordIds)) {
        for (const m of store.all<{ id: string; lineage: string }>(citingSql, id, brainUid)) {
          const entry = cited.get(m.id) ?? { ...m, remaining: 0 };
          // Counted down from every citation it has, once per Record of the set it cites.
          entry.remaining -= 1;
          cited.set(m.id, entry);
        }
      }
      for (const m of cited.values())
        m.remaining += store.get<{ c: number }>(
          'SELECT count(*) AS c FROM citations WHERE memory_id = ?',
          m.id,
        )!.c;
      return [...cited.values()];
    },
    namedBy: async (recordId) =>
      store.all<{ lineage: string }>(namedBySql, recordId, recordId, brainUid).map((m) => m.lineage),
    async onOlderRevisions(record) {
      if (record.external_id === null) return [];
      // Older revisions first, through the (brain, source, external id) index: a fresh import has none,
      // so the common case costs one index probe instead of a scan of every Memory in the Brain.
      const older = store.all<{ id: string }>(
        `SELECT id FROM records INDEXED BY records_external
         WHERE brain_uid = ? AND source_name IS ? AND external_id = ? AND n < ?`,
        brainUid,
        record.source_name,
        record.external_id,
        record.n,
      );
      if (older.length === 0) return [];
      return store.all<{ id: string; lineage: string }>(
        `SELECT DISTINCT m.id, m.lineage FROM citations c CROSS JOIN memories m ON m.id = c.memory_id
         WHERE c.record_id IN (SELECT value FROM json_each(?)) AND m.revised_by IS NULL
           AND NOT EXISTS (SELECT 1 FROM citations keep JOIN records k ON k.id = keep.record_id
                           WHERE keep.memory_id = m.id
                             AND NOT (k.n < ? AND k.external_id IS ? AND k.source_name IS ?))`,
        JSON.stringify(older.map((r) => r.id)),
        record.n,
        record.external_id,
        record.source_name,
      );
    },
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
      if (q.afterN === undefined) {
        conds.push('m.seq > ?');
        params.push(q.afterSeq);
      } else {
        // n is the rowid, which memories_brain_seq holds after seq: a range on the index.
        conds.push('(m.seq, m.n) > (?, ?)');
        params.push(q.afterSeq, q.afterN);
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
    async currentOfSelf(q) {
      const { sql, params } = currentOfSelfSql(brainUid, q);
      return store.all<SqlVersion>(sql, ...params).map(versionOf);
    },
  };
}
