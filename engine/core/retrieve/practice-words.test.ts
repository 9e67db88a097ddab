import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchedTerms } from './query-terms.ts';
import { withOtherForms } from './other-forms.ts';

test('a word for a kind of care is met by the words for its giver, and the other way, as whole words', () => {
  assert.deepEqual(matchedTerms('Therapy today with Dr. Maja Horvat.', ['therapist']), ['therapist']);
  assert.deepEqual(matchedTerms('My therapist moved her office.', ['therapy']), ['therapy']);
  assert.deepEqual(matchedTerms('Booked the dental check-up.', ['dentist']), ['dentist']);
  // Not a word that only begins like one of them, and cares apart stay apart.
  assert.deepEqual(matchedTerms('a therapeutic walk', ['therapist']), []);
  assert.deepEqual(matchedTerms('My psychiatrist called.', ['therapist']), []);
  // A therapy named as a treatment no therapist gives is another care; one a therapist gives is this.
  assert.deepEqual(matchedTerms('Radiation therapy starts next week.', ['therapist']), []);
  assert.deepEqual(matchedTerms('Retail-therapy again, then therapy at six.', ['therapist']), ['therapist']);
  assert.deepEqual(matchedTerms('Physical therapy on Monday.', ['therapist']), ['therapist']);
});

test('a word for a kind of care is searched by the other words for it after the words as asked', () => {
  assert.deepEqual(withOtherForms(['therapist', 'see']), [
    'therapist',
    'therapy',
    'therapies',
    'therapists',
    'see',
    ...withOtherForms(['see']).slice(1),
  ]);
  assert.deepEqual(withOtherForms(['teacher']), ['teacher']);
});
