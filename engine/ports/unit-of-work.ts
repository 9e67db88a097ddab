import type { SelfEntity } from '../contract/index.ts';
import type { CensusReads } from './census-reads.ts';
import type { ContextReads } from './context-reads.ts';
import type { JobQueue } from './job-queue.ts';
import type {
  CorrectionOutcomeRepository,
  DeriveFailureRepository,
  IdempotencyRepository,
  MemoryRepository,
  ObjectRepository,
  RecordRepository,
  TombstoneRepository,
} from './repositories.ts';
import type { BrainSequence } from './sequence.ts';

/**
 * Everything one write of one Brain touches, committed together or not at all: the Brain is the unit
 * of consistency (its sequence orders its writes; no write spans two Brains). Today's SQLite adapter
 * runs it in one transaction on one connection (write-batches.ts folds concurrent appends into
 * one commit); a server adapter runs it in one database transaction per Brain.
 */
export interface BrainUnitOfWork {
  readonly brainUid: string;
  readonly sequence: BrainSequence;
  readonly records: RecordRepository;
  readonly memories: MemoryRepository;
  readonly objects: ObjectRepository;
  readonly idempotency: IdempotencyRepository;
  readonly tombstones: TombstoneRepository;
  readonly failures: DeriveFailureRepository;
  /** What each correction that came from another side did here. */
  readonly corrections: CorrectionOutcomeRepository;
  /** What a Context's assembly reads (evidence, successors, conflicts), in batches. */
  readonly context: ContextReads;
  /** What a Census reads (counts and noise), in one call. */
  readonly census: CensusReads;
  /** Who "I" is in the Brain (its `self`), or null when it does not say: derivation resolves owners by it. */
  self(): Promise<SelfEntity | null>;
  /**
   * The speakers of the Brain's messages whose first word is `first` (folded, as foldName folds: the
   * self's first name), each folded so, the first name alone among them when a message has it: whether
   * a Record's "Maya" is the self "Maya Costa" or may be "Maya Silva" (derive-context.ts). It may name a
   * speaker whose Records are since forgotten, or rolled back: it errs toward another person. With
   * `before`, only those whose first message read is at a step before it (who had spoken before a
   * given message).
   */
  speakersFirstNamed(first: string, before?: number): Promise<string[]>;
  /**
   * Jobs enqueued here commit with the write that made them; a job completed or put back for a retry
   * here ends its lease with the unit's commit, and not at all when the unit rolls back.
   */
  readonly jobs: Pick<JobQueue, 'enqueue' | 'complete' | 'retry' | 'hold' | 'earliestWaiting'>;
  /**
   * Changes the Brain's row: its name, its self, each when given. A write's alone: what derivation
   * reads as the self changes with the unit's commit (a unit that read it before keeps what it read).
   */
  setBrain(change: BrainChange): Promise<void>;
}

/** What a Brain's row may be changed to after its creation (updateBrain). */
export interface BrainChange {
  name?: string;
  self?: SelfEntity;
}

/** A read's repositories: a write's, without what writes. */
export type BrainReadOfWork = Omit<BrainUnitOfWork, 'jobs' | 'setBrain'>;
