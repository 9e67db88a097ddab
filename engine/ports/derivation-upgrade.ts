import type { BrainUnitOfWork } from './unit-of-work.ts';
import type { MemoryCause, RecordRow } from './rows.ts';

/*
 * What the derivation upgrade (derive/upgrade-derivation.ts) reads and writes beyond the repositories:
 * the list of Records still to derive again under the current deriver, and a Record's Memories as
 * re-derivation reconciles them. The rules (what a Record states now, which Memory keeps, loses or
 * rests) are the upgrade's; these are rows.
 */

/** A Record as the upgrade derives it again. */
export type UpgradeRecord = Pick<
  RecordRow,
  | 'n'
  | 'id'
  | 'brain_uid'
  | 'kind'
  | 'content'
  | 'text'
  | 'source_name'
  | 'external_id'
  | 'occurred_at'
  | 'occurred_ms'
>;

/** A Memory citing the Record derived again, with that citation's quote. */
export interface CitedMemory {
  /** Its place in write order. */
  n: number;
  id: string;
  lineage: string;
  /** The key of the slot it holds (core/derive/slot-key.ts), or null. */
  slot: string | null;
  /** Its statement's key (core/derive/statement-key.ts), how a Memory is matched. */
  norm: string;
  /** Its words, subject and predicate as written: a slot's value is read from them (slot-value.ts). */
  statement: string;
  subject: string;
  predicate: string | null;
  owner_state: 'self' | 'other' | 'unresolved';
  owner_entity: string | null;
  status: 'active' | 'superseded' | 'retracted';
  cause: MemoryCause;
  /** It waits for re-derivation after a forget. */
  pending: boolean;
  valid_from_ms: number;
  quote: string;
}

/** The store-wide list of Records still to derive again. */
export interface UpgradeList {
  /**
   * When the deriver's name differs from the one the store last listed Records for, lists every
   * Record and keeps the name, in one transaction, here: before the process takes a write, so a
   * Record this deriver derives is not listed with the others. A listing that failed here (PostgreSQL:
   * the database was away) is tried again by the next page.
   */
  listFor(deriverName: string): Promise<void>;
  /** Up to `limit` listed Records after `after`, in the order written, with their Brain and id (null: gone). */
  page(after: number, limit: number): Promise<{ n: number; brainUid: string | null; id: string | null }[]>;
  /** Takes a Record off the list outside any unit of work (it is gone); waits for an open one. */
  unlist(n: number): Promise<void>;
  /** The reads and writes of one Record's upgrade, in that Brain's unit of work `uow`. */
  within(uow: BrainUnitOfWork): UpgradeUnit;
}

/** One Record's upgrade, in its Brain's unit of work. */
export interface UpgradeUnit {
  /** The listed Record, if still stored. */
  record(n: number): Promise<UpgradeRecord | undefined>;
  /** Whether its first derivation is still queued. */
  queued(recordId: string): Promise<boolean>;
  /** Every revision of the item (source and external id), corrections aside, oldest first. */
  revisions(r: UpgradeRecord): Promise<UpgradeRecord[]>;
  /** Takes it off the list. */
  unlist(n: number): Promise<void>;
  /**
   * Lists the Brain's messages whose speaker, and events one of whose participants, is `first` alone
   * (folded as foldName folds), and messages and notes whose words name it (namesFirstName; more may be
   * listed, never fewer), written before step `beforeSeq`, to be derived again: how many. What they said
   * was derived as the self's, or as a person of that first name alone, and a namesake has spoken since,
   * or a person of that first name has become known (derive/namesake.ts, derive-jobs.ts).
   */
  listNaming(first: string, beforeSeq: number): Promise<number>;
  /**
   * Lists every Record of the Brain written before step `beforeSeq`, corrections aside, to be derived
   * again: how many. The Brain's self was set or changed (updateBrain), and whose each Record's words
   * are follows from it.
   */
  listBrain(beforeSeq: number): Promise<number>;
  /** The Memories citing the Record. */
  cited(recordId: string): Promise<CitedMemory[]>;
  /**
   * Whether a Memory of any of these lineages was corrected, or retracted (by a person's correction, or
   * a plan withdrawn by the Record that called it off: derived again, it would come back).
   */
  personSaid(lineages: readonly string[]): Promise<boolean>;
  /**
   * Whether a Record other than `recordId` citing the Memory is off the list: derived again already,
   * a correction, or never listed. While all of them are listed, each is still to be judged on its own
   * turn, so a Memory re-owned now is reconciled with each of them then.
   */
  supportOffList(memoryId: string, recordId: string): Promise<boolean>;
  /** How many citations the Memory has, counted up to 2. */
  supportUpTo2(memoryId: string): Promise<number>;
  /** Whether the Memory is served to hosted readers (shareable through a Record). */
  shared(memoryId: string): Promise<boolean>;
  /** Gives the Memory's citation of the Record a new quote. */
  requote(memoryId: string, recordId: string, quote: string): Promise<void>;
  /** Deletes the Memory (its citations with it). */
  deleteMemory(memoryId: string): Promise<void>;
  /** Drops the Memory's citation of the Record. */
  dropCitation(memoryId: string, recordId: string): Promise<void>;
  /** The earliest Record still citing the Memory (by occurrence, then n). */
  firstCiting(
    memoryId: string,
  ): Promise<{ occurred_at: string; occurred_ms: number; source_name: string | null } | undefined>;
  /** The Memory's world time starts again at this Record's. */
  restartValidFrom(
    memoryId: string,
    from: { occurred_at: string; occurred_ms: number; source_name: string | null },
  ): Promise<void>;
  /** The Memory was derived again, learned at `learnedAt`. */
  markRederived(memoryId: string, learnedAt: string): Promise<void>;
  /** Moves the Memory to step `seq`. */
  moveTo(memoryId: string, seq: number): Promise<void>;
  /** The Memory holds another slot now: that slot's lineage, as its version `version`, at step `seq`. */
  reslot(
    memoryId: string,
    to: { slot: string; lineage: string; version: number; seq: number },
  ): Promise<void>;
}
