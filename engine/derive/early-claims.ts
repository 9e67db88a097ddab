import { isDeepStrictEqual } from 'node:util';
import type { Claim, DerivableRecord, DeriveContext, Deriver } from '../core/derive/deriver.ts';
import type { ClaimedJob, Storage } from '../ports/index.ts';
import { deriveContext } from './derive-context.ts';
import { deriverInput } from './deriver-input.ts';
import { sharedDeriverThread, type DeriverThread } from './deriver-thread.ts';
import type { ThreadItem } from './derive-thread.ts';
import type { DerivationLog } from './derivation.ts';

/**
 * A batch's Records derived on the derive thread before their units of work run, so the rules' CPU
 * (a fifth of a write's on the main thread) is spent beside the HTTP side instead of after it. A job
 * uses its early claims only where its Record and what the Brain holds for it are still what they were
 * read as: a Record before it in the batch may have named a person since, and then it is derived in
 * place, as it always was. So Memories are the same with or without the thread.
 */
export interface EarlyClaims {
  /** Derives on the thread the batch's derive jobs that have no early claims yet, when worth it. */
  prepare(claimed: readonly ClaimedJob[]): Promise<void>;
  /** The same for Records the rules' upgrade pass derives again next. */
  prepareRecords(records: readonly { brainUid: string; recordId: string }[]): Promise<void>;
  /** This Record's early claims under this context, once; undefined where there are none that fit. */
  take(input: DerivableRecord, ctx: DeriveContext): Claim[] | undefined;
  /**
   * This Record's early claims, whatever context they were derived under, left for its job to take:
   * what a batch will look up (a prefetch), never what it admits.
   */
  hint(recordId: string): Claim[] | undefined;
  close(): Promise<void>;
}

export interface EarlyClaimsOptions {
  thread: DeriverThread;
  read: Storage['read'];
  /**
   * Fewest derive jobs in a batch that start the thread (default 4): a lone note is derived at once in
   * place, and the thread starts when Records stream in. Once it is up, every batch goes to it.
   */
  startAt?: number;
  /** Most early claims kept for jobs not run yet (a batch cut by its time slice; default 1,000). */
  keep?: number;
  /** Told once, when the thread first derives for this engine. */
  onFirstUse?: () => void;
}

interface Early {
  input: DerivableRecord;
  ctx: DeriveContext;
  claims: Claim[];
}

export function createEarlyClaims(o: EarlyClaimsOptions): EarlyClaims {
  const startAt = o.startAt ?? 4;
  const keep = o.keep ?? 1_000;
  const kept = new Map<string, Early>();
  let used = false;

  /** What the thread is to derive of one Brain's jobs: each Record with its context, as its job reads them. */
  const itemsOf = (brainUid: string, ids: readonly string[]): Promise<ThreadItem[]> =>
    o.read(brainUid, async (uow) => {
      const items: ThreadItem[] = [];
      for (const r of await uow.records.getMany(ids)) {
        if (r.kind === 'correction') continue;
        let input: DerivableRecord;
        try {
          input = deriverInput(r);
        } catch {
          continue; // Its own job fails on it, as it would have.
        }
        items.push({ input, ctx: await deriveContext(uow, [input.content]) });
      }
      return items;
    });

  async function prepareRecords(records: readonly { brainUid: string; recordId: string }[]): Promise<void> {
    const fresh = records.filter((r) => !kept.has(r.recordId));
    if (o.thread.failed || fresh.length === 0 || (!o.thread.running && fresh.length < startAt)) return;
    const byBrain = new Map<string, string[]>();
    for (const r of fresh) {
      const ids = byBrain.get(r.brainUid);
      if (ids) ids.push(r.recordId);
      else byBrain.set(r.brainUid, [r.recordId]);
    }
    const items = (
      await Promise.all([...byBrain].map(([brain, ids]) => itemsOf(brain, ids).catch(() => [])))
    ).flat();
    if (items.length > 0) await derive(items);
  }

  /** Has the thread derive `items`, keeping their claims; never rejects (the jobs derive in place). */
  async function derive(items: ThreadItem[]): Promise<void> {
    try {
      const results = await o.thread.derive(items);
      if (!used) {
        used = true;
        o.onFirstUse?.();
      }
      results.forEach((r, i) => {
        if (!('claims' in r)) return; // Derived in place: its job reports the rules' failure.
        const { input, ctx } = items[i]!;
        kept.set(input.id, { input, ctx, claims: r.claims });
      });
    } catch {
      // An optimisation only: the jobs derive in place (a failed thread has been reported by it).
    } finally {
      for (const id of kept.keys()) {
        if (kept.size <= keep) break;
        kept.delete(id);
      }
    }
  }

  return {
    prepare: (claimed) =>
      prepareRecords(
        claimed.flatMap((j) => (j.job === 'derive' ? [{ brainUid: j.brainUid, recordId: j.recordId }] : [])),
      ),
    prepareRecords,
    take(input, ctx) {
      const early = kept.get(input.id);
      if (early === undefined) return undefined;
      kept.delete(input.id);
      return isDeepStrictEqual(early.input, input) && isDeepStrictEqual(early.ctx, ctx)
        ? early.claims
        : undefined;
    },
    hint: (recordId) => kept.get(recordId)?.claims,
    close: () => o.thread.close(),
  };
}

/**
 * An engine's early claims, or none: only where it derives by its own rules, which the derive thread
 * runs (a deriver given to the engine, as a test's, derives in place whatever its name), and not when
 * `off` (an engine told to stay on one thread).
 */
export function earlyClaimsFor(o: {
  /** The deriver the engine was given, if any. */
  given: Deriver | undefined;
  deriver: Deriver;
  read: Storage['read'];
  log: Pick<DerivationLog, 'info' | 'warn'>;
  off?: boolean | undefined;
}): EarlyClaims | undefined {
  if (o.off === true || o.given !== undefined) return undefined;
  const thread = sharedDeriverThread({
    deriverName: o.deriver.name,
    onFailure: (e) =>
      o.log.warn('the derive thread failed; Records are derived on the main thread', { error: String(e) }),
  });
  return createEarlyClaims({
    thread,
    read: o.read,
    onFirstUse: () => o.log.info('Records stream in: the rules derive them on a thread of their own'),
  });
}
