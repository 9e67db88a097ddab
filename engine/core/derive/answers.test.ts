import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deriveInThread } from './derive-in-thread.testing.ts';
import { askedOf, bareAnswer, lastQuestion, questionClause, saysYes, shortReply } from './answers.ts';

test('a question put to the speaker about one slot gives the answer said in full', () => {
  for (const [question, full] of [
    ['Nice to meet you! Where are you based?', 'I live in Braga'],
    ['where do u live these days?', 'I live in Braga'],
    ['So where do you work now?', 'I work at Braga'],
    ['what do you do for a living?', 'I work as a Braga'],
    ["When's your birthday?", 'my birthday is Braga'],
    ["What's your number?", 'my number is Braga'],
    ["What's your email address?", 'my email is Braga'],
    ["And what's your wife's name?", 'my wife is Braga'],
    ['Who is your manager now?', 'my manager is Braga'],
    ["what's your favourite colour?", 'my favourite colour is Braga'],
  ] as const)
    assert.equal(askedOf(question)?.said('Braga'), full, question);
  assert.equal(askedOf('How old are you?')?.said('34'), "I'm 34 years old");
  assert.equal(askedOf('Do you still live in Porto?')?.said('Braga'), 'I live in Braga');
  assert.equal(askedOf('Do you still live in Porto?')?.still, true);
  assert.equal(askedOf('Are you still at Sonae?')?.said('Globex'), 'I work at Globex');
});

test('a question of no slot, about someone else, or of two slots gives nothing', () => {
  for (const question of [
    'Where are you from?',
    'Where did you go last weekend?',
    'Where does your sister live?',
    'Where do you live and where do you work?',
    'Where do you live? And where do you work?',
    'I live in Porto. Where do you live',
    'Where are you based? Wanna grab coffee sometime?',
    'Where are you based? Or are you travelling?',
  ])
    assert.equal(askedOf(question), null, question);
});

test('a bare answer is a value alone, without its "in", "at" or "it\'s"', () => {
  for (const [answer, value] of [
    ['Braga', 'Braga'],
    ['in braga!', 'braga'],
    ['at Globex', 'Globex'],
    ["it's march 14th", 'march 14th'],
    ['hmm, Lisbon', 'Lisbon'],
    ['Sarah 😍', 'Sarah'],
    ['a software engineer', 'a software engineer'],
    ['34', '34'],
  ] as const)
    assert.equal(bareAnswer(answer), value, answer);
  for (const [answer, value] of [
    ['porto wbu', 'porto'],
    ['Lisbon, and you', 'Lisbon'],
    ['at globex now', 'globex'],
    ['er porto', 'porto'],
    ['Braga, Portugal', 'Braga, Portugal'],
  ] as const)
    assert.equal(bareAnswer(answer), value, answer);
  for (const answer of [
    'not sure',
    'idk lol',
    'nowhere really',
    'I live in Braga',
    'why?',
    'ok',
    'yes',
    'Long story',
    'Hard to say',
    'Same as you',
    'Tell you later',
    'Thanks for asking',
    'Hold on',
    'Huh',
    'Later',
    'Traveling',
    'Remote',
    'Unemployed',
    'Retired',
    'Between jobs',
    'Myself',
    'Single',
    'Divorced',
    'Nobody',
    'Complicated',
    'All of them',
    'Probably blue',
    'Of course',
    'Sadly',
    'Mhm',
    'Moving to Braga next week',
    "Maria, but we're separated",
    'Tomorrow works',
    'Tokyo trip lol',
    'Japan in april',
  ])
    assert.equal(bareAnswer(answer), null, answer);
});

test("the rules mark a person's bare value as an answer, not an agent's nor a sentence", () => {
  const derive = deriveInThread;
  assert.equal(derive('Braga', 'Ana')[0]?.answers, 'Braga');
  assert.equal(derive('Braga', 'assistant')[0]?.answers, undefined);
  assert.equal(derive('I love Braga', 'Ana')[0]?.answers, undefined);
  assert.equal(derive('I live in Braga', 'Ana')[0]?.answers, undefined);
});

test('a short reply says little on its own; the question a message ends with is its last sentence', () => {
  for (const t of ['probably early october', 'very fluffy', 'maya', 'yep, still porto'])
    assert.equal(shortReply(t), true, t);
  for (const t of [
    "I'm not married",
    'my sister is visiting',
    'is it raining?',
    'one two three four five six seven',
  ])
    assert.equal(shortReply(t), false, t);
  assert.equal(lastQuestion("Lovely. When's your birthday?"), "When's your birthday?");
  assert.equal(lastQuestion("What's Pimenta like? Is she shy?"), null);
  assert.equal(lastQuestion('Where are you based? I am in Porto.'), null);
});

test("a question's asking clause is read without what the asker said of themselves before it", () => {
  assert.equal(
    questionClause('I will be out sick today, can you cover the standup?'),
    'Can you cover the standup?',
  );
  assert.equal(questionClause("Lovely, when's your birthday?"), "When's your birthday?");
  assert.equal(questionClause("When's your birthday?"), "When's your birthday?");
  assert.equal(questionClause('Cats, dogs or both?'), 'Cats, dogs or both?');
});

test('a yes says yes and nothing against it', () => {
  for (const t of ['yep, still porto', 'yes', 'of course, still at Sonae', 'still there'])
    assert.equal(saysYes(t), true, t);
  for (const t of ['yes but moving soon', 'yeah, not for long', 'nope', 'Lisbon', 'still porto until june'])
    assert.equal(saysYes(t), false, t);
  assert.equal(askedOf('Do you still live in Porto?')?.named, 'Porto');
});
