import type { CorrectionOutcomeRow } from './repositories.ts';
import type { RecordRow } from './rows.ts';
import type { BrainUnitOfWork } from './unit-of-work.ts';

/*
 * What a device keeps to sync its Brains with a hosted Mnemo (docs/sync.md): each Brain's pairing
 * (remote, key, cursors, counts), the fate of each Record that left or arrived (sync_records), the
 * outbox and the tombstones to send. The rules (what a Record travels as, redaction, a page's whole
 * step, which run may write) are the device's (engine/local/sync/); these are rows. Outside a unit of
 * work each call is one transaction of its own, between units; inside a Brain's unit, `within`'s.
 */

/** A Brain's pairing with a remote. */
export interface PairingRow {
  brain_uid: string;
  remote_url: string;
  remote_brain: string;
  remote_key: string;
  push_seq: number;
  tombstone_seq: number;
  /**
   * With tombstone_seq, how far the tombstones went: through this Record id of step tombstone_seq, or
   * (null) through that whole step. A forgotten import is one step of many requests.
   */
  tombstone_after: string | null;
  pull_watermark: string | null;
  /**
   * Where the feed may hold a Record the pull skipped (the watermark the first page that skipped one
   * was read from; `start`: the beginning), and the oldest rules of what the pull takes it skipped one
   * under (null while a re-read under way has skipped nothing). Both null: nothing skipped.
   */
  pull_skipped_from: string | null;
  pull_skipped_under: number | null;
  /** Where the re-read under way reads the feed on from (beginReread); null: none under way. */
  reread_watermark: string | null;
  pushed: number;
  pulled: number;
  /**
   * Records of the feed the pull did not take (they have no row here). What the push held back and
   * skipped is not summed: it is counted from sync_records (status).
   */
  pull_skipped: number;
  last_success_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  /** 1: the last run stopped with more to do and kept what it did; the next follows soon. */
  catching_up: number;
  /** What the last run that got that far found and did not stop for (the hosted Brain's self); null: nothing. */
  warning: string | null;
  /**
   * Records pushed without a content field the remote refused as unknown (newerContentFields: an
   * older hub), since the pairing started or the remote last took such a field (migration 041).
   */
  fields_dropped: number;
  /**
   * What the pull read from the remote's feed over the last day, by the hour (JSON of PulledHour[]):
   * its budget (migration 043). Null: nothing yet.
   */
  pulled_hours: string | null;
  /** Records of this device forgotten because the remote said so, since the pairing (migration 042). */
  forgotten_by_remote: number;
  /**
   * What the remote made this device forget by the hour over the last day (JSON of `[hour, count]`):
   * the guard's rolling day (migration 044). Null: nothing yet.
   */
  remote_forget_hours: string | null;
  paired_at: string;
  pairing_id: string;
}

/** What a push batch did with content fields newer than an older remote knows (newerContentFields). */
export interface PushedFields {
  /** Records of the batch sent without such a field, the remote having refused it as unknown. */
  dropped: number;
  /** The remote took a Record that carried one: it knows them now (upgraded). */
  taken: boolean;
}

/** How a sync run ended. */
export interface RunEnd {
  /** Null on success; never the key, which no error text holds. */
  error: string | null;
  /**
   * It stopped with more to do and kept what it did: its page limit, or its deadline or its server's stop
   * after progress.
   */
  catchingUp: boolean;
  /**
   * What the run found and did not stop for, the person's to know (the hosted Brain's self differs
   * from this Brain's); null: nothing. Undefined: the run ended before it could tell, and the last
   * one's stands.
   */
  warning?: string | null;
}

/** What became of a Record of this device: pushed (as `remoteId`), skipped, held back, or pulled. */
export interface RecordFate {
  recordId: string;
  fate: 'pushed' | 'skipped' | 'held_back';
  /** The id the remote knows it (or its copy) by; null when it never went up. */
  remoteId: string | null;
  /** Kept home (`skipped`, never sent): the version of the rules of which corrections travel it was kept under. */
  skippedUnder?: number;
  /** Kept home (held back): why, as the redactor said it; the sync status gives it with the Record. */
  reason?: string;
  /**
   * The remote answered its first send `forgotten` (sync_records.first_refused, migration 044): it
   * never travelled, and the remote may not make this device forget it by that id until it takes a
   * later send of it (a `pushed` fate clears it; any other keeps it).
   */
  refused?: boolean;
}

/**
 * A tombstone of this device after a cursor, with the id the remote knows its Record by, if any: none
 * when the Record never travelled, or when the pairing's remote told this device of the removal.
 */
export interface TombstoneRow {
  seq: number;
  record_id: string;
  remote_id: string | null;
}

/**
 * A place in a Brain's tombstones, in the order they are sent (by step, then Record id): everything up
 * to this Record id of step `seq`, or, with `recordId` null, up to the end of step `seq`.
 */
export interface TombstonePlace {
  seq: number;
  recordId: string | null;
}

export interface DeviceSyncStore {
  /** The Brain's pairing, if any. */
  pairing(brainUid: string): Promise<PairingRow | undefined>;
  /**
   * The Brain's pairing, how many Records wait in its outbox (`outbox` with `correctionRules`), how
   * many corrections from other sides it holds by their outcome here (correction_outcomes), and the
   * Records its push held back and skipped: those behind its push cursor, still here.
   */
  status(
    brainUid: string,
    correctionRules: number,
  ): Promise<{
    pairing: PairingRow | undefined;
    pending: number;
    corrections: Record<CorrectionOutcomeRow['state'], number>;
    /**
     * How many Records of each fate, and up to five of their ids, the newest first, each with the
     * reason kept with its fate (null: none was kept, by a version before reasons were).
     */
    unsent: Record<
      'held_back' | 'skipped',
      { count: number; newest: { id: string; reason: string | null }[] }
    >;
    /**
     * Forgets the remote asked for that the guard holds under this pairing (sync_held_forgets): how
     * many Records here they reach (heldForgetsReached), and up to five of their ids, the newest first.
     */
    heldForgets: { count: number; newest: string[] };
  }>;
  /**
   * Pairs the Brain: when `keeps(existing)` says so, the existing pairing takes the new key (and its
   * error is cleared); else it is replaced by `next`, cursors and counts at zero, and the Records pulled
   * so far are to be pushed as any other (see restart).
   */
  pair(
    brainUid: string,
    next: Pick<PairingRow, 'remote_url' | 'remote_brain' | 'remote_key' | 'paired_at' | 'pairing_id'>,
    keeps: (existing: PairingRow) => boolean,
  ): Promise<void>;
  /** Removes the Brain's pairing; false when it had none. */
  unpair(brainUid: string): Promise<boolean>;
  /** Every paired Brain, by uid. */
  pairedBrains(): Promise<{ project: string; env: 'test' | 'live'; brainId: string }[]>;
  /**
   * Up to `limit` Records of the outbox, by step then id: the Brain's Records after step `afterSeq` that
   * may leave the device (none `local_only`, none pulled from the pairing's remote), and, behind the
   * cursor, its corrections kept home (`skipped`, never sent) under rules of which corrections travel
   * older than `correctionRules` (RecordFate.skippedUnder; none kept: the oldest).
   */
  outbox(brainUid: string, afterSeq: number, limit: number, correctionRules: number): Promise<RecordRow[]>;
  /**
   * Those of these Records that the remote knows by their own id: a shareable one pushed, or one that
   * came from a remote. A redacted_summary one among them is a copy made elsewhere, since this device
   * pushes its own only as a copy under another id (redactedCopyId).
   */
  underOwnId(brainUid: string, ids: readonly string[]): Promise<string[]>;
  /** Names of the people the Brain's Records mention: message speakers, contacts, event participants. */
  people(brainUid: string): Promise<string[]>;
  /** The device's own secret, from which per-Brain pseudonyms are keyed; a restore keeps it. */
  secret(): Promise<Uint8Array>;
  /**
   * Keeps, before a batch goes, the id each of its Records will have on the remote (`remoteId`) where
   * the Record has none kept yet: the remote may take the batch and its answer be lost, and a Record
   * forgotten after that must still send its tombstone. A Record without a fate is kept as `skipped`
   * until markPushed writes what the remote answered. Answers the Records this batch is the first to
   * send (none had a remote id kept), and those whose first send the remote answered `forgotten` and
   * that it has taken no send of since (RecordFate.refused): the remote cannot have forgotten an id it
   * never took.
   */
  markSending(brainUid: string, items: readonly { recordId: string; remoteId: string }[]): Promise<string[]>;
  /**
   * Records a pushed batch under the run's pairing, in one transaction: each Record's fate, and the
   * push cursor moved to `throughSeq` (never back) with the Records the remote took (`pushed`) added,
   * and what it did with newer content fields (`fields`: Records sent without one added to
   * fields_dropped, or the count set back to 0 when the remote took one). False, writing nothing, when
   * the pairing is no longer `pairingId`.
   */
  markPushed(
    brainUid: string,
    pairingId: string,
    fates: readonly RecordFate[],
    pushed: number,
    throughSeq: number,
    fields?: PushedFields,
  ): Promise<boolean>;
  /** The Brain's tombstones after `after`, by step then Record id, `limit` at most. */
  tombstones(brainUid: string, after: TombstonePlace, limit: number): Promise<TombstoneRow[]>;
  /**
   * Moves the tombstone cursor of the run's pairing on to `through` (never back); false when the
   * pairing is no longer `pairingId`.
   */
  markTombstonesSent(brainUid: string, pairingId: string, through: TombstonePlace): Promise<boolean>;
  /**
   * Sends the run's pairing back to the start of the push and the pull (its remote Brain is not the one
   * it synced with), the Records pulled so far to be pushed as any other (the remote Brain holds none
   * of them, and the device they came from may sync no more), and the tombstones from the first again,
   * those learnt from the old Brain with them; false when the pairing is no longer
   * `pairingId`.
   */
  restart(brainUid: string, pairingId: string): Promise<boolean>;
  /**
   * Where the run's pairing reads its feed again from, if anywhere: a re-read under way goes on; one is
   * started (from `pull_skipped_from`) when the pull skipped a Record under rules older than
   * `pullRules`, which may take it now. Null: nothing to read again; false when the pairing is no
   * longer `pairingId`.
   */
  beginReread(brainUid: string, pairingId: string, pullRules: number): Promise<string | null | false>;
  /**
   * Keeps what the run's pairing pulled by the hour (JSON of PulledHour[]), replacing what was kept;
   * false when the pairing is no longer `pairingId`.
   */
  keepPulledHours(brainUid: string, pairingId: string, hours: string): Promise<boolean>;
  /** Ends a run of the pairing: when, its error (null on success), and whether it is catching up. */
  finishRun(brainUid: string, pairingId: string, at: string, end: RunEnd): Promise<void>;
  /**
   * The Records whose redacted copies (pushed under ids of their own) are among `ids`: a tombstone of
   * the copy forgets the original. Read in the caller's unit of work (the tombstones'). `travelledOnly`
   * (the remote's forgets): none whose first send the remote refused and never took since
   * (RecordFate.refused), which never travelled.
   */
  originalsOfPushedCopies(
    brainUid: string,
    ids: readonly string[],
    travelledOnly?: boolean,
  ): Promise<string[]>;
  /**
   * Those of these Records that were written from a remote's feed (sync_records.from_remote): no item
   * of this device's own imports, each erasable on its own. Read in the caller's unit of work.
   */
  fromRemote(brainUid: string, ids: readonly string[]): Promise<string[]>;
  /** The same rows, in the Brain's unit of work `uow` (a pulled page is written in one). */
  within(uow: BrainUnitOfWork): DeviceSyncUnit;
}

/** A Brain's sync rows in its unit of work. */
export interface DeviceSyncUnit {
  pairing(): Promise<PairingRow | undefined>;
  /** Whether `id` is this device's: a redacted copy it pushed, or a Record it pulled already. */
  isOwn(id: string): Promise<boolean>;
  /** Marks a Record written from the remote as pulled, under its own id, and as come from a remote. */
  markPulled(id: string): Promise<void>;
  /**
   * What the remote-forget guard reads (docs/sync.md, "Forgets the remote asks for"): this device's own
   * Records of the Brain here that travelled (their push taken; none that came from a remote, which a
   * hub could send by the hundred), what the pairing's remote made it forget by the hour
   * (remote_forget_hours), and how many Records here the forgets it holds under `pairingId` reach.
   */
  remoteForgets(pairingId: string): Promise<{
    travelled: number;
    hours: string | null;
    held: number;
  }>;
  /** Keeps these ids (as the remote names them) as forgets held under the pairing, until confirmed. */
  holdForgets(pairingId: string, remoteIds: readonly string[], at: string): Promise<void>;
  /** The ids held under the pairing, to apply once the person confirms. */
  heldForgets(pairingId: string): Promise<string[]>;
  /** Drops the forgets held under the pairing (applied). */
  dropHeldForgets(pairingId: string): Promise<void>;
  /**
   * The pairing forgot `forgotten` Records because its remote said so: added to forgotten_by_remote,
   * and what it forgot by the hour kept as `hours` (JSON of `[hour, count]`, remote_forget_hours).
   */
  noteRemoteForgets(pairingId: string, o: { forgotten: number; hours: string }): Promise<void>;
  /**
   * Marks the tombstones of these Record ids, written in this unit, as learnt from the remote of the
   * pairing `pairingId`: `tombstones` gives them no remote id while that pairing lasts, so the removal
   * is not sent back to where it came from.
   */
  markRemovalsPulled(pairingId: string, ids: readonly string[]): Promise<void>;
  /** Keeps what the pull read by the hour (JSON of PulledHour[]), with the page it read last. */
  keepPulledHours(pairingId: string, hours: string): Promise<void>;
  /**
   * The run's pairing took a pulled page: the watermark to keep, how many Records it wrote, and how
   * many it skipped (not valid replicas, or redacted_summary ones the redactor was unsure of); a skip
   * is kept as under `pullRules`, from the watermark the page was read from when none is kept yet.
   */
  markPage(
    pairingId: string,
    watermark: string | null,
    pulled: number,
    skipped: number,
    pullRules: number,
  ): Promise<void>;
  /**
   * The run's pairing took a page of its re-read: the re-read's watermark to keep (null: it reached the
   * end, and is over), how many Records it wrote (each skipped before, so no longer counted as
   * skipped), and whether it skipped any again (under `pullRules`, from where this re-read started).
   */
  markRereadPage(
    pairingId: string,
    watermark: string | null,
    pulled: number,
    skippedAgain: boolean,
    pullRules: number,
  ): Promise<void>;
}
