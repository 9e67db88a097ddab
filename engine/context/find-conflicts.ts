import type { Conflict } from '../contract/index.ts';
import { citationsOf, servedSql } from '../store/memory-view.ts';
import type { Store } from '../store/store.ts';

/**
 * Slots (subject, predicate) touched by the given Memories that hold two or more served values at the
 * read time: sources that neither supersedes. Returns one Conflict per slot, with each value cited,
 * and the Memory ids involved.
 */
export function findConflicts(
  store: Store,
  memoryIds: string[],
  asOfMs: number | undefined,
): { conflicts: Conflict[]; conflicted: Set<string> } {
  const conflicts: Conflict[] = [];
  const conflicted = new Set<string>();
  if (memoryIds.length === 0) return { conflicts, conflicted };
  const lineages = store.all<{ lineage: string }>(
    `SELECT DISTINCT lineage FROM memories WHERE slot IS NOT NULL AND id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(memoryIds),
  );
  const served = servedSql(asOfMs);
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
    conflicts.push({
      subject: values[0]!.subject,
      predicate: values[0]!.predicate,
      values: values.map((v) => ({
        memory_id: v.id,
        statement: v.statement,
        valid_from: v.valid_from,
        citations: cites.get(v.id) ?? [],
      })),
    });
    for (const v of values) conflicted.add(v.id);
  }
  return { conflicts, conflicted };
}
