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
