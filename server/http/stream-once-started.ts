import type { Context as HonoContext } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from './app-env.ts';
import { answeredError, errorBody, faultReport } from './error-response.ts';

export interface StreamedWork<T> {
  /** Starts the work; `emit` sends one frame (held until the stream opens). */
  run: (emit: (event: string, data: unknown) => void) => Promise<T>;
  /** The event of the final frame, whose data is the work's value. */
  final: string;
  /**
   * The work settled before it reported anything: the plain answer to give instead (its failure
   * leaves through the app's error handler, with its own status), or null to stream all the same.
   */
  plain: (value: Promise<T>) => Promise<Response | null>;
  /** A failure the stream ends on without an error frame (true): nobody is there to read one. */
  quiet?: (e: unknown) => boolean;
  log?: ((line: string) => void) | undefined;
}

/**
 * An `Accept: text/event-stream` answer that opens (a 200) only once the work has reported its first
 * frame: what fails before that keeps its own status and plain JSON error body. Frames go out in
 * order, the early ones first; the work's value is the last frame, or a failure an `error` frame in
 * the one error shape (logged here: inside an open stream the app's error handler never sees it).
 * createContext's stages and importFiles' progress both stream this way.
 */
export async function streamOnceStarted<T>(c: HonoContext<AppEnv>, w: StreamedWork<T>): Promise<Response> {
  const early: Array<{ event: string; data: unknown }> = [];
  let forward: ((event: string, data: unknown) => void) | null = null;
  let began = () => {};
  const beginning = new Promise<'began'>((r) => (began = () => r('began')));
  const work = w.run((event, data) => {
    if (forward) forward(event, data);
    else {
      early.push({ event, data });
      began();
    }
  });
  const settled = work.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  if ((await Promise.race([beginning, settled])) === 'settled' && early.length === 0) {
    const answer = await w.plain(work);
    if (answer) return answer;
  }
  return streamSSE(c, async (stream) => {
    let chain = Promise.resolve();
    // The work never waits for a slow reader: frames queue in order.
    const send = (event: string, data: unknown) => {
      chain = chain.then(() => stream.writeSSE({ event, data: JSON.stringify(data) }));
      return chain;
    };
    for (const f of early) void send(f.event, f.data);
    forward = (event, data) => void send(event, data);
    try {
      await send(w.final, await work);
    } catch (e) {
      if (w.quiet?.(e)) return;
      const report = faultReport(e, c.get('requestId'));
      if (report) w.log?.(`${report} (in an event stream)`);
      await send('error', errorBody(c, answeredError(e)));
    }
  });
}
