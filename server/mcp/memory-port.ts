import { pageGoingOn, resumedQuery } from '../http/list-cursor.ts';
import { failedContext } from '../http/failed-context.ts';
import type {
  Context,
  ContextRequest,
  DeletionReceipt,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MnemoRecord,
  Profile,
  RecordCreate,
  RecordPage,
  Trace,
} from '../../engine/contract/index.ts';
import {
  MemoryListQuery as MemoryListQuerySchema,
  ProfileQuery,
  RecordListQuery,
} from '../../engine/contract/index.ts';
import { withPrincipal, type Engine, type Principal } from '../../engine/index.ts';
import { reworded } from './reworded.ts';
import {
  MnemoApiError,
  type MemoryListParams,
  type MnemoClient,
  type RecordListParams,
} from '../client/index.ts';
import { checkKind } from '../http/read-input.ts';
import { parseWith } from '../http/validate.ts';
import { isMnemoError, MnemoError } from '../../engine/errors/mnemo-error.ts';

/**
 * What the MCP tools may do, for one Brain. Deliberately narrower than the API: no acceptObject (a
 * model may never call it), no forgetting but of a Record (and the forget_record tool takes only what
 * agents wrote), no Brain management, no change feed.
 */
export interface MemoryPort {
  readonly brainId: string;
  /**
   * Whether the key may call a /v1 operation, where the port knows its scopes (in process): the tools it
   * may not use are then left out of the list. Absent (the stdio bridge, which holds only the key) every
   * tool is listed and the server refuses what the key may not do.
   */
  may?(operationId: string): boolean;
  remember(
    body: RecordCreate,
    idempotencyKey?: string,
  ): Promise<{ record: MnemoRecord; watermark: string | null; replayed: boolean | null }>;
  context(body: ContextRequest, watermark?: string): Promise<{ status: 200 | 202; context: Context }>;
  listMemories(q: MemoryListParams): Promise<MemoryPage>;
  getMemory(memoryId: string): Promise<MemoryDetail>;
  getRecord(recordId: string): Promise<MnemoRecord>;
  /** Records newest first, filtered; never the change feed (since_watermark), which is sync's. */
  listRecords(q: Omit<RecordListParams, 'since_watermark'>): Promise<RecordPage>;
  getProfile(q: { limit?: number; cursor?: string }): Promise<Profile>;
  forgetRecord(recordId: string): Promise<DeletionReceipt>;
  getTrace(traceId: string): Promise<Trace>;
}

/**
 * The bridge's key is its configuration (MNEMO_KEY): a key the server refuses is named by that setting.
 * The bridge's Brain is named once, in its configuration (MNEMO_BRAIN), and a tool call cannot make it:
 * when it is missing, say where to fix that, not only that it is missing. So is the server it talks to
 * (MNEMO_URL): when nothing listens there, say that Mnemo may not be running.
 */
function nameTheSettings(brainId: string) {
  return (e: unknown): never => {
    // The server names the header the bridge sent; the person set MNEMO_KEY, and mends that.
    if (
      e instanceof MnemoApiError &&
      (e.code === 'invalid_api_key' || e.code === 'key_revoked') &&
      e.message.startsWith('Authorization:')
    )
      throw reworded(
        e,
        `MNEMO_KEY:${e.message.slice('Authorization:'.length)}; set MNEMO_KEY to a key this server ` +
          'issued and has not revoked (mnemo keys create --project P --env test|live)',
      );
    if (e instanceof MnemoApiError && e.code === 'network_error' && e.body.reached_server === false)
      throw reworded(
        e,
        `${e.message}; nothing answers at MNEMO_URL: start Mnemo (the desktop app, or mnemo serve) ` +
          'or set MNEMO_URL to the address its listening line prints (ending in /v1)',
      );
    if (e instanceof MnemoApiError && e.code === 'brain_not_found')
      throw reworded(
        e,
        `${e.message}; MNEMO_BRAIN names "${brainId}": if MNEMO_KEY is bound to one Brain, set ` +
          `MNEMO_BRAIN to that Brain (a bound key reaches no other); else create "${brainId}" first ` +
          `(Create Brain in the app, or POST /v1/brains with {"id":"${brainId}"}), or set MNEMO_BRAIN ` +
          'to a Brain of this project',
      );
    throw e;
  };
}

/**
 * How many bytes of arguments the bridge sends in a request's address (its path and query). Node's
 * servers take at most 16 KiB of request line and headers together: past that the server could only
 * answer that its headers are too large, naming no argument.
 */
const addressBudget = 8 * 1024;

/** The arguments of a call that sends them in the address, or the argument to shorten, named. */
function inAddress<T extends object>(args: T): T {
  let total = 0;
  let longest: { name: string; bytes: number } | null = null;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const bytes = encodeURIComponent(String(value)).length;
    total += name.length + bytes + 2;
    if (longest === null || bytes > longest.bytes) longest = { name, bytes };
  }
  if (total > addressBudget && longest !== null)
    throw new MnemoError(
      'invalid_request_body',
      `${longest.name}: too long to send (${longest.bytes} bytes encoded; a call's arguments take at most ${addressBudget}): shorten it`,
    );
  return args;
}

/** The stdio bridge's port: through a running server's /v1 API, so the server enforces everything. */
export function clientPort(client: MnemoClient, brainId: string): MemoryPort {
  const missing = nameTheSettings(brainId);
  return {
    brainId,
    remember: (body, idempotencyKey) =>
      client.rememberRecord(brainId, body, idempotencyKey ? { idempotencyKey } : {}).catch(missing),
    context: (body, watermark) =>
      client.createContext(brainId, body, watermark !== undefined ? { watermark } : {}).catch(missing),
    listMemories: async (q) => client.listMemories(brainId, inAddress(q)).catch(missing),
    getMemory: async (id) => client.getMemory(brainId, inAddress({ memory_id: id }).memory_id).catch(missing),
    getRecord: async (id) => client.getRecord(brainId, inAddress({ record_id: id }).record_id).catch(missing),
    listRecords: async (q) => client.listRecords(brainId, inAddress(q)).catch(missing),
    getProfile: async (q) => client.getProfile(brainId, inAddress(q)).catch(missing),
    forgetRecord: async (id) =>
      client.forgetRecord(brainId, inAddress({ record_id: id }).record_id).catch(missing),
    getTrace: async (id) => client.getTrace(brainId, inAddress({ trace_id: id }).trace_id).catch(missing),
  };
}

/**
 * The hosted /mcp endpoint's port: the engine in-process as the key may use it (withPrincipal), so the
 * key's scopes are checked per operation exactly as the /v1 routes check them.
 */
export function enginePort(
  engine: Engine,
  principal: Principal & { brain: string },
  requestId: string,
): MemoryPort {
  const scoped = withPrincipal(engine, principal);
  const brainId = principal.brain;
  const missing = nameTheKeysBrain(brainId);
  /**
   * As /v1 answers a Context that failed (handlers.ts): it leaves a trc_ Trace, named in the error's
   * trace_id, which get_trace reads. A fault becomes internal_error, its cause kept to be logged.
   */
  const traced =
    (body: ContextRequest) =>
    (e: unknown): Promise<never> =>
      isMnemoError(e) && e.code === 'brain_not_found'
        ? missing(e)
        : failedContext(scoped, brainId, requestId, body, e);
  return {
    brainId,
    may(operationId) {
      try {
        scoped.authorize(operationId);
        return true;
      } catch (e) {
        // A refusal; anything else (an operation the contract does not have) is a bug to hear of.
        if (isMnemoError(e)) return false;
        throw e;
      }
    },
    async remember(body, idempotencyKey) {
      // The scope first, as over HTTP: a key that may not write learns nothing about its Record.
      scoped.authorize('rememberRecord');
      checkKind(engine, body.content);
      return scoped.rememberRecord(brainId, body, { idempotencyKey }).catch(missing);
    },
    async context(body, watermark) {
      const context = await scoped.createContext(brainId, body, { watermark, requestId }).catch(traced(body));
      return { status: context.status === 'processing' ? 202 : 200, context };
    },
    async listMemories(q) {
      scoped.authorize('listMemories');
      // The engine itself refuses since_watermark with cursor (conflicting_parameters).
      const parsed = resumedQuery<MemoryListQuery>(
        parseWith(MemoryListQuerySchema, q, 'arguments'),
        MemoryListQuerySchema,
      );
      return pageGoingOn(await scoped.listMemories(brainId, parsed).catch(missing), parsed);
    },
    getMemory: async (id) => scoped.getMemory(brainId, id).catch(missing),
    getRecord: async (id) => scoped.getRecord(brainId, id).catch(missing),
    async listRecords(q) {
      scoped.authorize('listRecords');
      // The query's own checks (since after until) are refused as the tool's arguments, never a 500.
      const parsed = resumedQuery(parseWith(RecordListQuery, q, 'arguments'), RecordListQuery);
      return pageGoingOn(await scoped.listRecords(brainId, parsed).catch(missing), parsed);
    },
    async getProfile(q) {
      scoped.authorize('getProfile');
      return scoped.getProfile(brainId, parseWith(ProfileQuery, q, 'arguments')).catch(missing);
    },
    forgetRecord: async (id) => scoped.forgetRecord(brainId, id).catch(missing),
    getTrace: async (id) => scoped.getTrace(brainId, id).catch(missing),
  };
}

/**
 * On /mcp the Brain is the key's binding, never a tool argument: when it is missing, say so, and how
 * to mend it, not `brain_id: no Brain …` of an argument the caller never sent. Only the key's own
 * Brain is named, in the key's own project: nothing is disclosed.
 */
function nameTheKeysBrain(brainId: string) {
  return (e: unknown): never => {
    if (isMnemoError(e) && e.code === 'brain_not_found')
      throw new MnemoError(
        'brain_not_found',
        `this key is bound to Brain "${brainId}", which this project does not hold: create it ` +
          `(Create Brain in the app, or POST /v1/brains with {"id":"${brainId}"}), or use a key bound to ` +
          'a Brain that exists (mnemo keys create --brain B)',
      );
    throw e;
  };
}
