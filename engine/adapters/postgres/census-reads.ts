import type { CensusReads, NoiseKind, NoiseTally } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { storeUnavailableError } from '../../errors/store-unavailable.ts';
import { currentSql, params, shareableSql, statusSql, type Params } from './memory-view.ts';
import { cancelled } from './store-failure.ts';

/**
 * A Census's reads of one Brain over PostgreSQL, the SQLite adapter's twins: the counts in one
 * statement, every kind of noise (its count and first ids, bytewise) in another.
 */
export function pgCensusReads(q: PgQueryable, brainUid: string, timeoutMs = censusTimeoutMs): CensusReads {
  return {
    async census(o) {
      // A Census reads the whole Brain: planned from statistics a large import has not reached yet, its
      // statements can run for many minutes and hold a connection derivation needs. Bounded, it fails alone.
      await q.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
      try {
        return await censusOf(q, brainUid, o);
      } catch (e) {
        if (!cancelled(e)) throw e;
        throw storeUnavailableError(
          `The Census of this Brain took longer than ${timeoutMs / 1000} s (its database is busy, or ` +
            'has not yet gathered statistics after a large import): retry after a pause',
          e,
          { writeKept: false },
        );
      }
    },
  };
}

/** How long a Census's statements may run (the transaction's, SET LOCAL). */
export const censusTimeoutMs = 15_000;

async function censusOf(
  q: PgQueryable,
  brainUid: string,
  { nowMs, shareableOnly, examples }: Parameters<CensusReads['census']>[0],
): ReturnType<CensusReads['census']> {
  // A hosted reader counts and names only what it is served.
  const rec = (alias = 'r') => (shareableOnly ? `AND ${alias}.visibility <> 'local_only'` : '');
  const mem = (alias = 'm') => (shareableOnly ? `AND ${shareableSql(alias)}` : '');

  const c = params(brainUid);
  const counted = (
    await q.query<{
      records: number;
      processing: number;
      objects: number;
      active: number;
      scheduled: number;
      superseded: number;
      pending: number;
    }>(
      `SELECT (SELECT count(*) FROM records r WHERE r.brain_uid = $1 ${rec()})::int AS records,
              (SELECT count(*) FROM derive_jobs d
                 JOIN records r ON r.brain_uid = d.brain_uid AND r.id = d.record_id
               WHERE d.brain_uid = $1 AND d.job = 'derive' ${rec()})::int AS processing,
              (SELECT count(*) FROM (SELECT DISTINCT type, key FROM object_versions
                                     WHERE brain_uid = $1) o)::int AS objects,
              t.*
       FROM (SELECT count(*) FILTER (WHERE NOT m.pending AND ${statusSql(c, 'active', nowMs)})::int AS active,
                    count(*) FILTER (WHERE NOT m.pending AND ${statusSql(c, 'scheduled', nowMs)})::int AS scheduled,
                    count(*) FILTER (WHERE ${statusSql(c, 'superseded', nowMs)})::int AS superseded,
                    count(*) FILTER (WHERE m.pending)::int AS pending
             FROM memories m WHERE m.brain_uid = $1 ${mem()}) t`,
      c.values,
    )
  ).rows[0]!;

  const n = params(brainUid);
  const memoryIds = (condition: string) =>
    `SELECT m.id FROM memories m WHERE m.brain_uid = $1 AND ${condition} ${mem()}`;
  const kinds: [NoiseKind, string][] = [
    [
      'duplicates',
      // Every Record after the first of its text, in one pass: an EXISTS per Record scanned the Brain
      // for each (7 s at 7,200 Records). Grouped by a digest first, so long texts compare once.
      `SELECT d.id FROM (SELECT r.id, row_number() OVER (PARTITION BY md5(r.text), r.text ORDER BY r.n) AS k
                         FROM records r WHERE r.brain_uid = $1 ${rec()}) d
       WHERE d.k > 1`,
    ],
    [
      'conflicts',
      `SELECT m.id FROM memories m
       WHERE m.brain_uid = $1 AND m.slot IS NOT NULL AND ${currentSql(n, nowMs)} ${mem()}
         AND EXISTS (SELECT 1 FROM memories o
                     WHERE o.brain_uid = m.brain_uid AND o.lineage = m.lineage AND o.id <> m.id
                       AND ${currentSql(n, nowMs, 'o')} ${mem('o')})`,
    ],
    ['unresolved_owner', memoryIds(`${currentSql(n, nowMs)} AND m.owner_state = 'unresolved'`)],
    ['pending_rederivation', memoryIds('m.pending')],
    ['low_trust_source', `SELECT r.id FROM records r WHERE r.brain_uid = $1 AND r.trust = 'low' ${rec()}`],
    ['retracted', memoryIds("m.status = 'retracted'")],
    [
      'derivation_failed',
      `SELECT f.record_id AS id FROM derive_failures f
         JOIN records r ON r.brain_uid = f.brain_uid AND r.id = f.record_id
       WHERE f.brain_uid = $1 ${rec()}
       UNION ALL
       SELECT f.memory_id FROM derive_failures f
         JOIN memories m ON m.brain_uid = f.brain_uid AND m.id = f.memory_id
       WHERE f.brain_uid = $1 ${mem()}`,
    ],
  ];
  // At least one row of a kind that has any, to carry its count.
  const limit = n.bind(Math.max(examples, 1));
  const rows = (
    await q.query<{ kind: NoiseKind; id: string; total: number }>(
      `SELECT kind, id, total FROM (${kinds
        .map(
          ([kind, ids]) =>
            `(SELECT ${bindKind(n, kind)} AS kind, x.id, count(*) OVER ()::int AS total,
                     row_number() OVER (ORDER BY x.id COLLATE "C") AS k
              FROM (${ids}) x ORDER BY x.id COLLATE "C" LIMIT ${limit})`,
        )
        .join('\nUNION ALL\n')}) a ORDER BY kind, k`,
      n.values,
    )
  ).rows;
  const noise = Object.fromEntries(
    kinds.map(([kind]): [NoiseKind, NoiseTally] => {
      const of = rows.filter((r) => r.kind === kind);
      return [kind, { count: of[0]?.total ?? 0, examples: of.slice(0, examples).map((r) => r.id) }];
    }),
  ) as Record<NoiseKind, NoiseTally>;

  return {
    records: counted.records,
    recordsProcessing: counted.processing,
    objects: counted.objects,
    memoriesActive: counted.active,
    memoriesScheduled: counted.scheduled,
    memoriesSuperseded: counted.superseded,
    memoriesPending: counted.pending,
    noise,
  };
}

const bindKind = (p: Params, kind: NoiseKind) => `${p.bind(kind)}::text`;
