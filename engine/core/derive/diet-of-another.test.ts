import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dietOfAnotherSaid } from './diet-of-another.ts';

test('a diet a named person keeps, said as one says one’s own, is theirs', () => {
  for (const [s, who, value, alone] of [
    ['Marta is vegan.', 'Marta', 'vegan', true],
    ["Marta's vegan now", 'Marta', 'vegan', true],
    ['Lea’s vegetarian these days', 'Lea', 'vegetarian', true],
    ['My sister Marta is vegan.', 'Marta', 'vegan', false],
    ['Marta is vegetarian rather than vegan these days.', 'Marta', 'vegetarian', true],
    ['Marta is vegetarian, not vegan.', 'Marta', 'vegetarian', true],
    ['Lea went vegan last year.', 'Lea', 'vegan', true],
    ['Rui has gone pescetarian.', 'Rui', 'pescatarian', true],
    ['Tom Reyes is a vegan.', 'Tom Reyes', 'vegan', true],
    ['Btw my brother Rui is fully vegetarian now', 'Rui', 'vegetarian', false],
    ['Marta is vegan, so no cheese for her.', 'Marta', 'vegan', false],
  ] as const) {
    const said = dietOfAnotherSaid(s);
    assert.deepEqual(
      said && [said.who, said.predicate, said.value, said.ends ?? false],
      [who, 'diet', value, false],
      s,
    );
    assert.equal(said!.alone, alone, s);
  }
});

test('a diet a named person keeps no more ends theirs', () => {
  for (const [s, value] of [
    ["Marta isn't vegan anymore.", 'vegan'],
    ['Lea isn’t vegetarian any more', 'vegetarian'],
    ['Marta is no longer vegetarian', 'vegetarian'],
    ['Rui stopped being vegan.', 'vegan'],
  ] as const)
    assert.deepEqual([dietOfAnotherSaid(s)?.value, dietOfAnotherSaid(s)?.ends], [value, true], s);
});

test('a sentence saying more, less or something else than a named person’s diet holds none', () => {
  for (const s of [
    'Apple is vegan-friendly.',
    'Marta is not vegan.',
    'Marta is vegan and lives in Porto.',
    "Marta's vegan lasagne was great.",
    'Is Marta vegan?',
    'If Marta is vegan, we should pick another place.',
    'Marta said she is vegan.',
    'Marta is a vegan chef.',
    'Marta is vegetarian on weekdays.',
    'The Green Kitchen is vegan.',
    'Marta is a nurse.',
  ])
    assert.equal(dietOfAnotherSaid(s), null, s);
});
