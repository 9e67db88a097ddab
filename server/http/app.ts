import { Hono, type Context as HonoContext } from 'hono';
import { newId, withPrincipal, type KeyRegistryPort } from '../../engine/index.ts';
import { buildOpenApi } from '../../engine/contract/openapi.ts';
import { operations, type Operation } from '../../engine/contract/operations.ts';
import { MnemoError } from '../../engine/errors/mnemo-error.ts';
import type { Engine } from '../../engine/types.ts';
import type { SyncService } from '../sync/sync-service.ts';
import type { AppEnv, Principal } from './app-env.ts';
import { authenticate } from './authenticate.ts';
import { docsPageHeaders, errorIndexPage, errorPage } from './docs-pages.ts';
import { answeredError, errorResponse, faultReport, standardHeaders } from './error-response.ts';
import { handlers } from './handlers.ts';
import { originAllowed, type LoopbackPolicy } from './loopback-guard.ts';
import { FixedWindowLimiter } from './rate-limiter.ts';
import { readInput } from './read-input.ts';

export interface AppOptions {
  engine: Engine;
  /** null: no registry configured, so every well-formed key is accepted. */
  registry: KeyRegistryPort | null;
  /** Requests per key per minute; 0 turns the limit off. */
  rateLimit: number;
  /** Where uploaded files are copied while they are imported; absent: the OS temp dir. */
  uploadParent?: string | undefined;
  /** Base of docs_url; a function because the real port is known only after listening. */
  docsUrlBase: () => string;
  /**
   * The /v1 bases clients reach this server at (its public URLs, then its own address), which the
   * served OpenAPI document names as its `servers`; absent: the committed document's.
   */
  apiBases?: () => string[];
  loopback: LoopbackPolicy;
  logger?: (line: string) => void;
  /** Extra routes outside /v1 (the UI, /mcp), mounted after the guards. */
  mounts?: ((app: Hono<AppEnv>) => void)[];
  now?: () => number;
  /** Sync of paired Brains: told of each write, and behind the /sync routes. */
  sync?: SyncService;
}

interface CompiledOp {
  op: Operation;
  regex: RegExp;
}

const compiled: CompiledOp[] = operations.map((op) => ({
  op,
  regex: new RegExp(`^/v1${op.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
}));

/** The operations that add or forget a Brain's Records: each makes a paired Brain sync soon after. */
const recordWrites = new Set([
  'rememberRecord',
  'forgetRecord',
  'forgetSource',
  'forgetSourceItems',
  'forgetSourceChat',
  'importFiles',
]);

/** Pages registered outside the operations table, all read-only (GET); registered and matched from here. */
const pagePaths = ['/v1/openapi.json', '/docs', '/docs/errors', '/docs/errors/:code', '/v1/health'] as const;
const pageRegexes = pagePaths.map(
  (p) => new RegExp(`^${p.replace(/\./g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
);

/**
 * Methods a path answers to, for 405's Allow header; empty when the path does not exist. Hono answers
 * HEAD on every GET route (the GET's headers, no body), so HEAD is one of them wherever GET is.
 */
function allowedMethods(path: string): string[] {
  const methods = pageRegexes.some((r) => r.test(path))
    ? ['GET']
    : [...new Set(compiled.filter((c) => c.regex.test(path)).map((c) => c.op.method))];
  return methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
}

/**
 * The OpenAPI document, built on the first request for it and then kept for the process: ~0.07-0.1
 * CPU s (every schema to JSON Schema) that each server spent at start, and a process starts many
 * (the desktop app restarts its server; a test file, dozens).
 */
let openApiDocument: ReturnType<typeof buildOpenApi> | undefined;
const openApiContract = () => (openApiDocument ??= buildOpenApi());

/**
 * The /v1 HTTP adapter. Order of checks (the Host guard runs before them, in listen.ts): request id;
 * Origin guard (before auth); auth (before routing, so an unknown path without a key is 401); rate limit;
 * route or 404/405; scope; media type; body and query validation; the engine. Every failure leaves
 * through one error writer.
 */
export function createApp(options: AppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limiter = new FixedWindowLimiter(options.rateLimit, options.now);
  // Built on the first request, when the port is known; a generated client then points at this server.
  let openapi: string | null = null;
  const servedOpenApi = () => {
    const contract = openApiContract();
    return (openapi ??= JSON.stringify(
      options.apiBases ? { ...contract, servers: options.apiBases().map((url) => ({ url })) } : contract,
      null,
      2,
    ));
  };
  const log = options.logger ?? (() => {});
  const countRequest = (principal: Principal) => {
    const wait = limiter.hit(principal.rateKey);
    if (wait !== null) {
      throw new MnemoError(
        'too_many_requests',
        `Rate limit of ${options.rateLimit} requests per minute for this key exceeded`,
        { retry_after_seconds: wait },
      );
    }
  };

  app.use('*', async (c, next) => {
    c.set('requestId', newId('req'));
    c.set('docsUrlBase', options.docsUrlBase);
    c.set('countRequest', countRequest);
    c.header('X-Request-Id', c.get('requestId'));
    for (const [name, value] of Object.entries(standardHeaders)) c.header(name, value);
    if (
      !originAllowed(
        options.loopback,
        c.req.header('origin'),
        c.req.header('sec-fetch-site'),
        c.req.header('host'),
      )
    ) {
      throw new MnemoError('http_403', 'Origin: cross-origin browser requests are refused');
    }
    await next();
  });

  const [openapiPath, docsPath, errorsPath, errorPath, healthPath] = pagePaths;
  app.get(openapiPath, (c) =>
    c.body(servedOpenApi(), 200, { 'Content-Type': 'application/json; charset=utf-8' }),
  );
  app.get(docsPath, (c) => c.html(errorIndexPage(), 200, docsPageHeaders));
  app.get(errorsPath, (c) => c.html(errorIndexPage(), 200, docsPageHeaders));
  app.get(errorPath, (c) => {
    const html = errorPage(c.req.param('code'));
    if (!html) throw new MnemoError('http_404', 'The requested path does not exist.');
    return c.html(html, 200, docsPageHeaders);
  });

  // Without a key, for a load balancer: it says only whether this process can serve now. Health checks
  // arriving together share one ping; why a ping failed is the server's log's (the watch on the
  // database says it once), not an unauthenticated caller's.
  let pinging: Promise<unknown> | null = null;
  app.get(healthPath, async (c) => {
    pinging ??= options.engine.ping().then(
      () => null,
      (e: unknown) => e,
    );
    const settled = pinging;
    const failure = await settled;
    if (pinging === settled) pinging = null;
    // The engine's own store_unavailable says what is wrong and what mends it (a damaged file: restore
    // a backup) without naming a path; anything else (a driver's error, a closed engine) stays unsaid.
    if (failure instanceof MnemoError && failure.code === 'store_unavailable') throw failure;
    if (failure !== null)
      throw new MnemoError(
        'store_unavailable',
        "This server cannot reach its store now (its database is down or restarting); the server's log says why.",
      );
    return c.json({ status: 'ok' });
  });

  app.use('/v1/*', async (c, next) => {
    const principal = await authenticate(c.req.header('authorization'), options.registry);
    c.set('principal', principal);
    countRequest(principal);
    await next();
  });

  for (const { op } of compiled) {
    const honoPath = `/v1${op.path.replace(/\{(\w+)\}/g, ':$1')}`;
    app.on(op.method, [honoPath, `${honoPath}/`], async (c: HonoContext<AppEnv>) => {
      const scoped = withPrincipal(options.engine, c.get('principal'));
      // Before the body is read: a key without the scope learns nothing about its request.
      await scoped.authorizeOn(op.id, c.req.param('brain_id'));
      const input = await readInput(c, op, options.engine);
      const response = await handlers[op.id]!(c, input, {
        engine: options.engine,
        scoped,
        registry: options.registry,
        uploadParent: options.uploadParent,
        log,
        sync: options.sync,
      });
      // A write to a paired Brain is pushed soon after (debounced by the sync service).
      if (recordWrites.has(op.id) && input.params.brain_id !== undefined)
        options.sync?.noteWrite(input.principal.tenant, input.params.brain_id);
      return response;
    });
  }

  for (const mount of options.mounts ?? []) mount(app);

  app.notFound((c) => {
    const allow = allowedMethods(c.req.path);
    if (allow.length > 0) {
      return errorResponse(
        c,
        new MnemoError(
          'http_405',
          `Method ${c.req.method} is not allowed here; allowed: ${allow.join(', ')}`,
        ),
        {
          Allow: allow.join(', '),
        },
      );
    }
    return errorResponse(c, new MnemoError('http_404', 'The requested path does not exist.'));
  });

  app.onError((e, c) => {
    const report = faultReport(e, c.get('requestId'));
    if (report) log(report);
    return errorResponse(c, answeredError(e));
  });

  return app;
}
