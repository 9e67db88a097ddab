/**
 * The renderer's clients of /v1 (client.ts hands them to screens), each able to send its key's last
 * request, the revoke of the key itself, with nothing else sent on the key after it. Without React, so
 * tests run it in Node.
 */
import { createMnemoClient, type MnemoClient } from '../../server/client/index.ts';

/** A client's requests, held back while its key's last request (its own revoke) is answered. */
interface Gate {
  /** Settles true when the last request succeeded: nothing more is sent on this key. */
  closing: Promise<boolean> | null;
  session: { baseUrl: string; apiKey: string };
}

const gates = new WeakMap<MnemoClient, Gate>();

const bareClient = (session: { baseUrl: string; apiKey: string }, f?: typeof fetch): MnemoClient =>
  // One retry layer is enough: TanStack Query already retries reads, so the client does not.
  createMnemoClient({
    baseUrl: session.baseUrl,
    apiKey: session.apiKey,
    retry: false,
    ...(f ? { fetch: f } : {}),
  });

export function makeClient(session: { baseUrl: string; apiKey: string }): MnemoClient {
  const gate: Gate = { closing: null, session };
  const client = bareClient(session, (input, init) =>
    gate.closing === null
      ? fetch(input, init)
      : // After a revoke the page is leaving: a poll waits for ever rather than go out on the revoked key.
        gate.closing.then((closed) => (closed ? new Promise<Response>(() => {}) : fetch(input, init))),
  );
  gates.set(client, gate);
  return client;
}

/**
 * Sends `last` (the revoke of this client's own key), on a client of the same key of its own, with
 * every request of `client` held until it is answered: when it succeeded they are never sent (a poll
 * meanwhile would reach the server on a revoked key), and when it failed they go.
 */
export async function lastRequest<T>(client: MnemoClient, last: (c: MnemoClient) => Promise<T>): Promise<T> {
  const gate = gates.get(client);
  if (!gate) return last(client);
  let settle!: (closed: boolean) => void;
  gate.closing = new Promise<boolean>((r) => (settle = r));
  try {
    const answer = await last(bareClient(gate.session));
    settle(true);
    return answer;
  } catch (e) {
    gate.closing = null;
    settle(false);
    throw e;
  }
}
