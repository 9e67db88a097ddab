import type { Brain } from '../contract/index.ts';
import type { ThoroughSync } from '../core/context/thorough-sync.ts';
import type { DeriveWorker } from '../derive/derive-worker.ts';
import type { Deriver } from '../core/derive/deriver.ts';
import { selfOf } from '../core/shared/brain-self.ts';
import type { Reranker } from '../retrieve/reranker.ts';
import type { DerivationUpgrade } from '../derive/upgrade-derivation.ts';
import type { BrainRepository, BrainRow, DeviceSyncStore, Storage, TraceStore } from '../ports/index.ts';
import type { Lane } from '../retrieve/lane.ts';
import type { TimeZone } from '../core/retrieve/time-zone.ts';
import type { SqliteUnits } from '../adapters/sqlite/unit-of-work.ts';
import type { Deployment, Tenant } from '../types.ts';
import type { WatermarkCodec } from '../watermark.ts';
import { noSuchBrain, type BrainUids } from './brain-uids.ts';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Everything the engine's operations share, over any storage's ports: built once by the engine that
 * composes them (createLocalEngine over SQLite, createPostgresEngine over PostgreSQL).
 */
export interface EngineCtx {
  /** The Brains, through their port. */
  brains: BrainRepository;
  /** Uids of the Brains appended to lately, checked by each unit of work (brain-uids.ts). */
  brainUids: BrainUids;
  /** Units of work of one Brain (Storage.write/read): every repository the operations use. */
  units: Pick<Storage, 'write' | 'read'>;
  codec: WatermarkCodec;
  deployment: Deployment;
  deriver: Deriver;
  worker: DeriveWorker;
  lanes: Lane[];
  /** Reorders each Context's best fused candidates; null keeps the fusion's order. */
  reranker: Reranker | null;
  traces: TraceStore;
  /** Thorough Contexts kept for the retry after a 202; null when thorough answers synchronously. */
  thorough: ThoroughSync | null;
  clock: () => Date;
  /** The person's time zone: a Record written without occurred_at is stamped on its clock. */
  zone: TimeZone;
  logger: Logger;
  /** Delay before a Memory that lost some support is re-derived (it is hidden meanwhile). */
  rederiveDelayMs: number;
  /**
   * Once a forget committed, before it answers: the storage lets go of forgotten bytes it still holds
   * outside its tables (SQLite's WAL). PostgreSQL has nothing to do here (docs/hosted-postgres.md).
   */
  emptyLog(): Promise<unknown>;
  /**
   * Records of this device whose redacted copies went to a hosted Brain under these ids, so the
   * copy's tombstone forgets the original: device sync's own table. A hosted Brain has none.
   * `travelledOnly`: none whose first send the remote refused and never took since.
   */
  originalsOfPushedCopies(
    brainUid: string,
    ids: readonly string[],
    travelledOnly?: boolean,
  ): Promise<string[]>;
  /**
   * Those of these Records that came from a sync remote's feed, read in the caller's unit of work: no
   * item of this device's own imports (forgetSource leaves them), each erasable on its own whatever
   * source it names (docs/sync.md). A hosted Brain pulls none.
   */
  fromRemote(brainUid: string, ids: readonly string[]): Promise<string[]>;
  /**
   * The rules' upgrade pass (derive/upgrade-derivation.ts), which `worker` runs when it has no job:
   * relistBrain lists a Brain's Records to be derived again once its self was set or changed.
   */
  upkeep: Pick<DerivationUpgrade, 'relistBrain'>;
}

/** The local engine's: the ports over its SQLite store, device sync's rows among them. */
export interface LocalCtx extends EngineCtx {
  units: SqliteUnits;
  /** What the device keeps to sync its Brains with a hosted Mnemo (local/sync/). */
  device: DeviceSyncStore;
}

export type { BrainRow };

/**
 * The Brain in this tenant; another tenant's Brain is indistinguishable from none. Read before the
 * operation's unit of work, which checks the Brain again inside its transaction: a forgetBrain that
 * lands in between answers brain_not_found there.
 */
export async function requireBrain(ctx: EngineCtx, t: Tenant, brainId: string): Promise<BrainRow> {
  const b = await ctx.brains.find(t, brainId);
  if (!b) throw noSuchBrain(brainId);
  return b;
}

export function toBrain(b: BrainRow): Brain {
  return { id: b.id, object: 'brain', name: b.name, self: selfOf(b), created_at: b.created_at };
}

/** The watermark naming step `seq` of the Brain's sequence. */
export function watermarkAt(ctx: EngineCtx, b: Pick<BrainRow, 'uid'>, seq: number): string {
  return ctx.codec.encode(b.uid, seq);
}

/** The watermark of the Brain's last committed step: read it before what it vouches for. */
export async function watermarkOf(ctx: EngineCtx, b: BrainRow): Promise<string> {
  return ctx.codec.encode(b.uid, await ctx.brains.currentSeq(b.uid));
}

/** The key prefix of a Brain's entries in the thorough cache. */
export const thoroughKeyPrefix = (brainUid: string) => `${brainUid}\n`;

/**
 * What a forget must clear outside the store, once its transaction committed: traces that name the
 * forgotten Records, and the Brain's kept thorough Contexts (any may cite them). recordIds null: all.
 */
export async function afterForget(
  ctx: EngineCtx,
  brainUid: string,
  recordIds: readonly string[] | null,
): Promise<void> {
  await ctx.thorough?.forget(thoroughKeyPrefix(brainUid));
  if (recordIds === null) await ctx.traces.purge(brainUid);
  else await ctx.traces.forgetRecords(brainUid, recordIds);
}

export function nowIso(ctx: EngineCtx): string {
  return ctx.clock().toISOString();
}
