import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryTerms } from './query-terms.ts';
import { topicsOf } from './topic-words.ts';

test('a query naming a topic gets the words its Records use; one naming none gets none', () => {
  const named = (q: string) => topicsOf(queryTerms(q)).map((t) => t.name);
  assert.deepEqual(named('what should I remember about dietary restrictions'), ['diet']);
  assert.deepEqual(named('does the user have any allergies?'), ['allergies']);
  assert.deepEqual(named('tell me about her family'), ['family']);
  assert.deepEqual(named('where does the user live?'), []);
  // Cooking for someone asks what they eat and cannot.
  assert.deepEqual(named('What should I not cook for Lena?'), ['diet']);
  assert.deepEqual(named('any recipes she would like?'), ['diet']);
  assert.deepEqual(named('who is my partner?'), ['partner']);
  assert.deepEqual(named('Does she have any siblings?'), ['siblings']);
  assert.deepEqual(named('who is my sibling?'), ['siblings']);
  assert.deepEqual(named('what are her parents called?'), ['parents']);
  assert.deepEqual(named('how old are his kids?'), ['children']);
  assert.deepEqual(named('When is my wedding?'), ['wedding']);
  assert.deepEqual(named("what's Ana's phone?"), ['phone']);
  // "He's here!!! Jakov was born at 4:12": a baby in the words its birth is told in.
  assert.deepEqual(named('Did Petra have her baby?'), ['baby']);
  // "my bday is 4 march": a birthday in the words people say it in; "where was she born?" asks a place.
  assert.deepEqual(topicsOf(queryTerms('when is Jordan’s birthday')), [
    { name: 'birthday', members: ['bday'] },
  ]);
  assert.deepEqual(named('where was Ana born?'), []);
  // A member the query says already is searched by the query itself.
  const diet = topicsOf(queryTerms('is the user vegetarian or on another diet?'))[0]!;
  assert.ok(!diet.members.includes('vegetarian'));
  assert.ok(diet.members.includes('vegan'));
});
