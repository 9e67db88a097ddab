import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namedBy, namesName, nameWords } from './person-names.ts';

describe('a name typed in a filter', () => {
  it('names a name whose whole words it holds, in any order, case and accents ignored', () => {
    for (const typed of ['Marko Babić', 'marko babic', 'BABIC', 'babić marko', ' marko  '])
      assert.ok(namesName(typed, 'Marko Babić'), typed);
    for (const typed of ['bab', 'Marko Horvat', 'markob', 'marko babić jr'])
      assert.ok(!namesName(typed, 'Marko Babić'), typed);
  });

  it('parts words at hyphens, apostrophes and dots, as a person reads them', () => {
    assert.deepEqual(nameWords("Jean-Luc O'Brien"), ['jean', 'luc', 'o', 'brien']);
    assert.ok(namesName('luc', 'Jean-Luc Picard'));
    assert.ok(namesName('ferreira', 'Dentist – Dr. Ferreira'));
    assert.ok(namesName('2026-11-18', '2026-11-18'));
  });

  it('with no word of its own, names only the name it folds to', () => {
    assert.ok(namesName('☕', '☕'));
    assert.ok(!namesName('☕', '☕ with Ana'));
    assert.ok(!namesName(' ', ' '));
  });

  it('names every name it is a word of: a first name two people share names both', () => {
    assert.deepEqual(namedBy('marko', ['Marko', 'Marko Babić', 'Inês Duarte', 'Markov']), [
      'Marko',
      'Marko Babić',
    ]);
  });
});
