import { foldName, namesFirstName } from '../../core/derive/resolve-owner.ts';
import type { CitedMemory, UpgradeList, UpgradeRecord, UpgradeUnit } from '../../ports/index.ts';
import { shareableSql } from './memory-view.ts';
import type { Store } from './store.ts';

const atOnce = <T>(work: () => T): Promise<T> => Promise.resolve(work());

const metaKey = 'derived_by';
const recordColumns = `r.n, r.id, r.brain_uid, r.kind, r.content, r.text, r.source_name, r.external_id,
  r.occurred_at, r.occurred_ms`;

/**
 * `derive_upgrade` (migration 015), the Records still to derive again, and the rows re-derivation
 * reads and writes. Inside a unit of work the store's calls are the unit's own, so `within` needs
 * nothing of the unit: its calls run in the transaction open in their async context.
 */
export function sqliteUpgradeList(store: Store): UpgradeList {
  const unlist = (n: number) => void store.run('DELETE FROM derive_upgrade WHERE n = ?', n);
  const unit: Omit<UpgradeUnit, 'listNaming' | 'listBrain'> = {
    record: (n) =>
      atOnce(() => store.get<UpgradeRecord>(`SELECT ${recordColumns} FROM records r WHERE r.n = ?`, n)),
    queued: (recordId) =>
      atOnce(
        () => store.get('SELECT 1 FROM derive_queue WHERE record_id = ? LIMIT 1', recordId) !== undefined,
      ),
    revisions: (r) =>
      atOnce(() =>
        store.all<UpgradeRecord>(
          `SELECT ${recordColumns} FROM records r INDEXED BY records_external
           WHERE r.brain_uid = ? AND r.source_name IS ? AND r.external_id = ? AND r.kind <> 'correction'
           ORDER BY r.n`,
          r.brain_uid,
          r.source_name,
          r.external_id,
        ),
      ),
    unlist: (n) => atOnce(() => unlist(n)),
    cited: (recordId) =>
      atOnce(() =>
        store
          .all<Omit<CitedMemory, 'pending'> & { pending: number }>(
            `SELECT m.n, m.id, m.lineage, m.slot, m.norm, m.statement, m.subject, m.predicate, m.owner_state,
             m.owner_entity, m.status, m.cause, m.pending, m.valid_from_ms, c.quote
             FROM citations c JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ?`,
            recordId,
          )
          .map((m) => ({ ...m, pending: m.pending !== 0 })),
      ),
    personSaid: (lineages) =>
      atOnce(
        () =>
          store.get(
            `SELECT 1 FROM memories WHERE lineage IN (SELECT value FROM json_each(?))
               AND (corrects IS NOT NULL OR retracted_by IS NOT NULL) LIMIT 1`,
            JSON.stringify(lineages),
          ) !== undefined,
      ),
    supportOffList: (memoryId, recordId) =>
      atOnce(
        () =>
          store.get(
            `SELECT 1 FROM citations c JOIN records r ON r.id = c.record_id
             WHERE c.memory_id = ? AND c.record_id <> ?
               AND NOT EXISTS (SELECT 1 FROM derive_upgrade d WHERE d.n = r.n) LIMIT 1`,
            memoryId,
            recordId,
          ) !== undefined,
      ),
    supportUpTo2: (memoryId) =>
      atOnce(
        () =>
          store.get<{ c: number }>(
            'SELECT count(*) AS c FROM (SELECT 1 FROM citations WHERE memory_id = ? LIMIT 2)',
            memoryId,
          )!.c,
      ),
    shared: (memoryId) =>
      atOnce(
        () =>
          store.get<{ s: number }>(
            `SELECT ${shareableSql('m')} AS s FROM memories m WHERE m.id = ?`,
            memoryId,
          )?.s === 1,
      ),
    requote: (memoryId, recordId, quote) =>
      atOnce(
        () =>
          void store.run(
            'UPDATE citations SET quote = ? WHERE memory_id = ? AND record_id = ?',
            quote,
            memoryId,
            recordId,
          ),
      ),
    deleteMemory: (memoryId) => atOnce(() => void store.run('DELETE FROM memories WHERE id = ?', memoryId)),
    dropCitation: (memoryId, recordId) =>
      atOnce(
        () =>
          void store.run('DELETE FROM citations WHERE memory_id = ? AND record_id = ?', memoryId, recordId),
      ),
    firstCiting: (memoryId) =>
      atOnce(() =>
        store.get<{ occurred_at: string; occurred_ms: number; source_name: string | null }>(
          `SELECT x.occurred_at, x.occurred_ms, x.source_name FROM citations c JOIN records x ON x.id = c.record_id
           WHERE c.memory_id = ? ORDER BY x.occurred_ms, x.n LIMIT 1`,
          memoryId,
        ),
      ),
    restartValidFrom: (memoryId, from) =>
      atOnce(
        () =>
          void store.run(
            'UPDATE memories SET valid_from = ?, valid_from_ms = ?, source_key = ? WHERE id = ?',
            from.occurred_at,
            from.occurred_ms,
            from.source_name ?? '',
            memoryId,
          ),
      ),
    markRederived: (memoryId, learnedAt) =>
      atOnce(
        () =>
          void store.run(
            "UPDATE memories SET cause = 'rederived', learned_at = ? WHERE id = ?",
            learnedAt,
            memoryId,
          ),
      ),
    moveTo: (memoryId, seq) =>
      atOnce(() => void store.run('UPDATE memories SET seq = ? WHERE id = ?', seq, memoryId)),
    reslot: (memoryId, to) =>
      atOnce(
        () =>
          void store.run(
            'UPDATE memories SET slot = ?, lineage = ?, version = ?, seq = ? WHERE id = ?',
            to.slot,
            to.lineage,
            to.version,
            to.seq,
            memoryId,
          ),
      ),
  };
  return {
    listFor: (deriverName) =>
      atOnce(() => {
        if (
          store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', metaKey)?.value === deriverName
        )
          return;
        store.tx(() => {
          store.run(
            'INSERT OR IGNORE INTO derive_upgrade (n) SELECT n FROM records INDEXED BY records_brain_occurred',
          );
          store.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', metaKey, deriverName);
        });
      }),
    page: (after, limit) =>
      atOnce(() =>
        store.all<{ n: number; brainUid: string | null; id: string | null }>(
          `SELECT d.n, r.brain_uid AS brainUid, r.id FROM derive_upgrade d LEFT JOIN records r ON r.n = d.n
           WHERE d.n > ? ORDER BY d.n LIMIT ?`,
          after,
          limit,
        ),
      ),
    unlist: (n) => store.exclusive(() => unlist(n)),
    within: (uow) => ({
      ...unit,
      listNaming: (first, beforeSeq) => listNaming(uow.brainUid, first, beforeSeq),
      listBrain: (beforeSeq) =>
        atOnce(
          () =>
            store.run(
              `INSERT OR IGNORE INTO derive_upgrade (n) SELECT n FROM records
               WHERE brain_uid = ? AND seq < ? AND kind <> 'correction'`,
              uow.brainUid,
              beforeSeq,
            ).changes,
        ),
    }),
  };

  /**
   * The Brain's messages, notes and events before `beforeSeq` are read and folded here (SQLite folds
   * ASCII alone): once per Brain and namesake, one index range of its Records.
   */
  function listNaming(brainUid: string, first: string, beforeSeq: number): Promise<number> {
    return atOnce(() => {
      const rows = store.all<{
        n: number;
        kind: string;
        text: string;
        speaker: unknown;
        participants: unknown;
      }>(
        `SELECT n, kind, text, json_extract(content, '$.speaker') AS speaker,
         json_extract(content, '$.participants') AS participants
         FROM records WHERE brain_uid = ? AND seq < ? AND kind IN ('message', 'event', 'document')`,
        brainUid,
        beforeSeq,
      );
      const alone = (name: unknown) => typeof name === 'string' && foldName(name) === first;
      const naming = rows.filter(
        (r) =>
          alone(r.speaker) ||
          ((r.kind === 'message' || r.kind === 'document') && namesFirstName(r.text, first)) ||
          (typeof r.participants === 'string' && (JSON.parse(r.participants) as unknown[]).some(alone)),
      );
      for (const r of naming) store.run('INSERT OR IGNORE INTO derive_upgrade (n) VALUES (?)', r.n);
      return naming.length;
    });
  }
}
