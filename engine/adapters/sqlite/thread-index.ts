import {
  speakersByFirstName,
  speakersOfEach,
  type SpeakersByFirstName,
} from '../../core/derive/speakers-by-first-name.ts';
import { hidesRecords } from '../../core/retrieve/hides-records.ts';
import type { RecordFacts, SearchScope, ThreadIndex } from '../../ports/index.ts';
import { eligibilitySql } from './eligibility-sql.ts';
import { messageSpeakersSince } from './message-speakers.ts';
import type { Store } from './store.ts';

/** A Record's place in its thread, as the indexer wrote it. */
export interface ThreadPlace {
  brain_uid: string;
  thread: string | null;
  occurred_ms: number;
  record_n: number;
}

/**
 * Threads of messages over retrieval_index: the indexer writes each Record's thread (a message's
 * content `thread`) and time there, and a thread's order is (occurred_ms, record_n). A Record the
 * indexer has not reached yet is in no thread: a Context catches the Brain up before it retrieves.
 */
/**
 * Up to `limit` messages of the place's thread on one side of it, nearest first: their `n` and
 * `columns` of their Record (alias r).
 */
export function threadSide<R extends { n: number }>(
  store: Store,
  at: ThreadPlace,
  dir: 'before' | 'after',
  limit: number,
  columns: string,
): R[] {
  const cmp = dir === 'before' ? '<' : '>';
  const order = dir === 'before' ? 'DESC' : 'ASC';
  return store.all<R>(
    `SELECT ri.record_n AS n, ${columns}
     FROM retrieval_index ri JOIN records r ON r.n = ri.record_n
     WHERE ri.brain_uid = ? AND ri.thread = ? AND (ri.occurred_ms, ri.record_n) ${cmp} (?, ?)
     ORDER BY ri.occurred_ms ${order}, ri.record_n ${order} LIMIT ?`,
    at.brain_uid,
    at.thread,
    at.occurred_ms,
    at.record_n,
    limit,
  );
}

/**
 * One probe of retrieval_index_thread per neighbour, in the thread's (occurred_ms, record_n) order,
 * skipping the Records the request may not see (`visible`: conditions on r2, or null when it sees the
 * whole Brain, which spares a join per step on the hot path).
 */
const neighbour = (dir: 'prev' | 'next', offset: number, visible: string | null) => {
  const cmp = dir === 'prev' ? '<' : '>';
  const order = dir === 'prev' ? 'DESC' : 'ASC';
  return `CASE WHEN ri.thread IS NULL THEN NULL ELSE (SELECT x.record_n FROM retrieval_index x
            ${visible === null ? '' : 'CROSS JOIN records r2 ON r2.n = x.record_n'}
            WHERE x.brain_uid = ri.brain_uid AND x.thread = ri.thread
              AND (x.occurred_ms, x.record_n) ${cmp} (ri.occurred_ms, ri.record_n) ${visible === null ? '' : `AND ${visible}`}
            ORDER BY x.occurred_ms ${order}, x.record_n ${order} LIMIT 1 OFFSET ${offset}) END`;
};

interface FactsRow {
  id: string;
  n: number;
  len: number;
  hasQ: number;
  speaker: string | null;
  thread: string | null;
  text: string;
  p2: number | null;
  p1: number | null;
  n1: number | null;
  n2: number | null;
}

/** `byFirst`: the store's speakers by first name, derivation's own (sqliteUnits). */
export function createSqliteThreadIndex(
  store: Store,
  byFirst: SpeakersByFirstName = speakersByFirstName(),
): ThreadIndex {
  const side = (at: ThreadPlace, dir: 'before' | 'after', limit: number) =>
    threadSide<{ n: number; id: string }>(store, at, dir, limit, 'r.id AS id');
  return {
    async speakersFirstNamed(brainUid, firsts) {
      return speakersOfEach(byFirst, brainUid, firsts, messageSpeakersSince(store, brainUid));
    },
    async speakers(brainUid, names) {
      if (names.length === 0) return [];
      // One probe of retrieval_index_speaker per name (the indexer wrote speaker_norm): DISTINCT over the
      // index entries would read every message of each name, ~6,000 of them at 100,000 Records.
      return store
        .all<{ name: string }>(
          `SELECT DISTINCT w.value AS name FROM json_each(?) w
           WHERE EXISTS (SELECT 1 FROM retrieval_index
                         WHERE brain_uid = ? AND speaker_norm = w.value AND speaker_norm IS NOT NULL)
           ORDER BY w.value`,
          JSON.stringify(names),
          brainUid,
        )
        .map((r) => r.name);
    },
    async facts(recordIds, scope): Promise<RecordFacts[]> {
      if (recordIds.length === 0) return [];
      // Only messages are in a thread, so only a request that hides some of the Brain's Records needs
      // its conditions on the neighbours (a bare correction is in none).
      const el = hidesRecords(scope) ? eligibilitySql(scope, 'r2') : { sql: null, params: [] };
      const rows = store.all<FactsRow>(
        `SELECT r.id AS id, r.n AS n, length(r.text) AS len, instr(r.text, '?') > 0 AS hasQ,
                ri.speaker_norm AS speaker, ri.thread AS thread, substr(r.text, 1, 2000) AS text,
                ${neighbour('prev', 1, el.sql)} AS p2, ${neighbour('prev', 0, el.sql)} AS p1,
                ${neighbour('next', 0, el.sql)} AS n1, ${neighbour('next', 1, el.sql)} AS n2
         FROM json_each(?) j CROSS JOIN records r ON r.id = j.value
         LEFT JOIN retrieval_index ri ON ri.record_n = r.n
         WHERE r.brain_uid = ?`,
        ...el.params,
        ...el.params,
        ...el.params,
        ...el.params,
        JSON.stringify(recordIds),
        scope.brainUid,
      );
      return rows.map((r) => ({
        recordId: r.id,
        recordN: r.n,
        length: r.len,
        question: r.hasQ !== 0,
        text: r.text,
        speakerNorm: r.speaker,
        thread: r.thread,
        around: [r.p2, r.p1, r.n1, r.n2],
      }));
    },
    async threadsOf(recordNs) {
      if (recordNs.length === 0) return [];
      const byN = new Map(
        store
          .all<{ n: number; thread: string | null }>(
            `SELECT ri.record_n AS n, ri.thread FROM json_each(?) j
             CROSS JOIN retrieval_index ri ON ri.record_n = j.value`,
            JSON.stringify(recordNs),
          )
          .map((r) => [r.n, r.thread]),
      );
      return recordNs.map((n) => byN.get(n) ?? null);
    },
    async neighbours(recordN, before, after) {
      const at = store.get<ThreadPlace>(
        'SELECT brain_uid, thread, occurred_ms, record_n FROM retrieval_index WHERE record_n = ?',
        recordN,
      );
      if (!at || at.thread === null) return [];
      const [b, a] = [Math.max(0, Math.trunc(before)), Math.max(0, Math.trunc(after))];
      const prev = b === 0 ? [] : side(at, 'before', b);
      const next = a === 0 ? [] : side(at, 'after', a);
      return [
        ...prev.map((r, i) => ({ ...r, offset: -(i + 1) })).reverse(),
        ...next.map((r, i) => ({ ...r, offset: i + 1 })),
      ];
    },
    async justBefore(recordIds: readonly string[], scope: SearchScope) {
      if (recordIds.length === 0) return [];
      const el = eligibilitySql(scope, 'p');
      return store.all<{ recordId: string; beforeId: string }>(
        `SELECT c.value AS recordId, p.id AS beforeId
         FROM json_each(?) c
         JOIN records f ON f.id = c.value
         JOIN retrieval_index fi ON fi.record_n = f.n AND fi.thread IS NOT NULL
         JOIN records p ON p.n = (
           SELECT pi.record_n FROM retrieval_index pi
           WHERE pi.brain_uid = fi.brain_uid AND pi.thread = fi.thread
             AND (pi.occurred_ms, pi.record_n) < (fi.occurred_ms, fi.record_n)
           ORDER BY pi.occurred_ms DESC, pi.record_n DESC LIMIT 1)
         WHERE ${el.sql}
         ORDER BY c.key`,
        JSON.stringify(recordIds),
        ...el.params,
      );
    },
  };
}
