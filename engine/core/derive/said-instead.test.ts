import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Claim } from './deriver.ts';
import { createRuleDeriver } from './rule-deriver.ts';
import { recordText } from './record-text.ts';
import { saidInstead, saidInsteadOf, valueKind } from './said-instead.ts';

test('a message that only gives a value in place of another is read as one', () => {
  for (const [text, said] of [
    ["wait no, it's march 14", { value: 'march 14' }],
    ['globex not globant lol', { value: 'globex', instead: 'globant' }],
    ['Globex, not Globant.', { value: 'Globex', instead: 'Globant' }],
    ['not globant, globex', { value: 'globex', instead: 'globant' }],
    ['sorry I meant Braga', { value: 'Braga' }],
    ['i meant porto', { value: 'porto' }],
    ['wait no its braga', { value: 'braga' }],
    ['*Braga', { value: 'Braga' }],
    ['Braga*', { value: 'Braga' }],
    ['no, Globex', { value: 'Globex' }],
    ['Correction: Globex', { value: 'Globex' }],
    ['oops, make that March 14', { value: 'March 14' }],
    ["wait no, it's the 14th of March", { value: 'the 14th of March' }],
    ['wait, no, it was Porto 😅', { value: 'Porto' }],
    ["no it's ana@x.com", { value: 'ana@x.com' }],
    ['sorry, 912 345 678', { value: '912 345 678' }],
    ["no it's 35 lol", { value: '35' }],
  ] as const)
    assert.deepEqual(saidInstead(text), said, text);
});

test('a reaction, an apology, a sentence of its own or a value not written as one is no such message', () => {
  for (const text of [
    "it's fine",
    'wait no its fine',
    'its amazing here',
    "that's Braga",
    'no, thanks',
    'no way',
    "no, it's ok",
    'Sorry Tom',
    'Sorry, wrong chat',
    'no, Tuesday',
    'not today, maybe Friday',
    'No, not really',
    "no, we're fine",
    'oh no, the cat',
    "Actually it's complicated",
    'I live in Braga not Porto',
    'wait no, Braga?',
    'no it is braga, Portugal',
    'Braga, not braga',
  ])
    assert.equal(saidInstead(text), null, text);
});

test('a value is of a kind: a date, a phone, an address, a number or a name', () => {
  assert.deepEqual(
    ['march 14', '14/03/1990', '+351 912 345 678', 'ana@x.com', '35', 'Globex'].map(valueKind),
    ['date', 'date', 'phone', 'email', 'number', 'name'],
  );
});

const ana = { subject: 'Ana', owner: { state: 'self' as const, entity: 'Ana' } };
const slot = (predicate: string, statement: string): Claim => ({
  ...ana,
  predicate,
  statement,
  quote: statement,
});
const mending = (text: string): Claim => ({
  ...ana,
  predicate: null,
  statement: text,
  quote: text,
  saidInstead: saidInstead(text)!,
});

test('the value mends the one slot of its kind, or the one it names, said just before', () => {
  const before = [slot('lives in', 'Ana lives in Porto'), slot('birthday', "Ana's birthday is march 4")];
  assert.deepEqual(saidInsteadOf(mending("wait no, it's march 14"), before, 'rec_1'), {
    ...ana,
    predicate: 'birthday',
    statement: "Ana's birthday is march 14",
    quote: "wait no, it's march 14",
    replaces: { recordId: 'rec_1', value: 'march 4', statements: ["Ana's birthday is march 4"] },
  });
  assert.equal(saidInsteadOf(mending('no, Braga'), before, 'rec_1')?.statement, 'Ana lives in Braga');
  // Named in lower case, it takes the other's capitals.
  assert.equal(saidInsteadOf(mending('braga not porto'), before, 'rec_1')?.statement, 'Ana lives in Braga');
});

test('two slots of one kind, none, or the same value again mend nothing', () => {
  const two = [slot('lives in', 'Ana lives in Porto'), slot('works at', 'Ana works at Sonae')];
  assert.equal(saidInsteadOf(mending('no, Braga'), two, 'rec_1'), null);
  assert.equal(
    saidInsteadOf(mending('no, Braga'), [slot('birthday', "Ana's birthday is march 4")], 'r'),
    null,
  );
  assert.equal(saidInsteadOf(mending('no, Porto'), [slot('lives in', 'Ana lives in Porto')], 'rec_1'), null);
  // The one it names settles which: "Sonae" is the job's.
  assert.equal(
    saidInsteadOf(mending('Jeronimo Martins, not Sonae'), two, 'rec_1')?.statement,
    'Ana works at Jeronimo Martins',
  );
});

test("the rules mark a person's message said in place of another, not an agent's", () => {
  const d = createRuleDeriver();
  const derive = (text: string, speaker: string) => {
    const content = { kind: 'message' as const, text, speaker, thread: 't' };
    const record = {
      id: 'rec_2',
      content,
      text: recordText(content),
      sourceName: null,
      occurredAt: '2026-03-01T10:00:00Z',
    };
    return d.derive(record, { self: { type: 'person', name: 'Ana' } });
  };
  assert.deepEqual(derive("wait no, it's march 14", 'Ana')[0]?.saidInstead, { value: 'march 14' });
  assert.equal(derive('sorry, I meant Braga', 'assistant')[0]?.saidInstead, undefined);
  assert.equal(derive('I live in Braga, not Porto', 'Ana')[0]?.saidInstead, undefined);
});
