import { pairingBase } from '../../engine/contract/index.ts';
import { errorMessage } from '../../engine/index.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { MnemoApiError } from '../client/index.ts';
import { limitedFetch, type FetchLimits } from '../client/limited-fetch.ts';
import { createLoopbackFetch } from '../client/loopback-fetch.ts';
import { movedBase, oneLine, runLimits, withoutKey } from './run-sync.ts';

/** What a pairing would sync with: the remote's /v1 base, the Brain there, and the key. */
export interface RemoteToCheck {
  remote: string;
  remoteBrain: string;
  remoteKey: string;
  /** The Brain being paired, as this server holds it: a remote that answers with it is this server. */
  local?: { id: string; created_at: string };
}

export interface CheckRemoteOptions {
  /** Sends the check's requests (default: loopback-fetch's, as a run's). */
  fetch?: typeof fetch;
  /** Longest wait for each request, from sending it to the end of its answer (default 5 s). */
  timeoutMs?: number;
  /** The server's log: where the network error of a remote that cannot be reached is told. */
  log?: (line: string) => void;
}

/** Each of the check's three requests is answered within this, or the remote is unavailable. */
export const checkTimeoutMs = 5_000;

type RefusalCode = 'sync_remote_unavailable' | 'sync_remote_key_refused' | 'sync_remote_unsupported';

/** An answer of the remote: the request, its status and media type, and its JSON (null when none). */
interface Reply {
  what: string;
  status: number;
  contentType: string;
  json: unknown;
}

/** A body in the spec's one error shape: what any Mnemo answers a failure with. */
function mnemoError(r: Reply): { code: string; message: string } | null {
  const b = r.json as { type?: unknown; code?: unknown; message?: unknown } | null;
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return null;
  if (typeof b.type !== 'string' || typeof b.code !== 'string' || typeof b.message !== 'string') return null;
  return { code: b.code, message: b.message };
}

/** Connection failures of a request that never reached a server: trying again at once changes nothing. */
const neverSent = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Checks, before a pairing is stored, that a sync run with it could work, with the cheapest requests
 * that show it, none of which writes anything there (docs/sync.md, "Pairing checks the remote"):
 *
 * 1. `GET /brains/{remote_brain}`: the remote is reached, is a Mnemo (its answers are its JSON), and
 *    takes the key. The Brain need not exist: the first run creates it, as before.
 * 2. `GET /brains/{remote_brain}/records?since_watermark=start&limit=1`: the key reads Records
 *    (records:read) and the remote keeps a change feed (the reference engine answers not_implemented).
 * 3. `POST /brains/{remote_brain}/sync/records` with no Records: the key writes Records
 *    (records:write, checked before the body) and the remote has the replication route, which refuses
 *    the empty batch (`invalid_request_body`) and writes nothing. Of a Brain not there yet, a Mnemo
 *    answers `brain_not_found` whatever the key's scopes: the first run's write checks them.
 *
 * Throws a MnemoError (`sync_remote_unavailable`, `sync_remote_key_refused`,
 * `sync_remote_unsupported`) naming the remote and what it answered, never the key.
 */
export async function checkRemote(r: RemoteToCheck, o: CheckRemoteOptions = {}): Promise<void> {
  // As the pairing keeps it (the URL ends in /v1 or /v1/).
  const base = pairingBase(r.remote);
  const timeoutMs = o.timeoutMs ?? checkTimeoutMs;
  const limits = (maxResponseBytes: number): FetchLimits => ({
    idleMs: timeoutMs,
    totalMs: timeoutMs,
    sendBytesPerSecond: runLimits.sendBytesPerSecond,
    maxResponseBytes,
  });
  // A Brain and an error are a few hundred bytes; a feed page of one Record is as large as that Record
  // (some 6 MB at most), of which only the status is read.
  const small = limitedFetch(
    o.fetch ?? createLoopbackFetch({ maxResponseBytes: 1024 * 1024 }),
    limits(1024 * 1024),
  );
  const large = limitedFetch(
    o.fetch ?? createLoopbackFetch({ maxResponseBytes: runLimits.maxResponseBytes }),
    limits(runLimits.maxResponseBytes),
  );
  const where = oneLine(base, 300);
  const scrub = (text: string, max: number) => oneLine(withoutKey(text, r.remoteKey), max);
  const fail = (code: RefusalCode, text: string, remoteCode?: string) =>
    new MnemoError(
      code,
      `${scrub(text, 1500)}; nothing was paired or changed`,
      remoteCode === undefined ? {} : { remote_code: scrub(remoteCode, 100) },
    );

  const ask = async (
    fetcher: typeof fetch,
    method: 'GET' | 'POST',
    path: string,
    req: { body?: string; readOk: boolean },
  ): Promise<Reply> => {
    const url = new URL(base + path);
    const what = `${method} ${url.pathname}${url.search}`;
    const init: RequestInit = {
      method,
      headers: {
        authorization: `Bearer ${r.remoteKey}`,
        accept: 'application/json',
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(req.body !== undefined ? { body: req.body } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetcher(url, init);
      } catch (e) {
        // A redirect, which no request to a remote follows (limited-fetch.ts): the address is not the one.
        if (e instanceof MnemoApiError && e.code === 'remote_redirected') {
          const moved = movedBase(base, e);
          const to = typeof e.body.location === 'string' ? e.body.location : null;
          throw fail(
            'sync_remote_unavailable',
            `remote: ${where} answered ${what} with a redirect (HTTP ${String(e.body.redirect_status)}) ` +
              (to === null ? 'pointing nowhere a request could go' : `to ${to}`) +
              '; sync follows no redirect (the key and Records go to the address paired, and only there)' +
              (moved ? `: if the hosted Mnemo moved there, pair with ${moved}` : ': check the address'),
          );
        }
        // The limits' own failures: no answer in time, or one larger than any of a Mnemo's to this.
        if (e instanceof MnemoApiError)
          throw fail(
            'sync_remote_unavailable',
            e.code === 'remote_timeout'
              ? `remote: ${where} did not answer in time (${e.message})`
              : `remote: ${where} is not a Mnemo API (${e.message})`,
          );
        const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
        // No network cause: the request was not sent (a header fetch refuses, say), and fetch's own
        // message may quote the header, key and all.
        if (cause === undefined || cause === null)
          throw fail(
            'sync_remote_unavailable',
            `remote: ${where} (${what}): the request could not be sent (${e instanceof Error ? e.name : typeof e})`,
          );
        const code = typeof cause.code === 'string' ? cause.code : null;
        // A kept-alive connection the remote had closed fails as it is reused: one more try.
        if (attempt === 0 && (code === null || !neverSent.has(code))) continue;
        const detail = typeof cause.message === 'string' ? cause.message : errorMessage(e);
        // One answer whatever the network said: a key that may pair with this machine's ports only
        // (handlers.ts) must not learn from refused, reset or not-HTTP which of them have a listener.
        // The log, the person's own, has the error itself.
        o.log?.(
          `sync pairing check: cannot reach ${where} (${what}): ` +
            scrub(`${detail}${code && !detail.includes(code) ? `, ${code}` : ''}`, 500),
        );
        throw fail(
          'sync_remote_unavailable',
          `remote: cannot reach ${where} (${what}): no connection to it could be made or kept; check the ` +
            "address, and that the hosted Mnemo is up and reachable from here (the server's log says what failed)",
        );
      }
      const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (res.ok && !req.readOk) {
        await res.body?.cancel().catch(() => {});
        return { what, status: res.status, contentType, json: null };
      }
      let text: string;
      try {
        text = await res.text();
      } catch (e) {
        const why = e instanceof MnemoApiError ? e.message : errorMessage(e);
        throw fail('sync_remote_unavailable', `remote: ${where} did not answer ${what} in full (${why})`);
      }
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON: not a Mnemo's answer (a web page, a proxy's error page).
      }
      return { what, status: res.status, contentType, json };
    }
  };

  const answered = (reply: Reply, e: { code: string; message: string }) =>
    `${reply.what} answered ${reply.status} ${e.code}: ${e.message}`;
  const notMnemo = (reply: Reply) =>
    fail(
      'sync_remote_unavailable',
      `remote: ${where} is not a Mnemo API: ${reply.what} answered HTTP ${reply.status}` +
        `${reply.contentType ? ` (${reply.contentType})` : ''}, not Mnemo's JSON; check the address ` +
        '(the base URL of a hosted Mnemo, ending in /v1), or whether a proxy in front of it is failing',
    );
  /** The key refused, the remote failing, or an answer no Mnemo of this version gives to this request. */
  const otherwise = (reply: Reply, e: { code: string; message: string } | null): MnemoError => {
    if (e === null) return notMnemo(reply);
    if (reply.status === 401 || e.code === 'missing_scope')
      return fail(
        'sync_remote_key_refused',
        `remote_key: ${where} refused the key: ${answered(reply, e)}` +
          (e.code === 'missing_scope' ? '; a sync run needs a key with records:read and records:write' : ''),
        e.code,
      );
    if (reply.status === 429 || reply.status >= 500)
      return fail(
        'sync_remote_unavailable',
        `remote: ${where} failed: ${answered(reply, e)}; try again later`,
        e.code,
      );
    return fail(
      'sync_remote_unavailable',
      `remote: ${where} answered unexpectedly: ${answered(reply, e)}`,
      e.code,
    );
  };
  const unsupported = (reply: Reply, e: { code: string; message: string }) =>
    fail(
      'sync_remote_unsupported',
      `remote: ${where} cannot serve sync: ${answered(reply, e)}; pair with a hosted Mnemo of this ` +
        'version (mnemo serve --deployment hosted)',
      e.code,
    );
  const brainPath = `/brains/${encodeURIComponent(r.remoteBrain)}`;

  // 1. Reached, a Mnemo, and the key taken.
  const brain = await ask(small, 'GET', brainPath, { readOk: true });
  const brainError = mnemoError(brain);
  if (brain.status === 200) {
    const there = brain.json as { object?: unknown; id?: unknown; created_at?: unknown } | null;
    if (there?.object !== 'brain') throw notMnemo(brain);
    // Its own address (or a copy of its store): a run would sync the Brain with itself.
    if (r.local && there.id === r.local.id && there.created_at === r.local.created_at)
      throw fail(
        'sync_remote_unsupported',
        `remote: ${where} holds this very Brain (${r.local.id}, made at ${r.local.created_at}): it is this ` +
          'server, or a copy of its store; pair with a hosted Mnemo',
      );
  } else if (!(brain.status === 404 && brainError?.code === 'brain_not_found')) {
    throw otherwise(brain, brainError);
  }

  // 2. The change feed, with records:read.
  const feed = await ask(large, 'GET', `${brainPath}/records?since_watermark=start&limit=1`, {
    readOk: false,
  });
  if (feed.status !== 200) {
    const e = mnemoError(feed);
    if (feed.status === 404 && e?.code === 'brain_not_found') {
      // The Brain is made by the first run.
    } else if (e && (e.code === 'not_implemented' || e.code === 'unknown_query_parameter')) {
      throw unsupported(feed, e);
    } else throw otherwise(feed, e);
  }

  // 3. The replication route, with records:write: an empty batch, which it refuses and nothing writes.
  const push = await ask(small, 'POST', `${brainPath}/sync/records`, {
    body: JSON.stringify({ records: [] }),
    readOk: false,
  });
  if (push.status >= 200 && push.status < 300) return;
  const e = mnemoError(push);
  if (push.status === 400 && e?.code === 'invalid_request_body') return;
  // No Brain there yet (the first run makes it): a Mnemo answers a Brain it does not have before it
  // says which scope a key lacks (spec, Authentication 7), so the first run's write is the check.
  if (push.status === 404 && e?.code === 'brain_not_found' && brain.status === 404) return;
  if (e && (e.code === 'not_implemented' || push.status === 404 || push.status === 405))
    throw unsupported(push, e);
  throw otherwise(push, e);
}
