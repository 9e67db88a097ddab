/**
 * Following a Brain while agents write to it: one poll of the Brain's watermark (shared by every
 * screen of the Brain; mounted once, by the Brain's navigation), and when it moves, only what changed
 * is read again:
 * - Memories: one delta read (`since_watermark`) is applied to every loaded list, so a list with many
 *   pages shown is not read again page by page; the Conflicts list reads again the slots it touched;
 * - Records and Traces (newest first): the first page is read and put on top of what is loaded;
 * - the Profile: the same delta is applied to its loaded pages (only a new line whose place is not known
 *   is read for, from the top until found); its disagreements are read again when a change touched a
 *   slot of the self's;
 * - the census, sources, Objects and the Brain itself: read again if on screen, else marked stale.
 */
import { useEffect } from 'react';
import {
  queryOptions,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type { Memory, MemoryPage, MnemoRecord, RecordPage } from '../../engine/contract/index.ts';
import {
  isMnemoApiError,
  type MemoryListParams,
  type MnemoClient,
  type RecordListParams,
} from '../../server/client/index.ts';
import { inListOrder } from './conflicts.ts';
import { applyDeltaToList, type Delta } from './memory-delta.ts';
import {
  applyDeltaToProfile,
  applyDeltaToUpcoming,
  dueByClock,
  nextClockChange,
  spliceFresh,
  stampProfile,
  type ProfileData,
} from './profile-delta.ts';
import { contestedKey } from './profile-contested.ts';
import { useClient } from './client.ts';
import { dropIfTouched, dropLastAsked, readLastAsked } from './last-asked.ts';
import {
  brainIsGone,
  conflictListKey,
  keys,
  followedWatermark,
  readContestedSlot,
  watermarkOptions,
  type ConflictList,
} from './queries.ts';

/** A delta larger than this (a big import) is not applied piecewise: every Memory read is refetched. */
const maxDeltaPages = 3;
/** A change touching more slots than this is not applied slot by slot: the Conflicts list is read again. */
const maxSlotReads = 10;
/** The last update of each Brain's Conflicts list: the next one starts when it ends. */
const conflictUpdates = new Map<string, Promise<unknown>>();
/** The same for each Brain's Profile. */
const profileUpdates = new Map<string, Promise<unknown>>();
/** Reading the Profile again from the top to place new lines stops after this many pages. */
const maxProfileReads = 10;

export function useFollowBrain(brainId: string): void {
  const client = useClient();
  const qc = useQueryClient();
  const watermark = useQuery(watermarkOptions(client, brainId));
  const { data: now, dataUpdatedAt } = watermark;
  // Forgotten while its pages are open (from another window, the CLI, an agent): the Brain is read
  // again, and its navigation then says it is gone instead of showing what it held (app.tsx).
  const gone = brainIsGone(watermark.error);
  useEffect(() => {
    if (gone) void qc.invalidateQueries({ queryKey: keys.brain(brainId) });
  }, [gone, qc, brainId]);
  useEffect(() => {
    if (now === undefined) return;
    // Kept as long as what it describes (the Conflicts scan is kept current, never re-read).
    qc.setQueryDefaults(keys.applied(brainId), { gcTime: Infinity });
    const seen = qc.getQueryData<string>(keys.applied(brainId));
    qc.setQueryData(keys.applied(brainId), now);
    if (seen !== undefined && seen !== now) void applyChanges(qc, client, brainId, seen, now);
    // Traces do not move the watermark (asking writes no Record): an open Traces list looks at its
    // first page on each poll instead.
    else void refreshHeads(qc, keys.traces(brainId), () => client.listTraces(brainId, { limit: 50 }), true);
  }, [now, dataUpdatedAt, qc, client, brainId]);
}

async function applyChanges(
  qc: QueryClient,
  client: MnemoClient,
  brainId: string,
  since: string,
  now: string,
  written?: MnemoRecord,
) {
  for (const key of [
    keys.census(brainId),
    keys.sources(brainId),
    keys.objects(brainId),
    keys.brain(brainId),
    [...keys.records(brainId), 'page'],
  ])
    void qc.invalidateQueries({ queryKey: key });
  const records = written
    ? Promise.resolve(putOnTop(qc, brainId, written))
    : refreshHeads(qc, keys.records(brainId), (key) =>
        client.listRecords(brainId, (key[2] ?? {}) as RecordListParams),
      );
  void refreshHeads(qc, keys.traces(brainId), () => client.listTraces(brainId, { limit: 50 }));
  void dropIfTraceGone(client, brainId);
  try {
    await applyMemoryChanges(qc, client, brainId, since, now);
  } catch {
    void qc.invalidateQueries({ queryKey: keys.memories(brainId) });
    void qc.invalidateQueries({ queryKey: keys.profile(brainId) });
  }
  await records;
}

/**
 * A write made in the app (a note, a correction, a forget, an import) is followed as any other
 * change: the delta from the watermark the cached reads were brought up to, to the write's own
 * (`watermark`, from its response; read when the write gave none, as a correction waited on does).
 * Before, every Memories list, Records list and Profile page loaded was read again. The Memories a
 * note is worked into come later, with the watermark's next move, which the poll follows.
 * A Brain not followed (its poll not running) has its reads invalidated as before.
 */
export async function followWrite(
  qc: QueryClient,
  client: MnemoClient,
  brainId: string,
  watermark?: string | null,
  written?: MnemoRecord,
): Promise<void> {
  const seen = qc.getQueryData<string>(keys.applied(brainId));
  if (followedWatermark(qc, brainId) === undefined || seen === undefined) {
    await invalidateBrainReads(qc, brainId);
    return;
  }
  let now = watermark ?? undefined;
  try {
    now ??= (await client.getProfile(brainId, { limit: 1 })).watermark;
  } catch {
    await invalidateBrainReads(qc, brainId);
    return;
  }
  // The poll's effect then finds its watermark applied and reads nothing more for it.
  qc.setQueryData(keys.applied(brainId), now);
  qc.setQueryData(keys.watermark(brainId), now);
  if (seen !== now) await applyChanges(qc, client, brainId, seen, now, written);
}

/**
 * A Record written in the app, from the write's answer: on top of every unfiltered Records list (the
 * newest first), where its first page was read again before. A filtered list is read again (the
 * server matches the filters), on screen or when shown. Another write that moved the watermark
 * meanwhile comes with the next move, whose first-page read brings it.
 */
function putOnTop(qc: QueryClient, brainId: string, written: MnemoRecord) {
  for (const q of qc.getQueryCache().findAll({ queryKey: keys.records(brainId) })) {
    const data = q.state.data as InfiniteData<RecordPage> | undefined;
    if (data?.pages === undefined) continue;
    const filters = (q.queryKey[2] ?? {}) as RecordListParams;
    if (Object.values(filters).some((v) => v !== undefined && v !== '')) {
      void qc.invalidateQueries({ queryKey: q.queryKey, exact: true });
      continue;
    }
    if (data.pages.some((p) => p.data.some((r) => r.id === written.id))) continue;
    qc.setQueryData<InfiniteData<RecordPage>>(q.queryKey, {
      ...data,
      pages: data.pages.map((p, i) => (i === 0 ? { ...p, data: [written, ...p.data] } : p)),
    });
  }
}

/** Every read a write can change, read again (on screen) or marked stale. */
function invalidateBrainReads(qc: QueryClient, brainId: string) {
  return Promise.all(
    [
      keys.traces(brainId),
      keys.records(brainId),
      keys.memories(brainId),
      keys.profile(brainId),
      keys.census(brainId),
      keys.sources(brainId),
      keys.objects(brainId),
    ].map((queryKey) => qc.invalidateQueries({ queryKey })),
  );
}

/**
 * Ask's last answer goes with its Trace: forgetting any Record it quoted takes the Trace along, also a
 * Record no Memory of the answer rests on (a question, one read only for its words), which the
 * Memories' delta does not name.
 */
async function dropIfTraceGone(client: MnemoClient, brainId: string) {
  const kept = readLastAsked(brainId);
  if (!kept) return;
  try {
    await client.getTrace(brainId, kept.context.id);
  } catch (e) {
    const same = readLastAsked(brainId)?.context.id === kept.context.id;
    if (same && isMnemoApiError(e) && e.code === 'trace_not_found') dropLastAsked(brainId);
  }
}

/**
 * Ask's last answer goes when a Memory it gave was forgotten or corrected after it was assembled: read
 * from the answer's own watermark, as the poll's may be older (a change made just before the question
 * is in the answer already).
 */
async function dropIfTouchedSinceAnswer(client: MnemoClient, brainId: string) {
  const kept = readLastAsked(brainId);
  if (!kept?.context.watermark) return;
  let delta: Delta | null;
  try {
    delta = await readDelta(client, brainId, kept.context.watermark, {});
  } catch {
    return; // asked again at the next move
  }
  if (readLastAsked(brainId)?.context.id !== kept.context.id) return;
  if (delta) dropIfTouched(brainId, delta.changed, delta.removed);
  else dropLastAsked(brainId);
}

async function readDelta(
  client: MnemoClient,
  brainId: string,
  since: string,
  filters: MemoryListParams,
): Promise<Delta | null> {
  const changed = new Map<string, Memory>();
  const removed = new Set<string>();
  let mark = since;
  for (let i = 0; i < maxDeltaPages; i += 1) {
    const page: MemoryPage = await client.listMemories(brainId, {
      ...filters,
      status: 'all',
      since_watermark: mark,
      limit: 200,
    });
    // Oldest change first: a later change of the same Memory wins.
    for (const m of page.data) {
      changed.set(m.id, m);
      removed.delete(m.id);
    }
    for (const r of page.removed ?? []) {
      removed.add(r.id);
      changed.delete(r.id);
    }
    if (!page.has_more || !page.watermark) return { changed: [...changed.values()], removed };
    mark = page.watermark;
  }
  return null;
}

/**
 * The delta applied to the Profile and to Conflicts, each after the Brain's previous update of it (two
 * overlapping reads of one slot could land out of order and put back what was settled), alongside the
 * lists, which need not wait for their slot reads. A failure reads that screen's data again instead.
 */
function queueProfileAndConflicts(
  qc: QueryClient,
  client: MnemoClient,
  brainId: string,
  delta: Delta,
  mark: string,
): { profile: Promise<unknown>; conflicts: Promise<unknown> } {
  const profile = (profileUpdates.get(brainId) ?? Promise.resolve())
    .then(() => applyProfileChanges(qc, client, brainId, delta, mark))
    .catch(() => qc.invalidateQueries({ queryKey: keys.profile(brainId) }));
  profileUpdates.set(brainId, profile);
  const conflicts = (conflictUpdates.get(brainId) ?? Promise.resolve())
    .then(() => applyConflictChanges(qc, client, brainId, delta))
    .catch(() => qc.invalidateQueries({ queryKey: conflictListKey(brainId), exact: true }));
  conflictUpdates.set(brainId, conflicts);
  return { profile, conflicts };
}

async function applyMemoryChanges(
  qc: QueryClient,
  client: MnemoClient,
  brainId: string,
  since: string,
  now: string,
) {
  const all = await readDelta(client, brainId, since, {});
  void dropIfTouchedSinceAnswer(client, brainId);
  if (!all) {
    void qc.invalidateQueries({ queryKey: keys.profile(brainId) });
    await qc.invalidateQueries({ queryKey: keys.memories(brainId) });
    return;
  }
  const { profile, conflicts } = queueProfileAndConflicts(qc, client, brainId, all, now);
  // A Memory's own page: read again if it changed (awaited: a write made in the app shows its result
  // on that page once this is done).
  const details = [...all.changed.map((m) => m.id), ...all.removed].map((id) =>
    qc.invalidateQueries({ queryKey: keys.memory(brainId, id) }),
  );
  // The lists: an unfiltered one takes the delta as read; a filtered one on screen reads its own
  // (the server matches the words); one not on screen is read again when shown.
  const lists = qc.getQueryCache().findAll({ queryKey: [...keys.memories(brainId), 'list'] });
  for (const q of lists) {
    const params = (q.queryKey[3] ?? {}) as MemoryListParams;
    const { q: words, subject, owner } = params;
    const filtered = Boolean(words || subject || owner);
    if (filtered && q.getObserversCount() === 0) {
      void qc.invalidateQueries({ queryKey: q.queryKey, exact: true, refetchType: 'none' });
      continue;
    }
    const delta = filtered
      ? await readDelta(client, brainId, since, {
          ...(words ? { q: words } : {}),
          ...(subject ? { subject } : {}),
          ...(owner ? { owner } : {}),
        })
      : all;
    if (!delta) {
      void qc.invalidateQueries({ queryKey: q.queryKey, exact: true });
      continue;
    }
    qc.setQueryData<InfiniteData<MemoryPage>>(q.queryKey, (data) =>
      data ? applyDeltaToList(data, delta, params.status, params.order) : data,
    );
  }
  // Done when every read it changes is: a write made in the app is shown done then (a value kept on
  // Conflicts has its card gone, so focus is not left on a button about to go).
  await Promise.all([...details, profile, conflicts]);
}

interface Page<T extends { id: string }> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Newest-first lists: the first page is read again and the rows loaded below it kept, so a change
 * costs one request however many pages are shown. If the first page does not reach what was loaded
 * (more new rows than a page), the list is read again whole. `onlyActive`: lists on screen only.
 */
async function refreshHeads<T extends { id: string }>(
  qc: QueryClient,
  prefix: readonly unknown[],
  readFirst: (key: readonly unknown[]) => Promise<Page<T>>,
  onlyActive = false,
) {
  const lists = qc
    .getQueryCache()
    .findAll({ queryKey: prefix, ...(onlyActive ? { type: 'active' as const } : {}) })
    .filter((q) => (q.state.data as { pages?: unknown } | undefined)?.pages !== undefined);
  for (const q of lists) {
    const data = q.state.data as InfiniteData<Page<T>, string | null>;
    if (q.getObserversCount() === 0) {
      void qc.invalidateQueries({ queryKey: q.queryKey, exact: true, refetchType: 'none' });
      continue;
    }
    if (data.pages.length <= 1) {
      void qc.invalidateQueries({ queryKey: q.queryKey, exact: true });
      continue;
    }
    let fresh: Page<T>;
    try {
      fresh = await readFirst(q.queryKey);
    } catch {
      continue;
    }
    const loaded = data.pages.flatMap((p) => p.data);
    const tail = fresh.data.at(-1);
    const at = tail ? loaded.findIndex((r) => r.id === tail.id) : -1;
    if (!fresh.has_more || at === -1) {
      if (!fresh.has_more) qc.setQueryData(q.queryKey, { pages: [fresh], pageParams: [null] });
      else void qc.invalidateQueries({ queryKey: q.queryKey, exact: true });
      continue;
    }
    const older = new Set(loaded.slice(at + 1).map((r) => r.id));
    const pages = [
      fresh,
      ...data.pages.slice(1).map((p) => ({ ...p, data: p.data.filter((r) => older.has(r.id)) })),
    ];
    qc.setQueryData(q.queryKey, { pages, pageParams: data.pageParams });
  }
}

/**
 * The Conflicts list: a change to one value can make another, unchanged, value contested (a new
 * source disagrees with it) or settle it, so each slot a change touched is read again whole (its
 * contested values now, none once settled) and replaces what was known of it.
 */
async function applyConflictChanges(qc: QueryClient, client: MnemoClient, brainId: string, delta: Delta) {
  const key = conflictListKey(brainId);
  const list = qc.getQueryData<ConflictList>(key);
  if (!list) return;
  const known = new Map(list.memories.map((m) => [m.id, m]));
  const touched = new Set<string>();
  for (const m of delta.changed) if (m.slot !== null) touched.add(m.slot);
  for (const id of delta.removed) {
    const slot = known.get(id)?.slot;
    if (slot) touched.add(slot);
  }
  if (touched.size === 0) return;
  const fresh = new Map<string, Memory[]>();
  for (const slot of touched.size > maxSlotReads ? [] : touched) {
    const values = await readContestedSlot(client, brainId, slot);
    if (values === null) break;
    fresh.set(slot, values);
  }
  if (fresh.size < touched.size) {
    // Read again as far as it had been read (the screen's query passes the list it had).
    await qc.invalidateQueries({ queryKey: key, exact: true });
    return;
  }
  qc.setQueryData<ConflictList>(key, (old) => {
    if (!old) return old;
    const kept = old.memories.filter(
      (m) => !delta.removed.has(m.id) && (m.slot === null || !fresh.has(m.slot)),
    );
    const memories = inListOrder([...kept, ...[...fresh.values()].flat()]);
    return { ...old, memories };
  });
}

/**
 * The Profile: the delta applied to its loaded pages, so a change costs no read of them unless a new
 * line's place is not known (then the Profile is read from the top until the read has it and meets
 * the loaded lines). Its disagreements are read again only when the change touched a slot of the
 * self's or removed a value among them. Read or being read meanwhile (a "Show more", a refetch), it is
 * read again as a whole instead.
 */
async function applyProfileChanges(
  qc: QueryClient,
  client: MnemoClient,
  brainId: string,
  delta: Delta,
  now: string,
) {
  const contested = qc.getQueryData<Memory[]>(contestedKey(brainId));
  if (
    contested &&
    (delta.changed.some((m) => m.slot !== null && m.owner.state === 'self') ||
      contested.some((m) => delta.removed.has(m.id)))
  )
    void qc.invalidateQueries({ queryKey: contestedKey(brainId), exact: true });
  qc.setQueryData<Memory[]>(upcomingKey(brainId), (old) => old && applyDeltaToUpcoming(old, delta));
  const key = keys.profile(brainId);
  const query = qc.getQueryCache().find<ProfileData>({ queryKey: key, exact: true });
  const start = query?.state.data;
  if (!query || !start) return;
  const whole = () => qc.invalidateQueries({ queryKey: key, exact: true });
  if (query.state.fetchStatus !== 'idle') return whole();
  const nowMs = Date.now();
  const applied = applyDeltaToProfile(start, delta, nowMs);
  let next: ProfileData | null = applied.data;
  if (applied.unplaced.length > 0) {
    // Not on screen: read when shown.
    if (query.getObserversCount() === 0)
      return qc.invalidateQueries({ queryKey: key, exact: true, refetchType: 'none' });
    next = await readUntilPlaced(
      client,
      brainId,
      applied.data,
      applied.unplaced.map((m) => m.id),
    );
  }
  // Changed meanwhile ("Show more", a refetch): what was read here may not fit it.
  if (next === null || qc.getQueryData(key) !== start) return whole();
  qc.setQueryData<ProfileData>(key, stampProfile(next, now));
}

async function readUntilPlaced(
  client: MnemoClient,
  brainId: string,
  loaded: ProfileData,
  unplaced: readonly string[],
): Promise<ProfileData | null> {
  const fresh: ProfileData = { pages: [], pageParams: [] };
  let cursor: string | null = null;
  for (let i = 0; i < maxProfileReads; i += 1) {
    const page = await client.getProfile(brainId, { limit: 100, ...(cursor ? { cursor } : {}) });
    fresh.pages.push(page);
    fresh.pageParams.push(cursor);
    const joined = spliceFresh(loaded, fresh.pages, fresh.pageParams, unplaced);
    if (joined) return joined;
    cursor = page.next_cursor;
  }
  return null;
}

/** Whatever is read for one change by the clock: more slots than this read the Profile again. */
const maxClockSlots = 10;
/** setTimeout's longest wait (about 24 days) is far off: a wait past a day is taken a day at a time. */
const maxClockWaitMs = 86_400_000;
/** After an instant, so the server's clock has passed it too. */
const clockMarginMs = 1000;

/**
 * The self's Memories whose status changes with the clock alone (a value dated later, the value in
 * force until it starts), kept current by the Brain's deltas. Its value in force until then is read
 * with it only through the deltas: its end is the later value's start, which this read holds.
 */
export const upcomingKey = (brainId: string) => [...keys.profile(brainId), 'upcoming'] as const;

export const upcomingOptions = (client: MnemoClient, brainId: string) =>
  queryOptions({
    queryKey: upcomingKey(brainId),
    queryFn: async ({ signal }) => {
      const found: Memory[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 3; i += 1) {
        const page: MemoryPage = await client.listMemories(
          brainId,
          { owner: 'self', status: 'scheduled', limit: 200, ...(cursor ? { cursor } : {}) },
          { signal },
        );
        found.push(...page.data);
        cursor = page.has_more ? page.next_cursor : null;
        if (cursor === null) break;
      }
      return found;
    },
    // Kept current by the deltas; kept as long as the Profile it times may be, so an instant that
    // passed while the Profile was not on screen is still known when it is shown again.
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });

/**
 * A value dated later that begins, or the value whose end passes, moves no watermark: the open
 * Profile (and the Memories lists, Conflicts) is brought up to date at the next such instant its self's
 * Memories hold, by reading the slots that change then, not the Profile.
 */
export function useProfileClock(brainId: string): void {
  const client = useClient();
  const qc = useQueryClient();
  const { data } = useQuery(upcomingOptions(client, brainId));
  useEffect(() => {
    const next = data ? nextClockChange(data) : null;
    if (next === null) return;
    const wait = Math.min(Math.max(next - Date.now(), 0) + clockMarginMs, maxClockWaitMs);
    const timer = setTimeout(() => void followClock(qc, client, brainId), wait);
    return () => clearTimeout(timer);
  }, [data, qc, client, brainId]);
}

async function followClock(qc: QueryClient, client: MnemoClient, brainId: string) {
  const key = upcomingKey(brainId);
  const upcoming = qc.getQueryData<Memory[]>(key) ?? [];
  const due = dueByClock(upcoming, Date.now());
  const slots = [...new Set(due.flatMap((m) => (m.slot === null ? [] : [m.slot])))];
  const mark = qc.getQueryData<string>(keys.applied(brainId));
  const changed: Memory[] = [];
  let complete = mark !== undefined && slots.length <= maxClockSlots;
  for (const slot of complete ? slots : []) {
    try {
      const page = await client.listMemories(brainId, { slot, status: 'all', limit: 200 });
      changed.push(...page.data);
      if (page.has_more) complete = false;
    } catch {
      complete = false;
    }
    if (!complete) break;
  }
  if (!complete || mark === undefined) {
    // Read again as a whole (the upcoming values with it, under the Profile's key).
    void qc.invalidateQueries({ queryKey: keys.memories(brainId) });
    void qc.invalidateQueries({ queryKey: keys.census(brainId) });
    await qc.invalidateQueries({ queryKey: keys.profile(brainId) });
    return;
  }
  // Nothing due (a wait cut to a day): a new array, so the clock is set again.
  if (due.length === 0) {
    qc.setQueryData<Memory[]>(key, [...upcoming]);
    return;
  }
  await applyDelta(qc, client, brainId, { changed, removed: new Set() }, mark);
}

/**
 * A delta not read from a watermark (the clock's): applied to the Profile, Conflicts, the Memories
 * lists that take it as it is (unfiltered; a filtered one is read again) and the Memories' own pages.
 */
async function applyDelta(qc: QueryClient, client: MnemoClient, brainId: string, delta: Delta, mark: string) {
  void qc.invalidateQueries({ queryKey: keys.census(brainId) });
  const { profile, conflicts } = queueProfileAndConflicts(qc, client, brainId, delta, mark);
  for (const m of delta.changed) void qc.invalidateQueries({ queryKey: keys.memory(brainId, m.id) });
  for (const q of qc.getQueryCache().findAll({ queryKey: [...keys.memories(brainId), 'list'] })) {
    const params = (q.queryKey[3] ?? {}) as MemoryListParams;
    if (params.q || params.subject || params.owner) {
      void qc.invalidateQueries({ queryKey: q.queryKey, exact: true });
      continue;
    }
    qc.setQueryData<InfiniteData<MemoryPage>>(q.queryKey, (data) =>
      data ? applyDeltaToList(data, delta, params.status, params.order) : data,
    );
  }
  await Promise.all([profile, conflicts]);
}
