import { requireBrain, type BrainRow, type LocalCtx } from '../local-ctx.ts';
import type { Tenant } from '../../types.ts';
import * as device from './device-sync.ts';
import type { EngineSync } from '../../types.ts';
import type { OperationWrap } from '../engine-operations.ts';
import { applyTombstones, replicateRecords } from './replicate.ts';

/** The local engine's EngineSync: each operation checks the engine is open (`op`), writes also kick the indexer (`write`). */
export function createEngineSync(
  ctx: LocalCtx,
  { op, write }: { op: OperationWrap; write: OperationWrap },
): EngineSync {
  const brain = (t: Tenant, id: string) => requireBrain(ctx, t, id);
  // Device sync is the desktop's: once its Brain is found, each of its reads and writes runs between
  // units of work, or in the unit it opens (ctx.device).
  const onDevice = async <R>(t: Tenant, id: string, fn: (b: BrainRow) => Promise<R>): Promise<R> =>
    fn(await brain(t, id));
  return {
    replicate: write(async (t, id, records) => {
      const { created: _created, ...result } = await replicateRecords(ctx, await brain(t, id), records);
      return result;
    }),
    tombstones: write(async (t, id, ids) => applyTombstones(ctx, await brain(t, id), ids)),
    status: op((t, id) => onDevice(t, id, (b) => device.syncStatus(ctx, b))),
    pair: op((t, id, body) => onDevice(t, id, (b) => device.pair(ctx, b, body))),
    unpair: op((t, id) => onDevice(t, id, (b) => device.unpair(ctx, b))),
    takeSelf: write((t, id, pairingId, self) =>
      onDevice(t, id, (b) => device.takeRemoteSelf(ctx, b, pairingId, self)),
    ),
    pairedBrains: op(() => device.pairedBrains(ctx)),
    remoteOf: op((t, id) => onDevice(t, id, (b) => device.remoteOf(ctx, b))),
    outbox: op((t, id, limit) => onDevice(t, id, (b) => device.outbox(ctx, b, limit))),
    markPushed: write((t, id, pairingId, batch, outcomes, fields) =>
      onDevice(t, id, (b) => device.markPushed(ctx, b, pairingId, batch, outcomes, fields)),
    ),
    tombstonesToSend: op((t, id, limit) => onDevice(t, id, (b) => device.tombstonesToSend(ctx, b, limit))),
    markTombstonesSent: op((t, id, pairingId, through) =>
      onDevice(t, id, (b) => device.markTombstonesSent(ctx, b, pairingId, through)),
    ),
    restart: op((t, id, pairingId) => onDevice(t, id, (b) => device.restartPairing(ctx, b, pairingId))),
    applyPulled: write((t, id, pairingId, page, o) =>
      onDevice(t, id, (b) => device.applyPulled(ctx, b, pairingId, page, o)),
    ),
    acceptForgets: write((t, id, count) => onDevice(t, id, (b) => device.acceptForgets(ctx, b, count))),
    beginReread: op((t, id, pairingId) => onDevice(t, id, (b) => device.beginReread(ctx, b, pairingId))),
    keepPulledHours: op((t, id, pairingId, hours) =>
      onDevice(t, id, (b) => device.keepPulledHours(ctx, b, pairingId, hours)),
    ),
    finishRun: op((t, id, pairingId, end) =>
      onDevice(t, id, (b) => device.finishRun(ctx, b, pairingId, end)),
    ),
  };
}
