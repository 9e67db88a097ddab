import {
  speakersByFirstName,
  speakersOfEach,
  type SpeakersByFirstName,
} from '../../core/derive/speakers-by-first-name.ts';
import { hidesRecords } from '../../core/retrieve/hides-records.ts';
import type { RecordFacts, ThreadIndex } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { scopeSql, speakerCol, speakerNormSql, spokenSql, withSpeakerNorm } from './lexical-index.ts';
import { params } from './memory-view.ts';

/** A message's thread, as the SQLite indexer reads it (retrieval-indexer.ts): its content's `thread`. */
const threadOf = (alias: string) => `(${alias}.content::jsonb ->> 'thread')`;
const thread = threadOf('r');

/**
 * The `n` of the message `offset` + 1 steps before or after Record r in its thread (null if none),
 * counting only those `visible` lets through (conditions on x; null for every one): the SQLite
 * adapter's neighbour probe. The thread's index (migration 002) serves it.
 */
const neighbour = (dir: 'prev' | 'next', offset: number, visible: string | null) => {
  const cmp = dir === 'prev' ? '<' : '>';
  const order = dir === 'prev' ? 'DESC' : 'ASC';
  return `(SELECT x.n FROM records x
           WHERE r.kind = 'message' AND x.brain_uid = r.brain_uid AND x.kind = 'message'
             AND ${threadOf('x')} = ${thread}
             AND (x.occurred_ms, x.n) ${cmp} (r.occurred_ms, r.n) ${visible === null ? '' : `AND ${visible}`}
           ORDER BY x.occurred_ms ${order}, x.n ${order} LIMIT 1 OFFSET ${offset})`;
};

/** The facts' columns of Record r, its neighbours counted among those `visible` lets through. */
const factsCols = (visible: string | null) =>
  `r.id AS "recordId", r.n AS "recordN", length(r.text) AS length,
    strpos(r.text, '?') > 0 AS question, substr(r.text, 1, 2000) AS text,
    ${speakerCol('r')},
    CASE WHEN r.kind = 'message' THEN ${thread} END AS thread,
    ${neighbour('prev', 1, visible)} AS p2, ${neighbour('prev', 0, visible)} AS p1,
    ${neighbour('next', 0, visible)} AS n1, ${neighbour('next', 1, visible)} AS n2`;

/**
 * Threads of messages from the Records themselves (migration 002 indexes them): a message's thread is
 * its content's `thread`, and a thread's order is (occurred_ms, n), as retrieval_index orders it on
 * SQLite. A Record that is not a message, or names no thread, is in none. `offset` counts from the
 * Record: -1 the message just before it, 1 the one just after. `byFirst`: the process's speakers by
 * first name, derivation's own (pgUnitsOfWork's `speakers`).
 */
export function pgThreadIndex(
  db: PgQueryable,
  byFirst: SpeakersByFirstName = speakersByFirstName(),
): ThreadIndex {
  return {
    async speakersFirstNamed(brainUid, firsts) {
      const since = async (after: number) => {
        const r = await db.query<{ seq: string | number; speaker: string | null }>(
          `SELECT seq, content::jsonb ->> 'speaker' AS speaker FROM records
           WHERE brain_uid = $1 AND seq > $2 AND kind = 'message' ORDER BY seq`,
          [brainUid, after],
        );
        return r.rows.map((x) => ({ seq: Number(x.seq), speaker: x.speaker }));
      };
      return speakersOfEach(byFirst, brainUid, firsts, since);
    },
    async facts(recordIds, scope): Promise<RecordFacts[]> {
      if (recordIds.length === 0) return [];
      const p = params([...recordIds]);
      const brain = p.bind(scope.brainUid);
      // Only messages are in a thread: a request that hides none of the Brain's Records needs no
      // conditions on the neighbours (a bare correction is in none). The request's eligibility only.
      const visible = hidesRecords(scope)
        ? scopeSql(p, { ...scope, fromMs: undefined, toMs: undefined }, 'x')
        : null;
      const rows = await db.query<
        Omit<RecordFacts, 'around' | 'speakerNorm'> & { speaker: string | null } & Record<
            'p2' | 'p1' | 'n1' | 'n2',
            number | null
          >
      >(
        `SELECT ${factsCols(visible)}
         FROM unnest($1::text[]) AS c(id)
         JOIN records r ON r.brain_uid = ${brain} AND r.id = c.id`,
        p.values,
      );
      return rows.rows.map(({ p2, p1, n1, n2, ...r }) => ({
        ...withSpeakerNorm(r),
        around: [p2, p1, n1, n2],
      }));
    },
    async speakers(brainUid, names) {
      if (names.length === 0) return [];
      // One probe of migration 020's index per name.
      const rows = await db.query<{ name: string }>(
        `SELECT w.name FROM unnest($2::text[]) AS w(name)
         WHERE EXISTS (SELECT 1 FROM records r
                       WHERE r.brain_uid = $1 AND ${spokenSql('r')} AND ${speakerNormSql('r')} = w.name)
         GROUP BY w.name
         ORDER BY w.name COLLATE "C"`,
        [brainUid, [...names]],
      );
      return rows.rows.map((r) => r.name);
    },
    async threadsOf(recordNs) {
      if (recordNs.length === 0) return [];
      const rows = await db.query<{ n: number; thread: string | null }>(
        `SELECT r.n, ${thread} AS thread FROM records r WHERE r.n = ANY ($1::bigint[]) AND r.kind = 'message'`,
        [[...recordNs]],
      );
      const byN = new Map(rows.rows.map((r) => [r.n, r.thread]));
      return recordNs.map((n) => byN.get(n) ?? null);
    },
    async neighbours(recordN, before, after) {
      const rows = await db.query<{ n: number; id: string; offset: number }>(
        `WITH me AS (
           SELECT r.brain_uid, ${thread} AS thread, r.occurred_ms, r.n FROM records r
           WHERE r.n = $1 AND r.kind = 'message'
         ),
         prev AS (
           SELECT r.n, r.id, -row_number() OVER (ORDER BY r.occurred_ms DESC, r.n DESC) AS "offset"
           FROM records r, me
           WHERE r.brain_uid = me.brain_uid AND r.kind = 'message' AND ${thread} = me.thread
             AND (r.occurred_ms, r.n) < (me.occurred_ms, me.n)
           ORDER BY r.occurred_ms DESC, r.n DESC LIMIT $2
         ),
         next AS (
           SELECT r.n, r.id, row_number() OVER (ORDER BY r.occurred_ms, r.n) AS "offset"
           FROM records r, me
           WHERE r.brain_uid = me.brain_uid AND r.kind = 'message' AND ${thread} = me.thread
             AND (r.occurred_ms, r.n) > (me.occurred_ms, me.n)
           ORDER BY r.occurred_ms, r.n LIMIT $3
         )
         SELECT n, id, "offset"::int AS "offset" FROM (SELECT * FROM prev UNION ALL SELECT * FROM next) x
         ORDER BY "offset"`,
        [recordN, Math.max(0, Math.trunc(before)), Math.max(0, Math.trunc(after))],
      );
      return rows.rows;
    },
    async justBefore(recordIds, scope) {
      if (recordIds.length === 0) return [];
      const p = params([...recordIds]);
      const brain = p.bind(scope.brainUid);
      const where = scopeSql(p, scope, 'p');
      // The message just before, found in the thread's index (migration 002), and only then the scope.
      const rows = await db.query<{ recordId: string; beforeId: string }>(
        `SELECT c.id AS "recordId", p.id AS "beforeId"
         FROM unnest($1::text[]) WITH ORDINALITY AS c(id, ord)
         JOIN records f ON f.brain_uid = ${brain} AND f.id = c.id AND f.kind = 'message'
         CROSS JOIN LATERAL (
           SELECT x.n FROM records x
           WHERE x.brain_uid = f.brain_uid AND x.kind = 'message'
             AND ${threadOf('x')} = ${threadOf('f')}
             AND (x.occurred_ms, x.n) < (f.occurred_ms, f.n)
           ORDER BY x.occurred_ms DESC, x.n DESC LIMIT 1) prev
         JOIN records p ON p.brain_uid = f.brain_uid AND p.n = prev.n
         WHERE ${where}
         ORDER BY c.ord`,
        p.values,
      );
      return rows.rows;
    },
  };
}
