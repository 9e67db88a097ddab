import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from '../app.ts';
import { loopbackHosts } from '../loopback-guard.ts';

/** The /v1 app listening on 127.0.0.1 at a free port; `close` stops it. */
export interface ServedApp {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * For tests: the app on a real loopback socket (port 0), answering to its own address only, with
 * docs_url pointing at itself and no rate limit unless one is given.
 */
export async function serveApp(
  options: Omit<AppOptions, 'docsUrlBase' | 'loopback' | 'rateLimit'> & { rateLimit?: number },
): Promise<ServedApp> {
  let port = 0;
  const app = createApp({
    rateLimit: 0,
    ...options,
    docsUrlBase: () => `http://127.0.0.1:${port}/docs`,
    loopback: { hosts: () => loopbackHosts('127.0.0.1', port) },
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
