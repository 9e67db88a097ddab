import { initial } from './001-initial.ts';
import { threads } from './002-threads.ts';
import { bytewiseKeys } from './003-bytewise-keys.ts';
import { feedOrder } from './004-feed-order.ts';
import { turns } from './005-turns.ts';
import { embedQueue } from './006-embed-queue.ts';
import { recordIds } from './007-record-ids.ts';
import { restatedMemories } from './008-restated-memories.ts';
import { speakers } from './009-speakers.ts';
import { deriveUpgrade } from './010-derive-upgrade.ts';
import { turnCounts } from './011-turn-counts.ts';
import { turnPlans } from './012-turn-plans.ts';
import { heldJobs } from './013-held-jobs.ts';
import { keyWatch } from './014-key-watch.ts';
import { recordIdsPerBrain } from './015-record-ids-per-brain.ts';
import { foldedWords } from './016-folded-words.ts';
import { jobWriters } from './017-job-writers.ts';
import { fullCaseFolding } from './018-full-case-folding.ts';
import { noLocalOnlyTombstones } from './019-no-local-only-tombstones.ts';
import { foldedSpeakers } from './020-folded-speakers.ts';
import { memoryFeedOrder } from './021-memory-feed-order.ts';
import { correctionOutcomes } from './022-correction-outcomes.ts';
import { statementKeys } from './023-statement-keys.ts';
import { unmatchedCorrections } from './024-unmatched-corrections.ts';
import { unmatchedWithdrawals } from './025-unmatched-withdrawals.ts';
import { correctionRecords } from './026-correction-records.ts';
import { turnIndexUnbuffered } from './027-turn-index-unbuffered.ts';
import { selfSlotLines } from './028-self-slot-lines.ts';
import { thoroughContexts } from './029-thorough-contexts.ts';
import { compoundWords } from './030-compound-words.ts';
import { ownerFolded } from './031-owner-folded.ts';
import { statementKeyPrefixes } from './032-statement-key-prefixes.ts';
import { punctuatedWords } from './033-punctuated-words.ts';
import { healthLines } from './034-health-lines.ts';
import { statementsByOwner } from './035-statements-by-owner.ts';

export interface PgMigration {
  /** Increasing from 1; recorded in mnemo_migrations once applied. */
  version: number;
  name: string;
  sql: string;
}

/**
 * Every schema version, in order. Append only: a released migration is never edited (a database that
 * has applied it would not see the change); the next number carries it. Plain SQL: a migration
 * imports no rule of the engine, which changes.
 */
export const migrations: readonly PgMigration[] = [
  initial,
  threads,
  bytewiseKeys,
  feedOrder,
  turns,
  embedQueue,
  recordIds,
  restatedMemories,
  speakers,
  deriveUpgrade,
  turnCounts,
  turnPlans,
  heldJobs,
  keyWatch,
  recordIdsPerBrain,
  foldedWords,
  jobWriters,
  fullCaseFolding,
  noLocalOnlyTombstones,
  foldedSpeakers,
  memoryFeedOrder,
  correctionOutcomes,
  statementKeys,
  unmatchedCorrections,
  unmatchedWithdrawals,
  correctionRecords,
  turnIndexUnbuffered,
  selfSlotLines,
  thoroughContexts,
  compoundWords,
  ownerFolded,
  statementKeyPrefixes,
  punctuatedWords,
  healthLines,
  statementsByOwner,
];

/**
 * The vector lane's storage, applied once the `vector` extension can be created (at the first start
 * on a server that has it, or the first after it was installed). Frozen as the migrations are. Each
 * embedding model gets its own HNSW index (vector-models.ts), as an index needs a fixed dimension.
 */
export const vectorSchema = `
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE embeddings (
  brain_uid text NOT NULL REFERENCES brains(uid) ON DELETE CASCADE,
  owner text NOT NULL CHECK (owner IN ('record', 'memory')),
  owner_n bigint NOT NULL,
  model_id integer NOT NULL REFERENCES embedding_models(id) ON DELETE CASCADE,
  embedding vector NOT NULL,
  PRIMARY KEY (brain_uid, owner, owner_n, model_id)
);
`;
