import type { Census } from '../contract/index.ts';

/*
 * What a Census reads of one Brain: its counts and its noise, in one call, so the adapter reads them
 * in a few statements of one snapshot whatever the Brain's size. The temporal rules are the core's
 * (core/temporal/memory-time.ts), as MemoryReads applies them.
 */

/** A kind of noise the census names. */
export type NoiseKind = Census['noise'][number]['kind'];

/** How many of a kind of noise, and the first ids that show it. */
export interface NoiseTally {
  count: number;
  /** The first `examples` ids, by id (bytewise). */
  examples: string[];
}

/** A Brain as the census counts it (see CensusReads.census for what each number takes in). */
export interface CensusTally {
  records: number;
  /** Records whose derivation is still queued (their status is processing). */
  recordsProcessing: number;
  /** Objects by type/key, each once whatever its versions. */
  objects: number;
  /** Memories not pending re-derivation, by their effective status at nowMs (statusAt). */
  memoriesActive: number;
  memoriesScheduled: number;
  /** Superseded at nowMs, pending re-derivation or not. */
  memoriesSuperseded: number;
  memoriesPending: number;
  noise: Record<NoiseKind, NoiseTally>;
}

export interface CensusReads {
  /**
   * The Brain's counts and noise, statuses read at `nowMs`. `shareableOnly` (a hosted reader) counts
   * and names only what that reader is served: no local_only Record, no Memory without a supporting
   * Record that is not local_only; Objects are counted either way. The kinds of noise:
   * - duplicates: Records whose text equals, character for character, that of a Record written
   *   before them (one the reader is served too);
   * - conflicts: current slot values (servedAt now) whose slot holds another current value;
   * - unresolved_owner: current Memories whose owner is unresolved;
   * - pending_rederivation: Memories pending re-derivation;
   * - low_trust_source: Records of low trust;
   * - retracted: Memories retracted by a correction;
   * - derivation_failed: the Record of each failed derivation and the Memory of each failed
   *   re-derivation still standing (DeriveFailureRepository), once per failure.
   */
  census(q: { nowMs: number; shareableOnly: boolean; examples: number }): Promise<CensusTally>;
}
