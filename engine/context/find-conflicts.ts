import type { Conflict } from '../contract/index.ts';
import { eligibilitySql, type Eligibility } from '../retrieve/lane.ts';
import { citationsOf, servedSql } from '../adapters/sqlite/memory-view.ts';
import type { Store } from '../adapters/sqlite/store.ts';

/**
 * Slots (subject, predicate) touched by the given Memories that hold two or more served values at the
 * read time: sources that neither supersedes. Returns one Conflict per slot, with each value cited,
 * and the Memory ids involved.
 *
 * A value counts only through the Records this request may see (filters, as_of, hosted local_only):
 * its other citations are left out and a value with none is no value here. Otherwise a conflict would
 * quote a Record the filter excluded, or a local_only one on a hosted deployment, and abstain over it.
 */
export function findConflicts(
  store: Store,
  memoryIds: string[],
  eligibility: Eligibility,
  /** When values are read as current (as_of, or a past filter.until); undefined: now. */
  readMs: number | undefined,
  /** The engine's clock, read once for the request. */
  nowMs: number,
): { conflicts: Conflict[]; conflicted: Set<string> } {
  const conflicts: Conflict[] = [];
  const conflicted = new Set<string>();
  if (memoryIds.length === 0) return { conflicts, conflicted };
  const lineages = store.all<{ lineage: string }>(
    `SELECT DISTINCT lineage FROM memories WHERE slot IS NOT NULL AND id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(memoryIds),
  );
  const served = servedSql(readMs, nowMs);
  for (const { lineage } of lineages) {
    const values = store.all<{
      id: string;
      statement: string;
      subject: string;
      predicate: string;
      valid_from: string;
    }>(
      `SELECT m.id, m.statement, m.subject, m.predicate, m.valid_from FROM memories m
       WHERE m.lineage = ? AND ${served.sql} ORDER BY m.n`,
      lineage,
      ...served.params,
    );
    if (values.length < 2) continue;
    const cites = citationsOf(
      store,
      values.map((v) => v.id),
    );
    const visible = visibleRecords(
      store,
      [...cites.values()].flat().map((c) => c.record_id),
      eligibility,
    );
    const shown = values
      .map((v) => ({
        memory_id: v.id,
        statement: v.statement,
        valid_from: v.valid_from,
        citations: (cites.get(v.id) ?? []).filter((c) => visible.has(c.record_id)),
      }))
      .filter((v) => v.citations.length > 0);
    if (shown.length < 2) continue;
    conflicts.push({ subject: values[0]!.subject, predicate: values[0]!.predicate, values: shown });
    for (const v of shown) conflicted.add(v.memory_id);
  }
  return { conflicts, conflicted };
}

/** Which of the Records the request may see (filters, as_of, hosted local_only). */
export function visibleRecords(store: Store, recordIds: string[], eligibility: Eligibility): Set<string> {
  const el = eligibilitySql(eligibility);
  const rows = store.all<{ id: string }>(
    `SELECT r.id FROM records r WHERE r.id IN (SELECT value FROM json_each(?)) AND ${el.sql}`,
    JSON.stringify(recordIds),
    ...el.params,
  );
  return new Set(rows.map((r) => r.id));
}
