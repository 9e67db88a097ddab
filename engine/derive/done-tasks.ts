import type { Claim } from '../core/derive/deriver.ts';
import { statementKey } from '../core/derive/statement-key.ts';
import { isTaskDone } from '../core/derive/task-done.ts';
import { taskStatement, taskStatementStart } from '../core/derive/task-statement.ts';
import type { MemoryRepository } from '../ports/index.ts';
import type { AdmittedRecord } from './admit-claims.ts';
import { insertMemory, nextVersion } from './insert-memory.ts';
import { settleLineage } from './settle-lineage.ts';
import { ownersReached } from './owners-reached.ts';

/** How many open tasks that open with one verb are read: the latest begun. */
const reach = 20;

/**
 * Admits a deed said done (`doesTask`: "I renewed my passport today!") as the next version of the open
 * task it does: the owner's latest current "To do: …" (ownersReached) said before the Record that opens with the
 * deed's verb and says what the deed says (task-done.ts `isTaskDone`: "To do: renew passport"). The new
 * version is the task done ("Done: renew passport", task-statement.ts), quoting the sentence, from the
 * Record's world time; the open task is closed there. Returns its id, or null where no open task is
 * done (the claim is then what it was). Forgetting the Record opens the task again.
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
  for (const owner of ownersReached(claim.owner))
    for (const verb of done.verbs) {
      const tasks = await memories.statementsStarting({
        keyStart: `${open.key} ${verb} `,
        ...owner,
        beforeMs: record.occurredMs,
        limit: reach,
      });
      const task = tasks.find(
        (t) =>
          t.statement.startsWith(open.statement) &&
          isTaskDone(t.statement.slice(open.statement.length), done),
      );
      if (task !== undefined) return doTask(memories, brainUid, record, claim, task, seq, now);
    }
  return null;
}

/** The open task's next version: done, quoting the deed; the open task is closed where it begins. */
async function doTask(
  memories: MemoryRepository,
  brainUid: string,
  record: AdmittedRecord,
  claim: Claim,
  task: { lineage: string; statement: string },
  seq: number,
  now: string,
): Promise<string> {
  const statement = taskStatement(true, task.statement.slice(taskStatementStart(false).statement.length));
  const id = await insertMemory(memories, {
    brainUid,
    lineage: task.lineage,
    slot: null,
    version: nextVersion(await memories.lineage(task.lineage, { shareableOnly: false })),
    statement,
    norm: statementKey(statement),
    subject: claim.subject,
    predicate: null,
    owner: claim.owner,
    sourceKey: record.sourceName ?? '',
    validFrom: record.occurredAt,
    validFromMs: record.occurredMs,
    corrects: null,
    seq,
    learnedAt: now,
    cause: 'superseded_by_record',
    citations: [{ recordId: record.id, quote: claim.quote }],
  });
  await settleLineage(memories, task.lineage, seq);
  return id;
}
