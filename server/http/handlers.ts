import type { Context as HonoContext } from 'hono';
import {
  envOfKey,
  missingBrainWarning,
  projectOfKey,
  type KeyRecord,
  type KeyRegistryPort,
  type PrincipalEngine,
} from '../../engine/index.ts';
import type {
  BrainCreate,
  BrainUpdate,
  ContextRequest,
  KeyCreate,
  KeyInfo,
  KeyWarning,
  MemoryListQuery,
  ObjectAccept,
  ObjectListQuery,
  RecordCreate,
  RecordListQuery,
  ReplicateRequest,
  RunSyncQuery,
  Scope,
  SourceItemsForget,
  SyncForgetsAccept,
  SyncPairing,
  TombstoneRequest,
} from '../../engine/contract/index.ts';
import {
  MemoryListQuery as MemoryListQuerySchema,
  ObjectListQuery as ObjectListQuerySchema,
  RecordListQuery as RecordListQuerySchema,
} from '../../engine/contract/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { quoted } from '../../engine/errors/shown-value.ts';
import type { Engine } from '../../engine/types.ts';
import type { SyncService } from '../sync/sync-service.ts';
import { failedContext } from './failed-context.ts';
import { importResponse } from './import-response.ts';
import { pageGoingOn, resumedQuery } from './list-cursor.ts';
import { streamOnceStarted } from './stream-once-started.ts';
import type { AppEnv, Principal } from './app-env.ts';

export interface CallInput {
  principal: Principal;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  idempotencyKey: string | undefined;
  watermark: string | undefined;
  /** A thorough Context or an import is to stream (Accept prefers text/event-stream to JSON). */
  wantsStream: boolean;
  /** Accept names the stream and refuses JSON: 406 wherever there is no stream to give. */
  refusesJson: boolean;
}

export interface HandlerDeps {
  engine: Engine;
  /** The engine as the caller's key may use it: scopes and Brain binding checked there. */
  scoped: PrincipalEngine;
  registry: KeyRegistryPort | null;
  /** Where uploaded files are copied while they are imported (see import-files.ts); absent: the OS temp dir. */
  uploadParent?: string | undefined;
  /** The server log, for faults that never reach the app's error handler (inside an open stream). */
  log?: (line: string) => void;
  /** The server's sync of paired Brains (absent: the routes answer not_implemented). */
  sync?: SyncService | undefined;
}

type Handler = (c: HonoContext<AppEnv>, input: CallInput, deps: HandlerDeps) => Promise<Response>;

/**
 * Idempotent-Replayed (true or false) answers rememberRecord and acceptObject when they carried an
 * Idempotency-Key: true when an earlier write's result came back and nothing was written. Without a key
 * nothing can be replayed, so the header is left out. (createBrain accepts a key but never replays.)
 */
function replayHeader(input: CallInput, replayed: boolean): Record<string, string> {
  return input.idempotencyKey === undefined ? {} : { 'Idempotent-Replayed': String(replayed) };
}

function keyInfo(e: KeyRecord): KeyInfo {
  return {
    id: e.id,
    object: 'key',
    prefix: e.prefix,
    last4: e.last4,
    scopes: e.scopes,
    brain: e.brain,
    label: e.label,
    admin: e.admin,
    created_at: e.created_at,
    revoked_at: e.revoked_at,
  };
}

/**
 * The project is taken from the credential only (spec, Authentication 3): an admin key sees and revokes
 * the keys of its own project, never another's: a live key those of both envs (it may mint both), a
 * test key test keys only, and a key bound to one Brain only the keys bound to that Brain. A key
 * outside that is answered as one that does not exist (404, as a foreign Brain is), so existence is
 * not disclosed.
 */
function ownKeys(principal: Principal): (e: KeyRecord) => boolean {
  return (e) =>
    projectOfKey(e) === principal.tenant.project &&
    (principal.tenant.env === 'live' || envOfKey(e) === 'test') &&
    (principal.brain === null || e.brain === principal.brain);
}

/**
 * What a key minted by this principal may do: never more than the principal itself (spec,
 * Authentication 6: scopes cannot be escalated by a body field). Its scopes and Brain default to the
 * caller's; a test key mints test keys only (a live key would reach the live tenant's data).
 */
function mintable(principal: Principal, body: KeyCreate): { scopes: Scope[]; brain: string | undefined } {
  const wider = (body.scopes ?? []).filter((s) => !principal.scopes.includes(s));
  if (wider.length > 0)
    throw new MnemoError(
      'http_403',
      `scopes: this key cannot grant ${wider.join(', ')}, which it does not hold itself`,
    );
  if (principal.brain !== null && body.brain !== undefined && body.brain !== principal.brain)
    throw new MnemoError(
      'http_403',
      `brain: this key is bound to Brain "${principal.brain}" and mints keys for that Brain only`,
    );
  if (principal.tenant.env === 'test' && body.env === 'live')
    throw new MnemoError('http_403', 'env: a test key mints test keys only');
  // A set: a scope named twice is held once, as the registry lists it.
  const scopes = [...new Set(body.scopes ?? principal.scopes)];
  return { scopes, brain: body.brain ?? principal.brain ?? undefined };
}

/** The path's Brain, once the key may call `operationId` on it (sync sits beside the engine's operations). */
function brainFor(input: CallInput, scoped: PrincipalEngine, operationId: string): string {
  const id = input.params.brain_id!;
  scoped.authorize(operationId, id);
  return id;
}

function engineSyncOf(engine: Engine) {
  if (!engine.sync) throw new MnemoError('not_implemented', 'sync: this engine keeps no Records to sync');
  return engine.sync;
}

function syncOf(deps: HandlerDeps): SyncService {
  if (!deps.sync || !deps.engine.sync)
    throw new MnemoError('not_implemented', 'sync: this server does not sync (use the local engine)');
  return deps.sync;
}

/**
 * Whether the engine holds that Brain; true when it cannot tell (its store failing now): the answer
 * only decides a warning, and minting a key does not wait on the store.
 */
async function holdsBrain(engine: Engine, t: { project: string; env: 'test' | 'live' }, brain: string) {
  try {
    await engine.getBrain(t, brain);
    return true;
  } catch (e) {
    return !(e instanceof MnemoError && e.code === 'brain_not_found');
  }
}

function registryOf(deps: HandlerDeps): KeyRegistryPort {
  if (!deps.registry)
    throw new MnemoError('not_implemented', 'keys: this server runs without a key registry');
  return deps.registry;
}

/** The HTTP adapter only translates: validated input in, engine call, shaped result out. */
export const handlers: Record<string, Handler> = {
  async listBrains(c, _i, { scoped }) {
    const data = await scoped.listBrains();
    return c.json({ data, has_more: false, next_cursor: null });
  },
  async createBrain(c, i, { scoped }) {
    const { brain, watermark } = await scoped.createBrain(i.body as BrainCreate);
    return c.json(brain, 201, { 'Brain-Watermark': watermark });
  },
  async getBrain(c, i, { scoped }) {
    return c.json(await scoped.getBrain(i.params.brain_id!));
  },
  async updateBrain(c, i, { scoped }) {
    const { brain, watermark } = await scoped.updateBrain(i.params.brain_id!, i.body as BrainUpdate);
    return c.json(brain, 200, { 'Brain-Watermark': watermark });
  },
  async forgetBrain(c, i, { scoped }) {
    return c.json(await scoped.forgetBrain(i.params.brain_id!));
  },
  async getProfile(c, i, { scoped }) {
    return c.json(await scoped.getProfile(i.params.brain_id!, i.query as { limit: number; cursor?: string }));
  },
  async getCensus(c, i, { scoped }) {
    return c.json(await scoped.getCensus(i.params.brain_id!));
  },
  async listTraces(c, i, { scoped }) {
    return c.json(await scoped.listTraces(i.params.brain_id!, i.query as { limit: number; cursor?: string }));
  },
  async getTrace(c, i, { scoped }) {
    return c.json(await scoped.getTrace(i.params.brain_id!, i.params.trace_id!));
  },
  async rememberRecord(c, i, { scoped }) {
    const { record, watermark, replayed } = await scoped.rememberRecord(
      i.params.brain_id!,
      i.body as RecordCreate,
      {
        idempotencyKey: i.idempotencyKey,
      },
    );
    return c.json(record, 202, { 'Brain-Watermark': watermark, ...replayHeader(i, replayed) });
  },
  async listRecords(c, i, { scoped }) {
    const query = resumedQuery(i.query as RecordListQuery, RecordListQuerySchema);
    return c.json(pageGoingOn(await scoped.listRecords(i.params.brain_id!, query), query));
  },
  async getRecord(c, i, { scoped }) {
    return c.json(await scoped.getRecord(i.params.brain_id!, i.params.record_id!));
  },
  async forgetRecord(c, i, { scoped }) {
    const receipt = await scoped.forgetRecord(i.params.brain_id!, i.params.record_id!);
    return c.json(receipt, 200, receipt.watermark ? { 'Brain-Watermark': receipt.watermark } : {});
  },
  async listSources(c, i, { scoped }) {
    return c.json(await scoped.listSources(i.params.brain_id!));
  },
  async forgetSource(c, i, { scoped }) {
    const receipt = await scoped.forgetSource(i.params.brain_id!, i.params.source_name!);
    return c.json(receipt, 200, receipt.watermark ? { 'Brain-Watermark': receipt.watermark } : {});
  },
  async forgetSourceItems(c, i, { scoped }) {
    const { external_ids } = i.body as SourceItemsForget;
    const receipt = await scoped.forgetSourceItems(i.params.brain_id!, i.params.source_name!, external_ids);
    return c.json(receipt, 200, receipt.watermark ? { 'Brain-Watermark': receipt.watermark } : {});
  },
  async listSourceChats(c, i, { scoped }) {
    return c.json(await scoped.listSourceChats(i.params.brain_id!, i.params.source_name!));
  },
  async forgetSourceChat(c, i, { scoped }) {
    const receipt = await scoped.forgetSourceChat(i.params.brain_id!, i.params.source_name!, i.params.chat!);
    return c.json(receipt, 200, receipt.watermark ? { 'Brain-Watermark': receipt.watermark } : {});
  },
  async importFiles(c, i, deps) {
    deps.scoped.authorize('importFiles', i.params.brain_id!);
    return importResponse(c, i, deps, i.params.brain_id!);
  },
  async replicateRecords(c, i, { engine, scoped }) {
    const result = await engineSyncOf(engine).replicate(
      i.principal.tenant,
      brainFor(i, scoped, 'replicateRecords'),
      (i.body as ReplicateRequest).records,
    );
    return c.json(result, 200, { 'Brain-Watermark': result.watermark });
  },
  async forgetReplicas(c, i, { engine, scoped }) {
    const result = await engineSyncOf(engine).tombstones(
      i.principal.tenant,
      brainFor(i, scoped, 'forgetReplicas'),
      (i.body as TombstoneRequest).ids,
    );
    return c.json(result, 200, { 'Brain-Watermark': result.watermark });
  },
  async getSync(c, i, deps) {
    return c.json(await syncOf(deps).status(i.principal.tenant, brainFor(i, deps.scoped, 'getSync')));
  },
  async pairSync(c, i, deps) {
    const sync = syncOf(deps);
    // A key bound to another Brain hears brain_not_found, as on every route, before anything else.
    const brain = brainFor(i, deps.scoped, 'pairSync');
    // Pairing sends the Brain's shareable Records wherever it says, again after every write, and takes
    // removals from there: the person's decision (the UI's admin key, or a key made with --admin), not
    // an agent's that a page or a Record told to send them. A loopback address is no exception: on a
    // shared machine another user's program may listen there.
    if (!i.principal.admin) {
      throw new MnemoError(
        'http_403',
        "Authorization: pairing a Brain needs the app's admin key (the desktop UI's, or one made by " +
          "mnemo keys create --admin), not an agent's: it sends the Brain's shareable Records to the remote",
      );
    }
    return c.json(await sync.pair(i.principal.tenant, brain, i.body as SyncPairing));
  },
  async unpairSync(c, i, deps) {
    return c.json(await syncOf(deps).unpair(i.principal.tenant, brainFor(i, deps.scoped, 'unpairSync')));
  },
  async runSync(c, i, deps) {
    const sync = syncOf(deps);
    const brain = brainFor(i, deps.scoped, 'runSync');
    const allowMore = (i.query as RunSyncQuery).allow_more === 'true';
    // The budget is what stops a hub, or any key of its project, filling this device: lifting it is the
    // person's, as pairing is, not an agent's that the flood itself may have told to.
    if (allowMore && !i.principal.admin) {
      throw new MnemoError(
        'http_403',
        "Authorization: allowing the pull more than its day's budget needs the app's admin key (the " +
          "desktop UI's, or one made by mnemo keys create --admin), not an agent's",
      );
    }
    return c.json(await sync.runNow(i.principal.tenant, brain, { allowMore }));
  },
  async acceptSyncForgets(c, i, deps) {
    const sync = syncOf(deps);
    const brain = brainFor(i, deps.scoped, 'acceptSyncForgets');
    // Forgetting many Records at once is the person's decision, as pairing is: not an agent's that a
    // page or a Record told to confirm them.
    if (!i.principal.admin) {
      throw new MnemoError(
        'http_403',
        "Authorization: confirming the forgets sync held needs the app's admin key (the desktop UI's, or one " +
          "made by mnemo keys create --admin), not an agent's: it forgets Records of the Brain on this device",
      );
    }
    const { count } = i.body as SyncForgetsAccept;
    return c.json(await sync.acceptForgets(i.principal.tenant, brain, count));
  },
  async listMemories(c, i, { scoped }) {
    // since_watermark with cursor is refused by the engines themselves (conflicting_parameters).
    const query = resumedQuery(i.query as MemoryListQuery, MemoryListQuerySchema);
    return c.json(pageGoingOn(await scoped.listMemories(i.params.brain_id!, query), query));
  },
  async getMemory(c, i, { scoped }) {
    return c.json(await scoped.getMemory(i.params.brain_id!, i.params.memory_id!));
  },
  async acceptObject(c, i, { scoped }) {
    const { object, watermark, replayed } = await scoped.acceptObject(
      i.params.brain_id!,
      i.body as ObjectAccept,
      { idempotencyKey: i.idempotencyKey },
    );
    return c.json(object, 201, { 'Brain-Watermark': watermark, ...replayHeader(i, replayed) });
  },
  async listObjects(c, i, { scoped }) {
    const query = resumedQuery(i.query as ObjectListQuery, ObjectListQuerySchema);
    return c.json(pageGoingOn(await scoped.listObjects(i.params.brain_id!, query), query));
  },
  async getObject(c, i, { scoped }) {
    return c.json(await scoped.getObject(i.params.brain_id!, i.params.object_type!, i.params.object_key!));
  },
  async createContext(c, i, deps) {
    const body = i.body as ContextRequest;
    const brainId = i.params.brain_id!;
    const requestId = c.get('requestId');
    // A failed request leaves a trc_ Trace named in the error body, whatever failed: the engine, the
    // Accept header, or an unhandled fault (whose stack the app's error handler logs from `cause`).
    const failed = (e: unknown) => failedContext(deps.scoped, brainId, requestId, body, e);
    if (i.refusesJson && body.mode !== 'thorough') {
      await failed(
        new MnemoError(
          'streaming_not_applicable',
          'Accept: only mode "thorough" streams; send Accept: application/json',
        ),
      );
    }
    const run = (onEvent?: Parameters<Engine['createContext']>[3]['onEvent']) =>
      deps.scoped.createContext(brainId, body, { watermark: i.watermark, requestId, onEvent }).catch(failed);
    // Only thorough streams: a client that prefers the stream but also accepts JSON gets JSON otherwise.
    if (!i.wantsStream || body.mode !== 'thorough') {
      const ctx = await run();
      return c.json(ctx, ctx.status === 'processing' ? 202 : 200);
    }
    // The stream (a 200) is opened only once assembly has started, i.e. reported its first stage: what
    // fails before that (no such Brain, a bad or foreign Brain-Watermark) keeps its own status and plain
    // error body, and a watermark not yet reached answers 202 processing, as without the stream.
    return streamOnceStarted(c, {
      run: (emit) => run((ev) => emit(ev.event, ev.data)),
      final: 'context',
      plain: async (assembly) => {
        const ctx = await assembly;
        return ctx.status === 'processing' ? c.json(ctx, 202) : null;
      },
      log: deps.log,
    });
  },
  async listKeys(c, i, deps) {
    const own = ownKeys(i.principal);
    return c.json({ data: (await registryOf(deps).list()).filter(own).map(keyInfo) });
  },
  async createKey(c, i, deps) {
    const body = i.body as KeyCreate;
    // Even an admin key mints keys for its own project only (ownKeys); `mnemo keys create`, with the
    // registry file in hand, can mint for any.
    const project = i.principal.tenant.project;
    if (body.project !== undefined && body.project !== project) {
      throw new MnemoError(
        'http_403',
        `project: an admin key mints keys only for its own project ("${project}"), not "${body.project}"`,
      );
    }
    const { scopes, brain } = mintable(i.principal, body);
    const registry = registryOf(deps);
    // Asked first, as `mnemo keys create` does: a typo'd Brain would otherwise give a key that reaches
    // nothing, silently. Not refused: a key bound to a Brain may create it.
    const warnings: KeyWarning[] = [];
    if (brain !== undefined && !(await holdsBrain(deps.engine, { project, env: body.env }, brain)))
      warnings.push({
        code: 'brain_not_found',
        message: missingBrainWarning({ brain, project, env: body.env }),
      });
    const { key, record } = await registry.create({
      env: body.env,
      project,
      scopes,
      brain,
      label: body.label,
    });
    return c.json({ ...keyInfo(record), secret: key, warnings }, 201);
  },
  async revokeKey(c, i, deps) {
    const entry = await registryOf(deps).revoke(i.params.key_id!, ownKeys(i.principal));
    if (!entry)
      throw new MnemoError('http_404', `key_id: no key ${quoted(i.params.key_id ?? '')} in the registry`);
    return c.json(keyInfo(entry));
  },
};
