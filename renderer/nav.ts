import type { BrainTab } from './routes.ts';

/**
 * The tabs of a Brain, in order. The Import screen (issue: importers) slots in here: add
 * `{ tab: 'import', label: 'Import' }`, the 'import' BrainTab in routes.ts, and its screen in app.tsx.
 */
export const brainTabs: ReadonlyArray<{ tab: BrainTab; label: string }> = [
  { tab: 'memories', label: 'Memories' },
  { tab: 'records', label: 'Records' },
  { tab: 'conflicts', label: 'Conflicts' },
  { tab: 'ask', label: 'Ask' },
  { tab: 'traces', label: 'Traces' },
  { tab: 'profile', label: 'Profile & Census' },
];
