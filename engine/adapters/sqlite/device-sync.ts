import type {
  DeviceSyncStore,
  DeviceSyncUnit,
  PairingRow,
  RecordRow,
  TombstoneRow,
} from '../../ports/index.ts';
import type { Store } from './store.ts';

const atOnce = <T>(work: () => T): Promise<T> => Promise.resolve(work());

/**
 * The outbox: this Brain's Records after the push cursor that may leave the device. `local_only`
 * Records are not read at all, and pulled ones are never pushed back (to the remote they came from:
 * a pairing that starts over makes them `skipped`, pending as any other). Behind the cursor, the
 * corrections kept home under older rules (skipped_under, migration 027), found by their index; one
 * sent again whose answer was lost is still `skipped` (markSending), and is offered again.
 * Parameters: the Brain, the cursor, the Brain, the rules now, the cursor.
 */
export const outboxSql = `
  SELECT r.* FROM records r
  WHERE r.brain_uid = ? AND r.seq > ? AND r.visibility <> 'local_only'
    AND NOT EXISTS (SELECT 1 FROM sync_records s
                    WHERE s.brain_uid = r.brain_uid AND s.record_id = r.id AND s.fate = 'pulled')
  UNION ALL
  SELECT r.* FROM sync_records s JOIN records r ON r.id = s.record_id AND r.brain_uid = s.brain_uid
  WHERE s.brain_uid = ? AND s.fate = 'skipped' AND coalesce(s.skipped_under, 0) < ?
    AND r.seq <= ? AND r.kind = 'correction' AND r.visibility <> 'local_only'`;
export const outboxParams = (brainUid: string, afterSeq: number, rules: number) =>
  [brainUid, afterSeq, brainUid, rules, afterSeq] as const;

/**
 * Ordered by step then id: the index on (brain_uid, seq) holds the key's record_id after them. A removal
 * the pairing's own remote told this device of (pulled_by, migration 025) is read without a remote id,
 * so the cursor moves past it and nothing is sent back.
 */
const tombstonesSql = (within: boolean) => `SELECT t.seq, t.record_id,
    CASE WHEN t.pulled_by IS NOT NULL AND t.pulled_by = p.pairing_id THEN NULL ELSE s.remote_id END AS remote_id
  FROM record_tombstones t
  LEFT JOIN sync_records s ON s.brain_uid = t.brain_uid AND s.record_id = t.record_id
                           AND s.remote_id IS NOT NULL
  LEFT JOIN sync_pairings p ON p.brain_uid = t.brain_uid
  WHERE t.brain_uid = ? AND ${within ? '(t.seq, t.record_id) > (?, ?)' : 't.seq > ?'}
  ORDER BY t.seq, t.record_id LIMIT ?`;

/**
 * sync_pairings, sync_records and the outbox and tombstones they select (migrations 016 to 020). Calls
 * from outside a unit of work run between units (store.exclusive); `within`'s and
 * originalsOfPushedCopies run in the unit open in their async context, whose calls are its own.
 */
/**
 * The rows of a fate the sync status counts and names: sync_records rows the push cursor (second
 * parameter) has passed, of Records still here (first parameter: the Brain). CROSS JOIN keeps SQLite's
 * order, the fate's partial index (migration 034) then each Record by its key: left to the planner
 * on a store without statistics, it walked every Record of the Brain and probed the fates (40 ms a
 * status at 100,000 pushed Records, 800 ms at 400,000, which the Sync panel polls; 0.02 ms this way).
 */
export const unsentRows = (fate: 'held_back' | 'skipped'): string =>
  `FROM sync_records s CROSS JOIN records r ON r.id = s.record_id AND r.brain_uid = s.brain_uid
   WHERE s.brain_uid = ? AND s.fate = '${fate}' AND r.seq <= ?`;

/**
 * The Records here the forgets held under the pairing reach, as a remote's forget reaches them
 * (originalsOfPushedCopies, travelledOnly): ids that reach nothing (never here, forgotten since, never
 * travelled) are neither counted nor named. CROSS JOIN keeps the order from the held forgets (the
 * planner's own walked every Record of the Brain, for a count in every sync status).
 */
export const heldReachedSql = `FROM sync_held_forgets h
   CROSS JOIN sync_records s ON s.brain_uid = h.brain_uid AND s.remote_id = h.remote_id AND s.first_refused = 0
   CROSS JOIN records r ON r.id = s.record_id AND r.brain_uid = s.brain_uid
   WHERE h.brain_uid = ? AND h.pairing_id = ?`;

/** The Records here pushed under these remote ids, from their sync rows (CROSS JOIN: as heldReachedSql). */
export const originalsSql = (travelledOnly: boolean): string =>
  `SELECT r.id FROM sync_records s CROSS JOIN records r ON r.id = s.record_id AND r.brain_uid = s.brain_uid
   WHERE s.brain_uid = ? AND s.remote_id IN (SELECT value FROM json_each(?))
     ${travelledOnly ? 'AND s.first_refused = 0' : ''}`;

export function sqliteDeviceSync(store: Store): DeviceSyncStore {
  const between = <T>(work: () => T): Promise<T> => store.exclusive(work);
  const pairingOf = (brainUid: string) =>
    store.get<PairingRow>('SELECT * FROM sync_pairings WHERE brain_uid = ?', brainUid);
  const pending = (p: PairingRow | undefined, rules: number) =>
    p
      ? store.get<{ c: number }>(
          `SELECT count(*) AS c FROM (${outboxSql})`,
          ...outboxParams(p.brain_uid, p.push_seq, rules),
        )!.c
      : 0;
  // An upsert, not a replace: a Record's from_remote (migration 042) outlives every fate it takes, and
  // its first_refused (044) every fate but a push taken.
  const fateSql = `INSERT INTO sync_records
       (brain_uid, record_id, fate, remote_id, skipped_under, reason, from_remote, first_refused)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (brain_uid, record_id) DO UPDATE SET fate = excluded.fate, remote_id = excluded.remote_id,
       skipped_under = excluded.skipped_under, reason = excluded.reason,
       from_remote = max(from_remote, excluded.from_remote),
       first_refused = CASE WHEN excluded.fate = 'pushed' THEN 0
                       ELSE max(first_refused, excluded.first_refused) END`;
  // Held forgets of another pairing than the Brain's (replaced, unpaired, started over) ask nothing.
  const dropStaleHeld = (brainUid: string) =>
    store.run(
      `DELETE FROM sync_held_forgets WHERE brain_uid = ?
         AND pairing_id IS NOT (SELECT pairing_id FROM sync_pairings WHERE brain_uid = ?)`,
      brainUid,
      brainUid,
    );
  const heldCount = (brainUid: string, pairingId: string) =>
    store.get<{ c: number }>(`SELECT count(DISTINCT r.id) AS c ${heldReachedSql}`, brainUid, pairingId)!.c;
  const heldNewest = (brainUid: string, pairingId: string) =>
    store
      .all<{ id: string }>(
        `SELECT DISTINCT r.id ${heldReachedSql} ORDER BY r.id DESC LIMIT 5`,
        brainUid,
        pairingId,
      )
      .map((r) => r.id);
  // A pulled Record's row keeps its id as the remote's (so it is never pulled again); `skipped` is the
  // fate of a Record not yet answered (markSending), which the outbox reads.
  const pushPulled = (brainUid: string) =>
    store.run("UPDATE sync_records SET fate = 'skipped' WHERE brain_uid = ? AND fate = 'pulled'", brainUid);

  const unit: (brainUid: string) => DeviceSyncUnit = (brainUid) => ({
    pairing: () => atOnce(() => pairingOf(brainUid)),
    isOwn: (id) =>
      atOnce(
        () =>
          store.get('SELECT 1 FROM sync_records WHERE brain_uid = ? AND remote_id = ?', brainUid, id) !==
          undefined,
      ),
    markPulled: (id) => atOnce(() => void store.run(fateSql, brainUid, id, 'pulled', id, null, null, 1, 0)),
    remoteForgets: (pairingId) =>
      atOnce(() => {
        const p = pairingOf(brainUid);
        // This device's own Records still here whose push a remote took: the Records the guard keeps.
        // Not those that came from a remote, which its feed may bring by the hundred to raise the share.
        const travelled = store.get<{ c: number }>(
          `SELECT count(*) AS c FROM sync_records s CROSS JOIN records r
             ON r.id = s.record_id AND r.brain_uid = s.brain_uid
           WHERE s.brain_uid = ? AND s.fate = 'pushed' AND s.from_remote = 0`,
          brainUid,
        )!.c;
        return {
          travelled,
          hours: p?.pairing_id === pairingId ? p.remote_forget_hours : null,
          held: heldCount(brainUid, pairingId),
        };
      }),
    holdForgets: (pairingId, remoteIds, at) =>
      atOnce(
        () =>
          void store.run(
            `INSERT OR IGNORE INTO sync_held_forgets (brain_uid, remote_id, pairing_id, held_at)
             SELECT ?, value, ?, ? FROM json_each(?)`,
            brainUid,
            pairingId,
            at,
            JSON.stringify(remoteIds),
          ),
      ),
    heldForgets: (pairingId) =>
      atOnce(() =>
        store
          .all<{ remote_id: string }>(
            'SELECT remote_id FROM sync_held_forgets WHERE brain_uid = ? AND pairing_id = ? ORDER BY remote_id',
            brainUid,
            pairingId,
          )
          .map((r) => r.remote_id),
      ),
    dropHeldForgets: (pairingId) =>
      atOnce(
        () =>
          void store.run(
            'DELETE FROM sync_held_forgets WHERE brain_uid = ? AND pairing_id = ?',
            brainUid,
            pairingId,
          ),
      ),
    noteRemoteForgets: (pairingId, { forgotten, hours }) =>
      atOnce(
        () =>
          void store.run(
            `UPDATE sync_pairings SET forgotten_by_remote = forgotten_by_remote + ?, remote_forget_hours = ?
             WHERE brain_uid = ? AND pairing_id = ?`,
            forgotten,
            hours,
            brainUid,
            pairingId,
          ),
      ),
    markRemovalsPulled: (pairingId, ids) =>
      atOnce(
        () =>
          void store.run(
            `UPDATE record_tombstones SET pulled_by = ?
             WHERE brain_uid = ? AND record_id IN (SELECT value FROM json_each(?))`,
            pairingId,
            brainUid,
            JSON.stringify(ids),
          ),
      ),
    keepPulledHours: (pairingId, hours) =>
      atOnce(
        () =>
          void store.run(
            'UPDATE sync_pairings SET pulled_hours = ? WHERE brain_uid = ? AND pairing_id = ?',
            hours,
            brainUid,
            pairingId,
          ),
      ),
    // Each expression reads the row as it was: a first skip is kept from where this page was read.
    markPage: (pairingId, watermark, pulled, skipped, rules) =>
      atOnce(
        () =>
          void store.run(
            `UPDATE sync_pairings SET pull_watermark = ?, pulled = pulled + ?, pull_skipped = pull_skipped + ?,
               pull_skipped_from = CASE WHEN ? > 0 THEN coalesce(pull_skipped_from, pull_watermark, 'start')
                                   ELSE pull_skipped_from END,
               pull_skipped_under = CASE WHEN ? > 0 THEN min(coalesce(pull_skipped_under, ?), ?)
                                    ELSE pull_skipped_under END
             WHERE brain_uid = ? AND pairing_id = ?`,
            watermark,
            pulled,
            skipped,
            skipped,
            skipped,
            rules,
            rules,
            brainUid,
            pairingId,
          ),
      ),
    // A re-read starts where the oldest skip it looks for was: one it skips again is kept from there.
    // Over, and nothing skipped since it started (pull_skipped_under still null), nothing is left to
    // read again.
    markRereadPage: (pairingId, watermark, pulled, skippedAgain, rules) =>
      atOnce(() => {
        const p = pairingOf(brainUid);
        if (p?.pairing_id !== pairingId) return;
        const under = skippedAgain ? Math.min(p.pull_skipped_under ?? rules, rules) : p.pull_skipped_under;
        store.run(
          `UPDATE sync_pairings SET reread_watermark = ?, pulled = pulled + ?, pull_skipped = max(0, pull_skipped - ?),
             pull_skipped_from = ?, pull_skipped_under = ? WHERE brain_uid = ? AND pairing_id = ?`,
          watermark,
          pulled,
          pulled,
          watermark === null && under === null ? null : p.pull_skipped_from,
          under,
          brainUid,
          pairingId,
        );
      }),
  });

  return {
    pairing: (brainUid) => between(() => pairingOf(brainUid)),
    status: (brainUid, rules) =>
      between(() => {
        const p = pairingOf(brainUid);
        const corrections = { applied: 0, applied_by_fallback: 0, not_applied: 0 };
        for (const row of store.all<{ state: keyof typeof corrections; c: number }>(
          'SELECT state, count(*) AS c FROM correction_outcomes WHERE brain_uid = ? GROUP BY state',
          brainUid,
        ))
          corrections[row.state] = row.c;
        // Counted and named from the same rows: those the pairing's push cursor has passed (each was
        // written by a batch of this pairing, which passes every Record it reads), of Records still
        // here. A row outlives its Record and its pairing (the tombstone needs its remote id), so
        // neither a forgotten Record nor another pairing's fate is counted or named. The fate as a
        // literal, so each reads its own partial index (migration 034).
        const of = (fate: 'held_back' | 'skipped') => {
          if (!p) return { count: 0, newest: [] };
          const rows = unsentRows(fate);
          const count = store.get<{ c: number }>(`SELECT count(*) AS c ${rows}`, brainUid, p.push_seq)!.c;
          const newest = count
            ? store
                .all<{ record_id: string; reason: string | null }>(
                  `SELECT s.record_id, s.reason ${rows} ORDER BY s.record_id DESC LIMIT 5`,
                  brainUid,
                  p.push_seq,
                )
                .map((r) => ({ id: r.record_id, reason: r.reason }))
            : [];
          return { count, newest };
        };
        const unsent = { held_back: of('held_back'), skipped: of('skipped') };
        const heldForgets = p
          ? { count: heldCount(brainUid, p.pairing_id), newest: heldNewest(brainUid, p.pairing_id) }
          : { count: 0, newest: [] };
        return { pairing: p, pending: pending(p, rules), corrections, unsent, heldForgets };
      }),
    pair: (brainUid, next, keeps) =>
      between(() =>
        store.tx(() => {
          const p = pairingOf(brainUid);
          if (p && keeps(p)) {
            store.run(
              'UPDATE sync_pairings SET remote_key = ?, last_error = NULL WHERE brain_uid = ?',
              next.remote_key,
              brainUid,
            );
            return;
          }
          store.run('DELETE FROM sync_pairings WHERE brain_uid = ?', brainUid);
          pushPulled(brainUid);
          store.run(
            `INSERT INTO sync_pairings (brain_uid, remote_url, remote_brain, remote_key, paired_at, pairing_id)
             VALUES (?, ?, ?, ?, ?, ?)`,
            brainUid,
            next.remote_url,
            next.remote_brain,
            next.remote_key,
            next.paired_at,
            next.pairing_id,
          );
          dropStaleHeld(brainUid);
        }),
      ),
    unpair: (brainUid) =>
      between(() =>
        store.tx(() => {
          const gone = store.run('DELETE FROM sync_pairings WHERE brain_uid = ?', brainUid).changes > 0;
          dropStaleHeld(brainUid);
          return gone;
        }),
      ),
    pairedBrains: () =>
      between(() =>
        store.all<{ project: string; env: 'test' | 'live'; brainId: string }>(
          'SELECT b.project, b.env, b.id AS brainId FROM sync_pairings p JOIN brains b ON b.uid = p.brain_uid ORDER BY b.uid',
        ),
      ),
    outbox: (brainUid, afterSeq, limit, rules) =>
      between(() =>
        store.all<RecordRow>(
          `${outboxSql} ORDER BY seq, id LIMIT ?`,
          ...outboxParams(brainUid, afterSeq, rules),
          limit,
        ),
      ),
    underOwnId: (brainUid, ids) =>
      between(() =>
        store
          .all<{ id: string }>(
            `SELECT record_id AS id FROM sync_records
             WHERE brain_uid = ? AND remote_id = record_id AND record_id IN (SELECT value FROM json_each(?))`,
            brainUid,
            JSON.stringify(ids),
          )
          .map((r) => r.id),
      ),
    people: (brainUid) =>
      between(() =>
        store
          .all<{ name: string }>(
            `SELECT DISTINCT name FROM (
               SELECT json_extract(content, '$.speaker') AS name FROM records WHERE brain_uid = ? AND kind = 'message'
               UNION SELECT json_extract(content, '$.subject') FROM records WHERE brain_uid = ? AND kind = 'fact' AND source_name = 'vcf'
               UNION SELECT p.value FROM records r, json_each(r.content, '$.participants') p
                     WHERE r.brain_uid = ? AND r.kind = 'event')
             WHERE name IS NOT NULL`,
            brainUid,
            brainUid,
            brainUid,
          )
          .map((r) => r.name),
      ),
    secret: () => atOnce(() => store.deviceSecret),
    markSending: (brainUid, items) =>
      between(() =>
        store.tx(() => {
          const first = new Set(
            store
              .all<{ id: string }>(
                `SELECT value AS id FROM json_each(?) WHERE value NOT IN
                   (SELECT record_id FROM sync_records WHERE brain_uid = ? AND remote_id IS NOT NULL
                      AND first_refused = 0 AND record_id IN (SELECT value FROM json_each(?)))`,
                JSON.stringify(items.map((i) => i.recordId)),
                brainUid,
                JSON.stringify(items.map((i) => i.recordId)),
              )
              .map((r) => r.id),
          );
          for (const i of items)
            store.run(
              `INSERT INTO sync_records (brain_uid, record_id, fate, remote_id) VALUES (?, ?, 'skipped', ?)
               ON CONFLICT (brain_uid, record_id) DO UPDATE SET remote_id = coalesce(remote_id, excluded.remote_id)`,
              brainUid,
              i.recordId,
              i.remoteId,
            );
          return [...first];
        }),
      ),
    markPushed: (brainUid, pairingId, fates, pushed, throughSeq, fields = { dropped: 0, taken: false }) =>
      between(() =>
        store.tx(() => {
          if (pairingOf(brainUid)?.pairing_id !== pairingId) return false;
          for (const f of fates)
            store.run(
              fateSql,
              brainUid,
              f.recordId,
              f.fate,
              f.remoteId,
              f.skippedUnder ?? null,
              f.reason ?? null,
              0,
              f.refused === true ? 1 : 0,
            );
          store.run(
            `UPDATE sync_pairings SET push_seq = max(push_seq, ?), pushed = pushed + ?,
               fields_dropped = CASE WHEN ? THEN 0 ELSE fields_dropped END + ?
             WHERE brain_uid = ? AND pairing_id = ?`,
            throughSeq,
            pushed,
            fields.taken ? 1 : 0,
            fields.dropped,
            brainUid,
            pairingId,
          );
          return true;
        }),
      ),
    tombstones: (brainUid, after, limit) =>
      between(() =>
        after.recordId === null
          ? store.all<TombstoneRow>(tombstonesSql(false), brainUid, after.seq, limit)
          : store.all<TombstoneRow>(tombstonesSql(true), brainUid, after.seq, after.recordId, limit),
      ),
    markTombstonesSent: (brainUid, pairingId, through) =>
      between(() =>
        store.tx(() => {
          const p = pairingOf(brainUid);
          if (p?.pairing_id !== pairingId) return false;
          // Never back: a null id is the end of its step, past every id of it.
          const ahead =
            through.seq > p.tombstone_seq ||
            (through.seq === p.tombstone_seq &&
              p.tombstone_after !== null &&
              (through.recordId === null || through.recordId > p.tombstone_after));
          if (ahead)
            store.run(
              'UPDATE sync_pairings SET tombstone_seq = ?, tombstone_after = ? WHERE brain_uid = ?',
              through.seq,
              through.recordId,
              brainUid,
            );
          return true;
        }),
      ),
    restart: (brainUid, pairingId) =>
      between(() =>
        store.tx(() => {
          // The tombstones go again too: the new Brain never held their Records, but a device that has
          // not learnt of a forget yet would make them again there, and the feed bring them back to
          // every side. So do the removals learnt from the old Brain (pulled_by): the new one knows
          // none of them. What was pushed and what the pull skipped is counted again, for the new Brain:
          // counted on, one Record pushed showed as two. What the push held back and skipped is counted
          // from its rows behind the cursor (status), so the cursor's going back starts it again too.
          const kept =
            store.run(
              `UPDATE sync_pairings SET push_seq = 0, pull_watermark = NULL, pull_skipped_from = NULL,
                 pull_skipped_under = NULL, reread_watermark = NULL, tombstone_seq = 0, tombstone_after = NULL,
                 pushed = 0, pull_skipped = 0, fields_dropped = 0
               WHERE brain_uid = ? AND pairing_id = ?`,
              brainUid,
              pairingId,
            ).changes > 0;
          if (kept) {
            pushPulled(brainUid);
            // Asked for by the Brain that is gone: the new one asked for none of them.
            store.run('DELETE FROM sync_held_forgets WHERE brain_uid = ?', brainUid);
            store.run(
              'UPDATE record_tombstones SET pulled_by = NULL WHERE brain_uid = ? AND pulled_by = ?',
              brainUid,
              pairingId,
            );
          }
          return kept;
        }),
      ),
    beginReread: (brainUid, pairingId, rules) =>
      between(() =>
        store.tx(() => {
          const p = pairingOf(brainUid);
          if (p?.pairing_id !== pairingId) return false;
          const due =
            p.pull_skipped_from !== null && p.pull_skipped_under !== null && p.pull_skipped_under < rules;
          if (!due) return p.reread_watermark;
          // From the oldest skip on: one skipped again is kept from there (markRereadPage). A re-read
          // under way when the rules rose again starts over, as it may have passed such a skip.
          store.run(
            'UPDATE sync_pairings SET reread_watermark = pull_skipped_from, pull_skipped_under = NULL WHERE brain_uid = ?',
            brainUid,
          );
          return p.pull_skipped_from;
        }),
      ),
    keepPulledHours: (brainUid, pairingId, hours) =>
      between(
        () =>
          store.run(
            'UPDATE sync_pairings SET pulled_hours = ? WHERE brain_uid = ? AND pairing_id = ?',
            hours,
            brainUid,
            pairingId,
          ).changes > 0,
      ),
    finishRun: (brainUid, pairingId, at, { error, catchingUp, warning }) =>
      between(() => {
        store.run(
          error === null
            ? 'UPDATE sync_pairings SET last_attempt_at = ?, last_success_at = ?, last_error = NULL, catching_up = ? WHERE brain_uid = ? AND pairing_id = ?'
            : 'UPDATE sync_pairings SET last_attempt_at = ?, last_error = ?, catching_up = ? WHERE brain_uid = ? AND pairing_id = ?',
          at,
          error ?? at,
          catchingUp ? 1 : 0,
          brainUid,
          pairingId,
        );
        if (warning !== undefined)
          store.run(
            'UPDATE sync_pairings SET warning = ? WHERE brain_uid = ? AND pairing_id = ?',
            warning,
            brainUid,
            pairingId,
          );
      }),
    originalsOfPushedCopies: (brainUid, ids, travelledOnly = false) =>
      atOnce(() =>
        store
          .all<{ id: string }>(originalsSql(travelledOnly), brainUid, JSON.stringify(ids))
          .map((r) => r.id),
      ),
    fromRemote: (brainUid, ids) =>
      atOnce(() =>
        store
          .all<{ id: string }>(
            `SELECT record_id AS id FROM sync_records
             WHERE brain_uid = ? AND from_remote = 1 AND record_id IN (SELECT value FROM json_each(?))`,
            brainUid,
            JSON.stringify(ids),
          )
          .map((r) => r.id),
      ),
    within: (uow) => unit(uow.brainUid),
  };
}
