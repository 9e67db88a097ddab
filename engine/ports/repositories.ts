import type { Kind, MemoryStatus, Owner, ProfileGroup, Visibility } from '../contract/index.ts';
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
  /** The last committed step of the Brain's sequence (what a watermark of "now" names). */
  currentSeq(uid: string): Promise<number>;
  /**
   * Removes a Brain and everything it holds (Records, Memories, Objects, keys, jobs, tombstones) at
   * once, leaving none of its bytes in the storage; answers what it held (Objects once per type/key),
   * or null when the Brain was not there (a forget that ran first removed it).
   */
  remove(uid: string): Promise<{ records: number; memories: number; objects: number } | null>;
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
  /**
   * Appends a Record and answers it as stored. Without its `n`: a storage may write the row later in
   * the unit of work (PostgreSQL writes a batch's Records in one statement).
   */
  insert(row: Omit<RecordRow, 'n'>): Promise<Omit<RecordRow, 'n'>>;
  /** The Record of this id in this Brain, or null. */
  get(id: string): Promise<RecordRow | null>;
  /** The Records of these ids in this Brain, those there are, in no order (a batch reads them at once). */
  getMany(ids: readonly string[]): Promise<RecordRow[]>;
  /**
   * These Records will be asked for by `get` in this transaction's units (a derive batch's): a storage
   * whose reads are round trips reads them now in one, answers those `get`s from it, and answers the
   * Records it found. One whose reads are cheap does nothing and answers none.
   */
  prefetch(ids: readonly string[]): Promise<RecordRow[]>;
  /**
   * The messages of `thread` before the message `at` (by occurred_ms, then n), newest first: at most
   * `limit`, none that occurred before `sinceMs`.
   */
  threadBefore(
    thread: string,
    at: Pick<RecordRow, 'n' | 'occurred_ms'>,
    opts: { sinceMs: number; limit: number },
  ): Promise<RecordRow[]>;
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
    /** false: only Records with no source.name; true: only those with one. */
    hasSource?: boolean | undefined;
    visibility?: Visibility | undefined;
    /** processing: a derivation still queued; ready: none. */
    status?: 'processing' | 'ready' | undefined;
    sinceMs?: number | undefined;
    untilMs?: number | undefined;
    /**
     * Every one of these words (core/shared/fold-text.ts `searchWords`), in any order, in the text, a
     * message's speaker or a document's title.
     */
    words?: readonly string[] | undefined;
    /** Only the Records with these ids (listRecords' `ids`). */
    ids?: readonly string[] | undefined;
    hideLocalOnly: boolean;
  }): Promise<RowPage<RecordRow>>;
  /**
   * Each source.name of the Brain's Records, by name, with how many Records it has, how many of them
   * carry an external id, and the span of their occurred_at (listSources).
   */
  sources(opts: {
    hideLocalOnly: boolean;
  }): Promise<
    { name: string; records: number; reconciled: number; items: number; first_ms: number; last_ms: number }[]
  >;
  /** How many Records have no source.name, and the span of their occurred_at; null when none (listSources). */
  withoutSource(opts: {
    hideLocalOnly: boolean;
  }): Promise<{ records: number; first_ms: number; last_ms: number } | null>;
  /** The ids of every Record of one source.name, local_only ones too, by write order (forgetSource). */
  idsOfSource(sourceName: string): Promise<string[]>;
  /** The ids of the Records of one source.name carrying one of these external ids, local_only too. */
  idsOfSourceItems(sourceName: string, externalIds: readonly string[]): Promise<string[]>;
  /**
   * Each external id the Records of one source.name carry, once, in no order; `hideLocalOnly` as for
   * `list` (an import names notes after them: Engine.sourceExternalIds).
   */
  externalIdsOfSource(sourceName: string, opts: { hideLocalOnly: boolean }): Promise<string[]>;
  /** Deletes Records; their citations and queued jobs go with them. */
  remove(ids: readonly string[]): Promise<void>;
  /** The corrections whose kept target (travelled-correction.ts) names one of these Records. */
  correctionsNaming(recordIds: readonly string[]): Promise<{ id: string; content: string }[]>;
  /**
   * Replaces a correction's stored content: only its target, which the API never shows, may differ
   * (forgetRecordRows takes out the words of Records forgotten).
   */
  replaceCorrectionContent(id: string, content: string): Promise<void>;
  /**
   * The change feed's Records: those written after step `afterSeq` (or after `afterId` within it), by
   * step then id, at most `limit` (undefined: all); `hideLocalOnly` as for `list`.
   */
  changes(query: StepRange & { hideLocalOnly: boolean }): Promise<RecordRow[]>;
  /**
   * The change feed's removals: ids forgotten after step `afterSeq` (or after `afterId` within it), at
   * the step of their forget, by step then id, at most `limit`. Every id forgotten in the Brain is kept,
   * also those never written here (a device's tombstone).
   */
  removals(query: StepRange): Promise<{ id: string; seq: number; forgotten_at: string }[]>;
  /** Those of these ids forgotten in this Brain (a tombstone keeps them refused), in no order. */
  forgotten(ids: readonly string[]): Promise<string[]>;
  /**
   * Keeps these ids forgotten at step `seq` (time `at`) though this Brain never held them: a tombstone
   * that came from elsewhere refuses the id from now on. An id kept already stays as it was.
   */
  tombstone(ids: readonly string[], seq: number, at: string): Promise<void>;
  /**
   * Those of these ids this Brain cannot take because the store keys Record ids across its Brains and
   * another Brain holds them (SQLite: one device's Brains, whose ids are its own). A store that keys
   * them per Brain (PostgreSQL, shared by projects) answers none: asking across Brains there would tell
   * one tenant another's ids.
   */
  idsHeldElsewhere(ids: readonly string[]): Promise<string[]>;
}

/**
 * Steps of a Brain's sequence a feed reads: after `afterSeq`, `limit` rows at most.
 * With `afterId`, the read starts inside step `afterSeq` instead: its rows whose id sorts after
 * `afterId` (bytewise), then the steps after it (a step too large for one page is read in several).
 */
export interface StepRange {
  afterSeq: number;
  afterId?: string | undefined;
  limit?: number | undefined;
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
  /**
   * Of one of these subjects: a slot value by its slot's normalized subject, any Memory by its own,
   * case ignored as `subjectNames` tells subjects apart (listMemories' `subject` and the subjects it
   * names: core/shared/person-names.ts). None: nothing is selected.
   */
  subjects?: readonly string[] | undefined;
  /**
   * Of this owner: a state (or an owner named by that very word, in Unicode's lower case), or one of
   * these names folded (foldText; `ownerNames` gives them). No names: nothing is selected.
   */
  owner?: { state: Owner['state'] } | { folded: readonly string[] } | undefined;
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

/** One page of a full read: `limit` versions after `cursor`, by id in `order` (default `asc`). */
export type MemoryPageQuery = MemoryFilter & {
  limit: number;
  cursor?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
};

/** What listMemories, getMemory and a delta read ask of a Brain's Memory versions. */
export interface MemoryReads {
  /** The version of this id in this Brain, pending or not, or null. */
  get(id: string): Promise<MemoryVersionRow | null>;
  /**
   * Each subject of the Brain's Memories once (any status, pending too), in no order: one spelling for
   * all those `MemoryFilter.subjects` does not tell apart (the adapter's case-insensitive comparison),
   * which the adapter may give in its own lower case.
   */
  subjectNames(): Promise<string[]>;
  /** Each owner's name of the Brain's Memories once (any status, pending too), folded (foldText), in no order. */
  ownerNames(): Promise<string[]>;
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
  /**
   * The versions the filter selects, by id (`desc`: the highest first), past the page `cursor` names
   * in that order (a full read).
   */
  list(query: MemoryPageQuery): Promise<RowPage<MemoryVersionRow>>;
  /**
   * The versions the filter selects that changed after step `afterSeq` (or, with `afterN`, after the
   * version written as `afterN` within it), by step then write order (`n`), up to `limit` (a delta
   * read; tombstones are the TombstoneRepository's).
   */
  changes(
    query: MemoryFilter & {
      afterSeq: number;
      afterN?: number | undefined;
      limit?: number | undefined;
    },
  ): Promise<MemoryVersionRow[]>;
  /**
   * The versions owned by the Brain's self that are current at `nowMs` (servedAt with no as_of) in one
   * of the profile's groups: `health`, those whose statement saysHealth (contract/profile-group.ts, as
   * marked when written); `slot`, the others that hold a slot; `other`, the rest, less a statement
   * that a current health or slot line quotes word for word from the same Record. The latest
   * `valid_from` first and, at one `valid_from`, the last written first, up to `limit`;
   * `shareableOnly` as for `list`; `after`, those past that position in this order. The profile reads
   * the groups one after the other (profile-census.ts).
   */
  currentOfSelf(query: {
    nowMs: number;
    shareableOnly: boolean;
    limit: number;
    group: ProfileGroup;
    after?: { validFromMs: number; n: number } | undefined;
  }): Promise<MemoryVersionRow[]>;
}

/**
 * What derivation changes of a Memory version in place (each named field, nothing else). Its slot,
 * lineage, version and predicate change together, when an ending moves into or out of a slot's lineage
 * (derive/place-endings.ts).
 */
export type MemoryChanges = Partial<
  Pick<
    MemoryVersionRow,
    | 'slot'
    | 'lineage'
    | 'version'
    | 'predicate'
    | 'statement'
    | 'norm'
    | 'subject'
    | 'valid_from'
    | 'valid_from_ms'
    | 'valid_to'
    | 'valid_to_ms'
    | 'source_key'
    | 'status'
    | 'pending'
    | 'retracted_by'
    | 'revised_by'
    | 'seq'
    | 'learned_at'
    | 'cause'
    | 'owner_state'
    | 'owner_entity'
  >
>;

/** A version of a lineage as settling it reads it: with when the Record that revised it occurred. */
export type SettlingVersion = MemoryVersionRow & { revised_at: string | null; revised_ms: number | null };

/** What an identical statement is looked up by (MemoryRepository.sameStatement). */
export type SameStatement = Pick<MemoryVersionRow, 'norm' | 'subject' | 'owner_state' | 'owner_entity'>;

/** What `statementsSaying` looks for. */
export type StatementsSaying = Pick<MemoryVersionRow, 'owner_state' | 'owner_entity'> & {
  /** Any of these, anywhere in the statement; none: any statement. */
  words: readonly string[];
  beforeMs: number;
  limit: number;
  /**
   * Those begun at `beforeMs` or after instead, the earliest begun first: what is still to come then (a
   * calendar's event begins where it is held, derive/changed-plans.ts).
   */
  ahead?: boolean;
};

/** What `statementsToldFrom` looks for: `statementsSaying`'s words, of anyone else, from one source. */
export type StatementsToldFrom = Omit<StatementsSaying, 'owner_state' | 'owner_entity'> & {
  /** The source name of the Records that wrote the versions ("mbox"). */
  source_key: string;
};

/**
 * One Brain's Memory versions, their citations and their lifecycle. The temporal view (what is served
 * at an instant) is the core's rule; an adapter translates it into its own query and is held to it by
 * the core's property tests. The writes say how, never which: what supersedes what, what is shareable
 * and which versions settle are derivation's (engine/derive/, core/derive/).
 */
export interface MemoryRepository extends MemoryReads {
  /**
   * Writes a version with the citations that support it (at least one: the storage refuses a Memory
   * without; a Record cited twice is cited once). A storage may write it later in the unit of work
   * (PostgreSQL writes a batch's Memories in one statement), before anything that reads it.
   */
  insert(
    row: Omit<MemoryVersionRow, 'n'>,
    citations: readonly Omit<CitationRow, 'memory_id'>[],
  ): Promise<void>;
  /** Changes these fields of a version (the step it changed at is `seq`, when the caller moves it). */
  update(id: string, changes: MemoryChanges): Promise<void>;
  /** Deletes versions; their citations go with them. */
  remove(ids: readonly string[]): Promise<void>;
  /**
   * Adds a supporting Record to a version; false (and nothing changed) when it cites that Record
   * already. Added, the version changed at step `seq`.
   */
  addCitation(citation: CitationRow, seq: number): Promise<boolean>;
  /** Drops a version's citations of these Records (it keeps at least one: the storage refuses less). */
  dropCitations(memoryId: string, recordIds: readonly string[]): Promise<void>;
  /** A hosted reader is served this version: it has a supporting Record that is not local_only. */
  shareable(id: string): Promise<boolean>;
  /** Every version of one slot, by write order (admitting a claim compares with them). */
  slotVersions(slot: string): Promise<MemoryVersionRow[]>;
  /**
   * The subjects, as written, of the Brain's slots whose subject is one of `firsts` (each normalized
   * as a slot key's subject is, slot-key.ts) followed by more words ("Marko Babić" for "marko"), each
   * with the first it begins with, in no order, any status: the people known by that first name
   * (derive-context.ts). A slot of a forgotten person may linger: it errs toward two people.
   */
  subjectsFirstNamed(firsts: readonly string[]): Promise<Array<{ first: string; subject: string }>>;
  /**
   * The versions, once each in no order, of every slot of the Brain whose predicate (the slot key's
   * part after U+001F, slot-key.ts) is one of `predicates`, of any subject and status but retracted
   * (a value that was wrong), pending too: what the Brain knows as a home or an employer, now or once
   * (the sync redactor's names that are no person's). A scan of the slot-predicate index.
   */
  slotStatements(
    predicates: readonly string[],
  ): Promise<Array<Pick<MemoryVersionRow, 'subject' | 'predicate' | 'statement'>>>;
  /**
   * The id of the first written active version of no slot with this statement key, subject and owner
   * (the same statement, which a claim without a slot joins), or null.
   */
  sameStatement(q: SameStatement): Promise<string | null>;
  /**
   * These `sameStatement` lookups will be asked in this transaction's units (a derive batch's): a
   * storage whose reads are round trips reads them now in one and answers them from it until the
   * transaction changes a Memory. One whose reads are cheap does nothing.
   */
  prefetchSame(qs: readonly SameStatement[]): Promise<void>;
  /**
   * The active versions of no slot of this owner, begun before `beforeMs` (at it or after, `ahead`), whose
   * statement holds one of `words` (case-blind, anywhere in it: the caller reads whole words), the latest
   * begun first (the earliest, `ahead`), at most `limit`: where a plan said moved may be
   * (derive/changed-plans.ts). The owner's statements are read in that order until `limit` say a word:
   * an adapter keeps them in an index of their own, never a scan of the Brain's.
   */
  statementsSaying(
    q: StatementsSaying,
  ): Promise<Array<Pick<MemoryVersionRow, 'id' | 'lineage' | 'statement'>>>;
  /**
   * As `statementsSaying`, of every owner another person is (owner_state 'other', whoever), written from
   * Records of the source `source_key`: where a booking mailed to the person may be, which a plan she
   * says moved changes (derive/changed-plans.ts). Read as `statementsSaying`'s, from an index of the
   * source's.
   */
  statementsToldFrom(
    q: StatementsToldFrom,
  ): Promise<Array<Pick<MemoryVersionRow, 'id' | 'lineage' | 'statement'>>>;
  /**
   * The active versions of no slot of this owner, begun before `beforeMs`, whose statement key (`norm`)
   * starts with `keyStart` ("to do renew "), the latest begun first, at most `limit`: the open tasks a
   * deed said done may be (derive/done-tasks.ts). A range of the statement-key index: asked of many
   * sentences, it must not read the Brain's other Memories.
   */
  statementsStarting(
    q: Omit<StatementsSaying, 'words'> & { keyStart: string },
  ): Promise<Array<Pick<MemoryVersionRow, 'id' | 'lineage' | 'statement'>>>;
  /** Every version of one lineage, by write order, as settling it reads them. */
  settling(lineage: string): Promise<SettlingVersion[]>;
  /**
   * The versions citing any of these Records, by Record then as found, each with its lineage and how
   * many of its citations are of other Records (forgetting those Records leaves it that many; a Record
   * named twice counts once).
   */
  citing(recordIds: readonly string[]): Promise<{ id: string; lineage: string; remaining: number }[]>;
  /** The lineages of versions this Record retracted or revised (forgetting it re-opens them). */
  namedBy(recordId: string): Promise<string[]>;
  /**
   * This version's citations of Records that occurred at OCCURREDMS, with each Record's source name
   * ('' for none): another source restating the value at that instant. `total`: all its citations.
   */
  citedAt(
    memoryId: string,
    occurredMs: number,
  ): Promise<
    { record_id: string; quote: string; source_key: string; speaker: string | null; total: number }[]
  >;
  /**
   * The versions, not revised yet, whose every supporting Record is an older revision of this one's
   * external item (same source name and external id, written before it), by id and lineage.
   */
  onOlderRevisions(
    record: Pick<RecordRow, 'id' | 'n' | 'source_name' | 'external_id'>,
  ): Promise<{ id: string; lineage: string }[]>;
}

/**
 * Derivation jobs that failed on every attempt, kept for Census (`derivation_failed`) instead of
 * vanishing, until the Record or Memory they were for is derived again or gone.
 */
export interface DeriveFailureRepository {
  record(failure: {
    job: 'derive' | 'rederive';
    record_id: string | null;
    memory_id: string | null;
    error: string;
    attempts: number;
    failed_at: string;
  }): Promise<void>;
  /** The failures of this Record's derivation no longer stand. */
  clearRecord(recordId: string): Promise<void>;
  /** The failures of this Memory's re-derivation no longer stand. */
  clearMemory(memoryId: string): Promise<void>;
}

/** What a correction that came from another side did in this Brain (the contract's CorrectionOutcome). */
export interface CorrectionOutcomeRow {
  record_id: string;
  state: 'applied' | 'applied_by_fallback' | 'not_applied';
  matched_by: 'statement' | 'slot' | 'closest_statement' | 'stated' | null;
  memory_id: string | null;
  /** Names Memories by id, never what a Record says: it outlives no Record, but is read beside others. */
  reason: string;
  /**
   * Not applied, for want of these Records it names (not here, not forgotten here): it is derived
   * again when one of them arrives. Empty otherwise.
   */
  missing: string[];
  /**
   * Its target matched no Memory of its Records here: stated as a Memory of its own, or a withdrawal
   * that withdrew nothing. Deriving those Records again may give one it matches. False for any other
   * outcome, a correction not applied for another reason too (more than one Memory says what it
   * corrected, the Memory found takes no correction, none of its Records is here).
   */
  unmatched: boolean;
}

/**
 * The outcomes of corrections that came from another side (travelled-correction.ts), one per
 * correction Record, gone with it.
 */
export interface CorrectionOutcomeRepository {
  /** Keeps what the correction did here, in place of what an earlier derivation of it kept. */
  put(outcome: CorrectionOutcomeRow): Promise<void>;
  /** The outcomes kept for these Records, those there are, in no order. */
  of(recordIds: readonly string[]): Promise<CorrectionOutcomeRow[]>;
  /** The corrections whose outcome misses one of these Records, by id. */
  missing(recordIds: readonly string[]): Promise<string[]>;
  /**
   * The corrections whose target matched no Memory of its Records here (`unmatched`) and names one of
   * these Records, by id: deriving those Records again may give a Memory that they match now.
   */
  unmatched(recordIds: readonly string[]): Promise<string[]>;
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
   * Removals after step `afterSeq` (or, with `opts.afterId`, after that Memory id within it), by step
   * then Memory id (bytewise), up to `limit` (undefined: all of them); `shareableOnly`: those a hosted
   * reader was served.
   */
  since(
    afterSeq: number,
    limit: number | undefined,
    opts: { shareableOnly: boolean; afterId?: string | undefined },
  ): Promise<{ memory_id: string; seq: number; reason: RemovalReason }[]>;
}
