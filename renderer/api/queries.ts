/**
 * TanStack Query factories: one per read, each passing the query's `signal` so leaving a screen
 * cancels its requests. Components call `useQuery(memoryListOptions(client, ...))`.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Memory } from '../../engine/contract/index.ts';
import type { MemoryListParams, MnemoClient, RecordListParams } from '../../server/client/index.ts';
import { findConflicts } from './conflicts.ts';

export const keys = {
  brains: ['brains'] as const,
  brain: (brainId: string) => ['brain', brainId] as const,
  records: (brainId: string) => ['records', brainId] as const,
  memories: (brainId: string) => ['memories', brainId] as const,
  memory: (brainId: string, memoryId: string) => ['memories', brainId, 'detail', memoryId] as const,
  record: (brainId: string, recordId: string) => ['records', brainId, 'detail', recordId] as const,
  traces: (brainId: string) => ['traces', brainId] as const,
  trace: (brainId: string, traceId: string) => ['traces', brainId, traceId] as const,
  profile: (brainId: string) => ['profile', brainId] as const,
  census: (brainId: string) => ['census', brainId] as const,
  sources: (brainId: string) => ['sources', brainId] as const,
  objects: (brainId: string) => ['objects', brainId] as const,
  watermark: (brainId: string) => ['watermark', brainId] as const,
  keys: ['keys'] as const,
};

/** Cursor paging, as every list of the API pages: each page starts after the previous one's cursor. */
const byCursor = {
  initialPageParam: null as string | null,
  getNextPageParam: (page: { has_more: boolean; next_cursor: string | null }) =>
    page.has_more ? page.next_cursor : null,
};
const after = (cursor: string | null) => (cursor ? { cursor } : {});

export const brainListOptions = (client: MnemoClient) =>
  queryOptions({ queryKey: keys.brains, queryFn: ({ signal }) => client.listBrains({ signal }) });

export const brainOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.brain(brainId),
    queryFn: ({ signal }) => client.getBrain(brainId, { signal }),
  });

export const recordListOptions = (client: MnemoClient, brainId: string, filters: RecordListParams) =>
  infiniteQueryOptions({
    queryKey: [...keys.records(brainId), filters] as const,
    queryFn: ({ signal, pageParam }) =>
      client.listRecords(brainId, { ...filters, ...after(pageParam) }, { signal }),
    ...byCursor,
    // Records still processing turn ready in the background: look again until none are left.
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.data.some((r) => r.status === 'processing')) ? 1000 : false,
  });

export const memoryListOptions = (client: MnemoClient, brainId: string, params: MemoryListParams) =>
  infiniteQueryOptions({
    queryKey: [...keys.memories(brainId), 'list', params] as const,
    queryFn: ({ signal, pageParam }) =>
      client.listMemories(brainId, { ...params, ...after(pageParam) }, { signal }),
    ...byCursor,
  });

export const memoryOptions = (client: MnemoClient, brainId: string, memoryId: string) =>
  queryOptions({
    queryKey: keys.memory(brainId, memoryId),
    queryFn: ({ signal }) => client.getMemory(brainId, memoryId, { signal }),
  });

/** One Record: it never changes (it can only be forgotten, which invalidates every read of Records). */
export const recordOptions = (client: MnemoClient, brainId: string, recordId: string) =>
  queryOptions({
    queryKey: keys.record(brainId, recordId),
    queryFn: ({ signal }) => client.getRecord(brainId, recordId, { signal }),
    staleTime: Infinity,
    retry: false,
  });

/** Up to this many active Memories are scanned for contested slots. */
const conflictScanLimit = 2000;

export const conflictsOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: [...keys.memories(brainId), 'conflicts'] as const,
    queryFn: async ({ signal }) => {
      const all: Memory[] = [];
      let cursor: string | undefined;
      let complete = true;
      for (;;) {
        const page = await client.listMemories(
          brainId,
          { status: 'active', limit: 200, ...(cursor ? { cursor } : {}) },
          { signal },
        );
        all.push(...page.data);
        if (!page.has_more || !page.next_cursor) break;
        if (all.length >= conflictScanLimit) {
          complete = false;
          break;
        }
        cursor = page.next_cursor;
      }
      return { conflicts: findConflicts(all), scanned: all.length, complete };
    },
  });

export const objectListOptions = (client: MnemoClient, brainId: string) =>
  infiniteQueryOptions({
    queryKey: keys.objects(brainId),
    queryFn: ({ signal, pageParam }) =>
      client.listObjects(brainId, { limit: 100, ...after(pageParam) }, { signal }),
    ...byCursor,
  });

export const traceListOptions = (client: MnemoClient, brainId: string) =>
  infiniteQueryOptions({
    queryKey: keys.traces(brainId),
    queryFn: ({ signal, pageParam }) =>
      client.listTraces(brainId, { limit: 50, ...after(pageParam) }, { signal }),
    ...byCursor,
    // A thorough question answered 202 is assembled in the background: look again until it is done.
    refetchInterval: (q) =>
      q.state.data?.pages.some((p) => p.data.some((t) => t.status === 'processing')) ? 2000 : false,
  });

export const traceOptions = (client: MnemoClient, brainId: string, traceId: string) =>
  queryOptions({
    queryKey: keys.trace(brainId, traceId),
    queryFn: ({ signal }) => client.getTrace(brainId, traceId, { signal }),
    // A finished trace never changes; a processing one (a thorough 202) is replaced when assembly ends.
    staleTime: (q) => (q.state.data?.status === 'processing' ? 0 : Infinity),
    refetchInterval: (q) => (q.state.data?.status === 'processing' ? 2000 : false),
  });

/**
 * The Brain's watermark, polled: it moves on every change, so a list refetches only when something
 * changed rather than every page of it every few seconds. Read from the profile (one cheap indexed
 * read; the Brain itself carries no watermark).
 */
export const watermarkOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.watermark(brainId),
    queryFn: async ({ signal }) => (await client.getProfile(brainId, { limit: 1 }, { signal })).watermark,
    refetchInterval: 2000,
  });

export const profileOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.profile(brainId),
    queryFn: ({ signal }) => client.getProfile(brainId, { limit: 100 }, { signal }),
  });

export const censusOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.census(brainId),
    queryFn: ({ signal }) => client.getCensus(brainId, { signal }),
  });

export const sourceListOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: keys.sources(brainId),
    queryFn: ({ signal }) => client.listSources(brainId, { signal }),
  });

export const keyListOptions = (client: MnemoClient) =>
  queryOptions({ queryKey: keys.keys, queryFn: ({ signal }) => client.listKeys({ signal }) });
