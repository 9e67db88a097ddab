import assert from 'node:assert/strict';
import type * as z from 'zod';
import { ErrorBody, type Scope } from '../../engine/contract/index.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import type { Deployment } from '../../engine/types.ts';
import type { RunningServer } from '../../server/start-server.ts';

export interface ServerFactoryOptions {
  deployment?: Deployment;
  rateLimit?: number;
  /** Use this registry file (reference engine: otherwise none; local engine: otherwise its own). */
  keyRegistry?: string;
  traceBuffer?: number;
  /** How long a thorough Context may assemble before it is answered `202 processing`. */
  thoroughSyncMs?: number;
  /** Derives Records in place of the engine's rules (local and PostgreSQL engines). */
  deriver?: Deriver;
  /** IANA zone of the engine's calendar ("on 4 July" in a query); default this machine's. */
  timeZone?: string;
  /** An OpenAI-compatible API base and model for thorough Contexts' query rewrite (--rewrite-url, --rewrite-model). */
  rewriteUrl?: string;
  rewriteModel?: string;
}

export type ServerFactory = (options?: ServerFactoryOptions) => Promise<RunningServer>;

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

let counter = 0;
/** A fresh, well-formed key in its own project unless one is given. */
export async function freshKey(
  server: RunningServer,
  project = `p${Date.now().toString(36)}${(counter += 1)}`,
  env: 'test' | 'live' = 'test',
  extra: { scopes?: Scope[]; brain?: string } = {},
): Promise<string> {
  if (server.registry) return (await server.registry.create({ env, project, ...extra })).key;
  return `sk_${env}_${project}_${Math.random().toString(36).slice(2)}x${counter}`;
}

/** A small HTTP client over the real socket that checks the universal rules on every reply. */
export function client(server: RunningServer, key: string | null) {
  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const h: Record<string, string> = { ...headers };
    if (key !== null && !('Authorization' in h)) h.Authorization = `Bearer ${key}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${server.url}${path}`, { method, headers: h, body: payload });
    const text = await res.text();
    assert.match(
      res.headers.get('x-request-id') ?? '',
      /^req_/,
      `${method} ${path}: every response carries a request id`,
    );
    assert.equal(res.headers.get('access-control-allow-origin'), null, 'never a permissive CORS header');
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
    if (res.status >= 400) {
      assertErrorShape(server, parsed, res.status);
      // The spec's request_id "identifies the call": the same id the response's header gives.
      assert.equal(
        (parsed as { request_id: string }).request_id,
        res.headers.get('x-request-id'),
        `${method} ${path}: the error names its own request`,
      );
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  return {
    get: <T = Record<string, unknown>>(p: string, h?: Record<string, string>) =>
      call<T>('GET', p, undefined, h),
    post: <T = Record<string, unknown>>(p: string, b?: unknown, h?: Record<string, string>) =>
      call<T>('POST', p, b, h),
    del: <T = Record<string, unknown>>(p: string, h?: Record<string, string>) =>
      call<T>('DELETE', p, undefined, h),
    call,
  };
}
export type Client = ReturnType<typeof client>;

export function assertErrorShape(server: RunningServer, body: unknown, status: number): void {
  const parsed = ErrorBody.safeParse(body);
  assert.ok(parsed.success, `error body must have the one error shape: ${JSON.stringify(body)}`);
  const e = parsed.data;
  assert.equal(e.docs_url, `${server.origin}/docs/errors/${e.code}`);
  assert.ok(status >= 400);
}

/** Asserts an error reply: status, type and code (and that the message names something). */
export function assertError(
  reply: Reply,
  status: number,
  type: string,
  code: string,
): Record<string, unknown> {
  const body = reply.body as Record<string, unknown>;
  assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status}: ${reply.text}`);
  assert.equal(body.type, type);
  assert.equal(body.code, code);
  assert.ok(typeof body.message === 'string' && body.message.length > 0);
  return body;
}

export function assertShape<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const r = schema.safeParse(value);
  assert.ok(
    r.success,
    `response does not match the contract: ${r.success ? '' : JSON.stringify(r.error.issues.slice(0, 3))}\n${JSON.stringify(value).slice(0, 500)}`,
  );
  return r.data;
}

/** Polls until the condition holds; engines that derive in the background need a moment. */
/**
 * Waits out the last seconds of the clock's minute: the rate limit's fixed window is that minute, and
 * requests a test counts across its end fall in two windows.
 */
export async function awayFromMinuteEnd(margin = 5_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < margin) await new Promise((r) => setTimeout(r, left + 50));
}

export async function eventually<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
