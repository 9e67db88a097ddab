import { saysHealth, type ProfileGroup } from '../../contract/index.ts';
import { slotPrefix } from '../../core/derive/slot-key.ts';
import { memoryChangeFields } from '../../core/shared/memory-change-fields.ts';
import { decodeCursor, encodeCursor } from '../../core/shared/page-cursor.ts';
import type {
  CitationRow,
  MemoryFilter,
  MemoryRepository,
  MemoryVersionRow,
  SameStatement,
  SettlingVersion,
  StatementsSaying,
  StatementsToldFrom,
} from '../../ports/index.ts';
import { deferredColumns, type UnitTx } from './batch-tx.ts';
import type { PgQueryable } from './client.ts';
import { currentSql, params, servedSql, shareableSql, statusSql, type Params } from './memory-view.ts';

/** Which of the self's Memories each of the profile's groups holds (health marks: health-lines.ts). */
const profileGroupSql = (group: ProfileGroup, a = 'm'): string =>
  ({
    health: `${a}.health`,
    slot: `${a}.slot IS NOT NULL AND NOT ${a}.health`,
    other: `${a}.slot IS NULL AND NOT ${a}.health`,
  })[group];

/**
 * The card says a sentence once. Left out: an `other` line whose statement is, word for word, what a
 * health or slot line quotes from the same Record ("Petra and I broke up tonight." beside "… is no
 * longer Petra Novak" quoting it); and a line whose statement a line before it in its group says from
 * a Record they both cite (one "We cancelled Vienna." closing the plan, its booking and the agent's
 * note is a Memory of each). Read in SQL, so a page holds its limit and none repeats another's line.
 * Only lines the card shows count (a hosted card: those with a shareable Record).
 */
function saidOnceSql(p: Params, group: ProfileGroup, nowMs: number, shareableOnly: boolean): string[] {
  const shown = (a: string) =>
    `${a}.brain_uid = m.brain_uid AND ${a}.owner_state = 'self' AND ${currentSql(p, nowMs, a)}
     ${shareableOnly ? `AND ${shareableSql(a)}` : ''}`;
  const cited = (a: string, also = '') => `
    SELECT 1 FROM citations c
    JOIN citations q ON q.brain_uid = c.brain_uid AND q.record_id = c.record_id AND q.memory_id <> c.memory_id ${also}
    JOIN memories ${a} ON ${a}.brain_uid = q.brain_uid AND ${a}.id = q.memory_id
    WHERE c.brain_uid = m.brain_uid AND c.memory_id = m.id AND ${shown(a)}`;
  const once = [
    // By the statement's key (its index) as well as its text: a Record cited by thousands of Memories
    // (a long note) would otherwise have each of its lines compared with every other's.
    `NOT EXISTS (${cited('o')} AND o.norm = m.norm AND o.statement = m.statement AND ${profileGroupSql(group, 'o')}
       AND (o.valid_from_ms, o.n) > (m.valid_from_ms, m.n))`,
  ];
  if (group === 'other')
    once.push(`NOT EXISTS (${cited('l', 'AND q.quote = m.statement')} AND (l.slot IS NOT NULL OR l.health))`);
  return once;
}

/** A MemoryVersionRow's columns over memories (alias m): `pending` is a boolean, bigints read as numbers. */
export const versionColumns = `m.n, m.id, m.brain_uid, m.lineage, m.slot, m.version, m.statement, m.norm, m.subject,
  m.predicate, m.owner_state, m.owner_entity, m.source_key, m.valid_from, m.valid_from_ms, m.valid_to,
  m.valid_to_ms, m.status, m.pending, m.corrects, m.retracted_by, m.revised_by, m.seq, m.learned_at, m.cause`;

/** The least string above every string that starts with `prefix`, as COLLATE "C" compares. */
const keysAfter = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** Unicode's lower case, as the SQLite adapter's mnemo_lower(): ICU's root locale, not the database's. */
const unicodeLower = (expr: string) => `lower(${expr} COLLATE "und-x-icu")`;

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
  if (f.subjects !== undefined) {
    // A slot value by its slot's normalized subject (a range of slot keys: the prefix ends in U+001F,
    // so U+0020 in its place bounds it), any Memory by its own subject in lower case, on the
    // (brain, lower(subject)) index. The column is COLLATE "C", whose lower() is ASCII's: the subjects
    // asked are the Brain's own (subjectNames, lowered so), each a range of that index.
    const prefixes = [...new Set(f.subjects.map(slotPrefix))];
    const below = prefixes.map((x) => `${x.slice(0, -1)}\u0020`);
    conds.push(
      `(EXISTS (SELECT 1 FROM unnest(${p.bind(prefixes)}::text[], ${p.bind(below)}::text[]) AS k(lo, hi)
                WHERE m.slot COLLATE "C" >= k.lo AND m.slot COLLATE "C" < k.hi)
        OR lower(m.subject) = ANY(ARRAY(SELECT lower(x COLLATE "C") FROM unnest(${p.bind([...new Set(f.subjects)])}::text[]) AS x)))`,
    );
  }
  // A state asks for its Memories (or an owner by that word, as ever); names are compared folded, on
  // migration 031's index of this very expression (another spelling of it would fold every row).
  if (f.owner !== undefined && 'state' in f.owner) {
    const owner = p.bind(f.owner.state);
    conds.push(
      `(m.owner_state = ${owner} OR ${unicodeLower('m.owner_entity')} = ${unicodeLower(`${owner}::text`)})`,
    );
  } else if (f.owner !== undefined && f.owner.folded.length === 1)
    conds.push(`mnemo_fold(m.owner_entity) = ${p.bind(f.owner.folded[0]!)}::text`);
  else if (f.owner !== undefined)
    conds.push(`mnemo_fold(m.owner_entity) = ANY(${p.bind(f.owner.folded)}::text[])`);
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
  // Every word folded as foldText folds it (mnemo_fold, migration 017), in any order (the words come
  // folded: searchWords), in the statement or in whom it is about or whose it is. A word holds no line
  // end, so none is found across one.
  if (f.words !== undefined && f.words.length > 0)
    conds.push(
      `NOT EXISTS (SELECT 1 FROM unnest(${p.bind(f.words)}::text[]) AS w(word)
                   WHERE strpos(mnemo_fold(m.statement || chr(10) || m.subject || chr(10) || coalesce(m.owner_entity, '')),
                                w.word) = 0)`,
    );
  return conds;
}

/** The first active version of no slot with these words, subject and owner (sameStatement). */
const sameStatementSql = `SELECT id FROM memories
  WHERE brain_uid = $1 AND norm = $2 AND slot IS NULL AND subject = $3 AND owner_state = $4
    AND owner_entity IS NOT DISTINCT FROM $5 AND status = 'active'
  ORDER BY n LIMIT 1`;

/** What statementsSaying and statementsStarting read of a version. */
type StatementRow = { id: string; lineage: string; statement: string; valid_from_ms: number | string };

const sameKey = (s: SameStatement) => JSON.stringify([s.norm, s.subject, s.owner_state, s.owner_entity]);

/** Where a queued Memory's values (BatchTx) hold what an identical statement is looked up by. */
const at = Object.fromEntries(deferredColumns.memories.map((c, i) => [c, i])) as Record<string, number>;

/** Whether a queued Memory's values are an active version of no slot with these words, subject and owner. */
const queuedSame = (v: readonly unknown[], s: SameStatement) =>
  v[at['norm']!] === s.norm &&
  v[at['subject']!] === s.subject &&
  v[at['owner_state']!] === s.owner_state &&
  v[at['owner_entity']!] === s.owner_entity &&
  v[at['slot']!] === null &&
  v[at['status']!] === 'active';

/**
 * One Brain's Memory versions over PostgreSQL, as the SQLite adapter's (the same filters, pages and
 * cursors): ids compare bytewise (COLLATE "C", SQLite's BINARY) whatever the database's collation,
 * and a delta read orders by step then `n` (write order). A Memory's lineage check (it cites a Record)
 * is deferred to the commit, so a version and its citations may be written in either order. In a
 * write (`deferred`, BatchTx) a new version and its citations are queued and written with the
 * transaction's other queued rows; a lookup of an identical statement reads the table without writing
 * them first and looks at those queued itself.
 */
export function pgMemories(
  q: PgQueryable,
  brainUid: string,
  deferred?: Pick<UnitTx, 'defer' | 'queued' | 'readAround' | 'sameAhead'>,
): MemoryRepository {
  const select = async (p: Params, where: string[], tail: string) =>
    (
      await q.query<MemoryVersionRow>(
        `SELECT ${versionColumns} FROM memories m WHERE ${where.join(' AND ')} ${tail}`,
        p.values,
      )
    ).rows;
  /**
   * The active versions of no slot of an owner (or of anyone else, from one source: statementsToldFrom),
   * begun before `beforeMs` (at it or after, `ahead`), that `where` holds of ($6 on; `queuedHolds` of a
   * queued one), the latest begun first (the earliest, `ahead`): statementsSaying, statementsToldFrom,
   * statementsStarting.
   */
  const statementsOf = async (
    s: Omit<StatementsSaying, 'words'> | Omit<StatementsToldFrom, 'words'>,
    where: string,
    params: readonly unknown[],
    queuedHolds: (v: readonly unknown[]) => boolean,
  ) => {
    const told = 'source_key' in s;
    const ahead = s.ahead === true;
    // As migration 035's indexes read them: the state a literal where a partial index names it (a
    // prepared statement's generic plan cannot tell $2 is 'other'), and an owner's name by = or IS NULL
    // (IS NOT DISTINCT FROM takes no index); $2 and $3 stay in the text, for their types.
    const whose = told
      ? `owner_state = 'other' AND $2::text = 'other' AND source_key = $3`
      : s.owner_entity === null
        ? 'owner_state = $2 AND owner_entity IS NULL AND $3::text IS NULL'
        : 'owner_state = $2 AND owner_entity = $3';
    const sql = `SELECT id, lineage, statement, valid_from_ms FROM memories
      WHERE brain_uid = $1 AND slot IS NULL AND status = 'active' AND NOT pending
        AND ${whose} AND valid_from_ms ${ahead ? '>=' : '<'} $4 AND ${where}
      ORDER BY ${ahead ? 'valid_from_ms, n' : 'valid_from_ms DESC, n DESC'} LIMIT $5`;
    const [state, entity] = told ? ['other', s.source_key] : [s.owner_state, s.owner_entity];
    const values = [brainUid, state, entity, s.beforeMs, s.limit, ...params];
    const stored = deferred
      ? (await deferred.readAround<StatementRow>(sql, values)).rows
      : (await q.query<StatementRow>(sql, values)).rows;
    const queued = (deferred?.queued('memories') ?? [])
      .filter(
        (v) =>
          v[at['slot']!] === null &&
          v[at['status']!] === 'active' &&
          !v[at['pending']!] &&
          v[at['owner_state']!] === state &&
          (told ? v[at['source_key']!] : (v[at['owner_entity']!] ?? null)) === entity &&
          (ahead
            ? Number(v[at['valid_from_ms']!]) >= s.beforeMs
            : Number(v[at['valid_from_ms']!]) < s.beforeMs) &&
          queuedHolds(v),
      )
      .map((v) => ({
        id: String(v[at['id']!]),
        lineage: String(v[at['lineage']!]),
        statement: String(v[at['statement']!]),
        valid_from_ms: Number(v[at['valid_from_ms']!]),
      }));
    const rows = stored.map((r) => ({ ...r, valid_from_ms: Number(r.valid_from_ms) }));
    // Queued versions were written after every stored one: among those begun at the same instant, first
    // where the latest come first, last where the earliest do (`ahead`).
    return (ahead ? [...rows, ...queued] : [...queued, ...rows])
      .sort((a, b) => (ahead ? a.valid_from_ms - b.valid_from_ms : b.valid_from_ms - a.valid_from_ms))
      .slice(0, s.limit)
      .map(({ id, lineage, statement }) => ({ id, lineage, statement }));
  };
  /** statementsOf the versions whose statement holds one of `words` (any, where none is given). */
  const statementsWith = (
    s: Omit<StatementsSaying, 'words'> | Omit<StatementsToldFrom, 'words'>,
    said: readonly string[],
  ) => {
    const words = said.map((w) => w.toLowerCase());
    if (words.length === 0) return statementsOf(s, 'true', [], () => true);
    return statementsOf(
      s,
      `EXISTS (SELECT 1 FROM unnest($6::text[]) w WHERE strpos(${unicodeLower('statement')}, w) > 0)`,
      [words],
      (v) => words.some((w) => String(v[at['statement']!]).toLowerCase().includes(w)),
    );
  };
  return {
    get: async (id) =>
      (
        await q.query<MemoryVersionRow>(
          `SELECT ${versionColumns} FROM memories m WHERE m.brain_uid = $1 AND m.id = $2`,
          [brainUid, id],
        )
      ).rows[0] ?? null,
    // One probe of an index per name (a loose index scan), not a read of every Memory of the Brain;
    // subjects in the lower case of their index (ASCII's: the column is COLLATE "C").
    subjectNames: async () =>
      (
        await q.query<{ v: string }>(
          `WITH RECURSIVE names(v) AS (
             (SELECT lower(subject) FROM memories WHERE brain_uid = $1 ORDER BY lower(subject) LIMIT 1)
             UNION ALL
             SELECT (SELECT lower(subject) FROM memories WHERE brain_uid = $1 AND lower(subject) > names.v
                     ORDER BY lower(subject) LIMIT 1)
             FROM names WHERE names.v IS NOT NULL)
           SELECT v FROM names WHERE v IS NOT NULL`,
          [brainUid],
        )
      ).rows.map((r) => r.v),
    ownerNames: async () =>
      (
        await q.query<{ v: string }>(
          `WITH RECURSIVE names(v) AS (
             (SELECT mnemo_fold(owner_entity) FROM memories
              WHERE brain_uid = $1 AND mnemo_fold(owner_entity) IS NOT NULL
              ORDER BY mnemo_fold(owner_entity) LIMIT 1)
             UNION ALL
             SELECT (SELECT mnemo_fold(owner_entity) FROM memories
                     WHERE brain_uid = $1 AND mnemo_fold(owner_entity) > names.v
                     ORDER BY mnemo_fold(owner_entity) LIMIT 1)
             FROM names WHERE names.v IS NOT NULL)
           SELECT v FROM names WHERE v IS NOT NULL`,
          [brainUid],
        )
      ).rows.map((r) => r.v),
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
      const desc = query.order === 'desc';
      if (query.cursor !== undefined)
        where.push(`m.id COLLATE "C" ${desc ? '<' : '>'} ${p.bind(decodeCursor(query.cursor))}`);
      const rows = await select(
        p,
        where,
        `ORDER BY m.id COLLATE "C"${desc ? ' DESC' : ''} LIMIT ${p.bind(query.limit + 1)}`,
      );
      const page = rows.slice(0, query.limit);
      return { rows: page, next: rows.length > query.limit ? encodeCursor(page.at(-1)!.id) : null };
    },
    changes(query) {
      const p = params();
      const where = memoryFilterSql(p, p.bind(brainUid), query);
      where.push(
        query.afterN === undefined
          ? `m.seq > ${p.bind(query.afterSeq)}`
          : `(m.seq, m.n) > (${p.bind(query.afterSeq)}, ${p.bind(query.afterN)})`,
      );
      const limit = query.limit !== undefined ? `LIMIT ${p.bind(query.limit)}` : '';
      return select(p, where, `ORDER BY m.seq, m.n ${limit}`);
    },
    currentOfSelf(query) {
      const p = params(brainUid);
      const where = [
        'm.brain_uid = $1',
        "m.owner_state = 'self'",
        profileGroupSql(query.group),
        currentSql(p, query.nowMs),
        ...saidOnceSql(p, query.group, query.nowMs, query.shareableOnly),
      ];
      if (query.shareableOnly) where.push(shareableSql());
      if (query.after)
        where.push(`(m.valid_from_ms, m.n) < (${p.bind(query.after.validFromMs)}, ${p.bind(query.after.n)})`);
      return select(p, where, `ORDER BY m.valid_from_ms DESC, m.n DESC LIMIT ${p.bind(query.limit)}`);
    },
    async insert(row, citations) {
      const values = deferredColumns.memories.map((c) =>
        c === 'brain_uid'
          ? brainUid
          : c === 'health'
            ? saysHealth(row.statement)
            : row[c as keyof typeof row],
      );
      const cites = citations.map((c) => [brainUid, row.id, c.record_id, c.quote]);
      if (deferred) {
        deferred.defer('memories', values);
        for (const c of cites) deferred.defer('citations', c);
        return;
      }
      await q.query(
        `INSERT INTO memories (${deferredColumns.memories.join(', ')})
         VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
      await q.query(
        `INSERT INTO citations (brain_uid, memory_id, record_id, quote)
         SELECT $1, $2, c.record_id, c.quote FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS c(record_id, quote, k)
         ORDER BY c.k ON CONFLICT (brain_uid, memory_id, record_id) DO NOTHING`,
        [brainUid, row.id, citations.map((c) => c.record_id), citations.map((c) => c.quote)],
      );
    },
    async update(id, changes) {
      const columns = memoryChangeFields.filter((c) => changes[c] !== undefined);
      if (columns.length === 0) return;
      // A statement said again in other words may speak of health, or no longer.
      const set: [string, unknown][] = columns.map((c) => [c, changes[c]]);
      if (changes.statement !== undefined) set.push(['health', saysHealth(changes.statement)]);
      await q.query(
        `UPDATE memories SET ${set.map(([c], i) => `${c} = $${i + 3}`).join(', ')}
         WHERE brain_uid = $1 AND id = $2`,
        [brainUid, id, ...set.map(([, v]) => v)],
      );
    },
    async remove(ids) {
      if (ids.length === 0) return;
      await q.query('DELETE FROM memories WHERE brain_uid = $1 AND id = ANY($2::text[])', [brainUid, ids]);
    },
    async addCitation(c, seq) {
      const added = await q.query(
        `INSERT INTO citations (brain_uid, memory_id, record_id, quote)
         SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM memories WHERE brain_uid = $1 AND id = $2)
         ON CONFLICT (brain_uid, memory_id, record_id) DO NOTHING RETURNING 1`,
        [brainUid, c.memory_id, c.record_id, c.quote],
      );
      if (added.rows.length === 0) return false;
      await q.query('UPDATE memories SET seq = $3 WHERE brain_uid = $1 AND id = $2', [
        brainUid,
        c.memory_id,
        seq,
      ]);
      return true;
    },
    citedAt: async (memoryId, occurredMs) =>
      (
        await q.query<{
          record_id: string;
          quote: string;
          source_key: string;
          speaker: string | null;
          total: number;
        }>(
          `SELECT c.record_id, c.quote, COALESCE(r.source_name, '') AS source_key,
                  (r.content::jsonb ->> 'speaker') AS speaker,
                  (SELECT count(*)::int FROM citations a
                   WHERE a.brain_uid = c.brain_uid AND a.memory_id = c.memory_id) AS total
           FROM citations c JOIN records r ON r.brain_uid = c.brain_uid AND r.id = c.record_id
           WHERE c.brain_uid = $1 AND c.memory_id = $2 AND r.occurred_ms = $3`,
          [brainUid, memoryId, occurredMs],
        )
      ).rows,
    async dropCitations(memoryId, recordIds) {
      if (recordIds.length === 0) return;
      await q.query(
        'DELETE FROM citations WHERE brain_uid = $1 AND memory_id = $2 AND record_id = ANY($3::text[])',
        [brainUid, memoryId, recordIds],
      );
    },
    shareable: async (id) =>
      (
        await q.query<{ s: boolean }>(
          `SELECT ${shareableSql()} AS s FROM memories m WHERE m.brain_uid = $1 AND m.id = $2`,
          [brainUid, id],
        )
      ).rows[0]?.s === true,
    slotVersions: async (slot) =>
      (
        await q.query<MemoryVersionRow>(
          `SELECT ${versionColumns} FROM memories m WHERE m.brain_uid = $1 AND m.slot = $2 ORDER BY m.n`,
          [brainUid, slot],
        )
      ).rows,
    // A range of the slot index per first name; starts_with holds it whatever the collation orders.
    subjectsFirstNamed: async (firsts) =>
      firsts.length === 0
        ? []
        : (
            await q.query<{ first: string; subject: string }>(
              `SELECT DISTINCT f.first, m.subject FROM unnest($2::text[]) AS f(first)
                 JOIN memories m ON m.brain_uid = $1 AND m.slot IS NOT NULL
                  AND m.slot >= f.first || ' ' AND m.slot < f.first || '!'
                  AND starts_with(m.slot, f.first || ' ')`,
              [brainUid, firsts],
            )
          ).rows,
    slotStatements: async (predicates) =>
      predicates.length === 0
        ? []
        : (
            await q.query<{ subject: string; predicate: string | null; statement: string }>(
              `SELECT DISTINCT subject, predicate, statement FROM memories
                WHERE brain_uid = $1 AND slot IS NOT NULL AND status <> 'retracted'
                  AND substr(slot, strpos(slot, chr(31)) + 1) = ANY($2::text[])`,
              [brainUid, predicates],
            )
          ).rows,
    // In a write, Memories still queued come after every row of the table (their `n` is taken when
    // they are written), and are as inserted: any statement changing one would have written it first.
    async sameStatement(s) {
      const params = [brainUid, s.norm, s.subject, s.owner_state, s.owner_entity];
      if (!deferred) return (await q.query<{ id: string }>(sameStatementSql, params)).rows[0]?.id ?? null;
      const ahead = deferred.sameAhead.get(sameKey(s));
      const stored =
        ahead !== undefined
          ? ahead
          : ((await deferred.readAround<{ id: string }>(sameStatementSql, params)).rows[0]?.id ?? null);
      if (stored !== null) return stored;
      const queued = deferred.queued('memories').find((v) => queuedSame(v, s));
      return queued ? String(queued[at['id']!]) : null;
    },
    // What the table holds for each, read around the queue as sameStatement reads it.
    async prefetchSame(qs) {
      if (!deferred || qs.length === 0) return;
      const norms = [...new Set(qs.map((x) => x.norm))];
      const rows = (
        await deferred.readAround<SameStatement & { id: string }>(
          `SELECT id, norm, subject, owner_state, owner_entity FROM memories
           WHERE brain_uid = $1 AND norm = ANY($2::text[]) AND slot IS NULL AND status = 'active'
           ORDER BY n`,
          [brainUid, norms],
        )
      ).rows;
      const found = new Map<string, string>();
      for (const row of rows) if (!found.has(sameKey(row))) found.set(sameKey(row), row.id);
      for (const x of qs) deferred.sameAhead.set(sameKey(x), found.get(sameKey(x)) ?? null);
    },
    // Read around a write's queue (BatchTx), as sameStatement is: asked of many sentences, a lookup that
    // wrote the queue first would undo the batching. What is queued is looked at here.
    statementsSaying: async (s) => statementsWith(s, s.words),
    statementsToldFrom: async (s) => statementsWith(s, s.words),
    // In bytes (COLLATE "C", migration 032's index): a range of the database's collation is no prefix.
    statementsStarting: async (s) =>
      statementsOf(
        s,
        `(norm COLLATE "C") >= $6 AND (norm COLLATE "C") < $7`,
        [s.keyStart, keysAfter(s.keyStart)],
        (v) => String(v[at['norm']!]).startsWith(s.keyStart),
      ),
    settling: async (lineage) =>
      (
        await q.query<SettlingVersion>(
          `SELECT ${versionColumns}, rv.occurred_at AS revised_at, rv.occurred_ms AS revised_ms
           FROM memories m LEFT JOIN records rv ON rv.brain_uid = m.brain_uid AND rv.id = m.revised_by
           WHERE m.brain_uid = $1 AND m.lineage = $2 ORDER BY m.n`,
          [brainUid, lineage],
        )
      ).rows,
    citing: async (recordIds) =>
      (
        await q.query<{ id: string; lineage: string; remaining: number }>(
          `SELECT m.id, m.lineage,
                  (SELECT count(*) FROM citations a WHERE a.brain_uid = m.brain_uid AND a.memory_id = m.id)::int
                    - count(*)::int AS remaining
           FROM unnest($2::text[]) WITH ORDINALITY AS r(id, k)
           JOIN citations c ON c.brain_uid = $1 AND c.record_id = r.id
           JOIN memories m ON m.brain_uid = c.brain_uid AND m.id = c.memory_id
           GROUP BY m.brain_uid, m.n, m.id, m.lineage ORDER BY min(r.k), m.n`,
          [brainUid, [...new Set(recordIds)]],
        )
      ).rows,
    namedBy: async (recordId) =>
      (
        await q.query<{ lineage: string }>(
          'SELECT lineage FROM memories WHERE brain_uid = $1 AND (retracted_by = $2 OR revised_by = $2)',
          [brainUid, recordId],
        )
      ).rows.map((m) => m.lineage),
    async onOlderRevisions(record) {
      if (record.external_id === null) return [];
      // Older revisions first, alone, through records_external: a fresh import has none, so the common
      // case is one index probe. In one statement, a Brain the planner had no statistics for yet (a
      // device's first sync of 1,500 notes) was planned as nested loops over its citations, minutes of
      // CPU a Record with the Brain's writers waiting behind it.
      // `=` (or IS NULL), not IS NOT DISTINCT FROM, which PostgreSQL 15 cannot use as an index
      // condition: it read the Brain's whole range of records_external for each note.
      const older = (
        await q.query<{ id: string }>(
          record.source_name === null
            ? `SELECT o.id FROM records o WHERE o.brain_uid = $1 AND o.source_name IS NULL
                 AND o.external_id = $2 AND o.n < $3`
            : `SELECT o.id FROM records o WHERE o.brain_uid = $1 AND o.source_name = $4
                 AND o.external_id = $2 AND o.n < $3`,
          record.source_name === null
            ? [brainUid, record.external_id, record.n]
            : [brainUid, record.external_id, record.n, record.source_name],
        )
      ).rows.map((o) => o.id);
      if (older.length === 0) return [];
      return (
        await q.query<{ id: string; lineage: string }>(
          `SELECT DISTINCT m.id, m.lineage FROM citations c
           JOIN memories m ON m.brain_uid = c.brain_uid AND m.id = c.memory_id
           WHERE c.brain_uid = $1 AND m.revised_by IS NULL AND c.record_id = ANY($5::text[])
             AND NOT EXISTS (SELECT 1 FROM citations keep
                             JOIN records k ON k.brain_uid = keep.brain_uid AND k.id = keep.record_id
                             WHERE keep.brain_uid = $1 AND keep.memory_id = m.id
                               AND NOT (k.n < $4 AND k.external_id IS NOT DISTINCT FROM $3
                                        AND k.source_name IS NOT DISTINCT FROM $2))`,
          [brainUid, record.source_name, record.external_id, record.n, older],
        )
      ).rows;
    },
  };
}
