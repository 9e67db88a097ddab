import type { SearchScope } from './indexes.ts';
import type { MemoryVersionRow, RecordRow } from './rows.ts';

/*
 * What a Context's assembly reads of one Brain beyond retrieval (engine/context/): the candidates'
 * Records and the state of the Memories citing them, what superseded a dropped one, the values of the
 * slots its evidence touches, and which Records the request may see. Each read takes a batch, so a
 * Context costs a few statements whatever its number of candidates. The temporal rules are the core's
 * (core/temporal/memory-time.ts), as MemoryReads applies them.
 */

/** When a Context reads Memories, and which Records it may see. */
export interface ContextReadTime {
  /**
   * The Records the request may see (filters, as_of, hosted local_only; a bare correction never): the
   * lanes' scope, without a window of the search's own.
   */
  scope: Omit<SearchScope, 'fromMs' | 'toMs'>;
  /** The world time Memories are read at (as_of, or the end of a past filter.until); undefined: now. */
  readMs: number | undefined;
  /** The engine's clock, read once for the request. */
  nowMs: number;
}

/** A candidate Record as evidence quotes it. */
export type EvidenceRecord = Pick<
  RecordRow,
  'id' | 'kind' | 'content' | 'text' | 'source_name' | 'occurred_at' | 'visibility'
>;

/** A Memory version citing a candidate Record, with its state at the read time. */
export interface CitingVersion {
  recordId: string;
  memoryId: string;
  /** The citation's quote of the Record. */
  quote: string;
  /** What the version says, of whom, and the slot's predicate (null: no slot value): its slot's value. */
  statement: string;
  subject: string;
  predicate: string | null;
  /** Served at the read time (servedAt). */
  served: boolean;
  /** Waiting to be derived again. */
  pending: boolean;
  retracted: boolean;
  /** In force but starting after the read time (scheduled): replaced by nothing, yet not served. */
  later: boolean;
  /** The version's world-time interval [validFromMs, validToMs): when what it says held. */
  validFromMs: number;
  /** null: open (nothing closed it). */
  validToMs: number | null;
}

/** A value of a slot served at the read time (a slot value has a predicate: the slot is who, what). */
export type SlotValue = Pick<MemoryVersionRow, 'id' | 'lineage' | 'statement' | 'subject' | 'valid_from'> & {
  predicate: string;
};

export interface ContextReads {
  /**
   * For these candidate Records: those there are (in no order); for each that has one, the newest
   * revision of the same item (source name and external id, written after it) the scope lets the
   * request see; and the versions citing each, by Record then Memory id.
   */
  evidence(
    recordIds: readonly string[],
    at: ContextReadTime,
  ): Promise<{
    records: EvidenceRecord[];
    newer: { id: string; newer: string }[];
    citing: CitingVersion[];
  }>;
  /**
   * The Records, newest first (by occurred_at, then id), up to `limit`, that the scope lets the
   * request see and that support the versions served at the read time of the lineages of these
   * Memories (other versions than these): what the Memories said, as it now stands.
   */
  successors(memoryIds: readonly string[], at: ContextReadTime, limit: number): Promise<string[]>;
  /**
   * Every value served at the read time of the slots these Memories are values of: by slot, the slot
   * of the least of these ids (bytewise) first, then by write order.
   */
  slotValues(memoryIds: readonly string[], at: ContextReadTime): Promise<SlotValue[]>;
  /** Those of these Memories served at the read time, by id. */
  served(memoryIds: readonly string[], at: ContextReadTime): Promise<MemoryVersionRow[]>;
  /** Those of these Records the scope lets the request see, in no order. */
  visible(recordIds: readonly string[], scope: ContextReadTime['scope']): Promise<string[]>;
}
