import { listen } from '../../listen.ts';
import { createApp, type AppOptions } from '../app.ts';
import { loopbackPolicy } from '../loopback-guard.ts';

/** The /v1 app listening on 127.0.0.1 at a free port; `close` stops it. */
export interface ServedApp {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * For tests: the app on a real loopback socket (port 0) through the same listener as `mnemo serve`
 * (listen.ts), answering to its own address only, with docs_url pointing at itself and no rate limit
 * unless one is given.
 */
export async function serveApp(
  options: Omit<AppOptions, 'docsUrlBase' | 'loopback' | 'rateLimit'> & { rateLimit?: number },
): Promise<ServedApp> {
  let port = 0;
  const docsUrlBase = () => `http://127.0.0.1:${port}/docs`;
  const loopback = loopbackPolicy('127.0.0.1', () => port);
  const app = createApp({ rateLimit: 0, ...options, docsUrlBase, loopback });
  const listener = await listen({
    fetch: app.fetch,
    host: '127.0.0.1',
    port: 0,
    loopback,
    docsUrlBase,
    log: options.logger ?? (() => {}),
  });
  port = listener.port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    // Requests still open at the end of a test are the test's own fault: a second to finish, then cut.
    close: async () => void (await listener.shutdown(1_000, new Promise(() => {}))),
  };
}
