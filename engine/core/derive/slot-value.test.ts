import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endedValue, sameSlotValue, slotValueAsSaid } from './slot-value.ts';

const phone = (value: string) => ({
  statement: `Ana's phone number is ${value}`,
  subject: 'Ana',
  predicate: 'phone number',
});

test('a phone number in two spellings is one value; another number is another', () => {
  for (const other of ['555 0198', '(555) 0198', '555.0198', '555-0198.', '555 - 01 98'])
    assert.ok(sameSlotValue(phone('555-0198'), phone(other)), other);
  // A fact's line holds the same number, whichever phone predicate it was written with.
  const fact = { statement: 'me phone: 555 0198', subject: 'me', predicate: 'phone' };
  assert.ok(sameSlotValue(fact, phone('555-0198')));
  for (const other of ['555-0199', '555-01980', '+1 555-0198', '1 555 0198'])
    assert.ok(!sameSlotValue(phone('555-0198'), phone(other)), other);
  assert.ok(sameSlotValue(phone('+351 912 345 679'), phone('+351 912-345-679')));
});

test('only a phone number is read by its digits: another slot compares its words', () => {
  const favourite = (value: string) => ({
    statement: `Ana's favourite number is ${value}`,
    subject: 'Ana',
    predicate: 'favourite number',
  });
  assert.ok(!sameSlotValue(favourite('555-0198'), favourite('555 0198')));
});

test('a home in the speaker\'s own sentence is that home: one value with "Ana lives in Lisbon"', () => {
  const home = (statement: string) => ({ statement, subject: 'Ana', predicate: 'lives in' });
  assert.ok(sameSlotValue(home('I live in Lisbon with my partner Tom.'), home('Ana lives in Lisbon')));
  const fact = { statement: 'Ana home city: Lisbon', subject: 'Ana', predicate: 'home_city' };
  assert.ok(sameSlotValue(home('I live in Lisbon with my partner Tom.'), fact));
  assert.ok(!sameSlotValue(home('I live in Lisbon with my partner Tom.'), home('Ana lives in Porto')));
});

test("a slot value reads as it was said: the home in a sentence, a fact's value; none for an ending", () => {
  const said = (statement: string, predicate: string | null, subject = 'Ana') =>
    slotValueAsSaid({ statement, subject, predicate });
  assert.equal(said('I live in Lisbon with my partner Tom.', 'lives in'), 'Lisbon');
  assert.equal(said('I started a new job, I work at Sonae now.', 'works at'), 'Sonae');
  assert.equal(said('We moved to Porto last week, the flat is great.', 'lives in'), 'Porto');
  assert.equal(said('Ana lives in New York', 'lives in'), 'New York');
  assert.equal(said('My sister Carla lives in Madrid.', 'lives in', 'Carla'), 'Madrid');
  assert.equal(said("Ana's manager is Tom Reyes", 'manager'), 'Tom Reyes');
  assert.equal(said("Ana's favourite colour is green", 'favourite colour'), 'green');
  assert.equal(said('self phone number: 555-0198', 'phone_number', 'self'), '555-0198');
  // An ending holds the slot with no value; a Memory of no slot has none either.
  assert.equal(said('Ana no longer lives in Porto', 'lives in'), null);
  assert.equal(said('Tom and I booked a trip to Japan.', null), null);
});

test("an attribute's ending gives the value it ends, and no value of the slot", () => {
  const diet = (statement: string) => ({ statement, subject: 'Ana', predicate: 'diet' });
  assert.equal(endedValue(diet("Ana's diet is no longer vegan")), 'vegan');
  assert.equal(slotValueAsSaid(diet("Ana's diet is no longer vegan")), null);
  assert.equal(slotValueAsSaid(diet("Ana's diet is vegan")), 'vegan');
  assert.equal(endedValue(diet("Ana's diet is vegan")), null);
});

test("an end date in her words is the day a fact's line of the slot gives", () => {
  const fact = {
    statement: 'Lena Kovac gym membership ends: January 31, 2027',
    subject: 'Lena Kovac',
    predicate: 'gym membership ends',
  };
  const said = (statement: string) => ({
    statement,
    subject: 'Lena Kovac',
    predicate: 'gym membership ends',
  });
  assert.ok(sameSlotValue(fact, said('My gym membership ends on January 31, 2027.')));
  assert.ok(!sameSlotValue(fact, said('My gym membership runs until the end of February.')));
  assert.equal(
    slotValueAsSaid(said('My gym membership runs until the end of February.')),
    'the end of February',
  );
});
