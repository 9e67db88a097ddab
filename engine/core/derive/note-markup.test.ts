import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutMarkup, withoutNonProse } from './note-markup.ts';

test("a note's links read as the words they show, emphasis and code without their marks", () => {
  const cases: Array<[string, string]> = [
    ['See [[Packing list]] first.', 'See Packing list first.'],
    ['We visit [[Ana Costa|Ana]] in May.', 'We visit Ana in May.'],
    ['Read [the guide](https://example.com/guide) today.', 'Read the guide today.'],
    ['I **really** like _this_ and *that*.', 'I really like _this_ and that.'],
    ['Run `npm test` twice.', 'Run npm test twice.'],
    // What is no markup stays: an image, a lone star, arithmetic, brackets without a link.
    ['![a cat](cat.png)', '![a cat](cat.png)'],
    ['5 * 3 = 15 and 2*x', '5 * 3 = 15 and 2*x'],
    ['[draft] not final', '[draft] not final'],
  ];
  for (const [text, read] of cases) assert.equal(withoutMarkup(text), read, text);
  // In an Obsidian note, its comments are left out too; a "%%" in inline code, or outside Obsidian, is text.
  assert.equal(
    withoutMarkup('Tomatoes go in on %% maybe earlier? %% 1 June.', true),
    'Tomatoes go in on 1 June.',
  );
  assert.equal(withoutMarkup('Rates rose 5%% then 10%%.'), 'Rates rose 5%% then 10%%.');
  assert.equal(withoutMarkup('Write `%%` for one; `%%` again.', true), 'Write %% for one; %% again.');
});

test("a note's fenced code is read around, closed only by its own fence; inline backticks open none", () => {
  const text = [
    'Before.',
    '````md',
    '```',
    'inside',
    '````',
    '```npm ci``` runs first.',
    '> ~~~',
    '> quoted code',
    '> ~~~',
    'After.',
  ].join('\n');
  assert.deepEqual(
    withoutNonProse(text)
      .split('\n')
      .map((l) => l.trim()),
    ['Before.', '', '', '', '', '```npm ci``` runs first.', '', '', '', 'After.'],
  );
  assert.equal(withoutNonProse(text).length, text.length, 'every other character stays where it was');
});

test("a note's embeds alone on their lines and, in an Obsidian note, its comments are read around", () => {
  const text = [
    'Planning the garden.',
    '![[whiteboard.png]]',
    '![[Projects/Heliotrope/Roadmap#Q2]] ![plan](plan.png)',
    'Tomatoes go in on %% maybe earlier? %% 1 June.',
    '%%',
    'private: ask Rui about the fence',
    '%%',
    '```',
    '%%time',
    '```',
    'See ![[map.png]] for the beds.',
    'Water daily.',
  ].join('\n');
  const read = withoutNonProse(text, true);
  assert.equal(read.length, text.length);
  assert.deepEqual(
    read.split('\n').map((l) => l.replace(/\s+/gu, ' ').trim()),
    [
      'Planning the garden.',
      '',
      '',
      'Tomatoes go in on 1 June.',
      '',
      '',
      '',
      '',
      '',
      '',
      'See ![[map.png]] for the beds.',
      'Water daily.',
    ],
  );
});

test('"%%" outside an Obsidian note, or in inline code, is text: no comment hides what follows', () => {
  const text =
    'In printf, write `%%` for a percent sign.\n\nMy dentist is Dr. Costa.\n\nPython: `"100%%" % ()`.';
  assert.equal(withoutNonProse(text, true), text);
  assert.equal(
    withoutNonProse('Rates rose 5%% this year.\n\nI moved to Lisbon. 10%% next year.'),
    'Rates rose 5%% this year.\n\nI moved to Lisbon. 10%% next year.',
  );
});
