import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tasksSaid } from './task-said.ts';

const said = (s: string) => tasksSaid(s).map((at) => s.slice(...at));

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
    ['Can you remind me to charge my phone on Friday night?', 'charge my phone on Friday night'],
  ] as const)
    assert.deepEqual(said(s), [task], s);
});

test('a need the speaker says of a deed is a task: "I need to", "I have to", "I must", "gotta"', () => {
  for (const [s, task] of [
    ['I need to renew my passport before January.', 'renew my passport before January'],
    ['I have to pick up the kids at 5.', 'pick up the kids at 5'],
    ["I've got to file my taxes this week!", 'file my taxes this week'],
    ['I must book the flights to Lisbon.', 'book the flights to Lisbon'],
    ['Gotta call the plumber about the sink.', 'call the plumber about the sink'],
    ['Ugh, I really need to make an appointment with the dentist.', 'make an appointment with the dentist'],
    ['Need to get a new charger.', 'get a new charger'],
    ["I mustn't forget to water the plants.", 'water the plants'],
    ['Gotta check the size & floor quality too.', 'check the size & floor quality too'],
    ['I have to find a plumber before Friday.', 'find a plumber before Friday'],
    ['I need to figure out which flight to take.', 'figure out which flight to take'],
  ] as const)
    assert.deepEqual(said(s), [task], s);
});

test('tasks listed with "and", "then" or commas are one each; things listed for one deed are one task', () => {
  for (const [s, tasks] of [
    [
      'I still need to buy the vase for Petra and call the bank about the mortgage.',
      ['buy the vase for Petra', 'call the bank about the mortgage'],
    ],
    ['Remind me to water the plants and feed the cat.', ['water the plants', 'feed the cat']],
    [
      'I have to call the bank, email Sam and pick up the parcel.',
      ['call the bank', 'email Sam', 'pick up the parcel'],
    ],
    [
      'I need to call the plumber and then tell him about the leak.',
      ['call the plumber', 'tell him about the leak'],
    ],
    ['I need to buy milk and eggs.', ['buy milk and eggs']],
    ['Remind me to call mum and dad.', ['call mum and dad']],
    ['I need to buy the vase and the card for Petra.', ['buy the vase and the card for Petra']],
    ['Remind me to wash and iron my shirts.', ['wash and iron my shirts']],
    ['I need to talk to Anna and Mark about the party.', ['talk to Anna and Mark about the party']],
    ['Remind me to call the bank, it is urgent.', ['call the bank']],
  ] as const)
    assert.deepEqual(said(s), tasks, s);
});

test('advice to the listener, a cue inside the sentence, or a wish for some day is no task', () => {
  for (const s of [
    "Don't forget to relax and enjoy the process too!",
    "Don't forget to buy milk.",
    'They always remind me to slow down.',
    'It made me think how much work we still have to do.',
    'I have a painting in my room to remind me to stay true.',
    'I still need to.',
    'Going to those places is definitely on my to-do list.',
    'Remind me to.',
    'We need to book a hotel.',
    'I should call mum.',
    'I should really try making one or just pay you a visit and try one for myself!',
    'You need to renew your passport.',
    'Sam has to send the report.',
    'If I need to call the bank, I will.',
  ])
    assert.deepEqual(said(s), [], s);
});

test('a need that is no deed one ticks off is no task: a telling, a way of being, a habit, leaving', () => {
  for (const s of [
    'I need to sleep more.',
    'I need to go now.',
    'I have to go now.',
    'Gotta go back to work, see you soon!',
    'I have to admit I was nervous.',
    'I must say, the cake was great.',
    'I gotta tell you about this thing with my biz.',
    'Gotta stay resilient and focused, that is key!',
    'Gotta focus on success and why I started.',
    'I need to try baking that.',
    'Gotta take time to chill.',
    'Gotta make time to dance and vent.',
    'I need to relax and call mum.',
    'I need to call mum more often.',
    'I have to exercise every day.',
    'Gotta keep growing and striving to be a strong player.',
    'I gotta have faith and patience.',
    'I need to get better at saying no.',
    "Gotta figure out how to balance it all, but it's going well.",
    'Just gotta find a way to tough it out and keep things flowing.',
  ])
    assert.deepEqual(said(s), [], s);
});
