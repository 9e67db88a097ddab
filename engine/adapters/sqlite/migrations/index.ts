import { initial } from './001-initial.ts';
import { recordsFts } from './002-records-fts.ts';
import { retrievalIndex } from './003-retrieval-index.ts';
import { turnScope } from './005-turn-scope.ts';
import { neighbourRequeue } from './004-neighbour-requeue.ts';
import { recordsTimeIndex } from './006-records-time-index.ts';
import { neighbourRows } from './007-neighbour-rows.ts';
import { memoryRemovals } from './008-memory-removals.ts';
import { memoriesSubjectNocase } from './009-memories-subject-nocase.ts';
import { listOrderIndexes } from './010-list-order-indexes.ts';
import { turnLog } from './011-turn-log.ts';
import { recordsTextKey } from './012-records-text-key.ts';
import { wordsOfEveryScript } from './013-words-of-every-script.ts';
import { slotsByOwner } from './014-slots-by-owner.ts';
import { deriveUpgrade } from './015-derive-upgrade.ts';
import { slotPredicateIndex } from './016-slot-predicate-index.ts';
import { deriveFailures } from './017-derive-failures.ts';
import { recordSync } from './018-record-sync.ts';
import { syncPairingId } from './019-sync-pairing-id.ts';
import { tombstonePlace } from './020-tombstone-place.ts';
import { fullCaseFolding } from './021-full-case-folding.ts';
import { noLocalOnlyTombstones } from './022-no-local-only-tombstones.ts';
import { foldedSpeakers } from './023-folded-speakers.ts';
import { syncCatchingUp } from './024-sync-catching-up.ts';
import { pulledRemovals } from './025-pulled-removals.ts';
import { correctionOutcomes } from './026-correction-outcomes.ts';
import { reofferedCorrections } from './027-reoffered-corrections.ts';
import { pullRereads } from './028-pull-rereads.ts';
import { statementKeys } from './029-statement-keys.ts';
import { unmatchedCorrections } from './030-unmatched-corrections.ts';
import { unmatchedWithdrawals } from './031-unmatched-withdrawals.ts';
import { correctionRecords } from './032-correction-records.ts';
import type { Db } from '../open-database.ts';
import { selfSlotLines } from './033-self-slot-lines.ts';
import { syncRecordsUnsent } from './034-sync-records-unsent.ts';
import { compoundBigrams } from './035-compound-bigrams.ts';
import { unsentCountedByRow } from './036-unsent-counted-by-row.ts';
import { ownerFolded } from './037-owner-folded.ts';
import { syncWarning } from './038-sync-warning.ts';
import { heldBackReasons } from './039-held-back-reasons.ts';
import { healthLines } from './040-health-lines.ts';
import { syncFieldsDropped } from './041-sync-fields-dropped.ts';
import { syncRemoteForgets } from './042-sync-remote-forgets.ts';
import { syncPulledHours } from './043-sync-pulled-hours.ts';
import { syncForgetGuard } from './044-sync-forget-guard.ts';
import { recordsBySeq } from './045-records-by-seq.ts';
import { statementsByOwner } from './046-statements-by-owner.ts';
import { statementsWithTheirText } from './047-statements-with-their-text.ts';

export interface Migration {
  /** Increasing from 1 (a reserved number may be missing until its change is merged); stored in PRAGMA user_version once applied. */
  version: number;
  name: string;
  sql: string;
  /** Data the SQL cannot compute, written by the engine's code in the same transaction. */
  after?: (db: Db) => void;
}

/**
 * Every schema version, in order. Append only: never edit a released migration; add the next number
 * (the retrieval lanes add theirs here).
 */
export const migrations: readonly Migration[] = [
  initial,
  recordsFts,
  retrievalIndex,
  neighbourRequeue,
  turnScope,
  recordsTimeIndex,
  neighbourRows,
  memoryRemovals,
  memoriesSubjectNocase,
  listOrderIndexes,
  turnLog,
  recordsTextKey,
  wordsOfEveryScript,
  slotsByOwner,
  deriveUpgrade,
  slotPredicateIndex,
  deriveFailures,
  recordSync,
  syncPairingId,
  tombstonePlace,
  fullCaseFolding,
  noLocalOnlyTombstones,
  foldedSpeakers,
  syncCatchingUp,
  pulledRemovals,
  correctionOutcomes,
  reofferedCorrections,
  pullRereads,
  statementKeys,
  unmatchedCorrections,
  unmatchedWithdrawals,
  correctionRecords,
  selfSlotLines,
  syncRecordsUnsent,
  compoundBigrams,
  unsentCountedByRow,
  ownerFolded,
  syncWarning,
  heldBackReasons,
  healthLines,
  syncFieldsDropped,
  syncRemoteForgets,
  syncPulledHours,
  syncForgetGuard,
  recordsBySeq,
  statementsByOwner,
  statementsWithTheirText,
];
