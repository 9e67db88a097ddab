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

/**
 * The /v1 app on a socket through listen.ts, answering to its own address only: the Host check and
 * docs_url need the port the socket got, so both are bound late. What `mnemo serve` (startServer) and
 * the tests' serveApp share.
 */
export async function serveOn(o: ServeOnOptions): Promise<{ listener: Listener; origin: string }> {
  const { host, port: wanted, docsUrlBase: docsBase, publicUrls = [], ...app } = o;
  let port = 0;
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const origin = () => `http://${hostForUrl}:${port}`;
  const publicDocs = publicUrls[0] ? publicDocsBase(publicUrls[0]) : undefined;
  const docsUrlBase = () => docsBase ?? publicDocs ?? `${origin()}/docs`;
  const loopback = loopbackPolicy(host, () => port, publicUrls);
  const apiBases = () => [...publicUrls.map(publicApiBase), `${origin()}/v1`];
  const listener = await listen({
    fetch: createApp({ ...app, docsUrlBase, loopback, apiBases }).fetch,
    host,
    port: wanted,
    loopback,
    docsUrlBase,
    log: app.logger ?? (() => {}),
  });
  port = listener.port;
  return { listener, origin: origin() };
}
