/**
 * The typed client for Mnemo's /v1 API. Uses only the global `fetch` and WHATWG streams, so the same
 * file serves Node (CLI, importers, MCP bridge) and the renderer. Types come from the contract.
 */
import type * as z from 'zod';
import type {
  AcceptedObject,
  Brain,
  BrainCreate,
  BrainUpdate,
  BrainList,
  Census,
  Context,
  ContextProcessing,
  ContextReady,
  ContextRequest,
  DeletionReceipt,
  ImportProgress,
  ImportRequest,
  ImportResult,
  KeyCreate,
  KeyCreated,
  KeyInfo,
  KeyList,
  MemoryDetail,
  MemoryListQuery,
  MemoryPage,
  ObjectListQuery,
  ObjectPage,
  MnemoRecord,
  ObjectAccept,
  Profile,
  RecordCreate,
  RecordListQuery,
  RecordPage,
  SourceChatList,
  SourceList,
  SyncPairing,
  SyncStatus,
  Trace,
  TracePage,
  RecordReplica,
  ReplicateResult,
  TombstoneResult,
} from '../../engine/contract/index.ts';
import { MnemoApiError, errorFromFrame, errorFromResponse, isOutcomeUnknown } from './mnemo-api-error.ts';
import { withRetry, type RetryOptions } from './retry.ts';
import { parseEventStream, type StreamFrame } from './sse.ts';
import { errorMessage } from '../../engine/core/shared/error-message.ts';

export {
  MnemoApiError,
  httpStatus,
  isMnemoApiError,
  isOutcomeUnknown,
  isProxyAnswer,
  proxyStatus,
} from './mnemo-api-error.ts';
export type { RetryOptions } from './retry.ts';
export type { StreamFrame } from './sse.ts';

export interface MnemoClientOptions {
  /**
   * The base the server's listening line prints, ending in `/v1`; the server's root (`http://127.0.0.1:7821`)
   * is taken too, and `/v1` added.
   */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  /** Retry guidance of the spec; `false` turns every retry off. */
  retry?: RetryOptions | false;
  /**
   * How long, in ms, each attempt of a call waits for its whole answer (default 30,000); a stream
   * (streamContext) waits this long for its start and then for each next piece, however long it
   * runs. Calls whose work grows with the Brain or the upload (importFiles, importFilesWithProgress,
   * the forgets of a Brain, a source, a chat or a source's items, runSync) wait 10 minutes, or this
   * if longer. `false`: no call times out. A call's own `timeoutMs` overrides it.
   */
  timeoutMs?: number | false;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** This call's timeout in ms (MnemoClientOptions.timeoutMs); `false`: none. */
  timeoutMs?: number | false;
}
export interface WriteCallOptions extends CallOptions {
  idempotencyKey?: string;
}
export interface ImportProgressOptions extends CallOptions {
  /** Each progress frame: once when the server has planned the import, then every 250 ms at most. */
  onProgress?: (progress: ImportProgress) => void;
}
/**
 * What createContext answers: the HTTP status says which Context it holds, so `status === 200` narrows
 * `context` to a ready one (its `text`, `conflicts`), as `context.status === 'ready'` does. A result of
 * `{ status: 200 | 202; context: Context }` narrowed neither way: `c.context.text` after
 * `c.status === 200` did not type-check under strict TypeScript.
 */
export type ContextResult =
  { status: 200; context: ContextReady } | { status: 202; context: ContextProcessing };

export interface ContextCallOptions extends CallOptions {
  /** Sent as `Brain-Watermark`: answer at or after this boundary, else 202 processing. null: omitted. */
  watermark?: string | null;
}

export type MemoryListParams = Omit<z.input<typeof MemoryListQuery>, 'limit'> & { limit?: number };
export type RecordListParams = Omit<z.input<typeof RecordListQuery>, 'limit'> & { limit?: number };
export type ObjectListParams = Omit<z.input<typeof ObjectListQuery>, 'limit'> & { limit?: number };
export type KeyCreatedInfo = z.infer<typeof KeyCreated>;
export type KeyListPage = z.infer<typeof KeyList>;

interface RequestSpec extends CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  retry?: RetryOptions | false;
  /** A POST that only reads (a Context): no timeout of it leaves a write's outcome unknown. */
  read?: boolean;
  /** Its work grows with the data: the longer default timeout. */
  slow?: boolean;
  /** An event stream may answer: the timeout counts silence, not the whole answer. */
  stream?: boolean;
}

/** An ordinary call's default timeout, and that of a call whose work grows with the data. */
const defaultTimeoutMs = 30_000;
const slowCallTimeoutMs = 10 * 60_000;
/** setTimeout's longest delay: a longer timeout is none (a larger delay would fire at once). */
const maxTimerMs = 2 ** 31 - 1;

/** Statuses whose Response must have a null body (the constructor throws otherwise). */
const nullBodyStatus = new Set([101, 103, 204, 205, 304]);

/** Connection errors that mean the request never left this machine or was refused before any of it was read. */
const neverSent = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // fetch's own refusal of a port it blocks, before any connection.
  'bad port',
]);

/** Creates a client. Every method accepts `{signal}` and throws `MnemoApiError` on any failure. */
export function createMnemoClient(options: MnemoClientOptions) {
  // The server's root (no /v1) answered http_404 to every call, which named nothing to mend.
  const trimmed = options.baseUrl.replace(/(?<!\/)\/+$/, '');
  const base = /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
  badTimeout(options.timeoutMs, 'createMnemoClient: timeoutMs');
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const retry = options.retry;
  const seg = (s: string) => encodeURIComponent(s);
  const brainPath = (brainId: string) => `/brains/${seg(brainId)}`;

  async function once(spec: RequestSpec): Promise<Response> {
    // encodeURIComponent leaves "." and "..", and a URL resolves them (fetch would send the Brain's own
    // path for forgetSource(b, '..'), forgetting the whole Brain): such an id or name is never sent.
    // Nor an empty one: forgetSourceChat(b, s, '') named the list of chats, answered 405.
    const segments = spec.path.split('/').slice(1);
    if (segments.some((s) => s === '.' || s === '..' || s === ''))
      throw new MnemoApiError(0, {
        type: 'invalid_request',
        code: 'invalid_request_body',
        message: `${spec.method} ${spec.path}: an id or name "." or ".." or empty cannot be sent in a URL path, which would resolve it to another resource; nothing was sent`,
        reached_server: false,
      });
    const url = new URL(base + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json',
      ...spec.headers,
    };
    const init: RequestInit = { method: spec.method, headers };
    if (spec.signal) init.signal = spec.signal;
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    const ms = timeoutOf(spec);
    const timer = ms === false ? null : new Deadline(ms, spec.signal, () => noAnswer(spec, ms));
    if (timer) init.signal = timer.signal;
    let res: Response;
    try {
      res = await (timer ? timer.race(doFetch(url, init)) : doFetch(url, init));
    } catch (e) {
      timer?.stop();
      // A fetch that bounds its requests (limited-fetch.ts) says itself what went wrong.
      if (spec.signal?.aborted || e instanceof MnemoApiError) throw e;
      // A dropped connection is retried like `internal` (once), hence that type.
      // Its code (ECONNREFUSED), else its words: fetch refuses a port it blocks (6000, 5060, ...) as
      // "fetch failed", saying why only in the cause's message ("bad port").
      const why = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
      const cause =
        typeof why?.code === 'string' ? why.code : typeof why?.message === 'string' ? why.message : null;
      throw new MnemoApiError(0, {
        type: 'internal',
        code: 'network_error',
        message: `cannot reach ${base}: ${errorMessage(e)}${cause ? ` (${cause})` : ''}`,
        // Refused or unroutable: the request never reached the server, so nothing of it was applied.
        reached_server: cause !== null && neverSent.has(cause) ? false : null,
      });
    }
    if (timer === null) {
      if (!res.ok) throw await errorFromResponse(res);
      return res;
    }
    if (spec.stream && res.ok && res.body && isEventStream(res)) return quietFor(res, timer);
    // Any other answer is read whole within the timeout: a server that sends its headers and then
    // stops would otherwise hold the call at res.text().
    let bytes: ArrayBuffer;
    try {
      bytes = await timer.race(res.arrayBuffer());
    } catch (e) {
      void res.body?.cancel().catch(() => undefined);
      if (spec.signal?.aborted || e instanceof MnemoApiError) throw e;
      throw new MnemoApiError(0, {
        type: 'internal',
        code: 'network_error',
        message: `the answer from ${base} broke off (${errorMessage(e)})${unknownIfWrite(spec)}`,
        reached_server: null,
      });
    } finally {
      timer.stop();
    }
    const read = new Response(nullBodyStatus.has(res.status) ? null : bytes, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
    if (!read.ok) throw await errorFromResponse(read);
    return read;
  }

  /** A call's timeout: its own, else the client's, else the default for its kind. */
  function timeoutOf(spec: RequestSpec): number | false {
    badTimeout(spec.timeoutMs, `${spec.method} ${spec.path}: timeoutMs`);
    const own = options.timeoutMs;
    const ms =
      spec.timeoutMs !== undefined
        ? spec.timeoutMs
        : own === false
          ? false
          : spec.slow
            ? Math.max(slowCallTimeoutMs, own ?? 0)
            : (own ?? defaultTimeoutMs);
    return ms === false || ms > maxTimerMs ? false : ms;
  }

  /** The error of an attempt that had no answer within MS: whether a write was applied is unknown. */
  function noAnswer(spec: RequestSpec, ms: number): MnemoApiError {
    return new MnemoApiError(0, {
      type: 'internal',
      code: 'network_error',
      message:
        `no answer in ${seconds(ms)} s from ${base}: Mnemo took the connection but did not answer ` +
        `(stopped, suspended or overloaded)${unknownIfWrite(spec)}`,
      // The connection was taken: the request may have been read, and applied.
      reached_server: null,
      timeout_ms: ms,
    });
  }

  const send = (spec: RequestSpec) => sendNoting(spec, { failed: null });
  const json = async <T>(spec: RequestSpec): Promise<T> => readJson<T>(await send(spec));

  /** A success body that is not JSON (a proxy's page, a cut stream) is a MnemoApiError too, not retried. */
  async function readJson<T>(res: Response): Promise<T> {
    const text = await res.text();
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new MnemoApiError(res.status, {
        type: 'internal',
        code: 'internal_error',
        message: `${res.status} response from ${base} is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
      });
    }
  }

  /**
   * Sends `spec` under the retry guidance, noting in `noted` the first failed attempt that may have been applied on the server: an
   * `internal` answer or a connection dropped after the request went out. Not rate_limit or validation
   * answers, which come before any write, nor a refused connection, which sent nothing. A write's
   * retry is read knowing it (a replay, a not-found).
   */
  function sendNoting(spec: RequestSpec, noted: { failed: MnemoApiError | null }): Promise<Response> {
    const written = writes(spec);
    return withRetry(
      async () => {
        try {
          return await once(spec);
        } catch (e) {
          if (!(e instanceof MnemoApiError)) throw e;
          // A retry refused (the server has since stopped) sent nothing, but the attempt before it may
          // have been applied: reached_server false would tell the caller that nothing was.
          if (noted.failed && e.body.reached_server === false) throw mayHaveBeenApplied(e, noted.failed);
          if (e.type === 'internal' && e.body.reached_server !== false) noted.failed ??= e;
          throw e;
        }
      },
      spec.retry ?? retry,
      spec.signal,
    ).catch((e: unknown) => {
      // The retry's own refusal (a rate limit, a store away) says nothing of the attempt before it,
      // which went out and had no answer (or failed on the server), so may have been applied.
      if (
        written &&
        e instanceof MnemoApiError &&
        noted.failed !== null &&
        e !== noted.failed &&
        isOutcomeUnknown(noted.failed) &&
        !isOutcomeUnknown(e)
      )
        throw mayHaveBeenApplied(e, noted.failed);
      throw e;
    });
  }

  /** A write's failure, carrying the Idempotency-Key it sent: the same call with it replays safely. */
  const keyed =
    (spec: RequestSpec) =>
    (e: unknown): never => {
      const key = spec.headers?.['idempotency-key'];
      if (!(e instanceof MnemoApiError) || key === undefined) throw e;
      throw new MnemoApiError(e.status, e.body, { idempotencyKey: key });
    };

  /**
   * A forget whose first attempt may have been applied, its receipt lost: a retry answering that the
   * thing is not found would then read as "it never existed". That answer is reported as the first
   * failure, saying what the retry found.
   */
  async function forget(spec: RequestSpec, notFound: string): Promise<DeletionReceipt> {
    const noted: { failed: MnemoApiError | null } = { failed: null };
    try {
      return await readJson<DeletionReceipt>(await sendNoting(spec, noted));
    } catch (e) {
      const failed = noted.failed;
      if (failed === null || !(e instanceof MnemoApiError) || e.code !== notFound) throw e;
      throw new MnemoApiError(failed.status, {
        ...failed.body,
        message:
          `${failed.message}; retried, the server answered ${notFound}: the first attempt most likely ` +
          'forgot it, but its deletion receipt was lost',
      });
    }
  }

  return {
    baseUrl: base,

    listBrains: (o: CallOptions = {}) => json<BrainList>({ method: 'GET', path: '/brains', ...o }),
    /** Not retried on `internal`: creation is deliberately not idempotent (a retry could see brain_exists). */
    createBrain: (body: BrainCreate, o: WriteCallOptions = {}) => {
      const spec: RequestSpec = {
        method: 'POST',
        path: '/brains',
        body,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        headers: o.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {},
        retry: retry === false ? false : { ...retry, maxInternalRetries: 0 },
      };
      return json<Brain>(spec).catch(keyed(spec));
    },
    getBrain: (brainId: string, o: CallOptions = {}) =>
      json<Brain>({ method: 'GET', path: brainPath(brainId), ...o }),
    /** Sets a Brain's name or self (additive); the same change sent again changes nothing more. */
    updateBrain: (brainId: string, body: BrainUpdate, o: CallOptions = {}) =>
      json<Brain>({ method: 'POST', path: brainPath(brainId), body, ...o }),
    forgetBrain: (brainId: string, o: CallOptions = {}) =>
      forget({ method: 'DELETE', path: brainPath(brainId), slow: true, ...o }, 'brain_not_found'),
    getProfile: (brainId: string, q: { limit?: number; cursor?: string } = {}, o: CallOptions = {}) =>
      json<Profile>({ method: 'GET', path: `${brainPath(brainId)}/profile`, query: q, ...o }),
    getCensus: (brainId: string, o: CallOptions = {}) =>
      json<Census>({ method: 'GET', path: `${brainPath(brainId)}/census`, ...o }),

    /**
     * Writes a Record. A retry (after `internal` or a dropped connection) resends the same
     * Idempotency-Key, generated here when the caller gave none, so it returns the original Record.
     * `replayed`: the server's Idempotent-Replayed (the key returned an earlier Record, nothing was
     * written); null when the server does not send it, and when it says true after an attempt of this
     * very call failed on `internal` or a dropped connection (that attempt may have written the Record
     * being replayed, so whether this call wrote it is unknown). A failure carries the key as
     * `idempotencyKey`: after an unknown outcome (isOutcomeUnknown), the same call with it replays safely.
     */
    async rememberRecord(
      brainId: string,
      body: RecordCreate,
      o: WriteCallOptions = {},
    ): Promise<{ record: MnemoRecord; watermark: string | null; replayed: boolean | null }> {
      const spec: RequestSpec = {
        method: 'POST',
        path: `${brainPath(brainId)}/records`,
        body,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        headers: { 'idempotency-key': o.idempotencyKey ?? newIdempotencyKey() },
      };
      const noted: { failed: MnemoApiError | null } = { failed: null };
      try {
        const res = await sendNoting(spec, noted);
        const header = res.headers.get('idempotent-replayed');
        return {
          record: await readJson<MnemoRecord>(res),
          watermark: res.headers.get('brain-watermark'),
          replayed:
            header === null || (header === 'true' && noted.failed !== null) ? null : header === 'true',
        };
      } catch (e) {
        return keyed(spec)(e);
      }
    },
    getRecord: (brainId: string, recordId: string, o: CallOptions = {}) =>
      json<MnemoRecord>({ method: 'GET', path: `${brainPath(brainId)}/records/${seg(recordId)}`, ...o }),
    listRecords: (brainId: string, q: RecordListParams = {}, o: CallOptions = {}) =>
      json<RecordPage>({ method: 'GET', path: `${brainPath(brainId)}/records`, query: q, ...o }),
    forgetRecord: (brainId: string, recordId: string, o: CallOptions = {}) =>
      forget(
        { method: 'DELETE', path: `${brainPath(brainId)}/records/${seg(recordId)}`, ...o },
        'record_not_found',
      ),

    /** The source.name values of the Brain's Records, with counts and time span (additive). */
    listSources: (brainId: string, o: CallOptions = {}) =>
      json<SourceList>({ method: 'GET', path: `${brainPath(brainId)}/sources`, ...o }),
    /** Forgets every Record of one source.name: removes a whole import (additive). */
    forgetSource: (brainId: string, sourceName: string, o: CallOptions = {}) =>
      forget(
        { method: 'DELETE', path: `${brainPath(brainId)}/sources/${seg(sourceName)}`, slow: true, ...o },
        'source_not_found',
      ),
    /** The chats of one source.name (WhatsApp's), each with its messages (additive). */
    listSourceChats: (brainId: string, sourceName: string, o: CallOptions = {}) =>
      json<SourceChatList>({
        method: 'GET',
        path: `${brainPath(brainId)}/sources/${seg(sourceName)}/chats`,
        ...o,
      }),
    /** Forgets every Record of one chat of a source.name: one WhatsApp chat, the others kept (additive). */
    forgetSourceChat: (brainId: string, sourceName: string, chat: string, o: CallOptions = {}) =>
      forget(
        {
          method: 'DELETE',
          path: `${brainPath(brainId)}/sources/${seg(sourceName)}/chats/${seg(chat)}`,
          slow: true,
          ...o,
        },
        'source_not_found',
      ),
    /**
     * Forgets the items of one source.name named by external id, every revision of each (additive): an
     * import's items gone from its files. Ids no Record carries are passed over (a receipt of nothing).
     */
    forgetSourceItems: (brainId: string, sourceName: string, externalIds: string[], o: CallOptions = {}) =>
      json<DeletionReceipt>({
        method: 'POST',
        path: `${brainPath(brainId)}/sources/${seg(sourceName)}/forget`,
        body: { external_ids: externalIds },
        slow: true,
        ...o,
      }),
    /**
     * Imports export files server-side with the `mnemo import` parsers (additive). Safe to retry:
     * every item's Idempotency-Key derives from its content, so a repeat writes nothing new.
     */
    importFiles: (brainId: string, body: ImportRequest, o: CallOptions = {}) =>
      json<ImportResult>({ method: 'POST', path: `${brainPath(brainId)}/imports`, body, slow: true, ...o }),
    /**
     * importFiles as an event stream (additive): `onProgress` hears each `progress` frame and this
     * resolves with the `result` frame, the ImportResult importFiles returns; an `error` frame throws
     * MnemoApiError. Aborting `signal` closes the connection, which cancels the import on the server
     * between items: what was written stays, and the same files imported again write the rest without
     * duplicates. A server that answers plain JSON is read as importFiles reads it.
     */
    async importFilesWithProgress(
      brainId: string,
      body: ImportRequest,
      o: ImportProgressOptions = {},
    ): Promise<ImportResult> {
      const res = await send({
        method: 'POST',
        path: `${brainPath(brainId)}/imports`,
        body,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        headers: { accept: 'text/event-stream' },
        slow: true,
        stream: true,
      });
      if (!isEventStream(res) || !res.body) return readJson<ImportResult>(res);
      const cutOff = (why: string) =>
        `the import stream from ${base} broke off (${why}); what was written stays: import the same files again to finish it`;
      for await (const frame of framesOf(res.body, o.signal, cutOff)) {
        if (frame.event === 'error') throw errorFromFrame(frame.data);
        if (frame.event === 'result') return frame.data as ImportResult;
        if (frame.event === 'progress') o.onProgress?.(frame.data as ImportProgress);
      }
      // The connection ended without a result (the server stopped, a proxy cut it): what was written
      // stays, and importing the same files again finishes it.
      throw new MnemoApiError(0, {
        type: 'internal',
        code: 'network_error',
        message: `the import stream from ${base} ended without a result; import the same files again to finish it`,
      });
    },

    listMemories: (brainId: string, q: MemoryListParams = {}, o: CallOptions = {}) =>
      json<MemoryPage>({ method: 'GET', path: `${brainPath(brainId)}/memories`, query: q, ...o }),
    getMemory: (brainId: string, memoryId: string, o: CallOptions = {}) =>
      json<MemoryDetail>({ method: 'GET', path: `${brainPath(brainId)}/memories/${seg(memoryId)}`, ...o }),

    /**
     * For the application's own code only: a model may never call acceptObject. Returns the accepted
     * version; the server's Idempotent-Replayed is not surfaced here (a replay returns the same version).
     */
    acceptObject: (brainId: string, body: ObjectAccept, o: WriteCallOptions = {}) => {
      const spec: RequestSpec = {
        method: 'POST',
        path: `${brainPath(brainId)}/objects`,
        body,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        headers: { 'idempotency-key': o.idempotencyKey ?? newIdempotencyKey() },
      };
      return json<AcceptedObject>(spec).catch(keyed(spec));
    },
    listObjects: (brainId: string, q: ObjectListParams = {}, o: CallOptions = {}) =>
      json<ObjectPage>({ method: 'GET', path: `${brainPath(brainId)}/objects`, query: q, ...o }),
    getObject: (brainId: string, type: string, key: string, o: CallOptions = {}) =>
      json<AcceptedObject>({
        method: 'GET',
        path: `${brainPath(brainId)}/objects/${seg(type)}/${seg(key)}`,
        ...o,
      }),

    /** 200 with a ready Context, or 202 with `status: processing` (retry later with the same watermark). */
    async createContext(
      brainId: string,
      body: ContextRequest,
      o: ContextCallOptions = {},
    ): Promise<ContextResult> {
      const res = await send({
        method: 'POST',
        path: `${brainPath(brainId)}/context`,
        body,
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        read: true,
        headers: typeof o.watermark === 'string' ? { 'brain-watermark': o.watermark } : {},
      });
      const context = await readJson<Context>(res);
      // The contract's: a 200 holds a ready Context, a 202 one still processing.
      return res.status === 202
        ? { status: 202, context: context as ContextProcessing }
        : { status: 200, context: context as ContextReady };
    },
    /**
     * A thorough Context as an event stream: `stage` frames while it works, then one `context` frame.
     * The request is made (and errors thrown) on the first `next()`; an `error` frame throws too.
     */
    async *streamContext(
      brainId: string,
      body: ContextRequest,
      o: ContextCallOptions = {},
    ): AsyncGenerator<StreamFrame> {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (o.watermark) headers['brain-watermark'] = o.watermark;
      const res = await send({
        method: 'POST',
        path: `${brainPath(brainId)}/context`,
        body: { ...body, mode: 'thorough' },
        signal: o.signal,
        timeoutMs: o.timeoutMs,
        headers,
        read: true,
        stream: true,
      });
      if (!isEventStream(res) || !res.body) {
        // A server may answer a plain JSON Context (202 processing, say): surface it as the final frame.
        yield { event: 'context', data: await readJson(res) };
        return;
      }
      const cutOff = (why: string) => `the Context stream from ${base} broke off (${why}); ask again`;
      let answered = false;
      for await (const frame of framesOf(res.body, o.signal, cutOff)) {
        // A failure after the stream began arrives as an `error` frame carrying the error body.
        if (frame.event === 'error') throw errorFromFrame(frame.data);
        answered ||= frame.event === 'context';
        yield frame;
      }
      // The connection ended without the Context (the server stopped, a proxy cut it).
      if (!answered)
        throw new MnemoApiError(0, {
          type: 'internal',
          code: 'network_error',
          message: cutOff('it ended without the context frame'),
        });
    },

    listTraces: (brainId: string, q: { limit?: number; cursor?: string } = {}, o: CallOptions = {}) =>
      json<TracePage>({ method: 'GET', path: `${brainPath(brainId)}/traces`, query: q, ...o }),
    getTrace: (brainId: string, traceId: string, o: CallOptions = {}) =>
      json<Trace>({ method: 'GET', path: `${brainPath(brainId)}/traces/${seg(traceId)}`, ...o }),

    /**
     * Sync, hosted side (additive): writes Records under their own ids. Safe to retry: a repeat answers
     * `unchanged` for each id.
     */
    replicateRecords: (brainId: string, records: readonly RecordReplica[], o: CallOptions = {}) =>
      json<ReplicateResult>({
        method: 'POST',
        path: `${brainPath(brainId)}/sync/records`,
        body: { records },
        ...o,
      }),
    /** Sync, hosted side (additive): forgets these ids and keeps their tombstones. Safe to retry. */
    forgetReplicas: (brainId: string, ids: readonly string[], o: CallOptions = {}) =>
      json<TombstoneResult>({
        method: 'POST',
        path: `${brainPath(brainId)}/sync/tombstones`,
        body: { ids },
        ...o,
      }),
    /** Sync, device side (additive): the pairing's status; never the key. */
    getSync: (brainId: string, o: CallOptions = {}) =>
      json<SyncStatus>({ method: 'GET', path: `${brainPath(brainId)}/sync`, ...o }),
    /** Pairs the Brain with a Brain on a hosted Mnemo (or changes the pairing). */
    pairSync: (brainId: string, body: SyncPairing, o: CallOptions = {}) =>
      json<SyncStatus>({ method: 'POST', path: `${brainPath(brainId)}/sync`, body, ...o }),
    /** Unpairs; nothing is deleted on either side. */
    unpairSync: (brainId: string, o: CallOptions = {}) =>
      json<SyncStatus>({ method: 'DELETE', path: `${brainPath(brainId)}/sync`, ...o }),
    /** Syncs now; the status after the run (its last_error says why a run failed). */
    runSync: (brainId: string, o: CallOptions & { allowMore?: boolean } = {}) => {
      const { allowMore, ...call } = o;
      return json<SyncStatus>({
        method: 'POST',
        path: `${brainPath(brainId)}/sync/run`,
        query: allowMore ? { allow_more: 'true' } : undefined,
        slow: true,
        ...call,
      });
    },
    /**
     * Confirms the forgets the remote asked for that sync held (`count`: the status's forgets_held) and
     * applies them; the status after it. Needs the app's admin key.
     */
    acceptSyncForgets: (brainId: string, count: number, o: CallOptions = {}) =>
      json<SyncStatus>({
        method: 'POST',
        path: `${brainPath(brainId)}/sync/accept-forgets`,
        body: { count },
        slow: true,
        ...o,
      }),

    /** Key management (additive /v1/keys routes; needs an admin key). */
    listKeys: (o: CallOptions = {}) => json<KeyListPage>({ method: 'GET', path: '/keys', ...o }),
    createKey: (body: KeyCreate, o: CallOptions = {}) =>
      json<KeyCreatedInfo>({
        method: 'POST',
        path: '/keys',
        body,
        ...o,
        retry: retry === false ? false : { ...retry, maxInternalRetries: 0 },
      }),
    revokeKey: (keyId: string, o: CallOptions = {}) =>
      json<KeyInfo>({ method: 'DELETE', path: `/keys/${seg(keyId)}`, ...o }),
  };
}

export type MnemoClient = ReturnType<typeof createMnemoClient>;

/**
 * The frames of an event stream. A stream that breaks off (the server stopped or crashed, a proxy cut
 * it) rejected with fetch's own TypeError ("terminated") or node:http's "aborted": a network_error, as
 * every other failure of the client is a MnemoApiError. The caller's own abort stays its own.
 */
async function* framesOf(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  cutOff: (why: string) => string,
): AsyncGenerator<StreamFrame> {
  try {
    yield* parseEventStream(body);
  } catch (e) {
    if (signal?.aborted || e instanceof MnemoApiError) throw e;
    throw new MnemoApiError(0, {
      type: 'internal',
      code: 'network_error',
      message: cutOff(errorMessage(e)),
      ...(e instanceof Silence ? { reached_server: null, timeout_ms: e.ms } : {}),
    });
  }
}

/** A stream that said nothing for `ms`: cut, and reported by framesOf as the stream breaking off. */
class Silence extends Error {
  constructor(readonly ms: number) {
    super(`nothing came for ${seconds(ms)} s`);
  }
}

/**
 * One attempt's timeout: `signal` (the caller's, forwarded by hand: AbortSignal.any over a long-lived
 * signal is not released on every Node 20) aborts when `ms` pass while armed, which closes the
 * connection; `race` also settles then, for a fetch that does not heed its signal.
 */
class Deadline {
  private readonly cut = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fire: (e: unknown) => void = () => {};
  private readonly expired: Promise<never>;
  fired: unknown = null;

  constructor(
    readonly ms: number,
    private readonly caller: AbortSignal | undefined,
    private readonly error: () => unknown,
  ) {
    this.expired = new Promise<never>((_, reject) => (this.fire = reject));
    this.expired.catch(() => undefined);
    if (caller?.aborted) this.cut.abort(caller.reason);
    else caller?.addEventListener('abort', this.onAbort, { once: true });
    this.arm();
  }

  get signal(): AbortSignal {
    return this.cut.signal;
  }

  private readonly onAbort = () => this.cut.abort(this.caller?.reason);

  /** (Re)starts the clock. */
  arm(error: () => unknown = this.error): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = error();
      this.stop();
      this.cut.abort(this.fired);
      this.fire(this.fired);
    }, this.ms);
    // A process with nothing else to do ends; an open request keeps it alive by its socket.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Stops the clock while nothing is awaited (a stream's reader busy with the last frame). */
  pause(): void {
    clearTimeout(this.timer);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onAbort);
  }

  race<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.expired]);
  }
}

/**
 * RES with a body that counts silence: the clock runs only while a piece is awaited, so a caller slow
 * to read the frames is not cut; when it runs out, the connection is closed and the body errors.
 */
function quietFor(res: Response, timer: Deadline): Response {
  timer.pause();
  const reader = res.body!.getReader();
  const silent = () => new Silence(timer.ms);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        timer.arm(silent);
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await timer.race(reader.read());
        } catch (e) {
          timer.stop();
          void reader.cancel().catch(() => undefined);
          controller.error(timer.fired ?? e);
          return;
        }
        timer.pause();
        if (chunk.done) {
          timer.stop();
          controller.close();
        } else controller.enqueue(chunk.value);
      },
      cancel(why) {
        timer.stop();
        return reader.cancel(why);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

const isEventStream = (res: Response) =>
  (res.headers.get('content-type') ?? '').includes('text/event-stream');

const seconds = (ms: number) => +(ms / 1000).toFixed(2);

/** Whether a call may write: not a GET, nor a POST that only reads (a Context). */
const writes = (spec: { method: string; read?: boolean }) => spec.method !== 'GET' && !spec.read;

/** What a timeout or cut answer leaves unknown, said of a call that may have written. */
const unknownIfWrite = (spec: { method: string; read?: boolean }) =>
  writes(spec) ? '; whether the call was applied is unknown' : '';

/** Refuses a timeout that is not a positive number of ms (or false), before anything is sent. */
function badTimeout(value: unknown, what: string): void {
  if (value === undefined || value === false || (typeof value === 'number' && value > 0)) return;
  throw new MnemoApiError(0, {
    type: 'invalid_request',
    code: 'invalid_request_body',
    message: `${what}: ${JSON.stringify(value) ?? String(value)} is not a timeout: give a positive number of milliseconds, or false for none; nothing was sent`,
    reached_server: false,
  });
}

/** A refused retry of a call whose earlier attempt went out and failed: whether it was applied is unknown. */
function mayHaveBeenApplied(refused: MnemoApiError, earlier: MnemoApiError): MnemoApiError {
  return new MnemoApiError(refused.status, {
    ...refused.body,
    reached_server: null,
    message:
      `${refused.message}; an earlier attempt of this call was sent and failed (${earlier.message}), ` +
      'so whether the call was applied is unknown',
  });
}

/** A random Idempotency-Key; importers derive theirs from the item instead. */
export function newIdempotencyKey(): string {
  return `idem_${globalThis.crypto.randomUUID()}`;
}
