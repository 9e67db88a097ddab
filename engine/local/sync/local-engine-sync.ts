import { requireBrain, type LocalCtx } from '../local-ctx.ts';
import type { Tenant } from '../../types.ts';
import * as device from './device-sync.ts';
import type { EngineSync } from '../../types.ts';
import { applyTombstones, replicateRecords } from './replicate.ts';

type Wrap = <A extends unknown[], R>(fn: (...args: A) => R) => (...args: A) => Promise<Awaited<R>>;

/** The local engine's EngineSync: each operation checks the engine is open (`op`), writes also kick the indexer (`write`). */
export function createEngineSync(ctx: LocalCtx, { op, write }: { op: Wrap; write: Wrap }): EngineSync {
  const brain = (t: Tenant, id: string) => requireBrain(ctx, t, id);
  return {
    replicate: write(async (t, id, records) => {
      const { created: _created, ...result } = await replicateRecords(ctx, brain(t, id), records);
      return result;
    }),
    tombstones: write((t, id, ids) => applyTombstones(ctx, brain(t, id), ids)),
    status: op((t, id) => device.syncStatus(ctx, brain(t, id))),
    pair: op((t, id, body) => device.pair(ctx, brain(t, id), body)),
    unpair: op((t, id) => device.unpair(ctx, brain(t, id))),
    pairedBrains: op(() => device.pairedBrains(ctx)),
    remoteOf: op((t, id) => device.remoteOf(ctx, brain(t, id))),
    outbox: op((t, id, limit) => device.outbox(ctx, brain(t, id), limit)),
    markPushed: write((t, id, pairingId, batch, outcomes) =>
      device.markPushed(ctx, brain(t, id), pairingId, batch, outcomes),
    ),
    tombstonesToSend: op((t, id, limit) => device.tombstonesToSend(ctx, brain(t, id), limit)),
    markTombstonesSent: op((t, id, pairingId, seq) =>
      device.markTombstonesSent(ctx, brain(t, id), pairingId, seq),
    ),
    applyPulled: write((t, id, pairingId, page) => device.applyPulled(ctx, brain(t, id), pairingId, page)),
    finishRun: op((t, id, pairingId, error) => device.finishRun(ctx, brain(t, id), pairingId, error)),
  };
}
