import assert from 'node:assert/strict';
import { test } from 'node:test';
import { saysState, stateDenied, stateWordsToFind } from './state-denied.ts';

test("a state of the speaker's said not to be so is read with its words", () => {
  for (const [s, words] of [
    ["Turns out I'm not allergic to walnuts, it was pecans all along.", ['allergic', 'to', 'walnuts']],
    ["I'm not afraid of flying anymore.", ['afraid', 'of', 'flying']],
    ['Actually, I am no longer vegetarian at heart', ['vegetarian', 'at', 'heart']],
    ["It turns out that I'm really not lactose intolerant.", ['lactose', 'intolerant']],
    ["Apparently I'm not allergic to cats after all!", ['allergic', 'to', 'cats']],
  ] as const)
    assert.deepEqual(stateDenied(s), { words }, s);
});

test('no state is denied by a single word, a question, or another person', () => {
  for (const s of [
    "I'm not sure.",
    "I'm not hungry",
    'Am I not allergic to walnuts?',
    "Lena says I'm not allergic to walnuts.",
    'Ana is not allergic to walnuts.',
    "I'm allergic to walnuts.",
  ])
    assert.equal(stateDenied(s), null, s);
});

test('a statement of the same state in the same words, but for degree, is the one denied', () => {
  const walnuts = { words: ['allergic', 'to', 'walnuts'] };
  for (const s of [
    "I'm allergic to walnuts.",
    'I am seriously allergic to walnuts.',
    "Oh and I'm allergic to walnuts, so no pesto.",
    "Honestly, I'm very allergic to walnuts",
  ])
    assert.equal(saysState(s, walnuts), true, s);
  for (const s of [
    "I'm allergic to walnuts and pecans.",
    "I'm not allergic to walnuts.",
    'Am I allergic to walnuts?',
    'Ana is allergic to walnuts.',
    "I'm allergic to cats.",
  ])
    assert.equal(saysState(s, walnuts), false, s);
  assert.deepEqual(stateWordsToFind(walnuts), ['allergic']);
});
