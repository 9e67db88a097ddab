import type { Kind, MemoryStatus, Visibility } from '../contract/index.ts';
import type {
  BrainRow,
  TenantRef,
  CitationRow,
  MemoryVersionRow,
  ObjectVersionRow,
  RecordRow,
  RowPage,
} from './rows.ts';

/*
 * The repositories of one Brain's unit of work (unit-of-work.ts). Every method resolves once the
 * change is part of the unit of work: nothing is visible to other readers before it commits, and a
 * unit of work that throws leaves none of it. Written from what the SQLite store does today
 * (engine/local/, engine/derive/); the SQL behind each is the SQLite adapter's.
 */

/** The Brains of every tenant. Not per Brain: creating and listing Brains precede any unit of work. */
export interface BrainRepository {
  /** The tenant's Brains, by id. */
  list(tenant: TenantRef): Promise<BrainRow[]>;
  /** The Brain of this id in the tenant, or null (another tenant's Brain is none). */
  find(tenant: TenantRef, id: string): Promise<BrainRow | null>;
  /** Adds a Brain at step 0 of its own sequence; null when the tenant has a Brain of this id. */
  create(brain: Omit<BrainRow, 'seq'>): Promise<BrainRow | null>;
  /**
   * Removes a Brain and everything it holds (Records, Memories, Objects, keys, jobs, tombstones) at
   * once, leaving none of its bytes in the storage; answers what it held (Objects once per type/key).
   */
  remove(uid: string): Promise<{ records: number; memories: number; objects: number }>;
}

/** What a Record's readers are told beyond its row: whether it is derived yet, and from what. */
export interface RecordState {
  /** Its derivation is still queued (the Record's status is processing until that job is done). */
  processing: boolean;
  /** The Memories citing it, by id; none while processing. */
  memoryIds: string[];
}

/** One Brain's Records: appended, never changed in place, removed only by forgetting. */
export interface RecordRepository {
  /** Appends a Record; answers it with the `n` the storage gave it. */
  insert(row: Omit<RecordRow, 'n'>): Promise<RecordRow>;
  /** The Record of this id in this Brain, or null. */
  get(id: string): Promise<RecordRow | null>;
  /** The state of each of these Records, in their order (a page reads its Records' states at once). */
  states(ids: readonly string[]): Promise<RecordState[]>;
  /**
   * By id, newest first (ids are ULIDs, so by write time), after the page `cursor` names, within the
   * contract's listRecords filters; `hideLocalOnly` leaves local_only Records out (a hosted reader).
   */
  list(query: {
    limit: number;
    cursor?: string | undefined;
    kind?: Kind | undefined;
    sourceName?: string | undefined;
    visibility?: Visibility | undefined;
    /** processing: a derivation still queued; ready: none. */
    status?: 'processing' | 'ready' | undefined;
    sinceMs?: number | undefined;
    untilMs?: number | undefined;
    hideLocalOnly: boolean;
  }): Promise<RowPage<RecordRow>>;
  /**
   * Each source.name of the Brain's Records, by name, with how many Records it has, how many of them
   * carry an external id, and the span of their occurred_at (listSources).
   */
  sources(opts: {
    hideLocalOnly: boolean;
  }): Promise<{ name: string; records: number; reconciled: number; first_ms: number; last_ms: number }[]>;
  /** The ids of every Record of one source.name, local_only ones too, by write order (forgetSource). */
  idsOfSource(sourceName: string): Promise<string[]>;
  /** Deletes Records; their citations and queued jobs go with them. */
  remove(ids: readonly string[]): Promise<void>;
}

/**
 * What a read of Memory versions selects in one Brain (the contract's listMemories filters), every
 * status read at one instant. Versions pending re-derivation are never selected.
 */
export interface MemoryFilter {
  /** The instant statuses are read at: the engine's clock, read once by the operation. */
  nowMs: number;
  /** Only versions valid at this world time (their interval contains it), whatever later ones say. */
  asOfMs?: number | undefined;
  /**
   * The effective status at `nowMs` (core/temporal/memory-time.ts `statusAt`); `current`: served now
   * (`servedAt` with no as_of); `all`: any.
   */
  status: MemoryStatus | 'current' | 'all';
  /** Of this subject: a slot value by its slot's normalized subject, any Memory by its own (ASCII case ignored). */
  subject?: string | undefined;
  /** Of this owner: the owner's state, or its entity (ASCII case ignored). */
  owner?: string | undefined;
  /** Only current slot values whose slot holds another current value too (a conflict). */
  contested?: boolean | undefined;
  /** Only the versions of this slot (a slot's id is its lineage's). */
  slot?: string | undefined;
  /** Every one of these words in the statement, in any order (core/shared/fold-text.ts `searchWords`). */
  words?: readonly string[] | undefined;
  /**
   * A hosted reader: only Memories with a supporting Record that is not local_only (and, for
   * `contested`, another value of that kind).
   */
  shareableOnly: boolean;
}

/** What listMemories, getMemory and a delta read ask of a Brain's Memory versions. */
export interface MemoryReads {
  /** The version of this id in this Brain, pending or not, or null. */
  get(id: string): Promise<MemoryVersionRow | null>;
  /**
   * Every version of one lineage (one slot's values), by version; `shareableOnly` keeps only those
   * with a supporting Record that is not local_only.
   */
  lineage(lineage: string, opts: { shareableOnly: boolean }): Promise<MemoryVersionRow[]>;
  /**
   * Citations of these Memories, by Memory then Record id; `shareableOnly` leaves out those of
   * local_only Records.
   */
  citations(memoryIds: readonly string[], opts: { shareableOnly: boolean }): Promise<CitationRow[]>;
  /** The versions the filter selects, by id, after the page `cursor` names (a full read). */
  list(
    query: MemoryFilter & { limit: number; cursor?: string | undefined },
  ): Promise<RowPage<MemoryVersionRow>>;
  /**
   * The versions the filter selects that changed after step `afterSeq` (and up to `throughSeq`), by
   * step then write order, up to `limit` (a delta read; tombstones are the TombstoneRepository's).
   */
  changes(
    query: MemoryFilter & { afterSeq: number; throughSeq?: number | undefined; limit?: number | undefined },
  ): Promise<MemoryVersionRow[]>;
}

/**
 * One Brain's Memory versions, their citations and their lifecycle. The temporal view (what is served
 * at an instant) is the core's rule; an adapter translates it into its own query and is held to it by
 * the core's property tests. The reads are implemented over SQLite and PostgreSQL (each adapter's
 * memory-repository.ts); the writes below are drafted from derivation and the forget cascade, which
 * still write in SQL.
 */
export interface MemoryRepository extends MemoryReads {
  insert(row: Omit<MemoryVersionRow, 'n'>, citations: readonly CitationRow[]): Promise<MemoryVersionRow>;
  /** Every version of one slot, by write order (admitting a claim compares with them). */
  slotVersions(slot: string): Promise<MemoryVersionRow[]>;
  /** Writes a settled lifecycle at step `seq` (settle-lineage's plan). */
  setLifecycle(
    id: string,
    lifecycle: { status: MemoryVersionRow['status']; valid_to: string | null; valid_to_ms: number | null },
    seq: number,
  ): Promise<void>;
  addCitation(citation: CitationRow): Promise<void>;
  /** Memories citing any of these Records, with how many citations each keeps without them. */
  citing(recordIds: readonly string[]): Promise<{ memory_id: string; remaining: number }[]>;
  /** Marks a Memory pending re-derivation (kept under its id) or deletes it, at step `seq`. */
  setPending(id: string, seq: number): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
}

/** One Brain's Objects: accepted versions, never changed in place. */
export interface ObjectRepository {
  /** The newest version of type/key, or null. */
  current(type: string, key: string): Promise<ObjectVersionRow | null>;
  /** The version `n` names (what an Idempotency-Key replays, current or not), or null. */
  get(n: number): Promise<ObjectVersionRow | null>;
  insert(row: Omit<ObjectVersionRow, 'n'>): Promise<ObjectVersionRow>;
  /** The current version of every type/key, by type then key, paged. */
  list(query: {
    type?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  }): Promise<RowPage<ObjectVersionRow>>;
}

/** What an Idempotency-Key stands for: the write it first produced and the hash of that body. */
export interface IdempotencyEntry {
  bodyHash: string;
  target: { record: string } | { objectN: number };
}

/**
 * One Brain's Idempotency-Keys per operation. An entry lives as long as what it points to: forgetting
 * the Record (or the Brain) forgets the key, and the same key then writes anew.
 */
export interface IdempotencyRepository {
  find(operation: 'rememberRecord' | 'acceptObject', key: string): Promise<IdempotencyEntry | null>;
  remember(operation: 'rememberRecord' | 'acceptObject', key: string, entry: IdempotencyEntry): Promise<void>;
}

/** Why a Memory left the served set, as a delta read reports it. */
export type RemovalReason = 'deleted' | 'pending_rederivation';

/**
 * One Brain's tombstones: a Memory that left the served set, at the step it left, one per Memory,
 * kept as long as the Brain; a delta read reports them after its boundary.
 */
export interface TombstoneRepository {
  /** Records (or moves to this step) the removal of a Memory; `shareable`: a hosted reader saw it. */
  record(memoryId: string, seq: number, reason: RemovalReason, shareable: boolean): Promise<void>;
  /** A Memory served again (re-derived under its id) is no longer removed. */
  clear(memoryId: string): Promise<void>;
  /**
   * Removals after step `afterSeq` (and up to `opts.throughSeq`), by step then Memory id, up to
   * `limit` (undefined: all of them); `shareableOnly`: those a hosted reader was served.
   */
  since(
    afterSeq: number,
    limit: number | undefined,
    opts: { shareableOnly: boolean; throughSeq?: number | undefined },
  ): Promise<{ memory_id: string; seq: number; reason: RemovalReason }[]>;
}
