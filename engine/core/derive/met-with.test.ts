import assert from 'node:assert/strict';
import { test } from 'node:test';
import { metWithIn } from './met-with.ts';

test('the one person the speaker met, ate with, called or went out with is named', () => {
  for (const [s, who] of [
    ['I had lunch with Tom Baker today.', 'Tom Baker'],
    ['Met João Pereira for coffee.', 'João Pereira'],
    ['Yesterday I called Marta.', 'Marta'],
    ['We went hiking with my friend Lea.', 'Lea'],
    ['I ran into Rui at the market.', 'Rui'],
    ['Caught up with Inês over dinner', 'Inês'],
  ] as const)
    assert.equal(metWithIn(s), who, s);
});

test('a sentence with no person met so, or a thing in the name’s place, names no one', () => {
  for (const s of [
    'I had lunch with my sister.',
    'I met the team at Acme.',
    'I saw Lisbon from the plane.',
    'i met tom today',
    'Tom had lunch with me.',
    'I called Monday about the boiler.',
    'I had lunch at Zizzi.',
  ])
    assert.equal(metWithIn(s), null, s);
});
