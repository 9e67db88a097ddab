import assert from 'node:assert/strict';
import { test } from 'node:test';
import { saysOfCouple } from './couple-said.ts';

test('what the speaker says of being a couple with the partner is read as of the couple', () => {
  for (const s of [
    "We've been together three years.",
    'We have been together since 2023.',
    "we're still together",
    'Petra and I have been dating for two years.',
    'Petra Novak and I are together.',
    'She and I are in a relationship.',
    'Our anniversary is on May 3.',
    'Our relationship is going great.',
    "I've been with her for three years.",
    "I'm in love with Petra.",
    'me and Petra have been going out since June',
    "I'm with Petra now.",
    'Petra and I are together.',
    "We've been a couple since 2023.",
    'We are so in love with each other.',
    // How long, at last, for now, or where the two live: still the couple (review9a M1).
    "We've been together at least three years.",
    "We're together at last.",
    'We are together at the moment.',
    'Petra and I are together in a relationship.',
    "We've been happily together in our little flat for 3 years.",
    "I'm with her, finally.",
    "I'm with Petra for good.",
  ])
    assert.ok(saysOfCouple(s, 'Petra Novak'), s);
});

test("others' togetherness, and events done together, are not of the couple", () => {
  for (const s of [
    'My parents have been together 40 years.',
    'Our band has been together since 2015.',
    'Luka and I go out together every Friday.',
    'Luka and I have been together in the band for years.',
    'My sister Marina and Ivan are celebrating their anniversary in May.',
    'Yesterday we went hiking together on Sljeme.',
    'We bought a flat together in Trešnjevka.',
    "We're going out tonight.",
    'Petra is a doctor.',
  ])
    assert.ok(!saysOfCouple(s, 'Petra Novak'), s);
});

test('a few, a place or a group shared, where one is with her, or a love of a thing, are not the couple', () => {
  for (const s of [
    'We are a couple of weeks behind.',
    'We are a couple days late on the rent.',
    'I am with Petra at the cafe.',
    "I'm with Petra in the car.",
    "I'm with Petra and Luka.",
    "I'm with Petra, at the cafe.",
    "I'm with Petra for the weekend.",
    "I'm with her for the rest of the day.",
    'We have been together at Span for five years.',
    'We are together in the band.',
    'We are in love with Vienna.',
    'Our anniversary party for the company is Friday.',
  ])
    assert.ok(!saysOfCouple(s, 'Petra Novak'), s);
});

test('a relationship status ended says the partner only as "we", "she" or "he"', () => {
  assert.ok(saysOfCouple("We've been together three years."));
  assert.ok(!saysOfCouple('Petra and I have been together three years.'));
});
