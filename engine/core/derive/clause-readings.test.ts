import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveInThread } from './derive-in-thread.testing.ts';

/** Each claim as [statement, predicate, what it ends or reaches], in order. */
const read = (text: string) =>
  deriveInThread(text, 'Ana').map((c) => [
    c.statement,
    c.predicate,
    c.ends ?? c.endsHeld?.values?.join('/') ?? null,
  ]);

test("a later clause's attribute holds its slot; the sentence keeps what it says before", () => {
  assert.deepEqual(read('i have a cat named Pimenta and my boyfriend is Rui'), [
    ['i have a cat named Pimenta', null, null],
    ["Ana's boyfriend is Rui", 'boyfriend', null],
  ]);
  assert.deepEqual(read('actually i eat meat again, not vegetarian anymore'), [
    ['actually i eat meat again', null, null],
    ["Ana's diet is no longer vegetarian", 'diet', 'vegetarian'],
  ]);
  // "…, so I'm …": what it comes to is said whole.
  assert.deepEqual(read("Actually I've dropped fish too, so I'm fully vegetarian now."), [
    ["Actually I've dropped fish too", null, null],
    ["Ana's diet is vegetarian", 'diet', null],
  ]);
  assert.deepEqual(read('My partner went vegan last month, so I am vegan now too!'), [
    ['My partner went vegan last month', null, null],
    ["Ana's diet is vegan", 'diet', null],
  ]);
  // "…, so pescatarian now": its "I'm" left out, as a chat writes it (use9 H3).
  assert.deepEqual(read('Vegetarian plus fish, so pescatarian now.'), [
    ['Vegetarian plus fish', null, null],
    ["Ana's diet is pescatarian", 'diet', null],
  ]);
  assert.deepEqual(read("I'm eating fish again, so pescatarian now."), [
    ["I'm eating fish again", null, null],
    ["Ana's diet is pescatarian", 'diet', null],
  ]);
  // "…, and I'm vegetarian": a clause of the speaker's own, said whole, holds its slot.
  assert.deepEqual(read("I prefer window seats on flights and I'm vegetarian."), [
    ['I prefer window seats on flights', null, null],
    ["Ana's diet is vegetarian", 'diet', null],
  ]);
  for (const framed of [
    "If it rains, I'm vegan",
    "When I'm in India, I'm vegetarian.",
    "For Lent, I'm vegetarian.",
    "Jordan kept saying, I'm vegan now.",
    "I ate two burgers today, and I'm vegetarian, sure.",
  ])
    assert.ok(
      read(framed).every((c) => c[1] === null),
      framed,
    );
  // A request to the listener after it is no part of what is said.
  assert.deepEqual(read("I'm vegetarian, just so you know"), [["Ana's diet is vegetarian", 'diet', null]]);
  assert.deepEqual(read("I'm allergic to peanuts, so keep that in mind for any recipes."), [
    ["I'm allergic to peanuts", null, null],
  ]);
  assert.deepEqual(read('Just so you know'), [['Just so you know', null, null]]);
  for (const hedged of [
    "My wife went vegan, so I'm vegan now too, lol",
    "My wife went vegan, so I'm vegan now too, or so she thinks",
    "I dropped fish, so I'm vegan now, except for cheese",
  ])
    assert.deepEqual(
      read(hedged).map((c) => c[1]),
      [null],
      hedged,
    );
  assert.deepEqual(read("I was tired, so I'm staying home."), [
    ["I was tired, so I'm staying home.", null, null],
  ]);
  // Laughed at, it is a joke.
  assert.deepEqual(
    read("I ate a salad today, so I'm vegan now lol").map((c) => c[1]),
    [null],
  );
  // What comes before is read as a sentence of its own.
  assert.deepEqual(
    read("i'm vegetarian and my boyfriend is Rui").map((c) => c[1]),
    ['diet', 'boyfriend'],
  );
  // Said of someone else first, the sentence is theirs; the boyfriend is still hers.
  assert.deepEqual(
    deriveInThread('My sister Inês is a nurse and my boyfriend is Rui', 'Ana').map((c) => [
      c.statement,
      c.subject,
    ]),
    [
      ['My sister Inês is a nurse', 'Inês'],
      ["Ana's sister is Inês", 'Inês'],
      ["Ana's boyfriend is Rui", 'Ana'],
    ],
  );
  // Beside a relation named in passing, both hold.
  assert.deepEqual(
    read('went hiking with my wife Sarah, my favourite colour is green').map((c) => c[1]),
    [null, 'wife', 'favourite colour'],
  );
});

test('a frame, a wish, a quote, a take-back or someone else as the subject holds no clause', () => {
  for (const text of [
    'i wish, my boyfriend is Tom',
    'in my dream, my boyfriend is Tom',
    'Tom said, my boyfriend is Tom',
    'haha, no longer vegan, just kidding',
    'My sister went vegan, no longer vegetarian',
    'Inês is eating fish again, so pescatarian now.',
    'My sister is eating fish again, so pescatarian now.',
  ])
    assert.deepEqual(
      read(text).filter((c) => c[1] !== null),
      [],
      text,
    );
  // Someone named as the subject holds a diet of their own, which ends none of the speaker's.
  assert.deepEqual(read('Inês is vegan now, not vegetarian anymore'), [
    ["Inês's diet is vegan", 'diet', null],
  ]);
});

test('eating meat again ends a meatless diet only as all the sentence says', () => {
  assert.deepEqual(read('i eat meat again lol')[1], [
    'i eat meat again lol',
    'diet',
    'vegetarian/vegan/pescatarian',
  ]);
  for (const text of [
    'Eating meat again would make me sick',
    'i started eating meat again for a week, then stopped',
    'i eat meat again, said no one ever',
    'back to meat prices: they went up',
  ])
    assert.deepEqual(
      read(text).filter((c) => c[1] !== null),
      [],
      text,
    );
});

test('an ending said whole before a clause of its own ends the value; the clause is read alone', () => {
  assert.deepEqual(read("I'm not vegan anymore, I eat fish now."), [
    ["Ana's diet is no longer vegan", 'diet', 'vegan'],
    ['I eat fish now.', null, null],
  ]);
  assert.deepEqual(read("I'm not vegan anymore, I'm pescatarian now."), [
    ["Ana's diet is no longer vegan", 'diet', 'vegan'],
    ["Ana's diet is pescatarian", 'diet', null],
  ]);
  // Taken back, kept, or someone else's word after it: no ending.
  for (const s of [
    "I'm not vegan anymore, jk",
    "I'm not vegan anymore, just joking.",
    "I'm not vegan anymore, no wait, I still am.",
    "I'm not vegan anymore, according to my sister.",
    "I'm not vegan anymore, I'm kidding",
  ])
    assert.deepEqual(
      read(s).filter((c) => c[2] !== null),
      [],
      s,
    );
});
