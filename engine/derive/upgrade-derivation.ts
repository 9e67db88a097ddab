import { recordRemoval } from '../store/memory-removals.ts';
import type { Store } from '../store/store.ts';
import { admitClaims } from './admit-claims.ts';
import {
  brainSelf,
  deriverInput,
  markDerived,
  restOnSurvivors,
  type RecordRow,
  type RestingMemory,
} from './derive-jobs.ts';
import type { Claim, Deriver } from './deriver.ts';
import { storeFailure } from './derive-worker.ts';
import { normalizeStatement } from './record-text.ts';
import { settleLineage } from './settle-lineage.ts';
import { supersedeOlderRevisions } from './supersede-revisions.ts';

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

interface CitedMemory extends RestingMemory {
  quote: string;
  citations: number;
}

/**
 * Derives a stored Record again under `deriver`, in the caller's transaction, and reconciles its
 * Memories with what it states now, matched by statement (as normalised, which is how a Memory is
 * keyed): a Memory it still states keeps its id and history; one it no longer states loses this
 * Record's support (deleted when nothing else supports it, else it rests on the Records that still
 * do); a statement that is new is admitted as any new claim is (joining an equal current Memory or a
 * slot's lineage). A Memory a person corrected or retracted keeps what they said: that Record is left.
 */
export function rederiveRecord(
  store: Store,
  deriver: Deriver,
  brainUid: string,
  r: RecordRow,
  now: () => string,
): Rederived {
  const cited = store.all<CitedMemory>(
    `SELECT m.n, m.id, m.lineage, m.norm, m.cause, m.pending, m.statement, c.quote,
            (SELECT count(*) FROM citations o WHERE o.memory_id = m.id) AS citations
     FROM citations c JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ?`,
    r.id,
  );
  if (cited.some((m) => m.pending)) return 'deferred';
  const claims = deriver.derive(deriverInput(r), { self: brainSelf(store, brainUid) });
  const stated = new Map<string, Claim>();
  for (const c of claims) {
    const norm = normalizeStatement(c.statement);
    if (!stated.has(norm)) stated.set(norm, c);
  }
  const held = new Set(cited.map((m) => m.norm));
  const lost = cited.filter((m) => !stated.has(m.norm));
  const fresh = claims.filter((c) => !held.has(normalizeStatement(c.statement)));
  let seq: number | null = null;
  const step = () => (seq ??= store.nextSeq(brainUid));

  if (lost.length === 0 && fresh.length === 0) {
    for (const m of cited) {
      const quote = stated.get(m.norm)!.quote;
      if (quote === m.quote) continue;
      store.run('UPDATE citations SET quote = ? WHERE memory_id = ? AND record_id = ?', quote, m.id, r.id);
      store.run('UPDATE memories SET seq = ? WHERE id = ?', step(), m.id);
    }
    markDerived(store, r.n, deriver);
    return 'same';
  }
  const personSaid = store.get(
    `SELECT 1 FROM memories WHERE lineage IN (SELECT value FROM json_each(?))
       AND (corrects IS NOT NULL OR retracted_by IS NOT NULL) LIMIT 1`,
    JSON.stringify([...new Set(cited.map((m) => m.lineage))]),
  );
  if (personSaid) {
    markDerived(store, r.n, deriver);
    return 'kept';
  }

  for (const m of lost) {
    if (m.citations <= 1) {
      recordRemoval(store, brainUid, m.id, step(), 'deleted');
      store.run('DELETE FROM memories WHERE id = ?', m.id);
      settleLineage(store, m.lineage, step());
      continue;
    }
    store.run('DELETE FROM citations WHERE memory_id = ? AND record_id = ?', m.id, r.id);
    restOnSurvivors(store, deriver, brainUid, m, step(), now);
  }
  admitClaims(
    store,
    brainUid,
    { id: r.id, occurredAt: r.occurred_at, occurredMs: r.occurred_ms, sourceName: r.source_name },
    fresh,
    step(),
    now(),
  );
  // An older revision of an item: what it states now is history too, closed by the newest revision.
  if (r.external_id !== null) {
    const newest = store.get<{ id: string; n: number }>(
      `SELECT id, n FROM records INDEXED BY records_external
       WHERE brain_uid = ? AND source_name IS ? AND external_id = ? ORDER BY n DESC LIMIT 1`,
      brainUid,
      r.source_name,
      r.external_id,
    );
    if (newest && newest.n > r.n)
      supersedeOlderRevisions(
        store,
        brainUid,
        { id: newest.id, n: newest.n, sourceName: r.source_name, externalId: r.external_id },
        step(),
      );
  }
  markDerived(store, r.n, deriver);
  return 'changed';
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
  /** Derives Records again, in the order they were written, while `keepGoing()` says so. */
  step(keepGoing: () => boolean): UpgradeStep;
  /** The last steps were rolled back: look again from the first Record. */
  reset(): void;
}

export interface DerivationUpgradeOptions {
  store: Store;
  deriver: Deriver;
  now: () => string;
  /** A Record failed on its own: it was rolled back alone and left for the next pass. */
  onError: (recordId: string, error: unknown) => void;
  /** A pass that found Records to derive again ended. */
  onFinished?: (counts: { looked: number; changed: number; kept: number; left: number }) => void;
}

const metaKey = 'derived_by';
const pageSize = 32;

/**
 * The background pass that brings every Record to the current deriver (see rederiveRecord): Records
 * derived under another name, or before names were recorded, in the order written. The store notes
 * the name once a pass has left none behind, so a start with nothing to do reads one row. Corrections
 * are applied at write time, not derived, and are not looked at; neither are Records whose first
 * derivation is still queued. The caller runs each step in a transaction and after its queued jobs,
 * so a Record just written is never made to wait for the pass.
 */
export function createDerivationUpgrade(opts: DerivationUpgradeOptions): DerivationUpgrade {
  const { store, deriver } = opts;
  let after = 0;
  let done =
    store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', metaKey)?.value === deriver.name;
  const counts = { looked: 0, changed: 0, kept: 0, left: 0 };

  const page = () =>
    store.all<RecordRow & { brain_uid: string }>(
      `SELECT r.n, r.id, r.brain_uid, r.kind, r.content, r.text, r.source_name, r.external_id, r.occurred_at,
              r.occurred_ms
       FROM records r
       WHERE r.n > ? AND r.kind <> 'correction' AND r.derived_by IS NOT ?
         AND NOT EXISTS (SELECT 1 FROM derive_queue q WHERE q.record_id = r.id)
       ORDER BY r.n LIMIT ?`,
      after,
      deriver.name,
      pageSize,
    );

  const finish = () => {
    done = true;
    if (counts.left === 0)
      store.run('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', metaKey, deriver.name);
    if (counts.looked > 0) opts.onFinished?.({ ...counts });
  };

  return {
    step(keepGoing) {
      let ran = 0;
      let changed = 0;
      while (!done && keepGoing()) {
        const rows = page();
        if (rows.length === 0) {
          finish();
          break;
        }
        for (const r of rows) {
          after = r.n;
          ran += 1;
          counts.looked += 1;
          let outcome: Rederived | 'failed';
          try {
            outcome = store.tx(() => rederiveRecord(store, deriver, r.brain_uid, r, opts.now));
          } catch (e) {
            // The store's failure, not the Record's: the caller rolls the step back and tries later.
            if (storeFailure(e)) throw e;
            opts.onError(r.id, e);
            outcome = 'failed';
          }
          if (outcome === 'changed') {
            changed += 1;
            counts.changed += 1;
          } else if (outcome === 'kept') counts.kept += 1;
          else if (outcome === 'deferred' || outcome === 'failed') counts.left += 1;
          if (!keepGoing()) break;
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
