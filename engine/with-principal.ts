import type { Scope } from './contract/common.ts';
import { operations } from './contract/operations.ts';
import { MnemoError } from './errors/mnemo-error.ts';
import { quoted } from './errors/shown-value.ts';
import type { Deployment, Engine, EngineInfo, Tenant } from './types.ts';

/** Who is calling, as the credential says: never taken from the request. */
export interface Principal {
  tenant: Tenant;
  scopes: readonly Scope[];
  /** The one Brain a bound key may address, else null. */
  brain: string | null;
  admin: boolean;
}

// Sync sits beside the /v1 operations: its routes check through authorize() (server/http/handlers.ts);
// an import reads a source's external ids after authorize('listRecords').
type TenantOperation = Exclude<
  keyof Engine,
  'info' | 'idle' | 'ping' | 'close' | 'sync' | 'sourceExternalIds'
>;

type WithoutTenant<F> = F extends (t: Tenant, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/**
 * The engine as one principal may use it: the same operations without the tenant argument (the
 * credential's), each refused unless the principal holds the operation's scope and, for a key bound
 * to one Brain, addresses that Brain.
 */
export type PrincipalEngine = { readonly info: EngineInfo } & {
  [K in TenantOperation]: WithoutTenant<Engine[K]>;
} & {
  /**
   * Refuses an operation of engine/contract/operations.ts (by id) that this principal may not call,
   * and, given a Brain id, a Brain a bound key may not address. An adapter that reads input calls it
   * first, so a request lacking the scope is refused before its body is read; every operation of this
   * object checks again, so skipping it lets nothing through.
   */
  authorize(operationId: string, brainId?: string): void;
  /**
   * authorize, where a scope the key lacks is answered as the Brain it asks for would be: a Brain its
   * project does not have is `brain_not_found`, never 403 (spec, Authentication 7).
   */
  authorizeOn(operationId: string, brainId: string | undefined): Promise<void>;
};

const operationById = new Map(operations.map((op) => [op.id, op]));

// A failed Context is recorded under the Context request's own scope.
const operationOf: Partial<Record<TenantOperation, string>> = { recordFailedContext: 'createContext' };

/**
 * The check of one operation, as the operations table says: one a hosted deployment does not serve is
 * refused there whoever asks; then null needs any valid key, 'admin' the app's admin key, any other
 * scope that scope (and the table's alsoScopes).
 */
function authorize(principal: Principal, operationId: string, deployment: Deployment | undefined): void {
  const op = operationById.get(operationId);
  if (op === undefined) throw new Error(`no operation "${operationId}" in engine/contract/operations.ts`);
  if (op.localOnly !== undefined && deployment === 'hosted') {
    throw new MnemoError(
      'not_implemented',
      `${operationId}: not served on a hosted deployment: ${op.localOnly}`,
    );
  }
  const scope = op.scope;
  if (scope === 'admin') {
    if (!principal.admin) {
      throw new MnemoError('http_403', "Authorization: key management needs the app's admin key");
    }
    return;
  }
  for (const needed of [...(scope === null ? [] : [scope]), ...(op.alsoScopes ?? [])]) {
    if (!principal.scopes.includes(needed)) {
      throw new MnemoError(
        'missing_scope',
        `Authorization: this key lacks the scope "${needed}" that ${operationId} needs`,
      );
    }
  }
}

/** A key bound to one Brain sees only that Brain; any other id does not exist for it. */
function boundBrain(principal: Principal, brainId: string): string {
  if (principal.brain !== null && principal.brain !== brainId) {
    throw new MnemoError('brain_not_found', `brain_id: no Brain ${quoted(brainId)} in this project`);
  }
  return brainId;
}

/**
 * Binds an engine to one principal: every scope check and every Brain binding of the /v1 operations,
 * done here once for every adapter (HTTP, MCP). Error codes and messages are the API's.
 */
export function withPrincipal(engine: Engine, principal: Principal): PrincipalEngine {
  const t = principal.tenant;
  const allow = (operationId: string) => authorize(principal, operationId, engine.info.deployment);
  const allowOn = async (operationId: string, brainId: string | undefined): Promise<void> => {
    if (brainId !== undefined) boundBrain(principal, brainId);
    try {
      allow(operationId);
    } catch (e) {
      // A Brain the key's project does not have is not found, whatever the key may do (spec,
      // Authentication 7: never 403); the scope is the answer only about a Brain that is there.
      if (e instanceof MnemoError && e.code === 'missing_scope' && brainId !== undefined)
        await engine.getBrain(t, brainId);
      throw e;
    }
  };
  const check = async (op: TenantOperation, brainId: string): Promise<string> => {
    await allowOn(operationOf[op] ?? op, brainId);
    return brainId;
  };
  return {
    get info() {
      return engine.info;
    },
    authorize(operationId, brainId) {
      allow(operationId);
      if (brainId !== undefined) boundBrain(principal, brainId);
    },
    authorizeOn: allowOn,

    async listBrains() {
      allow('listBrains');
      const all = await engine.listBrains(t);
      return principal.brain === null ? all : all.filter((b) => b.id === principal.brain);
    },
    async createBrain(body) {
      allow('createBrain');
      if (principal.brain !== null && principal.brain !== body.id) {
        throw new MnemoError(
          'http_403',
          `id: this key is bound to Brain "${principal.brain}" and cannot create another`,
        );
      }
      return engine.createBrain(t, body);
    },
    getBrain: async (b) => engine.getBrain(t, await check('getBrain', b)),
    updateBrain: async (b, body) => engine.updateBrain(t, await check('updateBrain', b), body),
    forgetBrain: async (b) => engine.forgetBrain(t, await check('forgetBrain', b)),
    getProfile: async (b, q) => engine.getProfile(t, await check('getProfile', b), q),
    getCensus: async (b) => engine.getCensus(t, await check('getCensus', b)),

    rememberRecord: async (b, body, opts) =>
      engine.rememberRecord(t, await check('rememberRecord', b), body, opts),
    getRecord: async (b, id) => engine.getRecord(t, await check('getRecord', b), id),
    listRecords: async (b, q) => engine.listRecords(t, await check('listRecords', b), q),
    forgetRecord: async (b, id) => engine.forgetRecord(t, await check('forgetRecord', b), id),
    listSources: async (b) => engine.listSources(t, await check('listSources', b)),
    forgetSource: async (b, name) => engine.forgetSource(t, await check('forgetSource', b), name),
    forgetSourceItems: async (b, name, ids) =>
      engine.forgetSourceItems(t, await check('forgetSourceItems', b), name, ids),
    listSourceChats: async (b, name) => engine.listSourceChats(t, await check('listSourceChats', b), name),
    forgetSourceChat: async (b, name, chat) =>
      engine.forgetSourceChat(t, await check('forgetSourceChat', b), name, chat),

    listMemories: async (b, q) => engine.listMemories(t, await check('listMemories', b), q),
    async getMemory(b, id) {
      const m = await engine.getMemory(t, await check('getMemory', b), id);
      // A key that may read Memories but not Records gets the quotes, not the whole Records around them.
      if (principal.scopes.includes('records:read')) return m;
      return { ...m, evidence: m.evidence.map((e) => ({ ...e, text: null })) };
    },

    acceptObject: async (b, body, opts) => engine.acceptObject(t, await check('acceptObject', b), body, opts),
    getObject: async (b, type, key) => engine.getObject(t, await check('getObject', b), type, key),
    listObjects: async (b, q) => engine.listObjects(t, await check('listObjects', b), q),

    createContext: async (b, body, opts) =>
      engine.createContext(t, await check('createContext', b), body, opts),
    recordFailedContext: async (b, failure) =>
      engine.recordFailedContext(t, await check('recordFailedContext', b), failure),
    listTraces: async (b, q) => engine.listTraces(t, await check('listTraces', b), q),
    getTrace: async (b, id) => engine.getTrace(t, await check('getTrace', b), id),
  };
}
