import type {
  TracePage,
  AcceptedObject,
  Brain,
  Memory,
  MemoryRemoval,
  MnemoRecord,
  Trace,
  TypedContent,
} from '../contract/index.ts';

export interface StoredRecord {
  record: MnemoRecord;
  text: string;
  content: TypedContent;
  seq: number;
}

export interface StoredMemory {
  memory: Memory;
  seq: number;
  /** Write order, which a delta read keeps within a step (as the local engine's `n`). */
  n: number;
}

export interface BrainState {
  brain: Brain;
  /** Unique per Brain incarnation: watermarks of a deleted Brain never validate on its successor. */
  uid: string;
  seq: number;
  records: Map<string, StoredRecord>;
  memories: Map<string, StoredMemory>;
  /**
   * Tombstones for delta reads: Memories that left the served set, by id (ids are never reused), at
   * the step that removed them, with the visibility of the Record that supported them. Ids only.
   */
  removals: Map<string, { seq: number; reason: MemoryRemoval['reason']; visibility: string }>;
  objects: Map<string, AcceptedObject[]>;
  /** Per scoped key: the body's fingerprint, what it made, and the sequence after it (its boundary). */
  idempotency: Map<string, { fingerprint: string; resultId: string; seq: number }>;
  /** This Brain's view of the engine-wide trace buffer. */
  traces: {
    add(trace: Trace): Promise<void>;
    list(limit: number, cursor?: string | undefined): Promise<TracePage>;
    get(id: string): Promise<Trace>;
  };
}
