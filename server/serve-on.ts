import type { HttpBindings } from '@hono/node-server';
import { MnemoError } from '../engine/errors/mnemo-error.ts';
import { createApp, type AppOptions } from './http/app.ts';
import { loopbackPolicy, publicApiBase, publicDocsBase } from './http/loopback-guard.ts';
import { listen, type Listener } from './listen.ts';

export interface ServeOnOptions extends Omit<AppOptions, 'docsUrlBase' | 'loopback' | 'apiBases'> {
  host: string;
  /** 0: any free port. */
  port: number;
  /** Base of docs_url; by default the first public URL's /docs, else this server's own. */
  docsUrlBase?: string | undefined;
  /** Addresses clients use through a reverse proxy (`--public-url`): their hosts are this server's too. */
  publicUrls?: readonly URL[] | undefined;
}

/** What bindOn needs before the app exists: where to listen and how the server names itself. */
export type BindOptions = Pick<ServeOnOptions, 'host' | 'port' | 'docsUrlBase' | 'publicUrls' | 'logger'>;

/** The app's part of ServeOnOptions: what only exists once the engine is open. */
export type AppPart = Omit<ServeOnOptions, keyof BindOptions> & Pick<ServeOnOptions, 'logger'>;

/** A socket listening before its app exists: requests that arrive meanwhile wait for serve(). */
export interface BoundSocket {
  listener: Listener;
  origin: string;
  /** Hands the waiting and all later requests to the app. */
  serve(app: AppPart): void;
  /**
   * Start-up failed: the waiting requests (and any still arriving) are answered 503, and the port is
   * let go once they have been.
   */
  abandon(): Promise<void>;
}

type Fetch = (request: Request, env: HttpBindings) => Response | Promise<Response>;

/**
 * The socket first, the app later: `mnemo serve` takes its port before it creates or opens anything in
 * the data dir (or migrates a database), so a port in use leaves nothing behind. The Host check and
 * docs_url need the port the socket got, so both are bound late.
 */
export async function bindOn(o: BindOptions): Promise<BoundSocket> {
  const { host, port: wanted, docsUrlBase: docsBase, publicUrls = [] } = o;
  let port = 0;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const origin = () => `http://${hostForUrl}:${port}`;
  const publicDocs = publicUrls[0] ? publicDocsBase(publicUrls[0]) : undefined;
  const docsUrlBase = () => docsBase ?? publicDocs ?? `${origin()}/docs`;
  const loopback = loopbackPolicy(host, () => port, publicUrls);
  const apiBases = () => [...publicUrls.map(publicApiBase), `${origin()}/v1`];
  let app: Fetch | null = null;
  let ready = (_fetch: Fetch) => {};
  const appReady = new Promise<Fetch>((resolve) => (ready = resolve));
  const listener = await listen({
    fetch: (request, env) => (app ? app(request, env) : appReady.then((f) => f(request, env))),
    host,
    port: wanted,
    loopback,
    docsUrlBase,
    log: o.logger ?? (() => {}),
  });
  port = listener.port;
  return {
    listener,
    origin: origin(),
    serve(part) {
      app = createApp({ ...part, docsUrlBase, loopback, apiBases }).fetch;
      ready(app);
    },
    async abandon() {
      // Nothing of theirs ran: they may send it again once a server runs (the cause is the log's).
      const refusal = new MnemoError(
        'store_unavailable',
        'The server stopped while it was starting; nothing of this request was applied: send it again once Mnemo runs',
      );
      const refuse: Fetch = () => {
        throw refusal;
      };
      app = refuse;
      ready(refuse);
      await listener.shutdown(abandonGraceMs, new Promise(() => {}));
    },
  };
}

/** How long the requests a failed start-up refuses have to be answered before the port goes. */
const abandonGraceMs = 1_000;

/** The /v1 app on a socket through listen.ts, answering to its own address only (the tests' serveApp). */
export async function serveOn(o: ServeOnOptions): Promise<{ listener: Listener; origin: string }> {
  const { host, port, docsUrlBase, publicUrls, ...app } = o;
  const bound = await bindOn({ host, port, docsUrlBase, publicUrls, logger: app.logger });
  bound.serve(app);
  return { listener: bound.listener, origin: bound.origin };
}
