/**
 * Writes. Removals and revocations update the screen at once (cancel, snapshot, set, roll back on
 * error, invalidate when settled); creations wait for the server, whose answer carries the ids.
 */
import {
  queryOptions,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import type {
  BrainCreate,
  BrainList,
  BrainUpdate,
  DeletionReceipt,
  ImportProgress,
  ImportRequest,
  ImportResult,
  KeyCreate,
  MnemoRecord,
  ObjectAccept,
  RecordCreate,
  RecordPage,
} from '../../engine/contract/index.ts';
import type { KeyListPage, MnemoClient } from '../../server/client/index.ts';
import { useClient } from './client.ts';
import { clearImportMarker, holdImportLock, writeImportMarker, type ImportMarker } from './import-marker.ts';
import { dropLastAsked } from './last-asked.ts';
import { dropImportChoices } from '../import-choices.ts';
import { followWrite } from './follow-brain.ts';
import { keys } from './queries.ts';

export function useCreateBrain() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BrainCreate) => client.createBrain(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.brains }),
  });
}

/**
 * A Brain's name or owner set afterwards. A new owner has the Brain's Records derived again in the
 * background: the Profile and the Memories' owners follow as the Brain's watermark moves.
 */
export function useUpdateBrain(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: BrainUpdate) => client.updateBrain(brainId, body),
    onSuccess: (brain) => {
      qc.setQueryData(keys.brain(brainId), brain);
      void qc.invalidateQueries({ queryKey: keys.profile(brainId) });
      return qc.invalidateQueries({ queryKey: keys.brains });
    },
  });
}

export function useForgetBrain() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (brainId: string) => client.forgetBrain(brainId),
    onMutate: async (brainId) => {
      await qc.cancelQueries({ queryKey: keys.brains });
      const previous = qc.getQueryData<BrainList>(keys.brains);
      if (previous)
        qc.setQueryData<BrainList>(keys.brains, {
          ...previous,
          data: previous.data.filter((b) => b.id !== brainId),
        });
      return { previous };
    },
    onError: (_e, _id, ctx) => {
      if (ctx?.previous) qc.setQueryData(keys.brains, ctx.previous);
    },
    onSettled: (_r, e, brainId) => {
      dropLastAsked(brainId);
      if (!e) dropImportChoices(brainId);
      qc.removeQueries({ queryKey: keys.brain(brainId) });
      return qc.invalidateQueries({ queryKey: keys.brains });
    },
  });
}

/**
 * After a write to a Brain: Ask's last answer goes (any change the app makes drops it), and the
 * change is followed as one from an agent is (`followWrite`): the delta read up to the write's
 * watermark, not every loaded page again. A forget also drops the Traces that quoted what went,
 * which no watermark delta names.
 */
function followBrainWrite(
  qc: QueryClient,
  client: MnemoClient,
  brainId: string,
  watermark: string | null | undefined,
  o: { forgot?: 'records' | 'many'; written?: MnemoRecord } = {},
) {
  dropLastAsked(brainId);
  // Records forgotten by source, chat or import are not known one by one here: a Records list keeps
  // the rows below its first page on a change, so it is read again whole (Records forgotten one by
  // one left the lists already).
  if (o.forgot === 'many') void qc.invalidateQueries({ queryKey: keys.records(brainId) });
  if (o.forgot) {
    void qc.invalidateQueries({ queryKey: keys.traces(brainId) });
    // A Record's words are cached for good (they never change), so one forgotten must be asked again.
    void qc.invalidateQueries({
      queryKey: keys.records(brainId),
      predicate: (q) => q.queryKey[2] === 'detail',
    });
  }
  return followWrite(qc, client, brainId, watermark, o.written);
}

export function useRememberRecord(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordCreate) => client.rememberRecord(brainId, body),
    // The Record from the answer goes on top of the Records lists; its Memories come with derivation.
    onSettled: (written) =>
      followBrainWrite(qc, client, brainId, written?.watermark, written ? { written: written.record } : {}),
  });
}

/** One Record of a forget of several: its receipt, or the error that kept it. */
type RecordForget = { id: string; receipt: DeletionReceipt } | { id: string; error: unknown };

/**
 * Forgets a Record and then, one at a time, the other Records chosen with it. When the first (the
 * Record the person asked about) fails, nothing else is tried and the mutation fails with its error;
 * a later one failing is kept in the results and the rest are still forgotten, so the answer says
 * exactly which went. Each Record leaves the lists as soon as it is gone; the Brain's reads are
 * invalidated once, at the end (between, a Record's own page would read it gone and close the
 * dialog mid-way).
 */
export function useForgetRecords(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (recordIds: readonly string[]): Promise<RecordForget[]> => {
      await qc.cancelQueries({ queryKey: keys.records(brainId) });
      const results: RecordForget[] = [];
      for (const [i, id] of recordIds.entries()) {
        try {
          results.push({ id, receipt: await client.forgetRecord(brainId, id) });
        } catch (error) {
          if (i === 0) throw error;
          results.push({ id, error });
          continue;
        }
        // The lists only: one Record's words (a Trace's, the Census's examples) share the prefix.
        for (const [key, data] of qc.getQueriesData<InfiniteData<RecordPage> | MnemoRecord>({
          queryKey: keys.records(brainId),
        })) {
          if (data === undefined || !('pages' in data)) continue;
          qc.setQueryData<InfiniteData<RecordPage>>(key, {
            ...data,
            pages: data.pages.map((p) => ({ ...p, data: p.data.filter((r) => r.id !== id) })),
          });
        }
      }
      return results;
    },
    onSettled: (results) =>
      followBrainWrite(qc, client, brainId, lastWatermark(results), { forgot: 'records' }),
  });
}

/** The watermark after the last of several forgets that went through. */
function lastWatermark(results: RecordForget[] | undefined): string | null | undefined {
  for (const r of [...(results ?? [])].reverse()) if ('receipt' in r) return r.receipt.watermark;
  return undefined;
}

/** The latest import into a Brain: running, finished, failed or stopped by the person. */
export interface ImportRun {
  status: 'pending' | 'success' | 'error' | 'cancelled';
  files: number;
  /** What the server last reported (null until it has planned the import); kept when cancelled. */
  progress: ImportProgress | null;
  /** While pending: stops the import (its request is closed; the server stops between items). */
  cancel?: () => void;
  result?: ImportResult;
  error?: unknown;
}

/** The person stopped the import: the request was aborted on purpose, which is not a failure. */
class ImportStopped extends Error {
  constructor(readonly progress: ImportProgress | null) {
    super('import stopped');
  }
}

/**
 * The latest import's state lives in the query cache, not in the Import screen: an import goes on
 * when the person looks at another tab meanwhile, and its summary is there when they come back.
 */
export const importRunOptions = (qc: QueryClient, brainId: string) =>
  queryOptions({
    queryKey: keys.importRun(brainId),
    queryFn: () => qc.getQueryData<ImportRun | null>(keys.importRun(brainId)) ?? null,
    staleTime: Infinity,
    gcTime: Infinity,
  });

/**
 * Export files imported server-side with the `mnemo import` parsers, its progress streamed into the
 * import's state as the server reports it; the summary comes back. The state carries `cancel`, so the
 * import can be stopped from wherever it is shown, also after the person came back from another tab.
 */
/**
 * The page is going (reload, closed tab, another address): the browser then aborts the import's
 * request, which is not a failure of the import to record. Its marker stays as it was: running, with
 * no page holding its lock, which is how it reads as cut short (import-marker.ts).
 */
let pageGoing = false;
if (typeof window !== 'undefined')
  window.addEventListener('pagehide', (e) => {
    if (!e.persisted) pageGoing = true;
  });

/** Leaving the page would stop the import part way: the browser asks first. */
function warnBeforeLeaving(e: BeforeUnloadEvent) {
  e.preventDefault();
  // Older browsers ask only when returnValue is set.
  e.returnValue = '';
}

export function useImportFiles(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  const key = keys.importRun(brainId);
  qc.setQueryDefaults(key, { gcTime: Infinity });
  return useMutation({
    mutationFn: async (body: ImportRequest) => {
      const controller = new AbortController();
      let progress: ImportProgress | null = null;
      // Outlives the page when the page goes first (reload, closed tab): see import-marker.ts.
      const marker: ImportMarker = {
        id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
        files: body.files.length,
        startedAt: new Date().toISOString(),
        progress: null,
      };
      const counts = (p: ImportProgress | null): ImportMarker['progress'] =>
        p && {
          imported: p.imported,
          replaced: p.replaced,
          unchanged: p.unchanged,
          skipped: p.skipped,
          failed: p.failed,
        };
      const pending = () =>
        qc.setQueryData<ImportRun>(key, {
          status: 'pending',
          files: body.files.length,
          progress,
          cancel: () => controller.abort(),
        });
      pending();
      writeImportMarker(brainId, marker, true);
      window.addEventListener('beforeunload', warnBeforeLeaving);
      let settle = () => {};
      holdImportLock(marker.id, new Promise<void>((resolve) => (settle = resolve)));
      try {
        const result = await client.importFilesWithProgress(brainId, body, {
          signal: controller.signal,
          onProgress: (p) => {
            progress = p;
            pending();
            writeImportMarker(brainId, { ...marker, progress: counts(p) });
          },
        });
        clearImportMarker(brainId, marker.id);
        return result;
      } catch (e) {
        if (pageGoing) throw e;
        const stopped = controller.signal.aborted;
        // Refused before the server planned it: nothing was written, nothing is left to finish.
        if (!stopped && progress === null) clearImportMarker(brainId, marker.id);
        else
          writeImportMarker(
            brainId,
            { ...marker, progress: counts(progress), ended: stopped ? 'cancelled' : 'failed' },
            true,
          );
        throw stopped ? new ImportStopped(progress) : e;
      } finally {
        window.removeEventListener('beforeunload', warnBeforeLeaving);
        settle();
      }
    },
    onSuccess: (result, body) =>
      qc.setQueryData<ImportRun>(key, {
        status: 'success',
        files: body.files.length,
        progress: null,
        result,
      }),
    onError: (error, body) =>
      qc.setQueryData<ImportRun>(
        key,
        error instanceof ImportStopped
          ? { status: 'cancelled', files: body.files.length, progress: error.progress }
          : { status: 'error', files: body.files.length, progress: null, error },
      ),
    onSettled: (result) => followBrainWrite(qc, client, brainId, result?.watermark, { forgot: 'many' }),
  });
}

/** Removes a whole import: every Record of one source name, and what rests only on them. */
export function useForgetSource(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (sourceName: string) => client.forgetSource(brainId, sourceName),
    onSettled: (receipt) => followBrainWrite(qc, client, brainId, receipt?.watermark, { forgot: 'many' }),
  });
}

/** One chat of a chat import (WhatsApp's), the source's other chats kept. */
export function useForgetSourceChat(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (c: { source: string; chat: string }) => client.forgetSourceChat(brainId, c.source, c.chat),
    onSettled: (receipt) => followBrainWrite(qc, client, brainId, receipt?.watermark, { forgot: 'many' }),
  });
}

/** A correction is a Record like any other: `statement` supersedes, no statement retracts. */
export function useCorrectMemory(brainId: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (c: { memoryId: string; statement?: string; reason?: string; validFrom?: string }) => {
      const written = await client.rememberRecord(brainId, {
        content: {
          kind: 'correction',
          corrects: c.memoryId,
          ...(c.statement ? { statement: c.statement } : {}),
          ...(c.reason ? { reason: c.reason } : {}),
          ...(c.validFrom ? { valid_from: c.validFrom } : {}),
        },
        source: { name: 'Mnemo app', trust: 'high' },
      });
      // Wait (briefly) for the correction to be applied, so the screen shows the new version at once.
      let record = written.record;
      for (let i = 0; i < 40 && record.status === 'processing'; i += 1) {
        await new Promise((r) => setTimeout(r, 250));
        record = await client.getRecord(brainId, record.id);
      }
      return { ...written, record };
    },
    // The Record is ready by now (or still processing): the watermark is read, not the write's.
    onSettled: () => followBrainWrite(qc, client, brainId, undefined),
  });
}

export function useAcceptObject(brainId: string) {
  const client = useClient();
  return useMutation({ mutationFn: (body: ObjectAccept) => client.acceptObject(brainId, body) });
}

export function useCreateKey() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyCreate) => client.createKey(body),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.keys }),
  });
}

export function useRevokeKey() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => client.revokeKey(keyId),
    onMutate: async (keyId) => {
      await qc.cancelQueries({ queryKey: keys.keys });
      const previous = qc.getQueryData<KeyListPage>(keys.keys);
      if (previous) {
        const now = new Date().toISOString();
        qc.setQueryData<KeyListPage>(keys.keys, {
          data: previous.data.map((k) => (k.id === keyId ? { ...k, revoked_at: k.revoked_at ?? now } : k)),
        });
      }
      return { previous };
    },
    onError: (_e, _id, ctx) => {
      if (ctx?.previous) qc.setQueryData(keys.keys, ctx.previous);
    },
    onSettled: () => qc.invalidateQueries({ queryKey: keys.keys }),
  });
}
