import assert from 'node:assert/strict';
import { test } from 'node:test';
import { partingSaid, partnersEndedBy } from './parting.ts';

const partners = ['partner', 'girlfriend', 'boyfriend', 'fiancé', 'wife', 'husband'];
const status = { predicate: 'relationship status', values: ['in a relationship', 'engaged'] };

test('a parting with no name ends whichever partner holds the slot, and being together', () => {
  for (const s of [
    'We broke up.',
    "we've split up 😢",
    'We finally called it quits last month',
    'He dumped me.',
  ])
    assert.deepEqual(partingSaid(s), [...partners.map((predicate) => ({ predicate })), status], s);
});

test('a parting names the partner, by role or by name, in any case a chat writes it', () => {
  assert.deepEqual(partingSaid('My husband and I split up'), [{ predicate: 'husband' }, status]);
  assert.deepEqual(partingSaid('my bf dumped me lol'), [{ predicate: 'boyfriend' }, status]);
  assert.deepEqual(partingSaid('My wife left me.'), [{ predicate: 'wife' }, status]);
  for (const s of ['I broke up with Tom', 'Tom and I broke up last week', 'i broke up with tom'])
    assert.deepEqual(
      partingSaid(s)?.map((e) => [e.predicate, e.values?.[0]?.toLowerCase()]),
      [...partners.map((p) => [p, 'tom']), [status.predicate, status.values[0]]],
      s,
    );
  // Left or dumped by a name that may be no partner's: the partner of that name only, no status.
  assert.deepEqual(
    partingSaid('Google dumped me')?.map((e) => e.predicate),
    partners,
  );
});

test('what is no parting ends nothing', () => {
  for (const s of [
    'We split the bill.',
    'I broke up with the band',
    'I broke up with my ex boyfriend years ago and we are friends now',
    'I dumped it',
    'The bus left me',
    'He left me.',
    'Tom left me',
    'I left my job',
    'We broke up the fight',
    'Did you break up?',
    "I don't want to break up",
  ])
    assert.equal(partingSaid(s), null, s);
});

test('being single ends any partner; a divorce a wife or a husband', () => {
  assert.deepEqual(
    partnersEndedBy('single'),
    partners.map((predicate) => ({ predicate })),
  );
  assert.deepEqual(partnersEndedBy('divorced'), [{ predicate: 'wife' }, { predicate: 'husband' }]);
  assert.deepEqual(partnersEndedBy('married'), []);
});
