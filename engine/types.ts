import type {
  AcceptedObject,
  Brain,
  BrainCreate,
  BrainUpdate,
  Census,
  Context,
  ContextRequest,
  DeletionReceipt,
  Kind,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MnemoRecord,
  ObjectAccept,
  ObjectListQuery,
  ObjectPage,
  Profile,
  RecordCreate,
  RecordListQuery,
  RecordPage,
  SourceChatList,
  SourceList,
  Trace,
  TracePage,
  RecordReplica,
  ReplicaOutcome,
  ReplicateResult,
  SyncPairing,
  SelfEntity,
  SyncStatus,
  TombstoneResult,
} from './contract/index.ts';
import type { PushedFields, RunEnd } from './ports/index.ts';

/**
 * A pairing's sync status as the store keeps it: the contract's SyncStatus without what only the running
 * server's schedule knows (`running`, `next_run_at`), which its sync service adds.
 */
export type PairingStatus = Omit<SyncStatus, 'running' | 'next_run_at' | 'pull_budget'> & {
  /** What the pull read by the hour over the last day: the service tells its budget from it (pull_budget). */
  pulledHours: PulledHour[];
};

/**
 * Records and bytes a pairing's pull read from its remote's change feed in one hour: its day's budget
 * is counted from these (server/sync/pull-budget.ts, docs/sync.md "The pull's budget").
 */
export interface PulledHour {
  /** The hour's start, in ms since the epoch. */
  hour: number;
  records: number;
  bytes: number;
}

/** The namespace a credential selects: its project and environment. Nothing else selects it. */
export interface Tenant {
  project: string;
  env: 'test' | 'live';
}

export type Deployment = 'local' | 'hosted';

export interface WriteOptions {
  idempotencyKey?: string | undefined;
}

export interface ContextOptions {
  /** The Brain-Watermark request header, verbatim. */
  watermark?: string | undefined;
  requestId: string;
  /** Set for `Accept: text/event-stream` on a thorough request: receives stage events as they happen. */
  onEvent?: ((event: ContextEvent) => void) | undefined;
}

export interface ContextEvent {
  event: 'stage' | 'context';
  data: Record<string, unknown>;
}

export interface FailedRequest {
  requestId: string;
  query: string;
  mode: 'fast' | 'thorough';
  request: Record<string, unknown>;
  error: { code: string; message: string };
}

export interface EngineInfo {
  name: 'reference' | 'local' | 'postgres';
  /** Kinds rememberRecord accepts. */
  kinds: readonly Kind[];
  /**
   * How an unaccepted kind is reported: the reference engine lists its four kinds in an
   * invalid_request_body message; the local engine answers unknown_kind.
   */
  unknownKindCode: 'invalid_request_body' | 'unknown_kind';
  deployment: Deployment;
  /** The embedder behind the semantic lane, `provider:model`, or `none`. */
  readonly embedder?: string;
  /** The IANA time zone whose calendar days time expressions in queries are read in (local engine). */
  readonly timeZone?: string;
  /** Bytes the in-memory copies of the vectors hold now (local engine; only searched Brains are loaded). */
  readonly vectorCopyBytes?: number;
  /** Bytes of typed arrays the in-memory copy of the lexical index holds (local engine; loaded in the background). */
  readonly lexicalCopyBytes?: number;
  /** Lexical searches the in-memory copy answered so far (the others went to SQLite's FTS5). */
  readonly lexicalCopyAnswers?: number;
}

/**
 * The memory engine: every operation of the spec. Both the reference engine and the local engine
 * implement it and pass one contract suite. Operations throw MnemoError for every spec'd failure.
 */
export interface Engine {
  readonly info: EngineInfo;

  listBrains(t: Tenant): Promise<Brain[]>;
  /** `watermark`: the new Brain's first boundary (a write returns one; HTTP sends Brain-Watermark). */
  createBrain(t: Tenant, body: BrainCreate): Promise<{ brain: Brain; watermark: string }>;
  getBrain(t: Tenant, brainId: string): Promise<Brain>;
  /**
   * Sets the Brain's name or self (additive). A self set or changed lists the Brain's Records to be
   * derived again in the background (where the engine derives owners), so that Memories of what the
   * self said are the self's; `watermark`: the boundary after the change.
   */
  updateBrain(t: Tenant, brainId: string, body: BrainUpdate): Promise<{ brain: Brain; watermark: string }>;
  forgetBrain(t: Tenant, brainId: string): Promise<DeletionReceipt>;
  getProfile(t: Tenant, brainId: string, q: { limit: number; cursor?: string | undefined }): Promise<Profile>;
  getCensus(t: Tenant, brainId: string): Promise<Census>;

  /**
   * `replayed`: an Idempotency-Key returned an earlier write's result and nothing was written (HTTP
   * sends it as Idempotent-Replayed, so an importer counts unchanged items without comparing clocks).
   */
  rememberRecord(
    t: Tenant,
    brainId: string,
    body: RecordCreate,
    opts: WriteOptions,
  ): Promise<{ record: MnemoRecord; watermark: string; replayed: boolean }>;
  getRecord(t: Tenant, brainId: string, recordId: string): Promise<MnemoRecord>;
  listRecords(t: Tenant, brainId: string, q: RecordListQuery): Promise<RecordPage>;
  /**
   * Every external id the Brain's Records of one source.name carry, once each, in no order: what an
   * import names its notes after (server/import/known-note-names.ts). Not a /v1 operation: its caller
   * checks the principal may read Records (records:read).
   */
  sourceExternalIds(t: Tenant, brainId: string, sourceName: string): Promise<string[]>;
  forgetRecord(t: Tenant, brainId: string, recordId: string): Promise<DeletionReceipt>;

  /** The source.name values of the Brain's Records, with counts and time span (additive). */
  listSources(t: Tenant, brainId: string): Promise<SourceList>;
  /**
   * Forgets every Record of one source.name, reconciled or not: the explicit "remove a whole import".
   * Cascades as forgetRecord does for each; source_not_found when no Record carries the name (additive).
   */
  forgetSource(t: Tenant, brainId: string, sourceName: string): Promise<DeletionReceipt>;
  /**
   * Forgets every Record of one source.name whose external id is one of EXTERNALIDS (each revision of
   * those items), in one transaction, with forgetRecord's cascade: what an import asked to forget the
   * items missing from its files removes (additive). Ids no Record carries are passed over; none found
   * is a receipt of nothing, so a repeat is harmless.
   */
  forgetSourceItems(
    t: Tenant,
    brainId: string,
    sourceName: string,
    externalIds: readonly string[],
  ): Promise<DeletionReceipt>;
  /** The chats of one source.name, told apart by their items' external ids (chatOfItem; additive). */
  listSourceChats(t: Tenant, brainId: string, sourceName: string): Promise<SourceChatList>;
  /**
   * Forgets every Record of one chat of a source.name, every revision, in one transaction with
   * forgetRecord's cascade (additive): one WhatsApp chat removed, the source's others kept.
   * source_not_found when none of the source's Records is of that chat.
   */
  forgetSourceChat(t: Tenant, brainId: string, sourceName: string, chat: string): Promise<DeletionReceipt>;

  listMemories(t: Tenant, brainId: string, q: MemoryListQuery): Promise<MemoryPage>;
  getMemory(t: Tenant, brainId: string, memoryId: string): Promise<MemoryDetail>;

  /** `watermark`: the boundary after the accept (of the original accept when `replayed`). */
  acceptObject(
    t: Tenant,
    brainId: string,
    body: ObjectAccept,
    opts: WriteOptions,
  ): Promise<{ object: AcceptedObject; watermark: string; replayed: boolean }>;
  getObject(t: Tenant, brainId: string, type: string, key: string): Promise<AcceptedObject>;
  /** The current version of every Object, by type then key, paged (additive). */
  listObjects(t: Tenant, brainId: string, q: ObjectListQuery): Promise<ObjectPage>;

  createContext(t: Tenant, brainId: string, body: ContextRequest, opts: ContextOptions): Promise<Context>;
  /** Keeps a trace of a failed createContext; returns its trc_ id (null when the Brain is unknown). */
  recordFailedContext(t: Tenant, brainId: string, failure: FailedRequest): Promise<string | null>;
  listTraces(
    t: Tenant,
    brainId: string,
    q: { limit: number; cursor?: string | undefined },
  ): Promise<TracePage>;
  getTrace(t: Tenant, brainId: string, traceId: string): Promise<Trace>;

  /** Sync with a hosted Mnemo (additive; the local engine only): see docs/sync.md. */
  readonly sync?: EngineSync;

  /** Resolves when every Record accepted so far has been derived (tests and benchmarks use it). */
  idle(): Promise<void>;
  /**
   * Resolves when the engine can serve from its store now, else rejects saying why (a hosted server's
   * database cannot be reached, the engine is closed): `GET /v1/health` asks it for a load balancer.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface RemoteOf {
  remote: string;
  remoteBrain: string;
  remoteKey: string;
  pullWatermark: string | null;
  /** What the pull read by the hour over the last day (keepPulledHours). */
  pulledHours: PulledHour[];
  /**
   * The pairing this is, as made: a run passes it to every write of its cursors, which refuse it
   * (sync_not_paired) once the Brain was paired again or unpaired.
   */
  pairingId: string;
  /**
   * This Brain's self, which the run gives the remote Brain where it has none (docs/sync.md, "The
   * self"); null: this Brain has none.
   */
  self: SelfEntity | null;
}

export interface OutboxItem {
  localId: string;
  replica: RecordReplica;
  /** No batch sent this Record before (no remote id was kept): the remote cannot have forgotten it. */
  firstSend?: true;
}

/** The next Records to push, in the Brain's sequence, and what the redactor and the rules kept back. */
export interface OutboxBatch {
  items: OutboxItem[];
  kept: { localId: string; fate: 'held_back' | 'skipped'; reason: string }[];
  /** The step the push cursor moves to once this batch is through. */
  throughSeq: number;
}

/**
 * The next tombstones to send: the ids the remote knows their Records by (some Records never left the
 * device), and where the tombstone cursor moves once they are through; null when none is left.
 */
export interface TombstoneBatch {
  ids: string[];
  through: { seq: number; recordId: string } | null;
}

/** What a push batch or a feed page did with the forgets its remote asked for (docs/sync.md). */
export interface RemoteForgets {
  /** Records of this device forgotten because the remote said so. */
  forgotten: number;
  /** Ids held for the person to confirm (the guard), nothing forgotten for them yet. */
  held: number;
}

/**
 * Sync, as the local engine offers it (docs/sync.md): the hosted side's replication routes, and the
 * device side's pairing, outbox and pull, each over the encrypted store. The server's sync runner
 * drives the device side and talks to the remote; nothing here opens a connection.
 */
export interface EngineSync {
  /** Hosted side: Records under their own ids (replicateRecords route). */
  replicate(t: Tenant, brainId: string, records: readonly RecordReplica[]): Promise<ReplicateResult>;
  /** Hosted side: forgets the ids and keeps their tombstones (forgetReplicas route). */
  tombstones(t: Tenant, brainId: string, ids: readonly string[]): Promise<TombstoneResult>;

  status(t: Tenant, brainId: string): Promise<PairingStatus>;
  pair(t: Tenant, brainId: string, body: SyncPairing): Promise<PairingStatus>;
  unpair(t: Tenant, brainId: string): Promise<PairingStatus>;
  /**
   * Gives the Brain its remote Brain's self when it has none (docs/sync.md, "The self"); false when it
   * has one, set meanwhile, which is kept. Refused (sync_not_paired) once the pairing was replaced.
   */
  takeSelf(t: Tenant, brainId: string, pairingId: string, self: SelfEntity): Promise<boolean>;
  pairedBrains(): Promise<{ project: string; env: 'test' | 'live'; brainId: string }[]>;
  remoteOf(t: Tenant, brainId: string): Promise<RemoteOf>;
  outbox(t: Tenant, brainId: string, limit: number): Promise<OutboxBatch>;
  markPushed(
    t: Tenant,
    brainId: string,
    pairingId: string,
    batch: OutboxBatch,
    outcomes: ReadonlyMap<string, ReplicaOutcome>,
    /** What the batch did with content fields newer than the remote (newerContentFields). */
    fields?: PushedFields,
  ): Promise<RemoteForgets>;
  tombstonesToSend(t: Tenant, brainId: string, limit: number): Promise<TombstoneBatch>;
  markTombstonesSent(
    t: Tenant,
    brainId: string,
    pairingId: string,
    through: NonNullable<TombstoneBatch['through']>,
  ): Promise<void>;
  /** Back to the start of the push and the pull: the remote Brain is not the one the pairing synced with. */
  restart(t: Tenant, brainId: string, pairingId: string): Promise<void>;
  /** A page of the remote's feed, of the pull or (`reread`) of the re-read beginReread started. */
  applyPulled(
    t: Tenant,
    brainId: string,
    pairingId: string,
    page: RecordPage,
    /** `pulledHours`: what the pull read by the hour with this page, kept in the page's transaction. */
    o?: { reread?: boolean; pulledHours?: readonly PulledHour[] },
  ): Promise<{ pulled: number; skipped: number } & RemoteForgets>;
  /**
   * Applies the forgets the remote asked for that the guard held, once the person confirmed `count`
   * of them (sync_forgets_changed when another number is held); how many Records it forgot.
   */
  acceptForgets(t: Tenant, brainId: string, count: number): Promise<number>;
  /**
   * Where to read the feed again from once the pull is through (a re-read under way, or one this
   * version starts for what an older one skipped), or null.
   */
  beginReread(t: Tenant, brainId: string, pairingId: string): Promise<string | null>;
  /**
   * Keeps what the pull read by the hour (its day's budget), replacing what was kept (a page's is kept
   * with it: applyPulled's `pulledHours`). Refused (sync_not_paired) once the pairing was replaced.
   */
  keepPulledHours(t: Tenant, brainId: string, pairingId: string, hours: readonly PulledHour[]): Promise<void>;
  /** Keeps the run's end with its pairing; nothing when the Brain was paired again or unpaired since. */
  finishRun(t: Tenant, brainId: string, pairingId: string, end: RunEnd): Promise<void>;
}
