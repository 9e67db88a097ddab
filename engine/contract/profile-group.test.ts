import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesAsked, profileGroupOf, saysHealth, saysNothingOfSelf } from './profile-group.ts';

test('health, as said or as derived: allergies, intolerances, conditions, medication, disabilities', () => {
  for (const s of [
    "I'm allergic to penicillin.",
    'Ana allergies: penicillin',
    "Noted, you're allergic to penicillin.",
    "I'm severely allergic to peanuts and carry an EpiPen.",
    "I'm lactose intolerant.",
    'I have celiac disease.',
    'I can’t eat gluten.',
    'Peanuts make me break out in hives.',
    'I was diagnosed with type 2 diabetes last year.',
    "I'm type 1 diabetic.",
    'I have asthma.',
    "I'm epileptic.",
    'I get migraines.',
    'I have ADHD.',
    "I'm pregnant.",
    'I take 50mg of sertraline every morning.',
    "I've been taking antidepressants since 2020.",
    "I'm on blood thinners.",
    'Ana medication: insulin',
    'I use a wheelchair.',
    "I'm deaf in my left ear.",
    "I'm hard of hearing.",
    "I'm colour-blind.",
    'Turns out I’m not allergic to walnuts, it was pecans all along.',
  ])
    assert.ok(saysHealth(s), s);
});

test('not health: everyday statements, an appointment, a workplace, a blind date, words inside words', () => {
  for (const s of [
    'I love hiking.',
    'My doctor appointment is on Tuesday.',
    'I work at the hospital.',
    'I study medicine in Porto.',
    "I'm going on a blind date on Friday.",
    'Ana lives in Porto',
    "Ana's diet is vegetarian",
    'We keep beehives in the garden.',
    'I said the word reallergic backwards.',
    'I can’t eat another bite.',
  ])
    assert.ok(!saysHealth(s), s);
});

test('a line’s group: health whatever its slot, then a slot, then the rest', () => {
  assert.equal(
    profileGroupOf({ statement: 'Ana allergies: penicillin', slot: 'ana\u001fallergies' }),
    'health',
  );
  assert.equal(profileGroupOf({ statement: "I'm allergic to cats.", slot: null }), 'health');
  assert.equal(profileGroupOf({ statement: 'Ana lives in Porto', slot: 'ana\u001flives in' }), 'slot');
  assert.equal(profileGroupOf({ statement: 'I love hiking.', slot: null }), 'other');
});

test('no Profile line: an acknowledgement or a thanks with known names around it, "see you" and when, her name alone', () => {
  const known = new Set(['jonas', 'inês']);
  for (const s of [
    'Perfect, obrigada!',
    'Jonas, ok.',
    'Otherwise fine.',
    'Told Inês.',
    'Told Jonas Weber.',
    'See you tomorrow at 10.',
    'Great, see you soon!',
    'See you on Monday, Jonas.',
    'that is fine with me, thank you.',
    'Of course!',
    "I'm fine, thanks!",
    'Maya Lindqvist',
    'maya lindqvist.',
    'Maya',
  ])
    assert.ok(saysNothingOfSelf(s, 'Maya Lindqvist', known), s);
});

test('a Profile line: anything that says a thing beyond known names and courtesies, or no courtesy at all', () => {
  const known = new Set(['jonas', 'inês']);
  for (const s of [
    'Yoga is enough.',
    'Long day.',
    'Too slow.',
    'Back at work.',
    "I'll pick you up.",
    'Prater, then Heuriger in Grinzing.',
    'Ana Petrović',
    'Sure, Tuesday works.',
    'No allergies.',
    'See you at the lease signing on Friday at the Gruber Immobilien office.',
    'I do.',
    '2026',
    // A capitalised word the Brain knows no one by says something: German writes each noun so.
    'No Peanuts!',
    'Yes, Lisinopril.',
    'Ok thanks, Penicillin.',
    'No, Vegetarian.',
    'Ja, Vegetarierin.',
    'Danke, Laktoseintoleranz.',
    'Yes, Vegan!',
    'Ok, Tesla.',
    'See you in Berlin, my new home.',
    'See you at arrivals.',
    'Told Ana.',
  ])
    assert.ok(!saysNothingOfSelf(s, 'Maya Lindqvist', known), s);
  // Knowing no one, no word is a name.
  assert.ok(!saysNothingOfSelf('Jonas, ok.', 'Maya Lindqvist'));
  // Without a self, a name alone is nobody's.
  assert.ok(!saysNothingOfSelf('Maya Lindqvist', null));
});

test('the names a line is asked about: only where they alone decide, each once', () => {
  assert.deepEqual(namesAsked('Told Jonas Weber.', 'Maya Lindqvist'), ['jonas']);
  assert.deepEqual(namesAsked('Jonas, ok, Jonas.', 'Maya Lindqvist'), ['jonas']);
  assert.deepEqual(namesAsked('Perfect, obrigada!', 'Maya Lindqvist'), []);
  assert.deepEqual(namesAsked('Yoga is enough, Jonas.', 'Maya Lindqvist'), []);
});
