import { requireBrain, type LocalCtx } from '../local-ctx.ts';
import type { Tenant } from '../../types.ts';
import * as device from './device-sync.ts';
import type { EngineSync } from '../../types.ts';
import { applyTombstones, replicateRecords } from './replicate.ts';

type Wrap = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A) => Promise<Awaited<R>>;

/** The local engine's EngineSync: each operation checks the engine is open (`op`), writes also kick the indexer (`write`). */
export function createEngineSync(ctx: LocalCtx, { op, write }: { op: Wrap; write: Wrap }): EngineSync {
  const brain = (t: Tenant, id: string) => requireBrain(ctx, t, id);
  // Device sync is the desktop's, over its SQLite store: its synchronous parts resolve the Brain there.
  const deviceBrain = (t: Tenant, id: string) => device.brainNow(ctx, t, id);
  return {
    replicate: write(async (t, id, records) => {
      const { created: _created, ...result } = await replicateRecords(ctx, await brain(t, id), records);
      return result;
    }),
    tombstones: write(async (t, id, ids) => applyTombstones(ctx, await brain(t, id), ids)),
    status: op((t, id) => device.syncStatus(ctx, deviceBrain(t, id))),
    pair: op((t, id, body) => device.pair(ctx, deviceBrain(t, id), body)),
    unpair: op((t, id) => device.unpair(ctx, deviceBrain(t, id))),
    pairedBrains: op(() => device.pairedBrains(ctx)),
    remoteOf: op((t, id) => device.remoteOf(ctx, deviceBrain(t, id))),
    outbox: op((t, id, limit) => device.outbox(ctx, deviceBrain(t, id), limit)),
    markPushed: write((t, id, pairingId, batch, outcomes) =>
      device.markPushed(ctx, deviceBrain(t, id), pairingId, batch, outcomes),
    ),
    tombstonesToSend: op((t, id, limit) => device.tombstonesToSend(ctx, deviceBrain(t, id), limit)),
    markTombstonesSent: op((t, id, pairingId, seq) =>
      device.markTombstonesSent(ctx, deviceBrain(t, id), pairingId, seq),
    ),
    applyPulled: write((t, id, pairingId, page) =>
      device.applyPulled(ctx, deviceBrain(t, id), pairingId, page),
    ),
    finishRun: op((t, id, pairingId, error) => device.finishRun(ctx, deviceBrain(t, id), pairingId, error)),
  };
}
