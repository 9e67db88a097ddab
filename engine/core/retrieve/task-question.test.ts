import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTaskQuestion } from './task-question.ts';

test('a question naming a list of tasks, or what is left to do, asks for the open tasks', () => {
  for (const q of [
    'What is still on my to-do list?',
    "What's on my todo list?",
    'any todos?',
    'What tasks are open?',
    'Show me my checklist',
    'What do I still have to do?',
    "What's left to do this week?",
    'What do I need to do today?',
    'What is still to do?',
    "What's still to do this week?",
    'what do I still need to do?',
    'So what is there yet to do?',
    'What remains to be done?',
    'What still needs doing?',
    'What needs to be done today?',
  ])
    assert.deepEqual(readTaskQuestion(q), { open: true, done: false }, q);
});

test('asked what is done or ticked off, the done tasks; with what is left too, both', () => {
  for (const q of ['Which tasks are done?', 'What have I ticked off?', 'What did I check off my to-do list?'])
    assert.deepEqual(readTaskQuestion(q), { open: false, done: true }, q);
  for (const q of ["Which tasks aren't done yet?", "What's done and what do I still have to do?"])
    assert.deepEqual(readTaskQuestion(q), { open: true, done: true }, q);
});

test('a question asking how to do something, or done of anything but a list, asks nothing of tasks', () => {
  for (const q of [
    'What do I need to do to renew a passport?',
    'What did I do last weekend?',
    'Is the renovation done?',
    'What should I do about my knee?',
    'Who did Priya say to talk to?',
    'What is there to do in Lisbon?',
    'What is still to do in Lisbon if we go again?',
    'What needs to be done to renew a passport?',
    'Is there still a lot to do on the house?',
  ])
    assert.equal(readTaskQuestion(q), null, q);
});
