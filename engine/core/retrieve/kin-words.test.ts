import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchedTerms } from './query-terms.ts';
import { withOtherForms } from './other-forms.ts';

test('a word for a kin is met by any word for the same kin, as a whole word, and is still one term', () => {
  assert.deepEqual(matchedTerms('My mother Ana is a teacher.', ['mom', 'name']), ['mom']);
  assert.deepEqual(matchedTerms("Mum's birthday is in May", ['mother']), ['mother']);
  assert.deepEqual(matchedTerms('My grandfather fished', ['grandpa']), ['grandpa']);
  // Not a word that only begins like another word for it: "fathom", "papaya".
  assert.deepEqual(matchedTerms('a fathom of papaya', ['dad']), []);
  // Kin apart stay apart.
  assert.deepEqual(matchedTerms('My father is a carpenter', ['mom', 'grandpa']), []);
});

test('a word for a kin is searched by the other words for it after the words as asked', () => {
  assert.deepEqual(withOtherForms(['mom', 'name']), [
    'mom',
    'mum',
    'mother',
    'mommy',
    'mummy',
    'mama',
    'momma',
    'name',
  ]);
  assert.deepEqual(withOtherForms(['teacher']), ['teacher']);
});
