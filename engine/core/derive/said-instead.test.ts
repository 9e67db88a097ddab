import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveInThread } from './derive-in-thread.testing.ts';
import type { Claim } from './deriver.ts';
import { saidInstead, saidInsteadOf, valueKind } from './said-instead.ts';

test('a message that only gives a value in place of another is read as one', () => {
  for (const [text, value, form, owned, instead] of [
    ["wait no, it's march 14", 'march 14', 'pointed', true],
    ['globex not globant lol', 'globex', 'named', false, 'globant'],
    ["it's Globex not Globant", 'Globex', 'named', false, 'Globant'],
    ['Globex, not Globant.', 'Globex', 'named', false, 'Globant'],
    ['not globant, globex', 'globex', 'named', false, 'globant'],
    ['sorry I meant Braga', 'Braga', 'meant', true],
    ['i meant porto', 'porto', 'meant', false],
    ['*Braga', 'Braga', 'starred', false],
    ['Braga*', 'Braga', 'starred', false],
    ['no, Globex', 'Globex', 'bare', false],
    ['Braga, sorry', 'Braga', 'bare', true],
    ['no, São João da Madeira', 'São João da Madeira', 'bare', false],
    // A value's capitals are no "I" or "my" of the speaker's.
    ['Portland ME not Portland OR', 'Portland ME', 'named', false, 'Portland OR'],
    ['*I-95', 'I-95', 'starred', false],
    ['Correction: Globex', 'Globex', 'bare', true],
    ['oops, make that March 14', 'March 14', 'meant', true],
    ["wait no, it's the 14th of March", 'the 14th of March', 'pointed', true],
    ['wait, no, it was Porto 😅', 'Porto', 'pointed', true],
    ["no it's ana@x.com", 'ana@x.com', 'pointed', false],
    ['sorry, 912 345 678', '912 345 678', 'bare', true],
    ["no it's 35 lol", '35', 'pointed', false],
  ] as const)
    assert.deepEqual(
      { ...saidInstead(text), denies: undefined },
      { value, ...(instead ? { instead } : {}), form, owned, denies: undefined },
      text,
    );
  // Which say no: "no", "nope", "correction"; not "wait" or "sorry" alone.
  assert.deepEqual(
    ['no, Globex', 'Correction: Globex', "wait, it's Braga", 'sorry I meant Braga'].map(
      (t) => saidInstead(t)?.denies,
    ),
    [true, true, false, false],
  );
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
    'wait no its braga',
    "ah, it's beautiful",
    'ugh its expensive',
    'sorry, brb',
    'nope, nothing',
    'no, honestly',
    'nope, still together',
    'no, seriously',
    "Turns out I'm not vegan.",
    'Turns out I am not vegan.',
    'sorry, nvm',
    'no, jk',
    'oops, typo',
    'make it quick',
    'Sorry, Ana',
    'No, Mom',
    'No, English',
    "*Jake's",
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
    'Wait, Tom',
    'Oops, Autocorrect',
    'not Porto, nearby',
    'No, Later',
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
const slot = (predicate: string, statement: string, quote = statement): Claim => ({
  ...ana,
  predicate,
  statement,
  quote,
});
const mending = (text: string): Claim => ({
  ...ana,
  predicate: null,
  statement: text,
  quote: text,
  saidInstead: saidInstead(text)!,
});
/** The statement a mend of `claims` makes: by the same speaker, or of an agent's words. */
const mend = (text: string, claims: Claim[], by: 'same' | 'agent' = 'same', asks = false) =>
  saidInsteadOf(mending(text), { id: 'rec_1', claims, by, asks })?.claim.statement ?? null;

test('the value mends the one slot of its kind, or the one it names, said just before', () => {
  const before = [slot('lives in', 'Ana lives in Porto'), slot('birthday', "Ana's birthday is march 4")];
  assert.deepEqual(
    saidInsteadOf(mending("wait no, it's march 14"), { id: 'rec_1', claims: before, by: 'same', asks: false })
      ?.claim,
    {
      ...ana,
      predicate: 'birthday',
      statement: "Ana's birthday is march 14",
      quote: "wait no, it's march 14",
      replaces: { recordId: 'rec_1', value: 'march 4', statements: ["Ana's birthday is march 4"] },
    },
  );
  assert.equal(mend('sorry, Braga*', before), null);
  assert.equal(mend('wait no, Braga', before), 'Ana lives in Braga');
  // Named in lower case, it takes the other's capitals.
  assert.equal(mend('braga not porto', before), 'Ana lives in Braga');
  assert.equal(mend('vila nova de gaia not porto', before), 'Ana lives in Vila Nova de Gaia');
  assert.equal(mend('sap not ibm', [slot('works at', 'Ana works at IBM')]), 'Ana works at SAP');
  // A typo's star is a typo's: "Brage" mends, "Porto" is no typo of "Braga".
  assert.equal(mend('*Braga', [slot('lives in', 'Ana lives in Brage')]), 'Ana lives in Braga');
  assert.equal(mend('*Braga', [slot('lives in', 'Ana lives in Porto')]), null);
});

test('a bare "no, X" mends an agent\'s read-back, not her own words nor an answer to a question', () => {
  const readBack = [slot('works at', 'Ana works at Globant', 'Got it, you work at Globant.')];
  assert.equal(mend('no, Globex', readBack, 'agent'), 'Ana works at Globex');
  assert.equal(mend('no, Globex', readBack, 'agent', true), null);
  assert.equal(mend('globex not globant', readBack, 'agent', true), 'Ana works at Globex');
  assert.equal(mend('no, Globex', [slot('works at', 'Ana works at Sonae', 'I work at Sonae.')]), null);
  assert.equal(
    mend('wait no, Globex', [slot('works at', 'Ana works at Sonae', 'I work at Sonae.')]),
    'Ana works at Globex',
  );
  // Another person's is no read-back of hers.
  const bob = { ...mending('no, Globex'), subject: 'Bob', owner: { state: 'other' as const, entity: 'Bob' } };
  assert.equal(saidInsteadOf(bob, { id: 'rec_1', claims: readBack, by: 'agent', asks: false }), null);
});

test('two slots of one kind, another value of the kind beside it, none, or the same value mend nothing', () => {
  const two = [slot('lives in', 'Ana lives in Porto'), slot('works at', 'Ana works at Sonae')];
  assert.equal(mend('wait no, Braga', two), null);
  assert.equal(mend('wait no, Braga', [slot('birthday', "Ana's birthday is march 4")]), null);
  assert.equal(mend('wait no, Porto', [slot('lives in', 'Ana lives in Porto')]), null);
  assert.equal(mend('wait no, Ana', [slot('partner', "Ana's partner is Jake")]), null);
  assert.equal(
    mend('wait no, Marta', [slot('works at', 'Ana works at Sonae', 'I work at Sonae with Maria.')]),
    null,
  );
  const party = 'My birthday is March 4, the party is on March 10.';
  assert.equal(mend('oops, March 11', [slot('birthday', "Ana's birthday is March 4", party)]), null);
  // The one it names settles which: "Sonae" is the job's.
  assert.equal(mend('Jeronimo Martins, not Sonae', two), 'Ana works at Jeronimo Martins');
});

test("the rules mark a person's message said in place of another, not an agent's", () => {
  const derive = deriveInThread;
  assert.deepEqual(derive("wait no, it's march 14", 'Ana')[0]?.saidInstead, {
    value: 'march 14',
    form: 'pointed',
    owned: true,
    denies: true,
  });
  assert.equal(derive('sorry, I meant Braga', 'assistant')[0]?.saidInstead, undefined);
  assert.equal(derive('I live in Braga, not Porto', 'Ana')[0]?.saidInstead, undefined);
});
