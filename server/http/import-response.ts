import type { Context as HonoContext } from 'hono';
import type { ImportProgress, ImportRequest, ImportResult } from '../../engine/contract/index.ts';
import { ImportCancelled } from '../import/import-cancelled.ts';
import { importFiles } from '../import/import-files.ts';
import type { AppEnv } from './app-env.ts';
import type { CallInput, HandlerDeps } from './handlers.ts';
import { streamOnceStarted } from './stream-once-started.ts';

/** The key may call OPERATION on the Brain (listRecords, listObjects, acceptObject) through /v1. */
function mayCall(deps: HandlerDeps, operation: string, brainId: string): boolean {
  try {
    deps.scoped.authorize(operation, brainId);
    return true;
  } catch {
    return false;
  }
}

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
  const run = (onProgress?: (p: ImportProgress) => void) =>
    importFiles(deps.engine, i.principal.tenant, brainId, i.body as ImportRequest, deps.uploadParent, {
      signal: c.req.raw.signal,
      onProgress,
      // What the import reads and writes beside Records, it does as the key may (scopes are never
      // widened by a route): Records' ids to reconcile, Objects for what each file held.
      readsRecords: mayCall(deps, 'listRecords', brainId),
      readsObjects: mayCall(deps, 'listObjects', brainId),
      writesObjects: mayCall(deps, 'acceptObject', brainId),
    });
  const answer = async (result: Promise<ImportResult>) => {
    try {
      const r = await result;
      return c.json(r, 200, r.watermark ? { 'Brain-Watermark': r.watermark } : {});
    } catch (e) {
      if (e instanceof ImportCancelled) return cancelled(e);
      throw e;
    }
  };
  if (!i.wantsStream) return answer(run());
  // The stream (a 200) opens once planning has ended (the first progress): what fails before that (no
  // such Brain, a bad time zone or file name) keeps its own status and plain JSON error.
  return streamOnceStarted(c, {
    run: (emit) => run((p) => emit('progress', p)),
    final: 'result',
    plain: answer,
    quiet: (e) => {
      if (!(e instanceof ImportCancelled)) return false;
      cancelled(e);
      return true;
    },
    log: deps.log,
  });
}
