import type { ContextReady } from '../../engine/contract/index.ts';

/**
 * The last question asked on Ask and its answer, per Brain, in this page's memory only: back from a cited
 * Memory or a Trace they are still there. Never stored: an answer quotes Records, which a forget must
 * not leave behind in the browser, so any change to the Brain's data through the app drops it too.
 */
const lastAsked = new Map<string, { query: string; context: ContextReady }>();

export const readLastAsked = (brainId: string) => lastAsked.get(brainId) ?? null;

export function keepLastAsked(brainId: string, query: string, context: ContextReady): void {
  lastAsked.set(brainId, { query, context });
}

export function dropLastAsked(brainId: string): void {
  lastAsked.delete(brainId);
}
