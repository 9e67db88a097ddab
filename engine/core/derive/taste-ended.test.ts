import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  anyTaste,
  endedWords,
  saysEnded,
  saysTaste,
  tasteEnded,
  tasteResumed,
  tasteWords,
} from './taste-ended.ts';

test('a taste or habit said to be over is read with its verb and the head of its object', () => {
  for (const [s, verb, object] of [
    ["I've switched to coffee in the mornings, I don't drink tea anymore.", 'drink', 'tea'],
    ["I don't drink tea anymore", 'drink', 'tea'],
    ["I don't mind it, but I don't drink tea anymore these days", 'drink', 'tea'],
    ["Honestly I don't really like coffee any more.", 'like', 'coffee'],
    ['I do not eat meat any longer.', 'eat', 'meat'],
    ['I no longer eat red meat.', 'eat', 'meat'],
    ['I no longer play tennis on Sundays', 'play', 'tennis'],
    ['I stopped drinking coffee last month.', 'drink', 'coffee'],
    ["I've quit smoking cigars.", 'smoke', 'cigars'],
    ['I have stopped eating sugar', 'eat', 'sugar'],
    ['I gave up coffee in January.', anyTaste, 'coffee'],
    ["I've given up drinking soda", 'drink', 'soda'],
    ['I switched from tea to coffee.', anyTaste, 'tea'],
  ] as const)
    assert.deepEqual(tasteEnded(s), { verb, object }, s);
});

test('no ending is read where the words do not say the speaker stopped', () => {
  for (const s of [
    "I've switched to coffee.",
    "Mum thinks I don't drink tea anymore.",
    "If I don't drink tea anymore, what do I bring?",
    'Do you not drink tea anymore?',
    "I don't drink tea.",
    'I stopped smoking.',
    'I gave up on running',
    "Lena doesn't drink tea anymore.",
    "I don't work at Acme anymore.",
    'I quit my job at Acme.',
  ])
    assert.equal(tasteEnded(s), null, s);
});

test('a first-person statement of the same thing, by a verb the ending reaches, states the taste', () => {
  const tea = { verb: 'drink', object: 'tea' };
  for (const s of [
    'I prefer tea in the morning, green tea mostly.',
    'I love green tea.',
    'Actually I like tea again in the evenings, chamomile, but mornings stay coffee.',
    'I usually drink tea with breakfast.',
    'I really enjoy drinking tea.',
    'Mornings are busy, so I drink teas from the office kitchen.',
  ])
    assert.equal(saysTaste(s, tea), true, s);
  for (const s of [
    'The tea shop on Herrengasse closed.',
    'I love the tea shop on Herrengasse.',
    'I like coffee and tea.',
    "I don't like tea.",
    'I used to drink tea.',
    'My kids drink tea.',
    'Mum thinks I like tea.',
    "I've switched to coffee in the mornings, I don't drink tea anymore.",
  ])
    assert.equal(saysTaste(s, tea), false, s);
});

test('a habit is ended only by its own verb; tasting and taking food and drink reach each other', () => {
  assert.equal(saysTaste('I play tennis every week.', { verb: 'play', object: 'tennis' }), true);
  assert.equal(saysTaste('I play tennis every week.', { verb: 'watch', object: 'tennis' }), false);
  assert.equal(saysTaste('I love tennis.', { verb: 'play', object: 'tennis' }), false);
  assert.equal(saysTaste('I love playing tennis.', { verb: 'play', object: 'tennis' }), true);
  assert.equal(saysTaste('I eat a lot of sugar.', { verb: anyTaste, object: 'sugar' }), true);
  assert.equal(saysTaste('I smoke cigars.', { verb: anyTaste, object: 'cigars' }), false);
  assert.equal(saysTaste('I smoke a cigar on Fridays.', { verb: 'smoke', object: 'cigars' }), true);
});

test('the words searched for a taste find its statement in either number', () => {
  assert.deepEqual(tasteWords({ verb: 'smoke', object: 'cigars' }), ['cigar']);
  assert.deepEqual(tasteWords({ verb: 'eat', object: 'tomatoes' }), ['tomato']);
  assert.deepEqual(tasteWords({ verb: 'play', object: 'bus' }), ['bus']);
  assert.deepEqual(tasteWords({ verb: 'drink', object: 'tea' }), ['tea']);
});

test('quitting, stopping or giving up a thing, or "no more" of it, ends the taste of that thing', () => {
  for (const [s, object] of [
    ["I'm quitting coffee, only green tea from now on.", 'coffee'],
    ["I'm quitting coffee.", 'coffee'],
    ['I quit coffee last week.', 'coffee'],
    ["I've stopped sugar.", 'sugar'],
    ["I'm giving up soda for good", 'soda'],
    ['No more coffee for me.', 'coffee'],
    ['Ok so no more energy drinks.', 'drinks'],
  ] as const)
    assert.deepEqual(tasteEnded(s), { verb: anyTaste, object }, s);
  for (const s of [
    // A name one quits is a job; a job or a school is no taste.
    'I quit Feedzai today!',
    "I'm quitting my job at Acme.",
    "I'm quitting school.",
    // "-ing" alone names no thing; "no more than" is a measure.
    'I quit smoking.',
    "I'm back on coffee, one cup in the morning, but no more than one.",
    'There is no more milk.',
    'Are you quitting coffee?',
  ])
    assert.equal(tasteEnded(s), null, s);
});

test("a stop for a day, a while, a place or someone else, or another's words, ends no taste", () => {
  for (const s of [
    'No more meetings today, thank god.',
    'No more coffee in the office, the machine broke.',
    'No more chocolate for the kids before dinner.',
    'No more coffee after 6pm for me',
    'No more sugar with my coffee.',
    'I quit coffee for Lent',
    'I quit coffee for Christmas.',
    'I quit coffee for the office.',
    'I stopped coffee for a week while I had the flu',
    'I quit wine for January, dry January!',
    'No more chocolate until Christmas!',
    "I'm giving up sugar for a couple of weeks.",
    "I don't drink coffee anymore, at least for now.",
    'I stopped drinking wine for a month.',
    'I stopped drinking wine for a couple of weeks.',
    'Marko said: I quit coffee.',
    'My sister told me I quit coffee.',
    '"No more coffee for me," Petra said.',
    "Marko said: I'm back on coffee.",
  ])
    assert.equal(tasteEnded(s) ?? tasteResumed(s), null, s);
  // For good, for oneself, for someone's sake, or when it was quit, it ends the taste.
  for (const s of [
    'I quit coffee for good.',
    'No more coffee for me, from now on.',
    'I quit coffee last week.',
    'I quit coffee for my wife.',
    "I'm quitting coffee for the kids.",
    "I quit coffee for Petra's sake.",
  ])
    assert.deepEqual(tasteEnded(s), { verb: anyTaste, object: 'coffee' }, s);
  // A name alone is someone's sake only where the Brain knows a person by it; a day, a feast or a
  // challenge is a stop for a while (review9a M4).
  const petra = (name: string) => name === 'Petra';
  assert.deepEqual(tasteEnded('I quit coffee for Petra.', petra), { verb: anyTaste, object: 'coffee' });
  assert.equal(tasteEnded('I quit coffee for Petra.'), null);
  for (const s of [
    'I quit coffee for Dry January.',
    "I'm giving up meat for Veganuary.",
    "I quit coffee for Monday's exam.",
    'I quit coffee for Sunday.',
    'I quit coffee for Thanksgiving.',
    'I quit coffee for Whitsun.',
    'I quit coffee for Movember.',
  ])
    assert.equal(tasteEnded(s, petra), null, s);
});

test('a time word away from the thing quit, or a saying agreed with, leaves the taste ended', () => {
  // Only a limit right after the thing makes the stop a while's.
  for (const [s, ended] of [
    ["I don't drink coffee anymore, it kept me up until 3am.", { verb: 'drink', object: 'coffee' }],
    ['I no longer eat meat, I waited until I was 30 to try.', { verb: 'eat', object: 'meat' }],
    [
      'I stopped drinking coffee, it kept me awake till 2am every night.',
      { verb: 'drink', object: 'coffee' },
    ],
    ['I quit coffee, not for a week or a month but for good.', { verb: anyTaste, object: 'coffee' }],
    ['I quit coffee in March.', { verb: anyTaste, object: 'coffee' }],
    ['Like Marko says, I quit coffee for good.', { verb: anyTaste, object: 'coffee' }],
    ['No more cigarettes for me ever, until I die.', { verb: anyTaste, object: 'cigarettes' }],
  ] as const)
    assert.deepEqual(tasteEnded(s), ended, s);
  for (const s of [
    'I quit coffee for a week.',
    'no more coffee until Christmas',
    'Marko said: I quit coffee for good.',
  ])
    assert.equal(tasteEnded(s), null, s);
});

test('a coffee by its kind is a taste of coffee, which an ending of coffee reaches, not the reverse', () => {
  const coffee = { verb: anyTaste, object: 'coffee' };
  assert.equal(saysTaste('I love a strong espresso every morning.', coffee), true);
  assert.equal(saysTaste('I usually drink cappuccinos at work.', coffee), true);
  assert.equal(saysTaste('I love coffee.', { verb: anyTaste, object: 'espresso' }), false);
  assert.ok(tasteWords(coffee).includes('espresso'));
  assert.deepEqual(tasteWords({ verb: anyTaste, object: 'tea' }), ['tea']);
});

test('a taste taken up again is read with its thing; liking it again at some hour is not', () => {
  for (const [s, verb, object] of [
    ["I'm back on coffee, one cup a day.", anyTaste, 'coffee'],
    ['Back on espresso!', anyTaste, 'espresso'],
    ["I'm back to drinking coffee.", 'drink', 'coffee'],
    ["I've started drinking coffee again.", 'drink', 'coffee'],
    ['I started sugar again, oops.', anyTaste, 'sugar'],
  ] as const)
    assert.deepEqual(tasteResumed(s), { verb, object }, s);
  for (const s of [
    'Actually I like tea again in the evenings, chamomile, but mornings stay coffee.',
    "I'm back to work on Monday.",
    "I'm back in Zagreb.",
    'Back to Span for a meeting.',
    'I started drinking coffee in 2010.',
    'Are you back on coffee?',
  ])
    assert.equal(tasteResumed(s), null, s);
});

test('an ending of the same thing, or of the coffee a kind is, is what a taste taken up again ends', () => {
  const coffee = { verb: anyTaste, object: 'coffee' };
  assert.equal(saysEnded("I'm quitting coffee, only green tea from now on.", coffee), true);
  assert.equal(saysEnded('I stopped drinking coffee last month.', coffee), true);
  assert.equal(saysEnded('I gave up coffee.', { verb: anyTaste, object: 'espresso' }), true);
  assert.equal(saysEnded('I love coffee.', coffee), false);
  assert.equal(saysEnded("I don't drink tea anymore.", coffee), false);
  assert.equal(saysEnded("I've quit smoking cigars.", { verb: anyTaste, object: 'cigars' }), false);
  assert.deepEqual(endedWords({ verb: anyTaste, object: 'espresso' }), ['espresso', 'coffee']);
  // Taken up again, the taste is stated, so a later ending ends it in turn.
  assert.equal(saysTaste("I'm back on coffee, one cup a day.", coffee), true);
});
