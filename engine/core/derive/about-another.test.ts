import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aboutAnother, opensWithAName } from './about-another.ts';

test('a sentence that opens with another person as its subject is about them', () => {
  for (const [s, who] of [
    ['Inês is vegetarian though', 'Inês'],
    ['my sister Inês is vegetarian', 'Inês'],
    ['My wife Sarah is pregnant!', 'Sarah'],
    ['Tom Reyes said he would come.', 'Tom Reyes'],
    ["Carla's a nurse now", 'Carla'],
    ['Inês lives in Braga', 'Inês'],
    ['Tom is still vegan', 'Tom'],
    ['Inês loves sushi', 'Inês'],
    ['Inês, my sister, is a nurse', 'Inês'],
    ['Inês is vegetarian now lol', 'Inês'],
    ['My best friend, Joana, moved to Paris.', 'Joana'],
    // What a person is allergic to, cannot eat or fears is theirs.
    ['Jordan is allergic to cats.', 'Jordan'],
    ["Jordan's allergic to peanuts", 'Jordan'],
    ['Tom is lactose intolerant.', 'Tom'],
    ['Maya is afraid of dogs', 'Maya'],
  ] as const)
    assert.equal(aboutAnother(s), who, s);
});

test("a sentence that opens with the speaker, a time, a common word or a pair is nobody else's", () => {
  for (const s of [
    'I love hiking',
    'Tom and I booked a trip to Porto',
    'Today is a good day',
    'Monday was rough',
    'Work is crazy right now',
    'Coffee is life, three espressos a day.',
    'Porto was amazing',
    'Ana Lima is my best friend.',
    'Tom said I should move to Berlin',
    "Mom thinks I'm vegetarian now",
    'So Tom said he would come',
    'Btw Inês is vegetarian',
    'Porto is vegan heaven',
    'Porto is vegetarian friendly',
    'Thanks said nobody',
    'Inês is a nurse and I am a teacher',
    "Inês is vegetarian, I'm not",
    'Everything is fine',
    'inês is vegetarian though',
    'TOM IS HERE',
    'My sister and I went hiking',
    // A thing or a team, as a note opens a sentence with a name.
    'Meeting moved to Thursday.',
    'Client wants the report by Friday.',
    'Team prefers async updates.',
    'Postgres needs a restart after the upgrade.',
    'Google said no.',
    // An organisation by its name's last word, or by what is "its".
    'Globex Inc wants the report.',
    'Acme moved its HQ to Berlin.',
    'Lisbon moved its airport.',
    // A sentence that drops its "I" opens with an adverb, no name.
    'Just wanted to say hi!',
    'Really wants a dog.',
    'Sometimes works from home.',
  ])
    assert.equal(aboutAnother(s), null, s);
  // A tool's name that is also a given name is still a name.
  assert.equal(aboutAnother('Ruby lives in Leeds.'), 'Ruby');
  // Only as a name's first word: a surname that is also a noun or a tool is a person's.
  assert.equal(aboutAnother('Tom House lives in Leeds.'), 'Tom House');
  assert.equal(aboutAnother('Anna Rust is a nurse.'), 'Anna Rust');
  // A title with its dot is part of the name.
  assert.equal(aboutAnother('Dr. Patel is a dentist.'), 'Dr. Patel');
  for (const name of ['Cassandra', 'Miro', 'Django', 'Haskell'])
    assert.equal(aboutAnother(`${name} lives in Leeds.`), name);
});

test("the name a sentence opens with as its subject is found, a person's or not; a common word is none", () => {
  for (const [s, who] of [
    ['Ana has two kids.', 'Ana'],
    ['Acme Corp moved to Berlin.', 'Acme Corp'],
    ['Stripe is moving to Dublin.', 'Stripe'],
    ['Leeds is lovely in spring.', 'Leeds'],
    ['Tom Reyes is his manager.', 'Tom Reyes'],
    ['Ana and Tom live in York.', 'Ana and Tom'],
  ] as const)
    assert.equal(opensWithAName(s), who, s);
  for (const s of [
    'It is beautiful.',
    'He has two kids.',
    'May is a good month to visit.',
    'The company moved to Berlin.',
    'Night shifts are hard.',
    'Will you call him tomorrow?',
    'ACME IS HIRING.',
  ])
    assert.equal(opensWithAName(s), null, s);
});

test('a month that is also a given name is a person where only a person does what follows', () => {
  for (const [s, who] of [
    ['May is a nurse.', 'May'],
    ['May lives in Porto.', 'May'],
    ['June works at Acme.', 'June'],
    ['My sister April loves sushi.', 'April'],
    ['May Lee lives in Leeds.', 'May Lee'],
  ])
    assert.equal(aboutAnother(s!), who, s);
  for (const s of [
    'May is a busy month.',
    'May moved to Thursday.',
    'June loves Porto.',
    'August is a great month to visit.',
    'May I come?',
    'March is a nurse.',
  ])
    assert.equal(aboutAnother(s), null, s);
});

test('a name that does something to what is "hers" or "his" is a person, whatever the verb', () => {
  for (const [s, who] of [
    ['Inês cancelled her trip, she will come in January instead.', 'Inês'],
    ['Tom booked his flights for March.', 'Tom'],
    ['My sister Inês cancelled her trip.', 'Inês'],
    ['Ana got her visa yesterday.', 'Ana'],
    ['Rui finally booked his car in for a service.', 'Rui'],
    // Who they are to the writer says they are a person: any verb in -ed will do.
    ['My sister Inês cancelled the trip.', 'Inês'],
  ] as const)
    assert.equal(aboutAnother(s), who, s);
  for (const s of [
    // What names no one the sentence makes a person.
    'Inês cancelled the trip.',
    'Acme cancelled the order, and she was furious.',
    'Lisbon changed a lot.',
    // After "is" the "his" is someone else's: Tom is his manager.
    'Tom Reyes is his manager.',
    // The writer is in it: hers too.
    "Inês cancelled her trip, so I'll stay home.",
    'Inês and I cancelled our trip.',
    'Acme cancelled its order.',
    'Meeting moved her slot to Friday.',
  ])
    assert.equal(aboutAnother(s), null, s);
});

test("another person's state stays theirs when a clause of its consequence follows", () => {
  for (const [s, who] of [
    ['Leo is allergic to cats, so we cannot adopt the kitten.', 'Leo'],
    ['Inês is vegetarian, so we cook without meat.', 'Inês'],
    ["My brother Leo is allergic to cats, so we can't get a cat.", 'Leo'],
    ['Tom is lactose intolerant, which means we order the vegan cake.', 'Tom'],
  ] as const)
    assert.equal(aboutAnother(s), who, s);
  for (const s of [
    // The same said of the speaker too: both of theirs, as "Leo and I" is.
    'Leo is allergic to cats, and so am I.',
    'Inês is vegetarian, so am I.',
    'Leo and I are allergic to cats.',
    'I told Leo I am allergic to cats.',
    // What another did, then what the speaker will do: the speaker's plan.
    "Inês cancelled her trip, so I'll stay home.",
    'Tom said I should move, so I did.',
  ])
    assert.equal(aboutAnother(s), null, s);
});

test('a name then a clause of what "he" or "she" has or is makes the name a person', () => {
  for (const [s, who] of [
    ["Leo can't make it, he has a climbing competition.", 'Leo'],
    ["Leo can't make it, he's sick.", 'Leo'],
    ["Ana couldn't come, she had a deadline.", 'Ana'],
  ] as const)
    assert.equal(aboutAnother(s), who, s);
  for (const s of [
    // Reported, after an "and", or how anyone took it: she may be anyone.
    "Leo can't make it, he said.",
    'Acme cancelled the order, and she was furious.',
    'Acme cancelled the order, she was furious.',
    // The speaker is in it: hers too.
    "Leo can't make it, he has a competition with me.",
    "Leo can't make it.",
  ])
    assert.equal(aboutAnother(s), null, s);
});

test("what a named person takes, avoids, left or got is theirs, not the speaker's", () => {
  for (const [s, who] of [
    ['Marta takes insulin every morning.', 'Marta'],
    ['Marta is avoiding gluten.', 'Marta'],
    ['Rui is taking antibiotics for a week.', 'Rui'],
    ['Marta is off dairy now.', 'Marta'],
    ['Lena left the company.', 'Lena'],
    ['Rui quit smoking last year.', 'Rui'],
    ['Inês avoids nightshades.', 'Inês'],
    ['Tom got engaged!', 'Tom'],
    ['Rui is recovering from surgery.', 'Rui'],
    ['Tom retired last year.', 'Tom'],
    ['Grandpa Joe passed away in March.', 'Grandpa Joe'],
    ['Sofia is expecting a baby in May.', 'Sofia'],
  ] as const)
    assert.equal(aboutAnother(s), who, s);
  // What only a thing does, or a wait that is taking long, names no one.
  for (const s of [
    'Lisbon is taking forever.',
    'Cool beans.',
    'Acme took the deal.',
    'Monday takes ages.',
    'Globex is expecting growth.',
    'Apple retired the iPod.',
    'Uber is avoiding regulation.',
    'Europe is recovering from the crisis.',
    'Bitcoin is recovering nicely.',
    'Chrome died again.',
  ])
    assert.equal(aboutAnother(s), null, s);
});
