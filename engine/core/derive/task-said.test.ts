import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taskSaid } from './task-said.ts';

const said = (s: string) => {
  const at = taskSaid(s);
  return at === null ? null : s.slice(...at);
};

test('a task said after a cue that opens the sentence is its words, up to a clause that says why', () => {
  for (const [s, task] of [
    ['Yes please, and remind me to water the tomatoes on the balcony.', 'water the tomatoes on the balcony'],
    ['Note to self: book the vet for Luna', 'book the vet for Luna'],
    ['add oat milk to my to-do list', 'oat milk'],
    ['Please add milk to my todo list.', 'milk'],
    ['I still need to call the bank, ugh.', 'call the bank'],
    ['todo: renew passport', 'renew passport'],
    ["Don't let me forget to send Priya the doc", 'send Priya the doc'],
    ['Remind me to call mum because it is her birthday.', 'call mum'],
  ] as const)
    assert.equal(said(s), task, s);
});

test('advice to the listener, a cue inside the sentence, or a wish for some day is no task', () => {
  for (const s of [
    "Don't forget to relax and enjoy the process too!",
    'They always remind me to slow down.',
    'It made me think how much work we still have to do.',
    'I have a painting in my room to remind me to stay true.',
    'I still need to.',
    'Going to those places is definitely on my to-do list.',
    'Remind me to.',
  ])
    assert.equal(said(s), null, s);
});
