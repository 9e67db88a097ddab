import type { ContextReady } from '../../engine/contract/index.ts';

/**
 * The last question asked on Ask and its answer, per Brain, in this page's memory only: back from a cited
 * Memory or a Trace they are still there. Never stored: an answer quotes Records, which a forget must
 * not leave behind in the browser, so any change to the Brain's data through the app drops it too, and
 * so does a change from elsewhere (an agent, the CLI) to a Memory the answer gave (`dropIfTouched`).
 */
const lastAsked = new Map<string, { query: string; context: ContextReady }>();
const listeners = new Set<() => void>();

export const readLastAsked = (brainId: string) => lastAsked.get(brainId) ?? null;

/** For `useSyncExternalStore`: an answer on screen goes when it is dropped. */
export function subscribeLastAsked(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function keepLastAsked(brainId: string, query: string, context: ContextReady): void {
  lastAsked.set(brainId, { query, context });
  for (const l of listeners) l();
}

export function dropLastAsked(brainId: string): void {
  if (!lastAsked.delete(brainId)) return;
  for (const l of listeners) l();
}

/** The Memories an answer gave or named as disagreeing: their words are on its screen. */
function memoriesOf(c: ContextReady): Set<string> {
  const ids = new Set((c.memories ?? []).map((m) => m.id));
  for (const k of c.conflicts) for (const v of k.values) ids.add(v.memory_id);
  return ids;
}

/**
 * A change read while following the Brain: the answer is dropped when a Memory it gave was forgotten,
 * corrected or worked out again (its Record forgotten), since it would show words or a value that are
 * no longer so. Other changes (a new message) leave it: it still says what it said when asked.
 */
export function dropIfTouched(brainId: string, changed: readonly { id: string }[], removed: Set<string>) {
  const kept = lastAsked.get(brainId);
  if (!kept) return;
  const ids = memoriesOf(kept.context);
  if ([...removed].some((id) => ids.has(id)) || changed.some((m) => ids.has(m.id))) dropLastAsked(brainId);
}
