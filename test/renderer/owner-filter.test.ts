import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownerParam } from '../../renderer/owner-filter.ts';

test('the Whose filter takes what the table shows, the name without accents, and the API words', () => {
  for (const typed of ['you', ' You ', 'Lucía (you)', 'lucia (you)', 'Lucía', 'lucia', 'LUCIA', 'self'])
    assert.equal(ownerParam(typed, 'Lucía'), 'self', typed);
  for (const typed of ['not sure whose', 'Not sure', 'unresolved'])
    assert.equal(ownerParam(typed, 'Lucía'), 'unresolved', typed);
  // Anyone else is asked for by name, as typed: the API matches names without regard to case.
  assert.equal(ownerParam(' Tom ', 'Lucía'), 'Tom');
  // The Brain's person not known (not read yet, or none): their name goes as a name.
  assert.equal(ownerParam('lucia'), 'lucia');
});
