import type { Context as HonoContext } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { ImportProgress, ImportRequest } from '../../engine/contract/index.ts';
import { coerceError } from '../../engine/errors/mnemo-error.ts';
import { ImportCancelled } from '../import/import-cancelled.ts';
import { importFiles } from '../import/import-files.ts';
import type { AppEnv } from './app-env.ts';
import { errorBody, faultReport } from './error-response.ts';
import type { CallInput, HandlerDeps } from './handlers.ts';

/**
 * importFiles over HTTP. Plain: the ImportResult as JSON. With Accept preferring text/event-stream:
 * `progress` frames, then one `result` frame with the very ImportResult the plain answer carries (or
 * one `error` frame). Either way the import follows the request's signal: when the client goes away it
 * stops between items, what was written stays, and the result is sent to no one (the log says how far
 * it got).
 */
export async function importResponse(
  c: HonoContext<AppEnv>,
  i: CallInput,
  deps: HandlerDeps,
  brainId: string,
): Promise<Response> {
  const requestId = c.get('requestId');
  const cancelled = (e: ImportCancelled) => {
    deps.log?.(
      `import ${requestId} into Brain "${brainId}" cancelled, the client went away: stopped after ` +
        `${e.written} new and ${e.unchanged} unchanged items, nothing more written (the same import again writes the rest)`,
    );
    // No one reads this answer: the connection is gone.
    return c.body(null, 204);
  };
  const progressSeen: ImportProgress[] = [];
  let onProgress = (p: ImportProgress) => void progressSeen.splice(0, 1, p);
  const run = importFiles(
    deps.engine,
    i.principal.tenant,
    brainId,
    i.body as ImportRequest,
    deps.uploadParent,
    { signal: c.req.raw.signal, onProgress: i.wantsStream ? (p) => onProgress(p) : undefined },
  );
  const settle = async () => {
    try {
      const result = await run;
      return c.json(result, 200, result.watermark ? { 'Brain-Watermark': result.watermark } : {});
    } catch (e) {
      if (e instanceof ImportCancelled) return cancelled(e);
      throw e;
    }
  };
  if (!i.wantsStream) return settle();

  // The stream (a 200) opens once planning has ended (the first progress): what fails before that (no
  // such Brain, a bad time zone or file name) keeps its own status and plain JSON error.
  const planned = new Promise<'planned'>((resolve) => {
    onProgress = (p) => {
      progressSeen.splice(0, 1, p);
      resolve('planned');
    };
  });
  const settled = run.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  if ((await Promise.race([planned, settled])) === 'settled' && progressSeen.length === 0) return settle();
  return streamSSE(c, async (stream) => {
    let chain = Promise.resolve();
    // Frames go out in order; the import never waits for a slow reader (progress is throttled).
    const send = (event: string, data: unknown) => {
      chain = chain.then(() => stream.writeSSE({ event, data: JSON.stringify(data) }));
      return chain;
    };
    for (const p of progressSeen) void send('progress', p);
    onProgress = (p) => void send('progress', p);
    try {
      await send('result', await run);
    } catch (e) {
      if (e instanceof ImportCancelled) {
        cancelled(e);
        return;
      }
      // Inside an open stream the app's error handler never sees it: log here.
      const report = faultReport(e, requestId);
      if (report) deps.log?.(`${report} (in an event stream)`);
      await send('error', errorBody(c, coerceError(e)));
    }
  });
}
