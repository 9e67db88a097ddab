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

test('a relationship status ended says the partner only as "we", "she" or "he"', () => {
  assert.ok(saysOfCouple("We've been together three years."));
  assert.ok(!saysOfCouple('Petra and I have been together three years.'));
});
