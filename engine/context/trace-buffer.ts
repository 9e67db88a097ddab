import type { Trace, TraceSummary } from '../contract/index.ts';
import { decodeCursor, encodeCursor } from '../core/shared/page-cursor.ts';
import { MnemoError } from '../errors/mnemo-error.ts';
import { traceNotFound } from '../errors/trace-not-found.ts';
import { newId } from '../ids.ts';
import type { TraceStore } from '../ports/trace-store.ts';
import type { FailedRequest } from '../types.ts';

/**
 * Every Record a trace names: lane candidates, fused results, citations, budget cuts, the evidence left
 * out and the Records its reasons name (the one quoted instead of a repeat, a newer revision).
 */
export function recordIdsOf(trace: Trace): Set<string> {
  const ids = new Set<string>();
  for (const l of trace.lanes) for (const c of l.candidates) ids.add(c.record_id);
  for (const r of trace.fusion.results) ids.add(r.record_id);
  for (const c of trace.citations) ids.add(c.record_id);
  for (const c of trace.budget.cut) ids.add(c.record_id);
  for (const d of trace.dropped ?? []) {
    ids.add(d.record_id);
    for (const named of d.reason.match(namedRecord) ?? []) ids.add(named);
  }
  return ids;
}

/** A Record id as a reason names it. */
const namedRecord = /\brec_[0-9A-Za-z]+/gu;

/**
 * The TraceStore in memory, bounded (oldest evicted first): a restart clears it. Each method does all
 * its work before it returns its promise, so calls take effect in the order they are made, which is
 * what assemble-context.ts' check before its add relies on.
 */
export function createTraceBuffer(size: number): TraceStore {
  // n orders the traces and names a page's end: it stays valid however many are evicted meanwhile.
  // ids are the Records each trace names, gathered once, so a forget is a set lookup per trace.
  let items: { brainUid: string; trace: Trace; n: number; ids: Set<string> }[] = [];
  let added = 0;
  let forgets = 0;
  return {
    async add(brainUid, trace) {
      const ids = recordIdsOf(trace);
      // A thorough Context's Trace replaces, in place, the one its 202 left under the same id, and
      // never the other way round: the 202's is written while the assembly runs on, and may come last.
      const same = items.find((i) => i.trace.id === trace.id && i.brainUid === brainUid);
      if (same) {
        if (trace.status === 'processing') return;
        same.trace = trace;
        same.ids = ids;
        return;
      }
      items.push({ brainUid, trace, n: ++added, ids });
      if (items.length > size) items.splice(0, items.length - size);
    },
    async list(brainUid, limit, cursor) {
      const before = cursor === undefined ? Infinity : traceCursor(cursor);
      const mine = items.filter((i) => i.brainUid === brainUid && i.n < before).reverse();
      const page = mine.slice(0, limit);
      const hasMore = mine.length > limit;
      return {
        data: page.map((i) => summarize(i.trace)),
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor(String(page[page.length - 1]!.n)) : null,
      };
    },
    async get(brainUid, id) {
      const hit = items.find((i) => i.brainUid === brainUid && i.trace.id === id);
      if (!hit) throw traceNotFound(id);
      return hit.trace;
    },
    async purge(brainUid) {
      forgets += 1;
      items = items.filter((i) => i.brainUid !== brainUid);
    },
    async forgetRecords(brainUid, recordIds) {
      forgets += 1;
      if (recordIds.length === 0) return;
      items = items.filter((i) => i.brainUid !== brainUid || !recordIds.some((id) => i.ids.has(id)));
    },
    async remove(brainUid, id) {
      items = items.filter((i) => i.brainUid !== brainUid || i.trace.id !== id);
    },
    forgets: () => forgets,
  };
}

/** A Trace page's cursor: the place it names, or `invalid_request_body`. Every trace store reads them so. */
export function traceCursor(cursor: string): number {
  const n = Number(decodeCursor(cursor));
  if (!Number.isSafeInteger(n) || n < 1)
    throw new MnemoError('invalid_request_body', 'cursor: not a cursor this server issued');
  return n;
}

/** A Trace as a page of them lists it. */
export function summarize(t: Trace): TraceSummary {
  return {
    id: t.id,
    object: 'trace',
    created_at: t.created_at,
    query: t.query,
    mode: t.mode,
    status: t.status,
    abstained: t.abstained,
    citations: t.citations.length,
    total_ms: t.timings_ms.total ?? 0,
    error_code: t.error?.code ?? null,
  };
}

/** The Trace a failed createContext leaves under a `trc_` id: the request and its error, nothing retrieved. */
export function failedTrace(
  brainId: string,
  failure: FailedRequest,
  createdAt: string,
  /** A thorough Context's id, when the failure came after a 202 had announced it. */
  id: string = newId('trc'),
): Trace {
  return {
    id,
    object: 'trace',
    brain_id: brainId,
    request_id: failure.requestId,
    created_at: createdAt,
    query: failure.query,
    mode: failure.mode,
    purpose: typeof failure.request.purpose === 'string' ? failure.request.purpose : null,
    status: 'failed',
    watermark: null,
    request: failure.request,
    lanes: [],
    fusion: { method: 'none', results: [] },
    budget: { requested_tokens: 0, estimated_tokens: 0, truncated: false, cut: [] },
    citations: [],
    abstained: null,
    timings_ms: { total: 0 },
    cost: { generative_calls: 0, processing_units: 0, model_calls_total: 0, embedding_calls: 0 },
    error: failure.error,
  };
}
