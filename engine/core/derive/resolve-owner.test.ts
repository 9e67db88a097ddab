import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFirstName, resolveOwner, selfFirstName } from './resolve-owner.ts';

const ana = { type: 'person' as const, name: 'Ana Silva' };

test("a redacted copy's [self] is the Brain's own person: unresolved in a Brain without one", () => {
  // A hub's Brain is made with its id only: a placeholder is nobody to attribute a fact to.
  assert.deepEqual(resolveOwner('[self]', null), { state: 'unresolved' });
  assert.deepEqual(resolveOwner('[SELF]', ana), { state: 'self', entity: 'Ana Silva' });
  // Another person's placeholder is another person, as their name was.
  assert.deepEqual(resolveOwner('[person-3f2a]', ana), { state: 'other', entity: '[person-3f2a]' });
});

test('the words for oneself and the self name resolve to self only in a Brain that has one', () => {
  // "human" is the person in LangChain's transcripts (HumanMessage) and in Human:/Assistant: prompts.
  for (const name of ['me', ' User ', 'Human', 'ana  silva']) {
    assert.deepEqual(resolveOwner(name, ana), { state: 'self', entity: 'Ana Silva' }, name);
    assert.deepEqual(
      resolveOwner(name, null),
      name.trim() === 'ana  silva' ? { state: 'other', entity: 'ana  silva' } : { state: 'unresolved' },
      name,
    );
  }
  assert.deepEqual(resolveOwner('Rui', ana), { state: 'other', entity: 'Rui' });
  assert.deepEqual(resolveOwner('  ', ana), { state: 'unresolved' });
});

test("the self's first name alone is the self where the Brain says so, nobody known where it may be another", () => {
  const maya = { type: 'person' as const, name: 'Maya Costa' };
  for (const name of ['Maya', ' maya ', 'MÁYA'])
    assert.deepEqual(resolveOwner(name, maya, 'self'), { state: 'self', entity: 'Maya Costa' }, name);
  assert.deepEqual(resolveOwner('Maya', maya, 'ambiguous'), { state: 'unresolved' });
  // Nobody asked the Brain: another person's name, as it always was.
  assert.deepEqual(resolveOwner('Maya', maya), { state: 'other', entity: 'Maya' });
  // Another name, the self's other names, and a first name with a surname are no first name alone.
  for (const name of ['Rui', 'Costa', 'Maya Silva'])
    assert.deepEqual(resolveOwner(name, maya, 'self'), { state: 'other', entity: name }, name);
  // An org has no first name; a one-word name is the name itself.
  assert.equal(selfFirstName({ type: 'org', name: 'Acme Corp' }), null);
  assert.equal(selfFirstName({ type: 'person', name: 'Ana' }), null);
  assert.equal(selfFirstName({ type: 'person', name: '  José   Costa ' }), 'jose');
});

test("the self's full name is the self however it is written: accents, case or Unicode form aside", () => {
  const ines = { type: 'person' as const, name: 'Inês Conceição' };
  const self = { state: 'self', entity: 'Inês Conceição' };
  // Composed, upper case, without accents, and decomposed (NFD: "e" then U+0302, "a" then U+0303, and
  // "c" then a combining cedilla).
  for (const name of [
    'Inês Conceição',
    'INÊS CONCEIÇÃO',
    'Ines Conceicao',
    'Ine\u0302s Concei\u00e7a\u0303o',
    'Ine\u0302s Conceic\u0327a\u0303o',
  ])
    assert.deepEqual(resolveOwner(name, ines), self, name);
  // Decomposed in the Brain's self and composed in the Record: the same person.
  assert.deepEqual(
    resolveOwner('Inês Conceição', { type: 'person', name: 'Ine\u0302s Conceic\u0327a\u0303o' }),
    {
      state: 'self',
      entity: 'Ine\u0302s Conceic\u0327a\u0303o',
    },
  );
  // Another person with her first name is still another person.
  assert.deepEqual(resolveOwner('Inês Silva', ines), { state: 'other', entity: 'Inês Silva' });
});

test('a name written family name first is the self with or without its space, and by its given name alone', () => {
  const yuki = { type: 'person' as const, name: '田中 由紀' };
  const self = { state: 'self', entity: '田中 由紀' };
  for (const name of ['田中 由紀', '田中由紀', '田中　由紀'])
    assert.deepEqual(resolveOwner(name, yuki), self, name);
  assert.equal(selfFirstName(yuki), '由紀');
  assert.deepEqual(resolveOwner('由紀', yuki, 'self'), self);
  // The family name alone is the family's: her father as likely as her.
  assert.deepEqual(resolveOwner('田中', yuki, 'self'), { state: 'other', entity: '田中' });
  assert.equal(selfFirstName({ type: 'person', name: '김 민준' }), '민준');
  assert.deepEqual(resolveOwner('김민준', { type: 'person', name: '김 민준' }).state, 'self');
  // A name in kana alone may be a Western one, given name first: neither word alone is hers.
  const john = { type: 'person' as const, name: 'ジョン スミス' };
  assert.equal(selfFirstName(john), null);
  for (const name of ['ジョン', 'スミス'])
    assert.deepEqual(resolveOwner(name, john, 'self'), { state: 'other', entity: name }, name);
  assert.deepEqual(resolveOwner('ジョンスミス', john).state, 'self');
  // Latin names keep their order, and no space is taken away from them.
  assert.deepEqual(resolveOwner('AnaSilva', ana), { state: 'other', entity: 'AnaSilva' });
});

test("a message's words name the self's first name only as a word of its own", () => {
  for (const text of [
    "Lena's birthday is May 4.",
    'Lena lives in Graz.',
    'lena is allergic to walnuts',
    'Morning Léna, the plumber comes at 10.',
    'Thanks, Lena!',
    'Ask Lena',
  ])
    assert.ok(namesFirstName(text, 'lena'), text);
  for (const text of [
    'Magdalena lives in Graz.',
    'Lenart called.',
    'Anne-Lena is here.',
    'Lena2 is a bot',
    '',
  ])
    assert.ok(!namesFirstName(text, 'lena'), text);
});
