import { taskStatementStart } from '../core/derive/task-statement.ts';
import { readTaskQuestion } from '../core/retrieve/task-question.ts';
import type { SlotHolding } from '../ports/index.ts';
import { readTimeMs, type Lane, type LaneCandidate, type LaneInput } from './lane.ts';

/**
 * Tasks lane: a question about the person's to-do list ("What's still on my to-do list?", "Which tasks
 * are done?") finds the Records whose checklist tasks it asks about, open or ticked, by the Memories
 * their tasks derive, which share no word with it. Open tasks before done ones, the Brain's own person's
 * first, then the newest; nothing for other queries.
 */
const tasksPerRecord = 20;

export function createTaskLane(now: () => Date): Lane {
  return {
    name: 'tasks',
    async search(input: LaneInput): Promise<LaneCandidate[]> {
      const asked = readTaskQuestion(input.query);
      if (asked === null) return [];
      const nowMs = now().getTime();
      const read = (done: boolean) =>
        input.slots.holdings({
          scope: input.eligibility,
          nowMs,
          readTimeMs: readTimeMs(input.eligibility, nowMs),
          by: { statementStart: taskStatementStart(done) },
          // Each task is a Memory and a note holds many: enough of them for `limit` Records.
          limit: Math.min(input.limit * tasksPerRecord, 2_000),
        });
      const rows: Array<SlotHolding & { open: boolean }> = [
        ...(asked.open ? (await read(false)).map((r) => ({ ...r, open: true })) : []),
        ...(asked.done ? (await read(true)).map((r) => ({ ...r, open: false })) : []),
      ];
      const seen = new Set<string>();
      const out: LaneCandidate[] = [];
      for (const r of rows) {
        if (seen.has(r.recordId) || out.length >= input.limit) continue;
        seen.add(r.recordId);
        out.push({
          recordId: r.recordId,
          score: rows.length - out.length,
          reason: `${r.open ? 'an open task' : 'a task done'}: ${r.statement} (Memory ${r.memoryId})`,
        });
      }
      input.ledger.charge('processing', out.length / 1000);
      return out;
    },
  };
}
