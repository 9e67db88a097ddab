import assert from 'node:assert/strict';
import { test } from 'node:test';
import { choiceDropped, choiceWords, saysChoice } from './choice-dropped.ts';

test('a choice said to be off is read with the words of the thing', () => {
  for (const [s, words] of [
    ['We are not doing SQLite after all, we switched to PostgreSQL.', ['sqlite']],
    ["Actually we're not using the Hetzner box after all.", ['hetzner', 'box']],
    ["I'm not using Notion anymore.", ['notion']],
    ["We won't use Jira after all.", ['jira']],
    ["We don't use Trello any more", ['trello']],
    ["We're no longer using Slack for support", ['slack']],
    ['We no longer run Jenkins.', ['jenkins']],
    ['We decided against Hetzner.', ['hetzner']],
    ["We've agreed against using SQLite for the server", ['sqlite']],
    ['We dropped Jira last week.', ['jira']],
    ['We switched from SQLite to PostgreSQL.', ['sqlite']],
    ["We're moving away from Jira to Linear", ['jira']],
    ["We'll go with Postgres instead of SQLite.", ['sqlite']],
    ['We picked Linear rather than Jira.', ['jira']],
    ['ok so we decided on Vite instead of Webpack', ['webpack']],
  ] as const)
    assert.deepEqual(choiceDropped(s), { words }, s);
});

test('no choice is off where the words do not say the speaker dropped it', () => {
  for (const s of [
    "We're not doing SQLite for the server.",
    'We are not using SQLite.',
    'Are we not doing SQLite after all?',
    'Jonas says we are not doing SQLite after all.',
    "They're not using Jira anymore.",
    'We decided to use SQLite.',
    "We'll go with Postgres.",
    'If we switch from SQLite to Postgres, what breaks?',
    "I don't work at Acme anymore.",
  ])
    assert.equal(choiceDropped(s), null, s);
});

test('a statement choosing the thing, by a verb of choosing, says the choice', () => {
  const sqlite = { words: ['sqlite'] };
  for (const s of [
    'We decided to use SQLite for the desktop store.',
    "We've decided on SQLite.",
    "We're going with SQLite for now.",
    "We'll use SQLite and FTS5.",
    "Let's use SQLite.",
    'We agreed to go with SQLite for the app',
    'We picked SQLite.',
    'I chose SQLite because it is one file.',
  ])
    assert.equal(saysChoice(s, sqlite), true, s);
  for (const s of [
    'SQLite is fast.',
    'We are not doing SQLite after all.',
    'Should we use SQLite?',
    'We decided to use Postgres.',
    'Jonas likes SQLite.',
  ])
    assert.equal(saysChoice(s, sqlite), false, s);
});

test("the thing's every word must be in what was chosen: the Hetzner box is not the AWS box", () => {
  assert.equal(saysChoice("We're going with the Hetzner box.", { words: ['hetzner', 'box'] }), true);
  assert.equal(saysChoice("We're going with the Hetzner box.", { words: ['hetzner'] }), true);
  assert.equal(saysChoice("We're going with the Hetzner box.", { words: ['aws', 'box'] }), false);
});

test("the store's search looks for the thing's longest word, plurals included", () => {
  assert.deepEqual(choiceWords({ words: ['hetzner', 'box'] }), ['hetzner']);
  assert.deepEqual(choiceWords({ words: ['notes'] }), ['note']);
  assert.deepEqual(choiceWords({ words: ['boxes'] }), ['box']);
  assert.deepEqual(choiceWords({ words: ['jira'] }), ['jira']);
});

test('a decision said to be reversed is read by the words that name it, and only where some do', () => {
  for (const [s, words] of [
    ['Atlas review: we reversed the kickoff decision.', ['kickoff']],
    ["We've overturned our decision to use SQLite.", ['sqlite']],
    ['We scrapped the decision on the database.', ['database']],
    ['The kickoff decision was reversed.', ['kickoff']],
    ['Our hosting decision has been rolled back', ['hosting']],
  ] as const)
    assert.deepEqual(choiceDropped(s), { words, by: 'decision' }, s);
  for (const s of [
    'We reversed the decision.',
    'The final decision was reversed.',
    'We reversed the car into the garage.',
    'Did we reverse the kickoff decision?',
    'We made the kickoff decision.',
  ])
    assert.equal(choiceDropped(s), null, s);
  const kickoff = { words: ['kickoff'], by: 'decision' as const };
  assert.equal(
    saysChoice('Atlas kickoff: we decided to build the onboarding flow in React Native.', kickoff),
    true,
  );
  assert.equal(saysChoice('The kickoff is on Monday at 10.', kickoff), false);
  assert.equal(saysChoice('Atlas review: we reversed the kickoff decision.', kickoff), false);
});

test('a value said in place of another ("…, not React Native") drops a choice that made the other', () => {
  assert.deepEqual(choiceDropped('The onboarding flow will be native Swift and Kotlin, not React Native.'), {
    words: ['react', 'native'],
    by: 'chosen',
  });
  assert.equal(choiceDropped('Not React Native.'), null);
  // Nothing chosen before the "not": no choice in place of another.
  assert.equal(choiceDropped('The problem is Jira, not Slack.'), null);
  assert.deepEqual(choiceDropped("We'll use Linear, not Jira."), { words: ['jira'], by: 'chosen' });
  const rn = { words: ['react', 'native'], by: 'chosen' as const };
  for (const s of [
    'Atlas kickoff: we decided to build the onboarding flow in React Native.',
    "We're going with React Native for the app.",
    "We'll use React Native, not Flutter.",
  ])
    assert.equal(saysChoice(s, rn), true, s);
  for (const s of [
    'React Native is popular.',
    'We decided to build the onboarding flow in Flutter.',
    'Should we use React Native?',
    'Jonas likes React Native.',
  ])
    assert.equal(saysChoice(s, rn), false, s);
  // A choice said with what it replaces still chooses what it names.
  assert.equal(saysChoice('We decided to use Postgres, not SQLite.', { words: ['postgres'] }), true);
});
