import { taskStatementStart } from '../core/derive/task-statement.ts';
import { readTaskQuestion } from '../core/retrieve/task-question.ts';
import type { SlotHolding } from '../ports/index.ts';
import { readTimeMs, type Lane, type LaneCandidate, type LaneInput } from './lane.ts';
import { holdingCandidates } from './slot-lane.ts';

/** Tasks read for each Record the lane may return: a note holds many. */
const tasksPerRecord = 20;
/** How open and done tasks' Memories begin: the same for every request. */
const starts = { open: taskStatementStart(false), done: taskStatementStart(true) };

/**
 * Tasks lane: a question about the person's to-do list ("What's still on my to-do list?", "Which tasks
 * are done?") finds the Records whose checklist tasks it asks about, open or ticked, by the Memories
 * their tasks derive, which share no word with it. Open tasks before done ones, the Brain's own person's
 * first, then the newest; nothing for other queries.
 */
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
          by: { statementStart: done ? starts.done : starts.open },
          limit: Math.min(input.limit * tasksPerRecord, 2_000),
        });
      const rows: Array<SlotHolding & { open: boolean }> = [
        ...(asked.open ? (await read(false)).map((r) => ({ ...r, open: true })) : []),
        ...(asked.done ? (await read(true)).map((r) => ({ ...r, open: false })) : []),
      ];
      const out = holdingCandidates(
        rows,
        input.limit,
        (r) => `${r.open ? 'an open task' : 'a task done'}: ${r.statement}`,
      );
      input.ledger.charge('processing', out.length / 1000);
      return out;
    },
  };
}
