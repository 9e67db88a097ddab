import type { BrainTab, Route } from './routes.ts';

/** The tabs of a Brain, in order. */
export const brainTabs: ReadonlyArray<{ tab: BrainTab; label: string }> = [
  { tab: 'memories', label: 'Memories' },
  { tab: 'records', label: 'Records' },
  { tab: 'conflicts', label: 'Conflicts' },
  { tab: 'objects', label: 'Objects' },
  { tab: 'ask', label: 'Ask' },
  { tab: 'traces', label: 'Traces' },
  { tab: 'profile', label: 'Profile & Census' },
  { tab: 'import', label: 'Import' },
  { tab: 'sync', label: 'Sync' },
];

/** The window's title for a page, so tabs, history and window switchers tell pages apart. */
export function pageTitle(route: Route): string {
  const page = (() => {
    switch (route.name) {
      case 'brains':
        return 'Brains';
      case 'keys':
        return 'Keys';
      case 'brain':
        return `${brainTabs.find((t) => t.tab === route.tab)?.label ?? route.tab} · ${route.brainId}`;
      case 'memory':
        return `Memory · ${route.brainId}`;
      case 'record':
        return `Record · ${route.brainId}`;
      case 'trace':
        return `Trace · ${route.brainId}`;
      case 'not-found':
        return 'Not found';
    }
  })();
  return `${page} — Mnemo`;
}

/**
 * What the Conflicts tab says of the open conflicts, from the Conflicts screen's list (`shown` beside the
 * tab's name, `said` after it in the link's accessible name): nothing while none is known, and "at
 * least" while the list is read only in part (`more`).
 */
export function conflictCount(open: number, more: boolean): { shown: string; said: string } | null {
  if (open === 0) return null;
  const n = open.toLocaleString('en');
  return more ? { shown: `${n}+`, said: `at least ${n} open` } : { shown: n, said: `${n} open` };
}
