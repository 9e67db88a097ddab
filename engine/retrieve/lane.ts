import type { CostLedger } from '../core/context/cost-ledger.ts';
import type { LexicalIndex, SlotIndex, ThreadIndex, VectorIndex, VectorModelRef } from '../ports/index.ts';

/** Which Records a Context may draw on; every lane must apply it (a SearchScope, for the indexes). */
export interface Eligibility {
  brainUid: string;
  /** Hosted deployments never serve local_only Records. */
  excludeLocalOnly: boolean;
  /** Only `shareable` Records: a Context that leaves the device (purpose `off_device`). */
  shareableOnly?: boolean | undefined;
  sinceMs?: number | undefined;
  untilMs?: number | undefined;
  sources?: string[] | undefined;
  /** World-time boundary: Records that occurred after it are not evidence. */
  asOfMs?: number | undefined;
}

export interface LaneInput {
  query: string;
  /** The query's content words, lower-cased (see queryTerms). */
  terms: string[];
  eligibility: Eligibility;
  limit: number;
  ledger: CostLedger;
  /** The query's embedding (computed once per request) and the model whose vectors it may meet. */
  queryVector?: Float32Array | null | undefined;
  vectorModel?: VectorModelRef | null | undefined;
  /** The lexical lanes' index (the lexical, entity, time, recency and when lanes, and feedback). */
  lexical: LexicalIndex;
  /** The slot lane's reads of Memories holding a slot. */
  slots: SlotIndex;
  /** Messages: the speakers a query names, the prompt lane's message before a strong match. */
  threads: ThreadIndex;
  /** The semantic lane's nearest neighbours. */
  vectors: VectorIndex;
  /** Per-request memo, so lanes that need the same search (lexical, entity) run it once. */
  memo?: Map<string, unknown> | undefined;
}

/** One Record a lane found, with its lane-local score (higher is better) and why it matched. */
export interface LaneCandidate {
  recordId: string;
  score: number;
  reason: string;
  /**
   * Set by the time lane on an event whose own times fall in the window the query names: the instant
   * it starts (an all-day event, its first date). Its date is what it says, unlike a message's, which
   * only tells when it was said; retrieve.ts lets such events lead (datedFirst).
   */
  datedMs?: number;
  /**
   * Set by the slot lane on a holder found by subjects the query names: those subjects as slot keys
   * write them ("marko"), so a question typed in lower case still tells its names from its other words.
   */
  subjects?: readonly string[];
  /**
   * The query's words the Record says: in its own text (the lexical lane; not its neighbours'), or as
   * the name of its speaker (the entity lane).
   */
  words?: readonly string[];
}

/**
 * A retrieval lane (lexical, entity, time, semantic). Lanes are independent and return their own
 * ranked candidates; fuse() merges them into one list.
 */
export interface Lane {
  readonly name: string;
  /**
   * Needs the query's embedding: retrieve() runs such lanes after the others, which overlap the
   * embedding call. Without an embedder they still run, with queryVector null; when the embedding
   * fails or runs out of budget.ms they are listed as not run instead.
   */
  readonly needsQueryVector?: boolean;
  /** May be async; retrieve() runs a request's lanes one after another. */
  search(input: LaneInput): LaneCandidate[] | Promise<LaneCandidate[]>;
}

/**
 * The world time a request reads Memories at: `as_of`, or the end of a `filter.until` window in the
 * past (a Memory superseded only after the window was current within it), whichever is earlier;
 * undefined for now.
 */
export function readTimeMs(e: Eligibility, nowMs: number): number | undefined {
  const untilMs = e.untilMs !== undefined && e.untilMs < nowMs ? e.untilMs : undefined;
  return e.asOfMs === undefined ? untilMs : untilMs === undefined ? e.asOfMs : Math.min(e.asOfMs, untilMs);
}
