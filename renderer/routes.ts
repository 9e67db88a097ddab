/** The app's addresses. Pure, so tests can check parsing and building round-trip. */
const tabs = [
  'records',
  'memories',
  'conflicts',
  'objects',
  'ask',
  'traces',
  'profile',
  'import',
  'sync',
] as const;
export type BrainTab = (typeof tabs)[number];

export type Route =
  | { name: 'brains' }
  | { name: 'keys' }
  | { name: 'brain'; brainId: string; tab: BrainTab }
  | { name: 'memory'; brainId: string; memoryId: string }
  | { name: 'record'; brainId: string; recordId: string }
  | { name: 'trace'; brainId: string; traceId: string }
  | { name: 'not-found'; path: string };

function decode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(decode);
  if (parts.some((p) => p === null)) return { name: 'not-found', path: pathname };
  const [a, brainId, tab, id, ...rest] = parts as string[];
  if (!a) return { name: 'brains' };
  if (a === 'keys' && !brainId) return { name: 'keys' };
  // The parent of every Brain's address is the list of Brains (`paths.brains`, where the app takes it).
  if (a === 'brains' && !brainId) return { name: 'brains' };
  if (a !== 'brains' || !brainId || rest.length > 0) return { name: 'not-found', path: pathname };
  if (!tab) return { name: 'brain', brainId, tab: 'memories' };
  if (tab === 'memories' && id) return { name: 'memory', brainId, memoryId: id };
  if (tab === 'records' && id) return { name: 'record', brainId, recordId: id };
  if (tab === 'traces' && id) return { name: 'trace', brainId, traceId: id };
  if (!id && (tabs as readonly string[]).includes(tab))
    return { name: 'brain', brainId, tab: tab as BrainTab };
  return { name: 'not-found', path: pathname };
}

const seg = encodeURIComponent;

export const paths = {
  brains: () => '/',
  keys: () => '/keys',
  brain: (brainId: string, tab: BrainTab = 'memories') => `/brains/${seg(brainId)}/${tab}`,
  memory: (brainId: string, memoryId: string) => `/brains/${seg(brainId)}/memories/${seg(memoryId)}`,
  record: (brainId: string, recordId: string) => `/brains/${seg(brainId)}/records/${seg(recordId)}`,
  trace: (brainId: string, traceId: string) => `/brains/${seg(brainId)}/traces/${seg(traceId)}`,
};
