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
