import type { Store } from '../adapters/sqlite/store.ts';
import type { SqliteUnits } from '../adapters/sqlite/unit-of-work.ts';
import type { BrainUnitOfWork } from '../ports/index.ts';
import { admitClaims } from './admit-claims.ts';
import { citableClaims } from '../core/derive/citable-claims.ts';
import { shareableSql } from '../adapters/sqlite/memory-view.ts';
import { storeFailure } from '../adapters/sqlite/store-failure.ts';
import { deriverInput, type RecordRow } from './derive-jobs.ts';
import type { Claim, Deriver } from '../core/derive/deriver.ts';
import { recordRemoval } from './memory-removal.ts';
import { normalizeStatement } from '../core/derive/record-text.ts';
import { settleLineage } from './settle-lineage.ts';
import { supersedeOlderRevisions } from './supersede-revisions.ts';

const shared = (store: Store, memoryId: string) =>
  store.get<{ s: number }>(`SELECT ${shareableSql('m')} AS s FROM memories m WHERE m.id = ?`, memoryId)?.s ===
  1;

/** What deriving a Record again did. */
export type Rederived =
  /** The same claims: only the mark (and a quote that changed) was written. */
  | 'same'
  /** Memories it no longer states lost it; what it states now was admitted. */
  | 'changed'
  /** A person corrected or retracted one of its Memories: theirs is the last word, left as it is. */
  | 'kept'
  /** One of its Memories waits for re-derivation after a forget: left for the next pass. */
  | 'deferred';

interface CitedMemory {
  id: string;
  lineage: string;
  norm: string;
  cause: string;
  pending: number;
  valid_from_ms: number;
  quote: string;
}

/**
 * Derives a stored Record again under `deriver`, in the caller's transaction, and reconciles its
 * Memories with what it states now, matched by statement (as normalised, which is how a Memory is
 * keyed): a Memory it still states keeps its id and history; one it no longer states loses this
 * Record's support (deleted when nothing else supports it, else it rests on the Records that still
 * do); a statement that is new is admitted as any new claim is (joining an equal current Memory or a
 * slot's lineage). A Memory a person corrected or retracted keeps what they said: that Record is left.
 */
export async function rederiveRecord(
  store: Store,
  uow: BrainUnitOfWork,
  deriver: Deriver,
  r: RecordRow,
  now: () => string,
): Promise<Rederived> {
  const cited = store.all<CitedMemory>(
    `SELECT m.id, m.lineage, m.norm, m.cause, m.pending, m.valid_from_ms, c.quote
     FROM citations c JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ?`,
    r.id,
  );
  if (cited.some((m) => m.pending)) return 'deferred';
  const claims = citableClaims(deriver, deriverInput(r), { self: await uow.self() });
  const stated = new Map<string, Claim>();
  for (const c of claims) {
    const norm = normalizeStatement(c.statement);
    if (!stated.has(norm)) stated.set(norm, c);
  }
  const held = new Set(cited.map((m) => m.norm));
  const lost = cited.filter((m) => !stated.has(m.norm));
  const fresh = claims.filter((c) => !held.has(normalizeStatement(c.statement)));
  let seq: number | null = null;
  const step = async () => (seq ??= await uow.sequence.next());

  // A Memory still stated takes the quote the rules now give it ("I live in Porto" rather than the whole
  // sentence that also named the dentist), as a Record derived afresh would.
  const requote = async () => {
    for (const m of cited) {
      const quote = stated.get(m.norm)?.quote;
      if (quote === undefined || quote === m.quote) continue;
      store.run('UPDATE citations SET quote = ? WHERE memory_id = ? AND record_id = ?', quote, m.id, r.id);
      store.run('UPDATE memories SET seq = ? WHERE id = ?', await step(), m.id);
    }
  };
  if (lost.length === 0 && fresh.length === 0) {
    await requote();
    return 'same';
  }
  const personSaid = store.get(
    `SELECT 1 FROM memories WHERE lineage IN (SELECT value FROM json_each(?))
       AND (corrects IS NOT NULL OR retracted_by IS NOT NULL) LIMIT 1`,
    JSON.stringify([...new Set(cited.map((m) => m.lineage))]),
  );
  if (personSaid) return 'kept';

  for (const m of lost) {
    // Whether this Record is its only support: at most two citations read, however many it has.
    const support = store.get<{ c: number }>(
      'SELECT count(*) AS c FROM (SELECT 1 FROM citations WHERE memory_id = ? LIMIT 2)',
      m.id,
    )!.c;
    if (support <= 1) {
      await recordRemoval(uow, m.id, await step(), 'deleted');
      store.run('DELETE FROM memories WHERE id = ?', m.id);
      await settleLineage(uow.memories, m.lineage, await step());
      continue;
    }
    const wasShared = shared(store, m.id);
    store.run('DELETE FROM citations WHERE memory_id = ? AND record_id = ?', m.id, r.id);
    await restOnOthers(store, uow, m, r, await step(), now);
    // Served to hosted readers until now through this Record alone: they are told it went.
    if (wasShared && !shared(store, m.id)) await recordRemoval(uow, m.id, await step(), 'deleted', true);
  }
  await admitClaims(
    uow.memories,
    uow.brainUid,
    { id: r.id, occurredAt: r.occurred_at, occurredMs: r.occurred_ms, sourceName: r.source_name },
    fresh,
    await step(),
    now(),
  );
  await requote();
  return 'changed';
}

/**
 * A Memory that lost the Record `r` rests on the Records still citing it. They keep their citations:
 * each is judged on its own turn, and one a person corrected never is (restOnSurvivors would judge them
 * all now, and read every one: a Memory cited by thousands of Records made the pass quadratic). Its
 * world time restarts at the earliest of them when `r` was where it began.
 */
async function restOnOthers(
  store: Store,
  uow: BrainUnitOfWork,
  m: CitedMemory,
  r: RecordRow,
  seq: number,
  now: () => string,
): Promise<void> {
  if (m.cause !== 'correction') {
    const first =
      m.valid_from_ms < r.occurred_ms
        ? undefined
        : store.get<{ occurred_at: string; occurred_ms: number; source_name: string | null }>(
            `SELECT x.occurred_at, x.occurred_ms, x.source_name FROM citations c JOIN records x ON x.id = c.record_id
             WHERE c.memory_id = ? ORDER BY x.occurred_ms, x.n LIMIT 1`,
            m.id,
          );
    if (first)
      store.run(
        'UPDATE memories SET valid_from = ?, valid_from_ms = ?, source_key = ? WHERE id = ?',
        first.occurred_at,
        first.occurred_ms,
        first.source_name ?? '',
        m.id,
      );
    store.run("UPDATE memories SET cause = 'rederived', learned_at = ? WHERE id = ?", now(), m.id);
  }
  store.run('UPDATE memories SET seq = ? WHERE id = ?', seq, m.id);
  await settleLineage(uow.memories, m.lineage, seq);
}

export interface UpgradeStep {
  /** Records looked at in this step. */
  ran: number;
  /** Of those, Records whose Memories changed. */
  changed: number;
  /** Records remain for a later step. */
  more: boolean;
}

export interface DerivationUpgrade {
  /**
   * Derives Records again, in the order they were written, while `keepGoing()` says so, each Record
   * (with its item's other revisions) in a unit of work of its own, a page of them sharing one commit.
   * Rejects when the store failed: what the step did may be partly kept, and reset() looks again.
   */
  step(keepGoing: () => boolean): Promise<UpgradeStep>;
  /** The last steps were rolled back: look again from the first Record. */
  reset(): void;
}

export interface DerivationUpgradeOptions {
  store: Store;
  /** The store's units of work, whose batched writes share one commit. */
  units: Pick<SqliteUnits, 'write'>;
  deriver: Deriver;
  now: () => string;
  /** A Record failed on its own: it was rolled back alone and left for the next pass. */
  onError: (recordId: string, error: unknown) => void;
  /** A pass that found Records to derive again ended. */
  onFinished?: (counts: { looked: number; changed: number; kept: number; left: number }) => void;
}

const metaKey = 'derived_by';
const pageSize = 32;

type Row = RecordRow & { brain_uid: string };
const recordColumns = `r.n, r.id, r.brain_uid, r.kind, r.content, r.text, r.source_name, r.external_id,
  r.occurred_at, r.occurred_ms`;

/** Thrown by a unit the step's slice had no time left for: it rolls back, and the Record waits. */
class OutOfTime extends Error {}

/**
 * The background pass that brings every Record to the current deriver (see rederiveRecord). When the
 * deriver's name differs from the one the store last listed Records for (`meta.derived_by`; none in a
 * store older than migration 015), every Record is listed in `derive_upgrade` (from an index: no
 * Record is read) and the name is stored, in one transaction at start. The pass takes the list in the
 * order written, a page of numbers at a time, and removes each Record it has done. An item's revisions
 * (one source and external id) are derived again together, oldest first, each closing what the older
 * ones stated as a first derivation does, so the store ends as one derived under the new rules from the
 * start would. Corrections are applied at write time and are not derived; a Record whose first
 * derivation is still queued gets the new rules from that. A Record left for later (deferred, or failed)
 * stays listed and is looked at again at the next start. The caller runs each step after its queued
 * jobs, so a Record just written is never made to wait for the pass.
 */
export function createDerivationUpgrade(opts: DerivationUpgradeOptions): DerivationUpgrade {
  const { store, deriver, units } = opts;
  if (store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', metaKey)?.value !== deriver.name) {
    store.tx(() => {
      store.run(
        'INSERT OR IGNORE INTO derive_upgrade (n) SELECT n FROM records INDEXED BY records_brain_occurred',
      );
      store.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', metaKey, deriver.name);
    });
  }
  let after = 0;
  let done = false;
  const counts = { looked: 0, changed: 0, kept: 0, left: 0 };
  const tally = (outcome: Rederived | 'failed') => {
    counts.looked += 1;
    if (outcome === 'changed') counts.changed += 1;
    else if (outcome === 'kept') counts.kept += 1;
    else if (outcome === 'deferred' || outcome === 'failed') counts.left += 1;
  };
  const finished = (n: number) => store.run('DELETE FROM derive_upgrade WHERE n = ?', n);

  /** One listed Record, or every revision of its item, in its Brain's unit `uow`: what each came to. */
  const upgrade = async (uow: BrainUnitOfWork, n: number): Promise<Rederived[]> => {
    const r = store.get<Row>(`SELECT ${recordColumns} FROM records r WHERE r.n = ?`, n);
    const queued =
      r !== undefined &&
      store.get('SELECT 1 FROM derive_queue WHERE record_id = ? LIMIT 1', r.id) !== undefined;
    if (!r || r.kind === 'correction' || queued) {
      finished(n);
      return [];
    }
    const revisions =
      r.external_id === null
        ? [r]
        : store.all<Row>(
            `SELECT ${recordColumns} FROM records r INDEXED BY records_external
             WHERE r.brain_uid = ? AND r.source_name IS ? AND r.external_id = ? AND r.kind <> 'correction'
             ORDER BY r.n`,
            r.brain_uid,
            r.source_name,
            r.external_id,
          );
    let changedSoFar = false;
    const outcomes: Rederived[] = [];
    for (const rev of revisions) {
      const outcome = await rederiveRecord(store, uow, deriver, rev, opts.now);
      changedSoFar ||= outcome === 'changed';
      // What older revisions state now and this one does not is closed by it, as at its first
      // derivation (also when this one itself is unchanged).
      if (rev.external_id !== null && changedSoFar)
        await supersedeOlderRevisions(
          uow.memories,
          { id: rev.id, n: rev.n, sourceName: rev.source_name, externalId: rev.external_id },
          await uow.sequence.next(),
        );
      if (outcome !== 'deferred') {
        finished(rev.n);
        await uow.failures.clearRecord(rev.id);
      }
      outcomes.push(outcome);
    }
    return outcomes;
  };

  return {
    async step(keepGoing) {
      let ran = 0;
      let changed = 0;
      while (!done && keepGoing()) {
        const page = store.all<{ n: number; brain_uid: string | null; id: string | null }>(
          `SELECT d.n, r.brain_uid, r.id FROM derive_upgrade d LEFT JOIN records r ON r.n = d.n
           WHERE d.n > ? ORDER BY d.n LIMIT ?`,
          after,
          pageSize,
        );
        if (page.length === 0) {
          done = true;
          if (counts.looked > 0) opts.onFinished?.({ ...counts });
          break;
        }
        // Submitted together, so the page's units share one commit; each starts only if the slice has
        // time left, and those after the first that has none roll back and wait, in order.
        let late = false;
        const settled = await Promise.allSettled(
          page.map(({ n, brain_uid }) =>
            brain_uid === null
              ? store.exclusive(() => void finished(n)).then((): Rederived[] => [])
              : units.write(
                  brain_uid,
                  async (uow) => {
                    if (late || !keepGoing()) {
                      late = true;
                      throw new OutOfTime();
                    }
                    return upgrade(uow, n);
                  },
                  { batch: true },
                ),
          ),
        );
        for (const [i, s] of settled.entries()) {
          if (s.status === 'rejected' && s.reason instanceof OutOfTime) break;
          after = page[i]!.n;
          let outcomes: (Rederived | 'failed')[];
          if (s.status === 'fulfilled') outcomes = s.value;
          else {
            // The store's failure, not the Record's: the caller starts the pass over and tries later.
            if (storeFailure(s.reason)) throw s.reason;
            opts.onError(page[i]!.id ?? `#${page[i]!.n}`, s.reason);
            outcomes = ['failed'];
          }
          for (const o of outcomes) tally(o);
          ran += outcomes.length;
          changed += outcomes.filter((o) => o === 'changed').length;
        }
      }
      return { ran, changed, more: !done };
    },
    reset() {
      after = 0;
      done = false;
      Object.assign(counts, { looked: 0, changed: 0, kept: 0, left: 0 });
    },
  };
}
