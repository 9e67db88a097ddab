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

/**
 * A Record of a span that changed a lineage (ContextReads.changes): it made a version (the first Record
 * to support it: a next version of a slot or a plan, a correction, a slot's first value) or withdrew one.
 */
export interface ChangeEvent {
  recordId: string;
  occurredAt: string;
  occurredMs: number;
  /**
   * `version`: it made the version `memoryId`; `retracted`: it withdrew it (a correction saying it never
   * held, a plan called off).
   */
  how: 'version' | 'retracted';
  memoryId: string;
  /**
   * The request may quote it: false only for a bare correction (one that withdrew and stated nothing),
   * which is never evidence.
   */
  evidence: boolean;
}

/** A version of a lineage a change touched, as a change question shows it. */
export type ChangedVersion = Pick<
  MemoryVersionRow,
  | 'id'
  | 'lineage'
  | 'slot'
  | 'version'
  | 'statement'
  | 'norm'
  | 'subject'
  | 'predicate'
  | 'status'
  | 'pending'
  | 'corrects'
  | 'cause'
> & {
  /** The earliest Record supporting it that the request may see as evidence, or null: none. */
  recordId: string | null;
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
  /**
   * What changed in a span of world time, [fromMs, toMs): the Records of the span the scope lets the
   * request see that made a version of a lineage (were the first Record to support it) that is a next
   * version (version > 1) or a slot's first value, or that withdrew a version (retracted_by), none
   * pending; next versions and withdrawals first, then first values, each newest first (by occurred_at,
   * then id), up to `limit`; and every version of the lineages they touched, by lineage then version. A
   * read of the span's Records (the time index), their citations and the versions they name: it never
   * reads the Brain's other Memories.
   */
  changes(
    span: { fromMs: number; toMs: number },
    at: ContextReadTime,
    limit: number,
  ): Promise<{ events: ChangeEvent[]; versions: ChangedVersion[] }>;
  /** Those of these Records the scope lets the request see, in no order. */
  visible(recordIds: readonly string[], scope: ContextReadTime['scope']): Promise<string[]>;
}
