import type {
  RecordPage,
  RecordReplica,
  ReplicaOutcome,
  ReplicateResult,
  SyncPairing,
  SyncStatus,
  TombstoneResult,
} from '../contract/index.ts';
import type { Tenant } from '../types.ts';
import type { OutboxBatch, RemoteOf } from './device-sync.ts';

export type { OutboxBatch, OutboxItem, RemoteOf } from './device-sync.ts';

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

  status(t: Tenant, brainId: string): Promise<SyncStatus>;
  pair(t: Tenant, brainId: string, body: SyncPairing): Promise<SyncStatus>;
  unpair(t: Tenant, brainId: string): Promise<SyncStatus>;
  pairedBrains(): Promise<{ project: string; env: 'test' | 'live'; brainId: string }[]>;
  remoteOf(t: Tenant, brainId: string): Promise<RemoteOf>;
  outbox(t: Tenant, brainId: string, limit: number): Promise<OutboxBatch>;
  markPushed(
    t: Tenant,
    brainId: string,
    batch: OutboxBatch,
    outcomes: ReadonlyMap<string, ReplicaOutcome>,
  ): Promise<void>;
  tombstonesToSend(t: Tenant, brainId: string, limit: number): Promise<{ ids: string[]; throughSeq: number }>;
  markTombstonesSent(t: Tenant, brainId: string, throughSeq: number): Promise<void>;
  applyPulled(t: Tenant, brainId: string, page: RecordPage): Promise<{ pulled: number }>;
  finishRun(t: Tenant, brainId: string, error: string | null): Promise<void>;
}
