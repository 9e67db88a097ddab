import type { Trace, TracePage } from '../contract/index.ts';

/**
 * Recent Traces of Context requests, per Brain, newest first. Today in memory and bounded (oldest
 * evicted; context/trace-buffer.ts): a restart clears them. Forgetting reaches here too: a Trace
 * quotes and ranks the text of the Records it names.
 *
 * Calls take effect in the order they are made, whenever their promises settle: a forget called after
 * an add drops what that add stores. A Context's assembly relies on it (assemble-context.ts).
 */
export interface TraceStore {
  /**
   * Adds a Trace, or replaces the one of the same id (a thorough Context's final Trace). A
   * `processing` Trace (a 202's) never replaces one: the finished one may have been added first.
   */
  add(brainUid: string, trace: Trace): Promise<void>;
  /** Newest first; `cursor` (a page's next_cursor) continues with older Traces. */
  list(brainUid: string, limit: number, cursor?: string | undefined): Promise<TracePage>;
  /** The Trace, or `trace_not_found`. */
  get(brainUid: string, id: string): Promise<Trace>;
  /** Drops every Trace of a Brain (forgetBrain). */
  purge(brainUid: string): Promise<void>;
  /** Drops the Brain's Traces that name any of these Records. */
  forgetRecords(brainUid: string, recordIds: readonly string[]): Promise<void>;
  /** Drops one Trace (a Context whose assembly outlived a forget of what it names). */
  remove(brainUid: string, id: string): Promise<void>;
  /**
   * How many forgets (purge, forgetRecords) have been called so far, counted at the call: a Trace
   * finished after one may name what is gone. Synchronous, so it can be read together with an add.
   */
  forgets(): number;
}
