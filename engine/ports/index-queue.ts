import type { VectorModelRef } from './indexes.ts';

/*
 * The retrieval indexer's work: what is still to be indexed (every Record for the lexical index, every
 * Record and Memory for the vector index), as its adapter queues it on every insert. The rules of what
 * to index (a message's thread and speaker, the text an owner is embedded from, which embedder) are the
 * indexer's; the adapter reads and writes the rows and keeps its in-memory copies of the indexes in
 * step. SQLite's calls take effect when made, and throw from the call itself.
 */

/** A queued Record or Memory. `lexical`: a Record whose lexical rows are written (its vector may wait). */
export interface IndexItem {
  owner: 'record' | 'memory';
  n: number;
  lexical: boolean;
}

/** What the lexical index keeps of a message beside its text: its thread and speaker. */
export interface LexicalEntry {
  thread: string | null;
  speaker: string | null;
  /** The speaker as a query names them (trimmed, lower-cased). */
  speakerNorm: string | null;
}

/** The indexer's rule for a Record's lexical entry, from its kind and content (JSON). */
export type LexicalRule = (kind: string, content: string) => LexicalEntry;

/**
 * What an owner is embedded from. A Record's columns (the indexer makes the text, core/retrieve/
 * embed-text.ts; `text` is its first embedTextChars characters), a Memory's statement.
 */
export type EmbedSource =
  | { owner: 'record'; n: number; brainUid: string; kind: string; content: string; text: string }
  | { owner: 'memory'; n: number; brainUid: string; statement: string };

/** A vector the embedder made for a queued owner. */
export interface EmbeddedOwner {
  owner: 'record' | 'memory';
  n: number;
  brainUid: string;
  vector: Float32Array;
}

/** A batch taken from the queue, once its vectors (if any) are made. */
export interface IndexBatch {
  items: readonly IndexItem[];
  lexical: LexicalRule;
  /** The model the vectors and `skipped` are under; absent without an embedder. */
  model?: VectorModelRef | undefined;
  vectors?: readonly EmbeddedOwner[] | undefined;
  /** Memories that need no vector of their own under `model` (see `toEmbed`). */
  skipped?: readonly number[] | undefined;
}

export interface IndexQueue {
  /** Loads the adapter's in-memory copies of the indexes; never rejects. */
  load(): Promise<void>;
  /**
   * Something was written: the in-memory copies let go of what a deletion made stale and take in
   * new rows, now (forgotten words and vectors do not wait for the next batch or search).
   */
  written(): Promise<void>;
  /** Registers the model and queues again every Record and Memory it has no vector of yet. */
  queueUnembedded(model: VectorModelRef): Promise<void>;
  /** Up to `limit` queued items, in the queue's own order. */
  claim(limit: number): Promise<IndexItem[]>;
  /**
   * Writes now the lexical entries of up to `limit` of a Brain's Records still waiting for them (a
   * Context reads its own writes); they stay queued for their vectors.
   */
  indexBrain(brainUid: string, limit: number, lexical: LexicalRule): Promise<void>;
  /**
   * What the embedder is given for these items under `model`: each Record it has no vector of, and
   * each Memory that does not restate one of its Records word for word; those that do are `skipped`
   * (that Record's vector stands for them). Owners gone are left out.
   */
  toEmbed(
    items: readonly IndexItem[],
    model: VectorModelRef,
  ): Promise<{ sources: EmbedSource[]; skipped: number[] }>;
  /**
   * Ends a batch in one transaction: its Records' lexical entries (except those written meanwhile),
   * its vectors (of owners still there), its skipped Memories marked as done under the model, and its
   * items dequeued, except a Record queued again meanwhile for its lexical entry. Waits for the
   * storage's open unit of work; writes nothing when `cancelled()` says so by then.
   */
  complete(batch: IndexBatch, cancelled: () => boolean): Promise<void>;
  /** Lets go of the in-memory copies, for good. */
  release(): Promise<void>;
}
