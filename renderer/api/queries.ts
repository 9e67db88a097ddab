/**
 * TanStack Query factories: one per read, each passing the query's `signal` so leaving a screen
 * cancels its requests. Components call `useQuery(memoryListOptions(client, ...))`.
 */
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { Memory } from '../../engine/contract/index.ts';
import type { MemoryListParams, MnemoClient, RecordListParams } from '../../server/client/index.ts';
import { isMnemoApiError } from '../../server/client/index.ts';
import { importedFileRecord } from '../imported-file-record.ts';
import { importerObjectType } from '../../engine/contract/importer-objects.ts';
import { findConflicts, valuesAwaitingOthers } from './conflicts.ts';
import { backingOff } from './poll.ts';

/** The Brain asked of is not there: forgotten meanwhile, or never made (a mistyped address). */
export const brainIsGone = (e: unknown): boolean => isMnemoApiError(e) && e.code === 'brain_not_found';

export const keys = {
  brains: ['brains'] as const,
  brain: (brainId: string) => ['brain', brainId] as const,
  records: (brainId: string) => ['records', brainId] as const,
  memories: (brainId: string) => ['memories', brainId] as const,
  memory: (brainId: string, memoryId: string) => ['memories', brainId, 'detail', memoryId] as const,
  record: (brainId: string, recordId: string) => ['records', brainId, 'detail', recordId] as const,
  /** A Record's own page: read again when the Brain changes (its Memories, or it forgotten). */
  recordPage: (brainId: string, recordId: string) => ['records', brainId, 'page', recordId] as const,
  traces: (brainId: string) => ['traces', brainId] as const,
  trace: (brainId: string, traceId: string) => ['traces', brainId, traceId] as const,
  profile: (brainId: string) => ['profile', brainId] as const,
  census: (brainId: string) => ['census', brainId] as const,
  sources: (brainId: string) => ['sources', brainId] as const,
  /** Under sources: whatever refreshes a Brain's sources refreshes their chats. */
  sourceChats: (brainId: string, source: string) => ['sources', brainId, 'chats', source] as const,
  objects: (brainId: string) => ['objects', brainId] as const,
  watermark: (brainId: string) => ['watermark', brainId] as const,
  /** The watermark whose changes the cached reads of a Brain were last brought up to. */
  applied: (brainId: string) => ['watermark-applied', brainId] as const,
  keys: ['keys'] as const,
  importRun: (brainId: string) => ['import-run', brainId] as const,
};

/** Cursor paging, as every list of the API pages: each page starts after the previous one's cursor. */
const byCursor = {
  initialPageParam: null as string | null,
  getNextPageParam: (page: { has_more: boolean; next_cursor: string | null }) =>
    page.has_more ? page.next_cursor : null,
};
const after = (cursor: string | null) => (cursor ? { cursor } : {});

/** The Brains list is short: while it is on screen, it is simply read again every few seconds. */
export const brainListOptions = (client: MnemoClient) =>
  queryOptions({
    queryKey: keys.brains,
    queryFn: ({ signal }) => client.listBrains({ signal }),
    refetchInterval: backingOff(5000),
  });

export const brainOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.brain(brainId),
    queryFn: ({ signal }) => client.getBrain(brainId, { signal }),
  });

/**
 * How long a read the Brain's changes keep current stays fresh: for good while its poll runs (each
 * change is applied to it, or it is invalidated, which makes it stale whatever this says), so a list
 * many pages deep is not read again page by page on each return to its screen; otherwise as any read.
 */
const freshWhileFollowed = (qc: QueryClient | undefined, brainId: string) => () =>
  qc && followedWatermark(qc, brainId) !== undefined ? Infinity : defaultStaleMs;

export const recordListOptions = (
  client: MnemoClient,
  brainId: string,
  filters: RecordListParams,
  qc?: QueryClient,
) =>
  infiniteQueryOptions({
    queryKey: [...keys.records(brainId), filters] as const,
    queryFn: ({ signal, pageParam }) =>
      client.listRecords(brainId, { ...filters, ...after(pageParam) }, { signal }),
    ...byCursor,
    // Its first page is read again on each change (useFollowBrain), the rows below it kept.
    staleTime: freshWhileFollowed(qc, brainId),
    // Records still processing turn ready in the background: the screen reads again the pages holding
    // one (usePendingRows), not every page loaded.
  });

export const memoryListOptions = (
  client: MnemoClient,
  brainId: string,
  params: MemoryListParams,
  qc?: QueryClient,
) =>
  infiniteQueryOptions({
    queryKey: [...keys.memories(brainId), 'list', params] as const,
    queryFn: ({ signal, pageParam }) =>
      client.listMemories(brainId, { ...params, ...after(pageParam) }, { signal }),
    ...byCursor,
    // Each change is applied to it (useFollowBrain), so it stays fresh while followed: read again, a
    // list 60 pages deep is 1.2 MB on each return to Memories.
    staleTime: freshWhileFollowed(qc, brainId),
  });

/**
 * One Memory in full. With `qc`, fresh for good while the Brain is followed: every change to it (a
 * write, a forget, the clock passing its start or end) reads it again by its id (useFollowBrain), so
 * a Memory's page, Conflicts' evidence and the census's examples are not read again on each opening.
 */
export const memoryOptions = (client: MnemoClient, brainId: string, memoryId: string, qc?: QueryClient) =>
  queryOptions({
    queryKey: keys.memory(brainId, memoryId),
    queryFn: ({ signal }) => client.getMemory(brainId, memoryId, { signal }),
    staleTime: freshWhileFollowed(qc, brainId),
  });

/** One Record: it never changes (it can only be forgotten, which invalidates every read of Records). */
/** A Record on its own page: unlike its words (`recordOptions`), its Memories and status change. */
export const recordPageOptions = (client: MnemoClient, brainId: string, recordId: string) =>
  queryOptions({
    queryKey: keys.recordPage(brainId, recordId),
    queryFn: ({ signal }) => client.getRecord(brainId, recordId, { signal }),
    retry: false,
  });

export const recordOptions = (client: MnemoClient, brainId: string, recordId: string) =>
  queryOptions({
    queryKey: keys.record(brainId, recordId),
    queryFn: ({ signal }) => client.getRecord(brainId, recordId, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/**
 * Contested Memories are read this many at a time ("Show the next …"): each value shown reads its
 * Memory's evidence, so a Brain with thousands of conflicts is not read, or drawn, all at once.
 */
export const conflictStep = 100;

/**
 * What the Conflicts screen knows: the contested Memories read so far (the server lists them, oldest
 * first; kept current by the Brain's changes, which read again every slot a change touches) and
 * where reading stopped: `cursor` is null once every one was read.
 */
export interface ConflictList {
  memories: Memory[];
  cursor: string | null;
}

/**
 * Reads contested Memories from `cursor` (null: from the start) until `want` more or the end;
 * `filters` narrow them (the Profile's: the owner's only).
 */
export async function readContested(
  client: MnemoClient,
  brainId: string,
  cursor: string | null,
  want: number,
  signal?: AbortSignal,
  filters: Pick<MemoryListParams, 'owner'> = {},
): Promise<ConflictList> {
  const memories: Memory[] = [];
  let next = cursor;
  for (;;) {
    const page = await client.listMemories(
      brainId,
      { ...filters, contested: 'true', limit: Math.min(200, want - memories.length), ...after(next) },
      signal ? { signal } : {},
    );
    memories.push(...page.data);
    next = page.has_more ? page.next_cursor : null;
    if (next === null || memories.length >= want) return { memories, cursor: next };
  }
}

/**
 * The contested values of one slot now (none once it is settled), or null when there are too many to
 * read piecewise (the caller reads the list again instead).
 */
export async function readContestedSlot(
  client: MnemoClient,
  brainId: string,
  slot: string,
): Promise<Memory[] | null> {
  const found: Memory[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 3; i += 1) {
    const page = await client.listMemories(brainId, {
      slot,
      contested: 'true',
      limit: 200,
      ...after(cursor),
    });
    found.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
    if (cursor === null) return found;
  }
  return null;
}

export const conflictListKey = (brainId: string) => [...keys.memories(brainId), 'conflicts'] as const;

/**
 * `previous`: the list on screen. A write made in the app reads the list again (what it changed must
 * show at once), and it must reach as far as "Show the next" had taken it (to the end, if it had got
 * there), or the conflicts found past its first step would vanish.
 */
export const conflictsOptions = (
  client: MnemoClient,
  brainId: string,
  previous: () => ConflictList | undefined = () => undefined,
) =>
  queryOptions({
    queryKey: conflictListKey(brainId),
    queryFn: ({ signal }): Promise<ConflictList> => {
      const before = previous();
      const want =
        before === undefined
          ? conflictStep
          : before.cursor === null
            ? Infinity
            : Math.max(conflictStep, before.memories.length);
      return readContested(client, brainId, null, want, signal);
    },
    // Kept current by the Brain's changes (useFollowBrain), not read again from the start: a list
    // read on past its first step would be cut back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    select: (list) => ({
      ...list,
      conflicts: findConflicts(list.memories),
      // Only while more is to be read can a slot's other values be further on.
      waiting: list.cursor === null ? 0 : valuesAwaitingOthers(list.memories),
    }),
  });

export const objectListOptions = (client: MnemoClient, brainId: string) =>
  infiniteQueryOptions({
    queryKey: keys.objects(brainId),
    queryFn: ({ signal, pageParam }) =>
      client.listObjects(brainId, { limit: 100, ...after(pageParam) }, { signal }),
    ...byCursor,
  });

/**
 * How many of the Brain's Objects are Mnemo's importer's own (what an imported calendar or contacts
 * file held), by the rule the Objects tab labels them with: the person accepted none of them.
 */
export const importersObjectsOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: [...keys.objects(brainId), 'importers-own'] as const,
    queryFn: async ({ signal }) => {
      let count = 0;
      let cursor: string | null = null;
      do {
        const page = await client.listObjects(
          brainId,
          { type: importerObjectType, limit: 500, ...after(cursor) },
          { signal },
        );
        count += page.data.filter((o) => importedFileRecord(o) !== null).length;
        cursor = page.has_more ? page.next_cursor : null;
      } while (cursor !== null);
      return count;
    },
  });

export const traceListOptions = (client: MnemoClient, brainId: string) =>
  infiniteQueryOptions({
    queryKey: keys.traces(brainId),
    queryFn: ({ signal, pageParam }) =>
      client.listTraces(brainId, { limit: 50, ...after(pageParam) }, { signal }),
    ...byCursor,
    // A thorough question answered 202 is assembled in the background: the screen reads again the
    // page holding it (usePendingRows) until it is done.
  });

export const traceOptions = (client: MnemoClient, brainId: string, traceId: string) =>
  queryOptions({
    queryKey: keys.trace(brainId, traceId),
    queryFn: ({ signal }) => client.getTrace(brainId, traceId, { signal }),
    // A finished trace never changes; a processing one (a thorough 202) is replaced when assembly ends.
    staleTime: (q) => (q.state.data?.status === 'processing' ? 0 : Infinity),
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 2000 : false),
  });

const watermarkPace = backingOff(2000);

/**
 * The Brain's watermark, polled: it moves on every change, so a list refetches only when something
 * changed rather than every page of it every few seconds. Read from the profile (one cheap indexed
 * read; the Brain itself carries no watermark).
 */
export const watermarkOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.watermark(brainId),
    queryFn: async ({ signal }) => (await client.getProfile(brainId, { limit: 1 }, { signal })).watermark,
    // A Brain that is gone has nothing more to follow.
    refetchInterval: (q) => (brainIsGone(q.state.error) ? false : watermarkPace(q)),
  });

/**
 * The Brain's watermark while its poll runs (the Brain's pages are open, useFollowBrain): every change
 * up to it has been applied to the reads of the Brain kept current by the poll, or marked them stale.
 * undefined when the Brain is not followed (its watermark may be old).
 */
export function followedWatermark(qc: QueryClient, brainId: string): string | undefined {
  const q = qc.getQueryCache().find<string>({ queryKey: keys.watermark(brainId), exact: true });
  if (!q || q.getObserversCount() === 0 || q.state.status !== 'success') return undefined;
  return q.state.data;
}

/**
 * How long a read of the Brain that says its watermark stays fresh: for good while it is as of the
 * watermark the Brain's poll last read (the poll reads it again, or applies the change to it, when the
 * Brain moves on), so a screen opened, or the window focused, reads nothing the cache has as of now;
 * otherwise as any read.
 */
const freshAsOf =
  <D>(qc: QueryClient | undefined, brainId: string, marks: (data: D) => readonly string[]) =>
  (q: { state: { data: D | undefined } }): number => {
    const now = qc ? followedWatermark(qc, brainId) : undefined;
    const data = q.state.data;
    if (now === undefined || data === undefined) return defaultStaleMs;
    const seen = marks(data);
    return seen.length > 0 && seen.every((w) => w === now) ? Infinity : defaultStaleMs;
  };

/** The app's default staleTime (app.tsx), for reads not known to be current. */
const defaultStaleMs = 2000;

/**
 * The profile's lines, a page at a time (its self and watermark are on every page). A change in the
 * Brain is applied to the loaded pages (useFollowBrain, `applyDeltaToProfile`), which are then marked
 * as of the poll's watermark.
 */
export const profileOptions = (client: MnemoClient, brainId: string, qc?: QueryClient) =>
  infiniteQueryOptions({
    queryKey: keys.profile(brainId),
    queryFn: ({ signal, pageParam }) =>
      client.getProfile(brainId, { limit: 100, ...after(pageParam) }, { signal }),
    ...byCursor,
    staleTime: freshAsOf(qc, brainId, (d: { pages: { watermark: string }[] }) =>
      d.pages.map((p) => p.watermark),
    ),
  });

/** One census per Brain and watermark, whichever screen shows it (Profile, Conflicts, Brains). */
export const censusOptions = (client: MnemoClient, brainId: string, qc?: QueryClient) =>
  queryOptions({
    queryKey: keys.census(brainId),
    queryFn: ({ signal }) => client.getCensus(brainId, { signal }),
    staleTime: freshAsOf(qc, brainId, (d: { watermark: string }) => [d.watermark]),
  });

export const sourceListOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.sources(brainId),
    queryFn: ({ signal }) => client.listSources(brainId, { signal }),
  });

export const sourceChatsOptions = (client: MnemoClient, brainId: string, source: string) =>
  queryOptions({
    queryKey: keys.sourceChats(brainId, source),
    queryFn: ({ signal }) => client.listSourceChats(brainId, source, { signal }),
  });

export const keyListOptions = (client: MnemoClient) =>
  queryOptions({ queryKey: keys.keys, queryFn: ({ signal }) => client.listKeys({ signal }) });
