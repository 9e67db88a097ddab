import type {
  Context,
  ContextRequest,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  MnemoRecord,
  RecordCreate,
  Scope,
} from '../../engine/contract/index.ts';
import { MemoryListQuery as MemoryListQuerySchema } from '../../engine/contract/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { newId } from '../../engine/ids.ts';
import type { Engine, Tenant } from '../../engine/types.ts';
import type { MemoryListParams, MnemoClient } from '../client/index.ts';
import { checkKind } from '../http/read-input.ts';

/**
 * What the MCP tools may do, for one Brain. Deliberately narrower than the API: no acceptObject (a
 * model may never call it), no forgetting, no Brain management.
 */
export interface MemoryPort {
  readonly brainId: string;
  remember(
    body: RecordCreate,
    idempotencyKey?: string,
  ): Promise<{ record: MnemoRecord; watermark: string | null; replayed: boolean | null }>;
  context(body: ContextRequest, watermark?: string): Promise<{ status: 200 | 202; context: Context }>;
  listMemories(q: MemoryListParams): Promise<MemoryPage>;
  getMemory(memoryId: string): Promise<MemoryDetail>;
  getRecord(recordId: string): Promise<MnemoRecord>;
}

/** The stdio bridge's port: through a running server's /v1 API, so the server enforces everything. */
export function clientPort(client: MnemoClient, brainId: string): MemoryPort {
  return {
    brainId,
    remember: (body, idempotencyKey) =>
      client.rememberRecord(brainId, body, idempotencyKey ? { idempotencyKey } : {}),
    context: (body, watermark) =>
      client.createContext(brainId, body, watermark !== undefined ? { watermark } : {}),
    listMemories: (q) => client.listMemories(brainId, q),
    getMemory: (id) => client.getMemory(brainId, id),
    getRecord: (id) => client.getRecord(brainId, id),
  };
}

/**
 * The hosted /mcp endpoint's port: the engine in-process for the key's tenant and bound Brain, with the
 * key's scopes checked per operation exactly as the /v1 routes check them.
 */
export function enginePort(
  engine: Engine,
  tenant: Tenant,
  brainId: string,
  scopes: readonly Scope[],
): MemoryPort {
  const need = (scope: Scope, op: string) => {
    if (!scopes.includes(scope)) {
      throw new MnemoError(
        'missing_scope',
        `Authorization: this key lacks the scope "${scope}" that ${op} needs`,
      );
    }
  };
  return {
    brainId,
    async remember(body, idempotencyKey) {
      need('records:write', 'rememberRecord');
      checkKind(engine, body.content);
      return engine.rememberRecord(tenant, brainId, body, { idempotencyKey });
    },
    async context(body, watermark) {
      need('context:read', 'createContext');
      const context = await engine.createContext(tenant, brainId, body, {
        watermark,
        requestId: newId('req'),
      });
      return { status: context.status === 'processing' ? 202 : 200, context };
    },
    async listMemories(q) {
      need('memories:read', 'listMemories');
      // The engine itself refuses since_watermark with cursor (conflicting_parameters).
      const parsed: MemoryListQuery = MemoryListQuerySchema.parse(q);
      return engine.listMemories(tenant, brainId, parsed);
    },
    async getMemory(id) {
      need('memories:read', 'getMemory');
      return engine.getMemory(tenant, brainId, id);
    },
    async getRecord(id) {
      need('records:read', 'getRecord');
      return engine.getRecord(tenant, brainId, id);
    },
  };
}
