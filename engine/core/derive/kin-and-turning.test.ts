import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TypedContent } from '../../contract/index.ts';
import { deriveContent } from './derive-in-thread.testing.ts';

/** Each claim of Rui's own message (or note) as [statement, subject, owner, slot, quote, ends]. */
const claims = (content: TypedContent) =>
  deriveContent(content, 'Rui').map((c) => [
    c.statement,
    c.subject,
    c.owner.state,
    c.predicate,
    c.quote,
    c.ends ?? null,
  ]);
const ofMessage = (text: string) => claims({ kind: 'message', text, speaker: 'Rui' });
const ofNote = (text: string) => claims({ kind: 'document', text });
/** Each of Rui's messages holds no slot. */
const holdNoSlot = (said: readonly string[]) => {
  for (const text of said)
    assert.ok(
      ofMessage(text).every((c) => c[3] === null),
      text,
    );
};
/** What Rui's message says his kin are, as [statement, subject, owner, quote]. */
const kinOf = (text: string) =>
  ofMessage(text)
    .filter((c) => c[3] === null && / is /u.test(String(c[0])) && String(c[0]).startsWith("Rui's "))
    .map(([statement, subject, owner, , quote]) => [statement, subject, owner, quote]);

test("kin named beside their role are the speaker's Memory of no slot, about them, beside what is said of them", () => {
  const said = 'My sister Marta started a new job at Siemens in Munich.';
  for (const read of [ofMessage(said), ofNote(said)])
    assert.deepEqual(read, [
      [said, 'Marta', 'other', 'works at', said, null],
      ["Rui's sister is Marta", 'Marta', 'self', null, 'My sister Marta', null],
    ]);
  assert.deepEqual(kinOf('My brother Tiago is a nurse in Lisbon.'), [
    ["Rui's brother is Tiago", 'Tiago', 'self', 'My brother Tiago'],
  ]);
  assert.deepEqual(kinOf('Went hiking with my best friend Tom Reyes yesterday.'), [
    ["Rui's best friend is Tom Reyes", 'Tom Reyes', 'self', 'my best friend Tom Reyes'],
  ]);
  // The name ends at its possessive.
  assert.deepEqual(kinOf("My brother Tiago's wife is Sara."), [
    ["Rui's brother is Tiago", 'Tiago', 'self', 'My brother Tiago'],
  ]);
  // Beside a home of the speaker's too.
  assert.deepEqual(kinOf('I live in Lisbon with my sister Marta.'), [
    ["Rui's sister is Marta", 'Marta', 'self', 'my sister Marta'],
  ]);
});

test('a name with its role set off by commas is kin too, but not one spoken to', () => {
  assert.deepEqual(kinOf('Marta, my sister, started at Siemens.'), [
    ["Rui's sister is Marta", 'Marta', 'self', 'Marta, my sister'],
  ]);
  assert.deepEqual(kinOf('Caroline, my friend, thanks!'), []);
  assert.deepEqual(kinOf('Caroline, my friend, you are the best.'), []);
});

test('a name said to be kin is kin, whose else he is said beside it names no one', () => {
  assert.deepEqual(kinOf("Luka is my brother-in-law, Ana's husband."), [
    ["Rui's brother-in-law is Luka", 'Luka', 'self', 'Luka is my brother-in-law'],
  ]);
  assert.deepEqual(kinOf('Luka is my colleague from Span.'), [
    ["Rui's colleague is Luka", 'Luka', 'self', 'Luka is my colleague'],
  ]);
  assert.deepEqual(kinOf('Luka is my brother.'), [
    ["Rui's brother is Luka", 'Luka', 'self', 'Luka is my brother'],
  ]);
  for (const said of [
    "I met my brother-in-law, Ana's husband.",
    "Luka is my brother's friend.",
    'Is Luka my brother?',
    'Luka is my brother in spirit.',
  ])
    assert.deepEqual(kinOf(said), [], said);
});

test("no kin from someone else's kin, quoted or played words, questions, or a friendship said to be over", () => {
  for (const said of [
    "My friend's sister Ana is a nurse.",
    'Tom said "my sister Ana is a doctor".',
    'Pretend you are my sister Ana.',
    'Is my sister Ana coming?',
    'My friend Tom and I fell out, he left.',
    'my sister ana lives in madrid',
    'Today, my sister, is special.',
  ])
    assert.deepEqual(kinOf(said), [], said);
  // A wife is a relation's slot, as before: no second Memory of no slot beside it.
  assert.deepEqual(
    ofMessage('Went hiking with my wife Inês.').map((c) => [c[0], c[3]]),
    [
      ['Went hiking with my wife Inês.', null],
      ["Rui's wife is Inês", 'wife'],
    ],
  );
});

test('a birthday said by the age turned on a day of the year holds that birthday', () => {
  assert.deepEqual(ofMessage('Ana turns 30 on 12 March.'), [
    ["Ana's birthday is 12 March", 'Ana', 'other', 'birthday', 'Ana turns 30 on 12 March.', null],
  ]);
  // A parent by role alone: the speaker's slot, one father.
  for (const said of ['Dad turns 70 on 12 March.', 'My dad is turning 70 on 12 March!'])
    assert.deepEqual(ofMessage(said), [
      ["Rui's father's birthday is 12 March", 'Rui', 'self', "father's birthday", said, null],
    ]);
  assert.deepEqual(
    ofNote('My mum turns 65 on the 3rd of May.').map((c) => c[0]),
    ["Rui's mother's birthday is 3rd of May"],
  );
  assert.deepEqual(ofMessage('My sister Ana turns 30 on March 12.').slice(0, 1), [
    ["Ana's birthday is March 12", 'Ana', 'other', 'birthday', 'My sister Ana turns 30 on March 12.', null],
  ]);
});

test('an age turned on a day of the week, or doubted, or asked, holds no birthday', () => {
  holdNoSlot([
    'Ana turns 30 on Friday.',
    'Dad turns 70 tomorrow.',
    'If Ana turns 30 on 12 March we party.',
    'Does Ana turn 30 on 12 March?',
    'Today turns 5 on March 1.',
  ]);
});

test('moving out of a place ends the home there; out of a flat, or for a while, ends nothing', () => {
  for (const said of ['I moved out of Porto.', 'Just moved away from Porto.'])
    assert.deepEqual(ofMessage(said), [
      ['Rui no longer lives in Porto', 'Rui', 'self', 'lives in', said, 'Porto'],
    ]);
  // Said with where to, it is a move: the new home ends the old one.
  for (const said of ['I moved out of Porto to Lisbon.', 'I moved away from New York to Boston.'])
    assert.deepEqual(
      ofMessage(said).map((c) => [c[0], c[3], c[5]]),
      [[`Rui lives in ${said.split(' ').at(-1)!.slice(0, -1)}`, 'lives in', null]],
    );
  holdNoSlot([
    'I moved out of my flat.',
    'I moved out of Porto for the summer.',
    'My sister moved out of Porto.',
    'If I moved out of Porto I would miss it.',
  ]);
});

test("a named person's occupation said with the place it is done in holds the occupation, in the sentence's words", () => {
  const said = 'My brother Tiago is a nurse in Lisbon.';
  assert.deepEqual(ofMessage(said), [
    [said, 'Tiago', 'other', 'occupation', said, null],
    ["Rui's brother is Tiago", 'Tiago', 'self', null, 'My brother Tiago', null],
  ]);
  // The place is no part of the value, nor a home of his.
  assert.deepEqual(
    ofMessage('Tiago is a nurse in New York City.').map((c) => c[3]),
    ['occupation'],
  );
  // Words after "in" that are no place's name keep the sentence as it was: no slot.
  assert.deepEqual(
    ofMessage('Tiago is a nurse in training.').map((c) => c[3]),
    [null],
  );
});
