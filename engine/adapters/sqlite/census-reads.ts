import type { CensusReads, NoiseKind, NoiseTally } from '../../ports/index.ts';
import { currentSql, shareableSql, statusSql } from './memory-view.ts';
import type { SqlParam, Store } from './store.ts';

/**
 * What the census reads, as SQL over records (alias r) and memories (alias m): a hosted deployment
 * counts and names only what it serves (no local_only Record, no Memory without shareable support),
 * and "current" / "active" are read at now, as listMemories reads them.
 */
interface CensusView {
  rec: (alias?: string) => string;
  mem: string;
  memOther: string;
  current: { sql: string; params: SqlParam[] };
  active: { sql: string; params: SqlParam[] };
  scheduled: { sql: string; params: SqlParam[] };
  superseded: { sql: string; params: SqlParam[] };
  currentOther: { sql: string; params: SqlParam[] };
}

export function censusView(nowMs: number, hosted: boolean): CensusView {
  return {
    rec: (alias = 'r') => (hosted ? `AND ${alias}.visibility <> 'local_only'` : ''),
    mem: hosted ? `AND ${shareableSql('m')}` : '',
    memOther: hosted ? `AND ${shareableSql('o')}` : '',
    current: currentSql(nowMs, 'm'),
    active: statusSql('active', nowMs, 'm'),
    scheduled: statusSql('scheduled', nowMs, 'm'),
    superseded: statusSql('superseded', nowMs, 'm'),
    currentOther: currentSql(nowMs, 'o'),
  };
}

type Condition = { sql: string; params: SqlParam[] };

/**
 * What the census counts among Memories, each condition written once: the tally counts them all in one
 * pass over the Brain's Memories, and the noise kinds among them list their ids by the same condition.
 */
function memoryConditions(v: CensusView) {
  return {
    active: { sql: `m.pending = 0 AND ${v.active.sql}`, params: v.active.params },
    scheduled: { sql: `m.pending = 0 AND ${v.scheduled.sql}`, params: v.scheduled.params },
    superseded: v.superseded,
    pending: { sql: 'm.pending = 1', params: [] },
    unresolved: { sql: `${v.current.sql} AND m.owner_state = 'unresolved'`, params: v.current.params },
    retracted: { sql: "m.status = 'retracted'", params: [] },
  } satisfies Record<string, Condition>;
}

type MemoryTally = Record<keyof ReturnType<typeof memoryConditions>, number>;

export function memoryTallySql(v: CensusView): { sql: string; params: (brainUid: string) => SqlParam[] } {
  const conditions = Object.entries(memoryConditions(v));
  return {
    sql: `SELECT ${conditions.map(([name, c]) => `coalesce(sum(${c.sql}), 0) AS ${name}`).join(', ')}
          FROM memories m WHERE m.brain_uid = ? ${v.mem}`,
    params: (uid) => [...conditions.flatMap(([, c]) => c.params), uid],
  };
}

/** The ids of the Memories a tallied condition counts, in id order. */
function memoryIds(v: CensusView, tally: keyof MemoryTally) {
  const c = memoryConditions(v)[tally];
  return {
    sql: `SELECT m.id FROM memories m WHERE m.brain_uid = ? AND ${c.sql} ${v.mem} ORDER BY m.id`,
    params: (uid: string) => [uid, ...c.params],
    tally,
  };
}

/**
 * Each kind of noise: the ids it names, in id order. A kind with a `tally` is counted by the one pass
 * over the Memories, and only its first examples are read; the others are read whole from an index of
 * what they look for.
 */
export function noiseQueries(v: CensusView): {
  kind: NoiseKind;
  sql: string;
  params: (brainUid: string) => SqlParam[];
  tally?: keyof MemoryTally;
}[] {
  return [
    {
      kind: 'duplicates',
      // The keys that repeat come from the index alone; each of their Records is then compared with the
      // earlier ones by text (equal keys of different texts are not duplicates). Hosted, the keys of
      // local_only Records only widen what is compared.
      sql: `SELECT r.id FROM records r INDEXED BY records_brain_text_key
            WHERE r.brain_uid = ? ${v.rec()}
              AND r.text_key IN (SELECT text_key FROM records WHERE brain_uid = ?
                                 GROUP BY text_key HAVING count(*) > 1)
              AND EXISTS (SELECT 1 FROM records e INDEXED BY records_brain_text_key
                          WHERE e.brain_uid = r.brain_uid AND e.text_key = r.text_key AND e.n < r.n
                            AND e.text = r.text ${v.rec('e')})
            ORDER BY r.id`,
      params: (uid) => [uid, uid],
    },
    {
      kind: 'conflicts',
      // Only slot values can conflict: read those (the index by id would walk every Memory to save a sort).
      sql: `SELECT m.id FROM memories m INDEXED BY memories_brain_slot
            WHERE m.brain_uid = ? AND m.slot IS NOT NULL AND ${v.current.sql} ${v.mem}
              AND EXISTS (SELECT 1 FROM memories o WHERE o.lineage = m.lineage AND o.id <> m.id
                          AND ${v.currentOther.sql} ${v.memOther}) ORDER BY m.id`,
      params: (uid) => [uid, ...v.current.params, ...v.currentOther.params],
    },
    { kind: 'unresolved_owner', ...memoryIds(v, 'unresolved') },
    { kind: 'pending_rederivation', ...memoryIds(v, 'pending') },
    {
      kind: 'low_trust_source',
      sql: `SELECT r.id FROM records r WHERE r.brain_uid = ? ${v.rec()} AND r.trust = 'low' ORDER BY r.id`,
      params: (uid) => [uid],
    },
    { kind: 'retracted', ...memoryIds(v, 'retracted') },
    {
      kind: 'derivation_failed',
      sql: `SELECT f.record_id AS id FROM derive_failures f JOIN records r ON r.id = f.record_id
            WHERE f.brain_uid = ? ${v.rec()}
            UNION ALL
            SELECT f.memory_id FROM derive_failures f JOIN memories m ON m.id = f.memory_id
            WHERE f.brain_uid = ? ${v.mem}
            ORDER BY id`,
      params: (uid) => [uid, uid],
    },
  ];
}

/** A Census's reads of one Brain over SQLite (ports/census-reads.ts). */
export function sqliteCensusReads(store: Store, brainUid: string): CensusReads {
  return {
    async census({ nowMs, shareableOnly, examples }) {
      const v = censusView(nowMs, shareableOnly);
      const count = (sql: string) => store.get<{ c: number }>(sql, brainUid)!.c;
      const tallySql = memoryTallySql(v);
      const tally = store.get<MemoryTally>(tallySql.sql, ...tallySql.params(brainUid))!;
      const ids = (sql: string, params: SqlParam[]) =>
        store.all<{ id: string }>(sql, ...params).map((r) => r.id);
      const noise = {} as Record<NoiseKind, NoiseTally>;
      for (const q of noiseQueries(v)) {
        if (q.tally === undefined) {
          const all = ids(q.sql, q.params(brainUid));
          noise[q.kind] = { count: all.length, examples: all.slice(0, examples) };
          continue;
        }
        const n = tally[q.tally];
        noise[q.kind] = {
          count: n,
          examples: n > 0 ? ids(`${q.sql} LIMIT ?`, [...q.params(brainUid), examples]) : [],
        };
      }
      return {
        records: count(`SELECT count(*) AS c FROM records r WHERE r.brain_uid = ? ${v.rec()}`),
        recordsProcessing: count(
          `SELECT count(*) AS c FROM derive_queue d JOIN records r ON r.id = d.record_id
           WHERE d.brain_uid = ? AND d.job = 'derive' ${v.rec()}`,
        ),
        objects: count(
          'SELECT count(*) AS c FROM (SELECT DISTINCT type, key FROM object_versions WHERE brain_uid = ?)',
        ),
        memoriesActive: tally.active,
        memoriesScheduled: tally.scheduled,
        memoriesSuperseded: tally.superseded,
        memoriesPending: tally.pending,
        noise,
      };
    },
  };
}
