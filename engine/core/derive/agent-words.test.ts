import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentSpeaker, restatedSlots } from './agent-words.ts';

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
