/**
 * One Brain's transaction sequence: every write takes the next step, and a watermark names a step. A
 * reader that sent a watermark waits (or answers `processing`) until derivation has reached it.
 * Steps have no gaps and never go back, except that a restored backup reuses the steps after it
 * (readers' older watermarks are then refused).
 */
export interface BrainSequence {
  /** Takes the next step; only inside a unit of work, whose commit makes it visible. */
  next(): Promise<number>;
  /** The last committed step. */
  current(): Promise<number>;
}

/** The secret watermarks are signed with: created with the storage and kept inside it (encrypted). */
export interface WatermarkSecretSource {
  watermarkSecret(): Promise<Uint8Array>;
}
