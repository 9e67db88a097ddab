import { SqliteBindingError } from '../engine/index.ts';

/**
 * What the dialog says when the app cannot start: the cause and what fixes it, in words (the details
 * go to stderr). The store is never touched on the way: nothing is opened before the binding loads.
 */
export function startupFailure(e: unknown): { title: string; message: string } {
  if (e instanceof SqliteBindingError) return { title: 'Mnemo cannot open its database', message: e.message };
  const message = e instanceof Error ? e.message : String(e);
  return { title: 'Mnemo could not start', message };
}
