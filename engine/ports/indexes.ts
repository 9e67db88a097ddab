/*
 * The search indexes retrieval's lanes read. Each is kept in step with the Records and Memories by its
 * adapter (SQLite: triggers and an index queue, in the writing transaction), and each names its
 * backend (core/retrieve/backends.ts), since a learned reranker is trained on one backend's scores.
 */

/** The request's conditions on the Records a search may return (retrieve/lane.ts Eligibility). */
export interface SearchScope {
  brainUid: string;
  excludeLocalOnly: boolean;
  /** Only `shareable` Records (neither local_only nor redacted_summary). */
  shareableOnly?: boolean | undefined;
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
  asOfMs?: number | undefined;
  sources?: readonly string[] | undefined;
  /** A window of the search's own (a time expression in the query): from inclusive, to exclusive. */
  fromMs?: number | undefined;
  toMs?: number | undefined;
}

/** A Record a search found, with its backend's score (higher is better). */
export interface ScoredRecord {
  recordN: number;
  recordId: string;
  score: number;
}

/**
 * A Record a lexical search found, with what the lanes read of it: read in the search's own statement,
 * which reads the Record's row anyway to apply the scope.
 */
export interface LexicalHit extends ScoredRecord {
  /** The first 2,000 characters of its text. */
  text: string;
  /** A message's speaker, trimmed and lower-cased (how a query names them); else null. */
  speakerNorm: string | null;
  occurredMs: number;
  /** The Record's kind (the time lane reads an all-day event's day by its date, core/retrieve/all-day.ts). */
  kind: string;
}

/** Full-text search over message turns (a turn with its neighbours' words) and documents. */
export interface LexicalIndex {
  /** e.g. `sqlite-fts5/bm25`. */
  readonly backend: string;
  /**
   * The best `limit` Records for these words within the scope, best first, ranking at most `cut` of
   * the best matches before the scope's conditions (a deeper cut for scopes that hide many).
   */
  search(query: {
    terms: readonly string[];
    scope: SearchScope;
    cut: number;
    limit: number;
  }): Promise<LexicalHit[]>;
  /** Whether any Record of the Brain lies in the scope's time window (skips a search that finds none). */
  anyInWindow(scope: SearchScope): Promise<boolean>;
  /**
   * Up to `limit` Records of the scope whose time lies in its own window (fromMs, toMs), earliest
   * first (latest first with `order: 'newest'`; ties by the order Records entered), with score 0: a
   * question about a date may share no word with its answer.
   */
  inWindow(scope: SearchScope, limit: number, order?: 'oldest' | 'newest'): Promise<LexicalHit[]>;
  /**
   * How common each word is in the Brain's own texts (pseudo-relevance feedback keeps the rare ones):
   * how many Records the index holds for the Brain, and for each word how many of them have it in
   * their own text (not in a neighbour's or the speaker's), counted up to `cap`.
   */
  textFrequencies(
    brainUid: string,
    words: readonly string[],
    cap: number,
  ): Promise<{ records: number; counts: number[] }>;
  /**
   * Whether any Record of the Brain has each word in its own text, as textFrequencies counts it (not a
   * neighbour's or the speaker's), in order: a Context names a question whose words no Record says.
   * A word the index does not index (a stop word of PostgreSQL's configuration) is said.
   */
  saysWords(brainUid: string, words: readonly string[]): Promise<boolean[]>;
  /**
   * The first 2,000 characters of the text of each of these Records of the Brain, its time, kind and
   * speaker, as a hit carries them, for Records other lanes found (feedback reads the best candidates'
   * words, the semantic lane tells repeats apart); in no order.
   */
  texts(
    brainUid: string,
    recordIds: readonly string[],
  ): Promise<Pick<LexicalHit, 'recordId' | 'text' | 'occurredMs' | 'kind' | 'speakerNorm'>[]>;
}

/** A Record behind a Memory holding a slot, as the slot lane reads it. */
export interface SlotHolding {
  recordId: string;
  memoryId: string;
  statement: string;
}

/**
 * The slot lane's reads: Memories that hold a slot (a subject's value of a predicate, keyed as
 * core/derive/slot-key.ts writes it), and the Records behind them.
 */
export interface SlotIndex {
  /** Of these slot keys, those some Memory of the Brain holds or held, in no order. */
  known(brainUid: string, keys: readonly string[]): Promise<string[]>;
  /**
   * Up to `limit` slot keys of the Brain whose subject's first word is `first` (followed by more
   * words) and whose predicate is one of `predicates`: a first name standing for a full one.
   */
  ofFirstName(
    brainUid: string,
    first: string,
    predicates: readonly string[],
    limit: number,
  ): Promise<string[]>;
  /** The name of the Brain's own person, whose slots a question about "I" asks for; null when unset. */
  selfName(brainUid: string): Promise<string | null>;
  /**
   * The Memories of the Brain that hold one of `slots` or held it for some time (active, derived; not
   * retracted, nor corrected, which holds for no time), whatever Records a request may see, in no
   * order: the Brain's own person's nicknames, each of which names her in a query though a later one
   * holds the slot (retrieve/self-names.ts), and find nothing by themselves.
   */
  held(
    brainUid: string,
    slots: readonly string[],
  ): Promise<{ statement: string; subject: string; predicate: string | null }[]>;
  /**
   * The Records of `scope` behind the first `limit` Memories served at `readTimeMs` (current at
   * `nowMs` when undefined) that hold one of `slots`, or any slot of one of `predicates`, or (slot or
   * not) whose statement starts with `statementStart.statement` and whose statement key (`norm`) with
   * `statementStart.key` ("To do: " and "to do": a checklist's open tasks), and have a Record in the
   * scope: those of the Brain's own person first, then the latest `valid_from`; each holder's Records
   * by id.
   *
   * With `during`, the Memories served at some instant of that span instead (as `readTimeMs` would
   * serve them at that instant; `readTimeMs` is then not read): what held then, though superseded since.
   * The Brain's own person's first, then those that held the longest part of the span, then the latest.
   */
  holdings(q: {
    scope: SearchScope;
    nowMs: number;
    readTimeMs: number | undefined;
    during?: { fromMs: number; toMs: number } | undefined;
    by:
      | { slots: readonly string[] }
      | { predicates: readonly string[] }
      | { statementStart: { statement: string; key: string } };
    limit: number;
  }): Promise<SlotHolding[]>;
}

/** The identity of an embedding model; vectors of different models are never compared. */
export interface VectorModelRef {
  provider: string;
  model: string;
  dims: number;
}

/**
 * Nearest-neighbour search over the vectors of Records and Memories, per embedding model. What is
 * still to be embedded, and from which text, is the indexer's: one queue feeds this index and the
 * lexical one, and a Record leaves it once both are written.
 */
export interface VectorIndex {
  /** e.g. `sqlite-vec/int8-l2`. */
  readonly backend: string;
  /** Registers a model (idempotent) before its vectors are written. */
  ensureModel(model: VectorModelRef): Promise<void>;
  /** Writes (or replaces) one vector; a vector with no direction is stored as none. */
  put(
    model: VectorModelRef,
    owner: 'record' | 'memory',
    n: number,
    brainUid: string,
    vector: Float32Array,
  ): Promise<void>;
  /**
   * Removes one Record's or Memory's vectors under every model, for good, and has it embedded again:
   * its text changed in place (a Memory derived again in the words of a surviving Record).
   */
  drop(owner: 'record' | 'memory', n: number, brainUid: string): Promise<void>;
  /** The k nearest of one Brain's vectors, nearest first, with the backend's distance. */
  nearest(
    model: VectorModelRef,
    owner: 'record' | 'memory',
    brainUid: string,
    query: Float32Array,
    k: number,
  ): Promise<{ n: number; distance: number }[]>;
  /**
   * The Records these Memories of the Brain cite (a Memory's neighbour stands for them). The scope is
   * applied after, by `inScope`: a vector index holds no Record's time, source or visibility.
   */
  cited(brainUid: string, memoryNs: readonly number[]): Promise<{ memoryN: number; recordN: number }[]>;
  /** Those of these Records that the scope lets through, with their ids, in no particular order. */
  inScope(recordNs: readonly number[], scope: SearchScope): Promise<{ n: number; id: string }[]>;
}

/** What the reranker reads of a candidate Record besides the lanes' scores (retrieve/rerank-features.ts). */
export interface RecordFacts {
  recordId: string;
  recordN: number;
  /** Its text's length in characters (code points), and whether the text holds a '?'. */
  length: number;
  question: boolean;
  /** The first 2,000 characters of its text. */
  text: string;
  /** A message's speaker, trimmed and lower-cased (none when empty); else null. */
  speakerNorm: string | null;
  /** A message's thread; else null. */
  thread: string | null;
  /**
   * The messages two and one before it and one and two after it in its thread (their `n`), counting
   * only those the scope lets through; null where there is none.
   */
  around: [number | null, number | null, number | null, number | null];
}

/**
 * Messages: which Records sit next to which in their threads (the thread and neighbour features,
 * context), and who said them.
 */
export interface ThreadIndex {
  /**
   * Of these names (trimmed and lower-cased, as a query names a speaker), those a message of the Brain
   * was said by (its speaker trimmed and lower-cased; an empty one names nobody), each once, in
   * bytewise order.
   */
  speakers(brainUid: string, names: readonly string[]): Promise<string[]>;
  /**
   * Of these first names (folded: resolve-owner.ts foldName), each the Brain's speakers called by it
   * (givenName: "petra" of "Petra Kos"), folded, the name itself among them where someone speaks under
   * it alone; a first name nobody is called by is left out. A speaker whose messages were all forgotten
   * may stay (core/derive/speakers-by-first-name.ts).
   */
  speakersFirstNamed(
    brainUid: string,
    firsts: readonly string[],
  ): Promise<Array<{ first: string; speakers: string[] }>>;
  /**
   * The facts of each of these Records of the scope's Brain (ids of none are left out), in no order.
   * Only the neighbours are scoped: a candidate's thread may hold messages its request may not see,
   * and those are no neighbours (they must not shape its order).
   */
  facts(recordIds: readonly string[], scope: SearchScope): Promise<RecordFacts[]>;
  /** The thread of each Record that is a message in one, else null, in the order asked. */
  threadsOf(recordNs: readonly number[]): Promise<(string | null)[]>;
  /** Up to `before` and `after` messages around a Record in its thread, in thread order. */
  neighbours(
    recordN: number,
    before: number,
    after: number,
  ): Promise<{ n: number; id: string; offset: number }[]>;
  /**
   * For each of these Records of the scope's Brain that is a message in a thread, the message just
   * before it there, when the scope lets that one through (and not an earlier one when it does not:
   * the prompt lane wants the message that drew an answer out). In the order asked.
   */
  justBefore(
    recordIds: readonly string[],
    scope: SearchScope,
  ): Promise<{ recordId: string; beforeId: string }[]>;
}
