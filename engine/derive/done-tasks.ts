import type { Claim } from '../core/derive/deriver.ts';
import { anyVerb, isTaskDone } from '../core/derive/task-done.ts';
import { taskStatement, taskStatementStart } from '../core/derive/task-statement.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { NextOf } from './next-statement.ts';
import { ownersReached } from './owners-reached.ts';

/** How many open tasks that open as the deed's verb may are read: the latest begun. */
const reach = 20;

/**
 * The open task a deed said done (`doesTask`: "I renewed my passport today!") does, said before
 * `beforeMs`, or null (the claim is then what it was): the owner's latest current "To do: …"
 * (ownersReached) that opens with the deed's verb and says what the deed says (task-done.ts
 * `isTaskDone`: "To do: renew passport"). Its next version is the task done ("Done: renew passport",
 * task-statement.ts), the claim's owner's; admit-claims.ts admits it quoting the sentence, from the
 * Record's world time, closing the open task there (next-statement.ts `admitAsNextOf`). Forgetting the
 * Record opens the task again.
 */
export async function doneTaskOf(
  memories: MemoryRepository,
  claim: Claim,
  beforeMs: number,
): Promise<NextOf | null> {
  const done = claim.doesTask;
  if (done === undefined) return null;
  const open = taskStatementStart(false);
  // One range for every verb the past form may be ("renewed": renew, renewe): their shared start.
  const stem = done.verbs.includes(anyVerb) ? '' : sharedStart(done.verbs);
  for (const owner of ownersReached(claim.owner)) {
    const tasks = await memories.statementsStarting({
      keyStart: `${open.key} ${stem}`,
      ...owner,
      beforeMs,
      limit: reach,
    });
    const task = tasks.find(
      (t) =>
        t.statement.startsWith(open.statement) && isTaskDone(t.statement.slice(open.statement.length), done),
    );
    if (task === undefined) continue;
    return {
      lineage: task.lineage,
      statement: taskStatement(true, task.statement.slice(open.statement.length)),
      owner: claim.owner,
      also: [],
    };
  }
  return null;
}

/** The longest start every word shares ("call", "calle", "cal": "cal"). */
function sharedStart(words: readonly string[]): string {
  let start = words[0] ?? '';
  for (const w of words) while (!w.startsWith(start)) start = start.slice(0, -1);
  return start;
}
