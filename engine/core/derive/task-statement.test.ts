import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementKey } from './statement-key.ts';
import { taskStatement, taskStatementStart } from './task-statement.ts';

test("every task's statement and its key begin as taskStatementStart says, however short the task", () => {
  for (const done of [false, true]) {
    const start = taskStatementStart(done);
    for (const task of ['laundry', 'renew passport', 'send Priya the onboarding doc', 'I called mum.']) {
      const statement = taskStatement(done, task);
      assert.ok(statement.startsWith(start.statement), statement);
      const key = statementKey(statement);
      assert.ok(
        key.startsWith(start.key) && /^[ :]/u.test(key.slice(start.key.length)),
        `${statement}: ${key}`,
      );
    }
  }
  assert.deepEqual(
    [false, true].map((d) => taskStatementStart(d)),
    [
      { statement: 'To do: ', key: 'to do' },
      { statement: 'Done: ', key: 'done' },
    ],
  );
});
