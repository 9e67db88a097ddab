/**
 * The renderer's one way to the server: the typed /v1 client, bound to this session's key.
 * Screens never call fetch themselves; they use the query and mutation factories next to this file.
 */
import { createContext, useContext } from 'react';
import { isMnemoApiError, isProxyAnswer, proxyStatus, type MnemoClient } from '../../server/client/index.ts';

export type { MnemoClient };
export { isMnemoApiError, isProxyAnswer, proxyStatus };
export { MnemoApiError } from '../../server/client/index.ts';

export { lastRequest, makeClient } from './request-gate.ts';

export const ClientContext = createContext<MnemoClient | null>(null);

export function useClient(): MnemoClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useClient outside <ClientContext.Provider>');
  return client;
}

/** Errors worth retrying by the spec's guidance: internal and rate_limit, never the rest. */
export function isRetryable(error: unknown): boolean {
  if (!isMnemoApiError(error)) return false;
  return error.type === 'rate_limit' || (error.type === 'internal' && error.code !== 'not_implemented');
}
