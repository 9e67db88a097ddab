import type { Claim } from '../core/derive/deriver.ts';
import { anyVerb, isTaskDone } from '../core/derive/task-done.ts';
import { taskStatement, taskStatementStart } from '../core/derive/task-statement.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { AdmittedRecord } from './admit-claims.ts';
import { admitNextStatement } from './next-statement.ts';
import { ownersReached } from './owners-reached.ts';

/** How many open tasks that open as the deed's verb may are read: the latest begun. */
const reach = 20;

/**
 * Admits a deed said done (`doesTask`: "I renewed my passport today!") as the next version of the open
 * task it does: the owner's latest current "To do: …" (ownersReached) said before the Record that
 * opens with the deed's verb and says what the deed says (task-done.ts `isTaskDone`: "To do: renew
 * passport"). The new version is the task done ("Done: renew passport", task-statement.ts), quoting
 * the sentence, from the Record's world time (next-statement.ts); the open task is closed there.
 * Returns its id, or null where no open task is done (the claim is then what it was). Forgetting the
 * Record opens the task again.
 */
export async function admitDoneTask(
  memories: MemoryRepository,
  brainUid: string,
  record: AdmittedRecord,
  claim: Claim,
  seq: number,
  now: string,
): Promise<string | null> {
  const done = claim.doesTask;
  if (done === undefined) return null;
  const open = taskStatementStart(false);
  // One range for every verb the past form may be ("renewed": renew, renewe): their shared start.
  const stem = done.verbs.includes(anyVerb) ? '' : sharedStart(done.verbs);
  for (const owner of ownersReached(claim.owner)) {
    const tasks = await memories.statementsStarting({
      keyStart: `${open.key} ${stem}`,
      ...owner,
      beforeMs: record.occurredMs,
      limit: reach,
    });
    const task = tasks.find(
      (t) =>
        t.statement.startsWith(open.statement) && isTaskDone(t.statement.slice(open.statement.length), done),
    );
    if (task === undefined) continue;
    const statement = taskStatement(true, task.statement.slice(open.statement.length));
    return admitNextStatement(memories, {
      brainUid,
      lineage: task.lineage,
      statement,
      record,
      claim,
      seq,
      now,
    });
  }
  return null;
}

/** The longest start every word shares ("call", "calle", "cal": "cal"). */
function sharedStart(words: readonly string[]): string {
  let start = words[0] ?? '';
  for (const w of words) while (!w.startsWith(start)) start = start.slice(0, -1);
  return start;
}
