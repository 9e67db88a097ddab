import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ideaDropped, saysIdea } from './idea-dropped.ts';

test('an idea or a plan dropped by its words is read with them; a doubt, a denial or a question is not', () => {
  for (const [s, idea] of [
    ['Actually, scratch the cat idea, Jordan is allergic.', 'cat'],
    ['forget the Lisbon plan', 'lisbon'],
    ['Never mind the party idea.', 'party'],
    ['ok the road trip plan is off', 'road trip'],
    ['Scrap that garden idea', 'garden'],
  ] as const)
    assert.equal(ideaDropped(s), idea, s);
  for (const s of [
    "Don't scratch the cat idea!",
    'Maybe forget the Lisbon plan',
    'Should we scratch the cat idea?',
    'I love the cat idea',
    'The plan is to adopt a cat',
    'my mom said to drop the camping idea but I disagree',
  ])
    assert.equal(ideaDropped(s), null, s);
});

test("a statement says an idea where it has each of the idea's words, plural or not", () => {
  assert.equal(saysIdea('I think we will adopt a cat this spring.', 'cat'), true);
  assert.equal(saysIdea('We should get two cats.', 'cat'), true);
  assert.equal(saysIdea('A road trip to Porto in May!', 'road trip'), true);
  assert.equal(saysIdea('The catalogue came today.', 'cat'), false);
});
