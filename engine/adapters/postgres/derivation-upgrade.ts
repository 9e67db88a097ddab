import type {
  BrainUnitOfWork,
  CitedMemory,
  UpgradeList,
  UpgradeRecord,
  UpgradeUnit,
} from '../../ports/index.ts';
import type { PgClient } from './client.ts';
import { speakerNormSql, spokenSql } from './lexical-index.ts';
import { unitTxOf } from './unit-of-work.ts';

/** One key for every Mnemo process on a database: whoever holds it lists, the others wait and find it done. */
const LISTING_LOCK = 0x6d6e656d6f75; // 'mnemou'

const metaKey = 'derived_by';
const recordColumns = `r.n, r.id, r.brain_uid, r.kind, r.content, r.text, r.source_name, r.external_id,
  r.occurred_at, r.occurred_ms`;

/**
 * `derive_upgrade` (migration 010), the Records still to derive again, shared by every process on the
 * database, and the rows re-derivation reads and writes in a unit of work's transaction.
 *
 * Several processes work the list at once without claiming any of it: each pass reads every listed
 * Record, and a Record is derived in a unit of work of its Brain, which locks the Brain's row first,
 * and only while it is still listed for this deriver (`record`). So a Record is never derived twice:
 * a second process's unit waits for the first's COMMIT, then finds it off the list. None is lost: a
 * Record leaves the list only in the unit that derived it, or when it is gone; a process killed
 * mid-pass rolls back what it had not committed, which stays listed for every other pass under way
 * (waiting on that Brain's row, it then finds it listed) and for the next start. What this costs is a
 * look at each Record by every process in a pass, once per deriver change.
 *
 * The list is made for one deriver's name: a process running another (an earlier Mnemo during a
 * rollout) sees no Record on it and takes none off.
 */
export function pgUpgradeList(client: PgClient): UpgradeList {
  let deriver: string | null = null;
  const mine = () => {
    if (deriver === null) throw new Error('derivation upgrade: listFor() names the deriver first');
    return deriver;
  };
  /** The listing, done once: one that failed (the database was away) is tried again by the next page. */
  let listing: Promise<void> | null = null;
  const listed = () =>
    (listing ??= listOnce(client, mine()).catch((e: unknown) => {
      listing = null;
      throw e;
    }));

  return {
    // Listed at the process's start, as SQLite lists at open: listed at the first page instead (after
    // the queue's jobs), a Record this deriver had derived meanwhile was listed too, and its derivation
    // redone by the pass, which does not always end where a first derivation does (a call-off's
    // booking and agent's note came back, where SQLite kept them closed).
    listFor: async (deriverName) => {
      deriver = deriverName;
      await listed().catch(() => {});
    },
    page: async (after, limit) => {
      await listed();
      const r = await client.query<{ n: number; brainUid: string | null; id: string | null }>(
        `SELECT d.n, r.brain_uid AS "brainUid", r.id FROM derive_upgrade d
         LEFT JOIN records r ON r.brain_uid = d.brain_uid AND r.n = d.n
         WHERE d.n > $1 AND d.deriver = $3 ORDER BY d.n LIMIT $2`,
        [after, limit, mine()],
      );
      return r.rows;
    },
    unlist: async (n) => {
      await client.query('DELETE FROM derive_upgrade WHERE n = $1 AND deriver = $2', [n, mine()]);
    },
    within: (uow) => upgradeUnit(uow, mine()),
  };
}

/**
 * Lists every Record for `deriver` unless the last listing was made for it, under a transaction-level
 * advisory lock (as migrate.ts): processes starting together list once. A Record still listed for
 * another deriver becomes this one's.
 */
async function listOnce(client: PgClient, deriver: string): Promise<void> {
  await client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LISTING_LOCK]);
    const last = await tx.query<{ value: string }>('SELECT value FROM mnemo_meta WHERE key = $1', [metaKey]);
    if (last.rows[0]?.value === deriver) return;
    await tx.query(
      `INSERT INTO derive_upgrade (brain_uid, n, deriver) SELECT brain_uid, n, $1 FROM records
       ON CONFLICT (brain_uid, n) DO UPDATE SET deriver = EXCLUDED.deriver`,
      [deriver],
    );
    await tx.query(
      'INSERT INTO mnemo_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
      [metaKey, deriver],
    );
  });
}

/** One Record's upgrade in the unit of work `uow`: its statements are the unit's own. */
function upgradeUnit(uow: BrainUnitOfWork, deriver: string): UpgradeUnit {
  const tx = unitTxOf(uow);
  const b = uow.brainUid;
  const { memories } = uow;
  return {
    // Listed for this deriver, read after the unit locked the Brain's row: off the list, it was done.
    record: async (n) =>
      (
        await tx.query<UpgradeRecord>(
          `SELECT ${recordColumns} FROM derive_upgrade d JOIN records r ON r.brain_uid = d.brain_uid AND r.n = d.n
           WHERE d.brain_uid = $1 AND d.n = $2 AND d.deriver = $3`,
          [b, n, deriver],
        )
      ).rows[0],
    // Messages by migration 020's folded speaker index; events, fewer, by their participants; messages
    // and notes whose words hold the name, by their text folded (a name inside a longer word, "Magdalena", lists
    // one to be derived as it was: more work, no other reading).
    listNaming: async (first, beforeSeq) => {
      const r = await tx.query(
        `INSERT INTO derive_upgrade (brain_uid, n, deriver)
         SELECT r.brain_uid, r.n, $4 FROM records r
         WHERE r.brain_uid = $1 AND r.seq < $2 AND (
           (${spokenSql('r')} AND ${speakerNormSql('r')} = $3)
           OR (r.kind IN ('message', 'document') AND strpos(mnemo_fold(r.text), $3) > 0)
           OR (r.kind = 'event' AND EXISTS (
             SELECT 1 FROM jsonb_array_elements_text(
               CASE WHEN jsonb_typeof(r.content::jsonb -> 'participants') = 'array'
                 THEN r.content::jsonb -> 'participants' ELSE '[]'::jsonb END) p
             WHERE mnemo_fold(btrim(p, E' \\t\\n\\r\\f\\x0b')) = $3)))
         ON CONFLICT (brain_uid, n) DO UPDATE SET deriver = EXCLUDED.deriver`,
        [b, beforeSeq, first, deriver],
      );
      return r.rowCount ?? 0;
    },
    listBrain: async (beforeSeq) => {
      const r = await tx.query(
        `INSERT INTO derive_upgrade (brain_uid, n, deriver)
         SELECT r.brain_uid, r.n, $3 FROM records r
         WHERE r.brain_uid = $1 AND r.seq < $2 AND r.kind <> 'correction'
         ON CONFLICT (brain_uid, n) DO UPDATE SET deriver = EXCLUDED.deriver`,
        [b, beforeSeq, deriver],
      );
      return r.rowCount ?? 0;
    },
    queued: async (recordId) =>
      (
        await tx.query('SELECT 1 FROM derive_jobs WHERE brain_uid = $1 AND record_id = $2 LIMIT 1', [
          b,
          recordId,
        ])
      ).rows.length > 0,
    revisions: async (r) =>
      (
        await tx.query<UpgradeRecord>(
          `SELECT ${recordColumns} FROM records r
           WHERE r.brain_uid = $1 AND ${r.source_name === null ? 'r.source_name IS NULL' : 'r.source_name = $3'}
             AND r.external_id = $2 AND r.kind <> 'correction'
           ORDER BY r.n`,
          r.source_name === null ? [b, r.external_id] : [b, r.external_id, r.source_name],
        )
      ).rows,
    unlist: async (n) => {
      await tx.query('DELETE FROM derive_upgrade WHERE brain_uid = $1 AND n = $2 AND deriver = $3', [
        b,
        n,
        deriver,
      ]);
    },
    cited: async (recordId) =>
      (
        await tx.query<CitedMemory>(
          `SELECT m.n, m.id, m.lineage, m.slot, m.norm, m.statement, m.subject, m.predicate, m.owner_state,
             m.owner_entity, m.status, m.cause, m.pending, m.valid_from_ms, c.quote
           FROM citations c JOIN memories m ON m.brain_uid = c.brain_uid AND m.id = c.memory_id
           WHERE c.brain_uid = $1 AND c.record_id = $2 ORDER BY m.n`,
          [b, recordId],
        )
      ).rows,
    personSaid: async (lineages) =>
      (
        await tx.query(
          `SELECT 1 FROM memories WHERE brain_uid = $1 AND lineage = ANY($2::text[])
             AND (corrects IS NOT NULL OR retracted_by IS NOT NULL) LIMIT 1`,
          [b, lineages],
        )
      ).rows.length > 0,
    supportOffList: async (memoryId, recordId) =>
      (
        await tx.query(
          `SELECT 1 FROM citations c JOIN records r ON r.brain_uid = c.brain_uid AND r.id = c.record_id
           WHERE c.brain_uid = $1 AND c.memory_id = $2 AND c.record_id <> $3
             AND NOT EXISTS (SELECT 1 FROM derive_upgrade d
               WHERE d.brain_uid = r.brain_uid AND d.n = r.n AND d.deriver = $4) LIMIT 1`,
          [b, memoryId, recordId, deriver],
        )
      ).rows.length > 0,
    supportUpTo2: async (memoryId) =>
      (
        await tx.query<{ c: number }>(
          `SELECT count(*)::int AS c FROM (SELECT 1 FROM citations WHERE brain_uid = $1 AND memory_id = $2 LIMIT 2) s`,
          [b, memoryId],
        )
      ).rows[0]!.c,
    shared: (memoryId) => memories.shareable(memoryId),
    requote: async (memoryId, recordId, quote) => {
      await tx.query(
        'UPDATE citations SET quote = $4 WHERE brain_uid = $1 AND memory_id = $2 AND record_id = $3',
        [b, memoryId, recordId, quote],
      );
    },
    deleteMemory: (memoryId) => memories.remove([memoryId]),
    dropCitation: (memoryId, recordId) => memories.dropCitations(memoryId, [recordId]),
    firstCiting: async (memoryId) =>
      (
        await tx.query<{ occurred_at: string; occurred_ms: number; source_name: string | null }>(
          `SELECT x.occurred_at, x.occurred_ms, x.source_name
           FROM citations c JOIN records x ON x.brain_uid = c.brain_uid AND x.id = c.record_id
           WHERE c.brain_uid = $1 AND c.memory_id = $2 ORDER BY x.occurred_ms, x.n LIMIT 1`,
          [b, memoryId],
        )
      ).rows[0],
    restartValidFrom: (memoryId, from) =>
      memories.update(memoryId, {
        valid_from: from.occurred_at,
        valid_from_ms: from.occurred_ms,
        source_key: from.source_name ?? '',
      }),
    markRederived: (memoryId, learnedAt) =>
      memories.update(memoryId, { cause: 'rederived', learned_at: learnedAt }),
    moveTo: (memoryId, seq) => memories.update(memoryId, { seq }),
    reslot: async (memoryId, to) => {
      await tx.query(
        'UPDATE memories SET slot = $3, lineage = $4, version = $5, seq = $6 WHERE brain_uid = $1 AND id = $2',
        [b, memoryId, to.slot, to.lineage, to.version, to.seq],
      );
    },
  };
}
