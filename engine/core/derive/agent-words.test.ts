import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  agentCourtesy,
  agentSpeaker,
  introducesSelf,
  notedOfSelf,
  readBackOfSelf,
  restatedSlots,
} from './agent-words.ts';
import { deriveInThread } from './derive-in-thread.testing.ts';

const ana = { type: 'person' as const, name: 'Ana Costa' };
const read = (s: string) => restatedSlots(s, ana).map((x) => [x.predicate, x.value]);

test('an agent is "assistant" and its kind, or an AI chat export\'s own assistant; Claude in a chat is a person', () => {
  for (const name of ['assistant', 'Assistant', 'AI', 'bot'])
    assert.equal(agentSpeaker(name, null), true, name);
  assert.equal(agentSpeaker('ChatGPT', 'chatgpt'), true);
  assert.equal(agentSpeaker('Claude', 'claude'), true);
  assert.equal(agentSpeaker('Claude', 'whatsapp'), false);
  assert.equal(agentSpeaker('Tom', null), false);
  assert.equal(agentSpeaker(undefined, null), false);
});

test("an agent's sentence says back her slot in the second or third person, never its own or an ending", () => {
  assert.deepEqual(read('Noted: Ana Costa lives in Braga.'), [['lives in', 'Braga']]);
  assert.deepEqual(read('Got it, you work at Feedzai now.'), [['works at', 'Feedzai']]);
  assert.deepEqual(read('Your number is 555-0198.'), [['phone number', '555-0198']]);
  assert.deepEqual(read('Your manager at Kobo Design is Haruki Sato.'), [['manager', 'Haruki Sato']]);
  assert.deepEqual(read("You're based in Lisbon."), [['lives in', 'Lisbon']]);
  assert.deepEqual(read("You're vegan now."), [['diet', 'vegan']]);
  assert.deepEqual(read('Ana Costa studies at UCL now.'), [['studies at', 'UCL']]);
  // Not hers: the agent's own, another person's, her first name alone, an ending, advice, a condition.
  for (const s of [
    'I work at OpenAI.',
    'Tom lives in Braga.',
    'Noted: Ana lives in Braga.',
    'Noted, you no longer work at Acme.',
    "You're not vegan anymore.",
    'You graduated from UCL.',
    'You should visit Braga.',
    'If you live in Braga, the train is best.',
  ])
    assert.deepEqual(read(s), [], s);
  // Nobody to say it of: no self, or an org.
  assert.deepEqual(restatedSlots('You live in Braga.', null), []);
  assert.deepEqual(restatedSlots('You live in Braga.', { type: 'org', name: 'Acme' }), []);
});

test("an assistant's service words are no Memory; what it says of the person or knows stays", () => {
  for (const s of [
    'Happy to help!',
    "I'll keep that in mind.",
    'Let me know if you need anything else.',
    'Good luck with the move!',
    'Have a great weekend! 😊',
    'Congrats on the new job!',
    'Sure, happy to help.',
    'Feel free to ask anytime.',
    'Stay dry!',
    'Feel better soon!',
    'Drive safe 🚗',
    'Ok, safe travels!',
  ])
    assert.equal(agentCourtesy(s), true, s);
  for (const s of [
    'Noted: you live in Braga.',
    'Good luck with the interview at Globex on Monday',
    "I'll remember that you prefer tea.",
    'Enjoy your trip to Japan!',
    'Happy to help you plan the Lisbon trip next week.',
    'Stay dry: it will rain in Porto all week.',
  ])
    assert.equal(agentCourtesy(s), false, s);
  assert.deepEqual(deriveInThread('Happy to help! Let me know if you need anything else.', 'assistant'), []);
  assert.deepEqual(
    deriveInThread('Noted, you are allergic to penicillin. I will keep that in mind.', 'assistant').map(
      (c) => c.statement,
    ),
    // Acknowledged, not noted: hers only where she said it (a citation of hers, echoes.ts).
    ['Noted, you are allergic to penicillin.'],
  );
  // A person's "Good luck with the move!" to a friend is theirs to have said.
  assert.equal(deriveInThread('Good luck with the move!', 'Ana').length, 1);
});

test("an agent's read-back of her words is them as she would say them; its own words are none", () => {
  for (const [s, words] of [
    ["Noted, you're allergic to penicillin.", 'I am allergic to penicillin.'],
    ['Got it — you love hiking in the Alps!', 'I love hiking in the Alps!'],
    ["I'll remember that you're training for a marathon.", 'I am training for a marathon.'],
    ['Thanks for letting me know! Your sister lives in Madrid.', 'my sister lives in Madrid.'],
    ['Just to confirm: you have two cats.', 'I have two cats.'],
    ['Ana is allergic to nuts.', 'I am allergic to nuts.'],
    ['Noted, your boss gave you a raise.', 'my boss gave me a raise.'],
    ['Got it, you were in Paris and you loved it.', 'I was in Paris and I loved it.'],
  ] as const)
    assert.equal(readBackOfSelf(s, ana), words, s);
  for (const s of [
    'I think you are right.',
    'You should try the Alps, I loved it.',
    'Anastasia is here.',
    'Noted!',
    'The Alps are lovely in June.',
  ])
    assert.equal(readBackOfSelf(s, ana), null, s);
  assert.equal(readBackOfSelf("Noted, you're allergic to penicillin.", { type: 'org', name: 'Acme' }), null);
});

test('what an agent says it notes of her is hers; advice, a question or a plain "sure" is not', () => {
  for (const [s, words] of [
    ["I'll remember that you're training for a marathon.", 'I am training for a marathon.'],
    ["Noted that you don't eat pork.", "I don't eat pork."],
    ["I've made a note that your sister lives in Madrid.", 'My sister lives in Madrid.'],
    ["I'll remember that you're going to Lisbon in May.", 'I am going to Lisbon in May.'],
  ] as const)
    assert.equal(notedOfSelf(s, ana), words, s);
  for (const s of [
    'Noted, you should rest.',
    "Understood, you don't have to apologize.",
    "Noted, you'll get an email confirmation shortly.",
    "Got it, you're going to love Lisbon!",
    "I'll remember that your flight is at 9am, so you should leave by 6.",
    'Got it, you need to renew your passport.',
    'Sure, you can cancel anytime.',
    "Noted, you're vegan?",
    'You love hiking.',
    "I'll remember that.",
  ])
    assert.equal(notedOfSelf(s, ana), null, s);
});

test('a read-back after a lead holds her slot; a guess it asks her to confirm holds nothing of hers', () => {
  assert.deepEqual(read("Noted, you're vegetarian."), [['diet', 'vegetarian']]);
  assert.deepEqual(read('Understood, you work at Dell.'), [['works at', 'Dell']]);
  assert.equal(readBackOfSelf("Sure, you're the boss.", ana), null);
  assert.equal(readBackOfSelf("You're right, I'm sorry.", ana), null);
  assert.deepEqual(
    deriveInThread("You're allergic to penicillin. Is that right?", 'assistant').map((c) => [
      c.statement,
      c.subject,
    ]),
    [["You're allergic to penicillin.", 'assistant']],
  );
});

test('small talk is no Memory: her own name told again, the agent\'s "Nice to meet you" and "Welcome"', () => {
  const sam = { type: 'person' as const, name: 'Sam Rivera' };
  for (const s of ["I'm Sam.", "Hi! I'm Sam Rivera", 'My name is Sam', "Hey, it's Sam here"])
    assert.equal(introducesSelf(s, sam), true, s);
  for (const s of ["I'm Sam, not Samantha", "I'm Alex", "I'm tired"])
    assert.equal(introducesSelf(s, sam), false, s);
  for (const s of [
    'Nice to meet you, Sam!',
    'Welcome to Denver!',
    'Welcome back, Sam.',
    'Great to meet you too',
  ])
    assert.equal(agentCourtesy(s), true, s);
  assert.equal(agentCourtesy('Welcome to Denver, where the rent is high.'), false);
  assert.deepEqual(deriveInThread("Hi! I'm Ana.", 'Ana'), []);
  assert.deepEqual(
    deriveInThread("Hi! I'm Ana. I live in Porto.", 'Ana').map((c) => c.quote),
    ['I live in Porto.'],
  );
});
