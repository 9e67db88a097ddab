import type { BrainTab } from './routes.ts';

/** The tabs of a Brain, in order. */
export const brainTabs: ReadonlyArray<{ tab: BrainTab; label: string }> = [
  { tab: 'memories', label: 'Memories' },
  { tab: 'records', label: 'Records' },
  { tab: 'conflicts', label: 'Conflicts' },
  { tab: 'ask', label: 'Ask' },
  { tab: 'traces', label: 'Traces' },
  { tab: 'profile', label: 'Profile & Census' },
  { tab: 'import', label: 'Import' },
];
