import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planCalledOff, saysPlansChanged } from './called-off.ts';

test('a plan said to be off names the slot it was to hold, and the value where one is named', () => {
  const cases: [string, ReturnType<typeof planCalledOff>][] = [
    ['the porto move is off', { predicate: 'lives in', values: ['porto'] }],
    ['The move to Porto fell through.', { predicate: 'lives in', values: ['Porto'] }],
    ["we're not moving to porto after all", { predicate: 'lives in', values: ['porto'] }],
    ['We decided not to move to Porto after all.', { predicate: 'lives in', values: ['Porto'] }],
    ['not moving anymore lol', { predicate: 'lives in' }],
    ['the move is off, staying in lisbon', { predicate: 'lives in' }],
    ["we're staying in lisbon after all", { predicate: 'lives in', keeps: 'lisbon' }],
    ['revolut pulled the offer :(', { predicate: 'works at', values: ['revolut'] }],
    [
      'ugh, the revolut offer fell through, so i’m staying at feedzai',
      { predicate: 'works at', values: ['revolut'] },
    ],
    ['The job at Sword Health fell through', { predicate: 'works at', values: ['Sword Health'] }],
    ['the new job fell through', { predicate: 'works at' }],
    ['they pulled the offer', { predicate: 'works at' }],
    ["i'm not starting at revolut after all", { predicate: 'works at', values: ['revolut'] }],
    ["I won't be starting at Revolut", { predicate: 'works at', values: ['Revolut'] }],
    ["i declined revolut's offer", { predicate: 'works at', values: ['revolut'] }],
    ["i'm staying at feedzai after all", { predicate: 'works at', keeps: 'feedzai' }],
    ['so yeah the new job fell through', { predicate: 'works at' }],
    ['honestly the porto move is off', { predicate: 'lives in', values: ['porto'] }],
    ['my job offer fell through', { predicate: 'works at' }],
    // The news opening a later clause, after the speaker's own words (use9 H3).
    ['Ok, decided: the Porto move is off.', { predicate: 'lives in', values: ['Porto'] }],
  ];
  for (const [s, expected] of cases) assert.deepEqual(planCalledOff(s), expected, s);
});

test('a question, a doubt, a plan taken back, someone else’s plan or anything else is no plan called off', () => {
  for (const s of [
    'is the porto move off?',
    'i think the move might be off',
    'the porto move is off, jk',
    "carla's revolut job fell through",
    'the meeting is off',
    'The project at work is off',
    'we are moving to porto after all',
    'the porto move is on',
    "I'm not moving",
    'i turned off the lights',
    'my offer fell through',
    "the offer fell through, we didn't get the flat",
    'the gig got cancelled',
    'the porto move is off, i think',
    'we decided to stay in lisbon after all, the hotel in porto was full',
    // A later clause after a condition, a doubt or another's word.
    'If the bank says no, the Porto move is off.',
    'Maybe, the Porto move is off.',
    'Marko says: the Porto move is off.',
  ])
    assert.equal(planCalledOff(s), null, s);
});

test('a value said in place of a plan says so where it opens, just before it or with "instead"', () => {
  const changed: [string, string][] = [
    ['Change of plans, I live in Porto now', 'Change of plans, I live in Porto now'],
    ['Change of plans! I live in Porto now.', 'I live in Porto now.'],
    ['ok so plans changed. i live in porto now', 'i live in porto now'],
    ['I moved to Porto instead.', 'I moved to Porto instead.'],
    ['I took the job at Spotify instead', 'I took the job at Spotify instead'],
    ['New plan: I work at Globex', 'New plan: I work at Globex'],
  ];
  for (const [text, quote] of changed) assert.equal(saysPlansChanged(text, quote), true, text);
  const not: [string, string][] = [
    ['I live in Porto now', 'I live in Porto now'],
    ['The plans changed the city. Anyway I live in Porto.', 'Anyway I live in Porto.'],
    ['Change of plans for dinner. I live in Porto.', 'I live in Porto.'],
    ['I live in Porto. Change of plans though.', 'I live in Porto.'],
    ['Most of my friends live in Lisbon. I live in Porto instead.', 'I live in Porto instead.'],
    ['My brother works at Google. I work at Spotify instead.', 'I work at Spotify instead.'],
  ];
  for (const [text, quote] of not) assert.equal(saysPlansChanged(text, quote), false, text);
});
