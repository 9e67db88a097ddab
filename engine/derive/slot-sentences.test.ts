import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slotSentence } from './slot-sentences.ts';

test('where one lives or works, said in the first person, holds a slot', () => {
  const cases: Array<[string, string, string]> = [
    ['I live in Lisbon.', 'lives in', 'Lisbon'],
    ['I moved to Porto last year.', 'lives in', 'Porto'],
    ["I've just moved to New York!", 'lives in', 'New York'],
    ["I'm living in São Paulo.", 'lives in', 'São Paulo'],
    ['Then I moved to Berlin, which I love.', 'lives in', 'Berlin'],
    ['I work at Globex.', 'works at', 'Globex'],
    ['I am working for Umbrella Corporation now.', 'works at', 'Umbrella Corporation'],
    ['I started a new job at Initech.', 'works at', 'Initech'],
  ];
  for (const [s, predicate, value] of cases) assert.deepEqual(slotSentence(s), { predicate, value }, s);
});

test('history, negation, questions, other people and common nouns hold none', () => {
  for (const s of [
    'I lived in Paris for 3 years.',
    'I live in fear of spiders.',
    'I work at night.',
    'I work for myself.',
    'I moved to a new flat.',
    "I don't live in Lisbon anymore.",
    'I no longer work at Globex.',
    'Do you live in Porto?',
    'My sister lives in Porto.',
    'I joined Reddit.',
    "I'll be living in Berlin.",
  ])
    assert.equal(slotSentence(s), null, s);
});
