import { defaultBudgetTokens } from '../core/shared/assemble-text.ts';
import { coerceError, MnemoError } from '../errors/mnemo-error.ts';
import type { Context, ContextProcessing, ContextRequest } from '../contract/index.ts';
import type { ContextBrain } from '../context/assemble-context.ts';
import { failedTrace } from '../context/trace-buffer.ts';
import { selfOf } from '../core/shared/brain-self.ts';
import { canonicalJson } from '../core/shared/canonical-json.ts';
import type { ContextOptions, Engine } from '../types.ts';
import { createBrain, forgetBrain, listBrains, updateBrain } from './brains.ts';
import { forgetRecord } from './forget-record.ts';
import {
  forgetSource,
  forgetSourceChat,
  forgetSourceItems,
  listSourceChats,
  listSources,
} from './sources.ts';
import {
  requireBrain,
  thoroughKeyPrefix,
  toBrain,
  watermarkOf,
  type BrainRow,
  type EngineCtx,
} from './local-ctx.ts';
import { getMemory, listMemories } from './memories.ts';
import { acceptObject, getObject, listObjects } from './objects.ts';
import { getCensus, getProfile } from './profile-census.ts';
import { getRecord, listRecords, rememberRecord, sourceExternalIds } from './records.ts';

/** Wraps an operation: the engine's own checks and waits around it (open, its store's turn, durability). */
export type OperationWrap = <A extends unknown[], R>(
  fn: (...args: A) => R,
) => (...args: A) => Promise<Awaited<R>>;

/** Assembles one Context over the engine's indexes (its storage's lanes and indexer). */
export type AssembleContext = (
  brain: ContextBrain,
  body: ContextRequest,
  opts: ContextOptions,
  id?: string,
) => Promise<Context>;

/** The parts of an Engine that are its own: what it is, sync, idle and close. */
export type EngineShell = 'info' | 'sync' | 'idle' | 'ping' | 'close';

/**
 * The Engine's operations over the ports, the same on every storage: `op` wraps a read, `write` an
 * operation that writes (an engine kicks its indexer after one), and `assembleFor` builds a Context
 * over the engine's indexes.
 */
export function engineOperations(
  ctx: EngineCtx,
  { op, write }: { op: OperationWrap; write: OperationWrap },
  assembleFor: AssembleContext,
): Omit<Engine, EngineShell> {
  const { thorough } = ctx;
  return {
    listBrains: op((t) => listBrains(ctx, t)),
    createBrain: op((t, body) => createBrain(ctx, t, body)),
    getBrain: op(async (t, id) => toBrain(await requireBrain(ctx, t, id))),
    updateBrain: write((t, id, body) => updateBrain(ctx, t, id, body)),
    forgetBrain: write((t, id) => forgetBrain(ctx, t, id)),
    getProfile: op((t, id, q) => getProfile(ctx, t, id, q)),
    getCensus: op((t, id) => getCensus(ctx, t, id)),
    rememberRecord: write((t, id, body, o) => rememberRecord(ctx, t, id, body, o)),
    getRecord: op((t, id, rid) => getRecord(ctx, t, id, rid)),
    listRecords: op((t, id, q) => listRecords(ctx, t, id, q)),
    sourceExternalIds: op((t, id, name) => sourceExternalIds(ctx, t, id, name)),
    forgetRecord: write((t, id, rid) => forgetRecord(ctx, t, id, rid)),
    listSources: op((t, id) => listSources(ctx, t, id)),
    forgetSource: write((t, id, name) => forgetSource(ctx, t, id, name)),
    forgetSourceItems: write((t, id, name, ids) => forgetSourceItems(ctx, t, id, name, ids)),
    listSourceChats: op((t, id, name) => listSourceChats(ctx, t, id, name)),
    forgetSourceChat: write((t, id, name, chat) => forgetSourceChat(ctx, t, id, name, chat)),
    listMemories: op((t, id, q) => listMemories(ctx, t, id, q)),
    getMemory: op((t, id, mid) => getMemory(ctx, t, id, mid)),
    acceptObject: write((t, id, body, o) => acceptObject(ctx, t, id, body, o)),
    getObject: op((t, id, type, key) => getObject(ctx, t, id, type, key)),
    listObjects: op((t, id, q) => listObjects(ctx, t, id, q)),
    createContext: op(async (t, id, body, o) => {
      const b = await requireBrain(ctx, t, id);
      const assemble = (id?: string) => assembleFor({ uid: b.uid, id: b.id, self: selfOf(b) }, body, o, id);
      // Streams report progress instead; fast never waits long enough to matter.
      if (body.mode !== 'thorough' || o.onEvent || !thorough) return assemble();
      const key = thoroughKeyPrefix(b.uid) + [o.watermark ?? '', canonicalJson(body)].join('\n');
      // Without a Brain-Watermark the request asks for the freshest data: a kept Context assembled
      // before a write since (a correction, a newer value) would present what that write replaced.
      const fresh = o.watermark === undefined ? await watermarkOf(ctx, b) : undefined;
      const run = () =>
        thorough.run(
          key,
          assemble,
          (id) => thoroughProcessing(ctx, b, body, o.requestId, id),
          (id, error) => {
            // Nobody awaits this assembly any more: its Trace (replacing the processing one) and the log
            // keep the failure, and the next identical request is answered with the error itself.
            const e = coerceError(error);
            if (e.code === 'internal_error')
              ctx.logger.error('thorough Context failed after its 202', {
                context_id: id,
                error: String(error),
              });
            const failure = {
              requestId: o.requestId,
              query: body.query,
              mode: 'thorough' as const,
              request: body as Record<string, unknown>,
              error: { code: e.code, message: e.message },
            };
            return ctx.traces.add(b.uid, failedTrace(b.id, failure, ctx.clock().toISOString(), id));
          },
          fresh === undefined ? undefined : (done) => done.watermark !== fresh,
        );
      // A Context assembled before a forget may cite what the forget removed. This process's forgets
      // drop its kept Contexts (afterForget), but a forget on another process sharing the store cannot
      // reach them: whatever the request asks, one assembled before a forget is assembled again (once:
      // the second is as fresh as any Context).
      const out = await run();
      return out.status === 'ready' && (await forgottenSince(ctx, b, out.watermark)) ? run() : out;
    }),
    recordFailedContext: op(async (t, id, failure) => {
      let b;
      try {
        b = await requireBrain(ctx, t, id);
      } catch (e) {
        if (e instanceof MnemoError) return null;
        throw e;
      }
      const trace = failedTrace(b.id, failure, ctx.clock().toISOString());
      await ctx.traces.add(b.uid, trace);
      return trace.id;
    }),
    listTraces: op(async (t, id, q) => {
      const b = await requireBrain(ctx, t, id);
      return ctx.traces.list(b.uid, q.limit, q.cursor);
    }),
    getTrace: op(async (t, id, traceId) => ctx.traces.get((await requireBrain(ctx, t, id)).uid, traceId)),
  };
}

/** Whether a Record of the Brain was forgotten after the step the watermark names. */
async function forgottenSince(ctx: EngineCtx, b: BrainRow, watermark: string): Promise<boolean> {
  const afterSeq = ctx.codec.decode(watermark, b.uid, 'watermark');
  return ctx.units.read(b.uid, async (u) => (await u.records.removals({ afterSeq, limit: 1 })).length > 0);
}

/** The 202 answer of a thorough request over its synchronous budget, with its Trace. */
async function thoroughProcessing(
  ctx: EngineCtx,
  b: BrainRow,
  body: ContextRequest,
  requestId: string,
  id: string,
): Promise<ContextProcessing> {
  const watermark = await watermarkOf(ctx, b);
  const out: ContextProcessing = {
    id,
    object: 'context',
    status: 'processing',
    query: body.query,
    watermark,
    citations: [],
    unknowns: [body.query],
    budget: { estimated_tokens: 0, truncated: false },
  };
  await ctx.traces.add(b.uid, {
    id: out.id,
    object: 'trace',
    brain_id: b.id,
    request_id: requestId,
    created_at: ctx.clock().toISOString(),
    query: body.query,
    mode: 'thorough',
    purpose: body.purpose ?? null,
    status: 'processing',
    watermark,
    request: body as Record<string, unknown>,
    lanes: [],
    fusion: {
      method: 'none: over the synchronous budget; assembly continues, send the request again',
      results: [],
    },
    budget: {
      requested_tokens: body.budget?.tokens ?? defaultBudgetTokens,
      estimated_tokens: 0,
      truncated: false,
      cut: [],
    },
    citations: [],
    abstained: null,
    timings_ms: { total: 0 },
    cost: { generative_calls: 0, processing_units: 0, model_calls_total: 0, embedding_calls: 0 },
    error: null,
  });
  return out;
}
