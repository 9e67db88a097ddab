import type { AppOptions } from '../app.ts';
import { serveOn } from '../../serve-on.ts';

/** The /v1 app listening on 127.0.0.1 at a free port; `close` stops it. */
export interface ServedApp {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * For tests: the app on a real loopback socket (port 0), set up as `mnemo serve` sets it up
 * (serveOn, through listen.ts), answering to its own address only, with docs_url pointing at itself and
 * no rate limit unless one is given.
 */
export async function serveApp(
  options: Omit<AppOptions, 'docsUrlBase' | 'loopback' | 'rateLimit'> & { rateLimit?: number },
): Promise<ServedApp> {
  const { listener, origin } = await serveOn({
    ...options,
    rateLimit: options.rateLimit ?? 0,
    host: '127.0.0.1',
    port: 0,
  });
  return {
    port: listener.port,
    origin,
    // Requests still open at the end of a test are the test's own fault: a second to finish, then cut.
    close: async () => void (await listener.shutdown(1_000, new Promise(() => {}))),
  };
}
