import type { ImportFormat, Visibility } from '../engine/contract/index.ts';
import type { ChosenFile } from './chosen-files.ts';

/** What a person set in the Import form of one Brain. */
export interface ImportChoices {
  /** Every file chosen or dropped since the list was last cleared, importable or not. */
  picked: readonly ChosenFile[];
  format: ImportFormat | 'auto';
  /**
   * Left empty, times are read in this computer's zone, except for a chat imported before, which is
   * read in the zone that import used (so its messages keep their identity after a trip).
   */
  timeZone: string;
  /** Null until the person types: then the field follows the Brain's own person. */
  selfName: string | null;
  dateOrder: '' | 'dmy' | 'mdy';
  visibility: Visibility;
  /** Recurring calendar events are expanded within these days (empty: two years back, one ahead). */
  eventsFrom: string;
  eventsTo: string;
}

export const noImportChoices: ImportChoices = {
  picked: [],
  format: 'auto',
  timeZone: '',
  selfName: null,
  dateOrder: '',
  visibility: 'shareable',
  eventsFrom: '',
  eventsTo: '',
};

/**
 * The Import form's choices per Brain, in this page's memory only: a look at Records or Memories
 * while choosing does not lose them. Files are File objects, never stored; a reload or signing out
 * (which loads the app afresh) ends them with the rest of the session.
 */
const kept = new Map<string, ImportChoices>();
const listeners = new Set<() => void>();

export const readImportChoices = (brainId: string): ImportChoices => kept.get(brainId) ?? noImportChoices;

/** For `useSyncExternalStore`: a change made while the screen was away shows when it is back. */
export function subscribeImportChoices(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function updateImportChoices(
  brainId: string,
  change: Partial<ImportChoices> | ((before: ImportChoices) => Partial<ImportChoices>),
): void {
  const before = readImportChoices(brainId);
  kept.set(brainId, { ...before, ...(typeof change === 'function' ? change(before) : change) });
  for (const l of listeners) l();
}

/** A Brain forgotten takes its choices with it: a new Brain of the same id starts with none. */
export function dropImportChoices(brainId: string): void {
  if (!kept.delete(brainId)) return;
  for (const l of listeners) l();
}
