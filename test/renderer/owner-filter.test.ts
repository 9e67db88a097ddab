import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownerParam, subjectParam } from '../../renderer/owner-filter.ts';

test('the Whose filter takes what the table shows, the name without accents, and the API words', () => {
  for (const typed of ['you', ' You ', 'Lucía (you)', 'lucia (you)', 'Lucía', 'lucia', 'LUCIA', 'self'])
    assert.equal(ownerParam(typed, 'Lucía'), 'self', typed);
  for (const typed of ['not sure whose', 'Not sure', 'unresolved'])
    assert.equal(ownerParam(typed, 'Lucía'), 'unresolved', typed);
  // Anyone else is asked for by name, as typed: the API matches a name by its words, case and accents ignored.
  assert.equal(ownerParam(' Tom ', 'Lucía'), 'Tom');
  // The Brain's person not known (not read yet, or none): their name goes as a name.
  assert.equal(ownerParam('lucia'), 'lucia');
});

test('the About filter takes "you" for the Brain\'s person by her name, and any other words as typed', () => {
  for (const typed of ['you', ' You ', 'Lucía (you)', 'me'])
    assert.equal(subjectParam(typed, 'Lucía Pérez'), 'Lucía Pérez', typed);
  // Her name, or a word of it, goes as typed: the API finds her by it.
  assert.equal(subjectParam(' lucia ', 'Lucía Pérez'), 'lucia');
  assert.equal(subjectParam('Marko', 'Lucía Pérez'), 'Marko');
  // Her name not known (not read yet, or none): the subject the API keeps her own facts under.
  assert.equal(subjectParam('you'), 'self');
});
