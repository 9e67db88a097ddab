import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Claim } from './deriver.ts';
import { saidInstead, valueKind } from './said-instead.ts';
import { statementMended } from './statement-mend.ts';

const claim = (statement: string): Claim => ({
  statement,
  subject: 'Sam',
  predicate: null,
  owner: { state: 'self' },
  quote: statement,
});
const mended = (before: string, mend: string) => {
  const said = saidInstead(mend);
  if (said === null) return null;
  return statementMended({ ...claim(mend), saidInstead: said }, { id: 'rec_1', claims: [claim(before)] });
};

test('a date, a time or a number said in place of one in the sentence before is that sentence mended', () => {
  for (const [before, mend, old, after] of [
    [
      'Jordan and I are going to Lisbon from March 12 to March 20.',
      "wait no, it's March 14 to March 22",
      'March 12 to March 20',
      'Jordan and I are going to Lisbon from March 14 to March 22.',
    ],
    ['Dentist on Tuesday at 2pm.', 'sorry, 3pm', '2pm', 'Dentist on Tuesday at 3pm.'],
    ['The flight lands at 9:45 on June 2.', 'oops, 10:45', '9:45', 'The flight lands at 10:45 on June 2.'],
    ['We need 12 chairs for the party.', 'wait no, 14', '12', 'We need 14 chairs for the party.'],
    ['Party on the 12th.', '*13th', '12th', 'Party on the 13th.'],
    ['The meeting is at 3pm.', 'sorry, 3:30pm', '3pm', 'The meeting is at 3:30pm.'],
  ] as const) {
    const m = mended(before, mend);
    assert.deepEqual(
      [m?.statement, m?.quote, m?.predicate, m?.replaces],
      [after, mend, null, { recordId: 'rec_1', value: old, statements: [before] }],
      mend,
    );
  }
  assert.equal(valueKind('March 14 to March 22'), 'when');
  assert.equal(valueKind('3pm'), 'when');
});

test('nothing is mended where two spans fit, none does, the value is no date, or it says the same', () => {
  assert.equal(
    mended('Lunch with Tom on March 3 and dinner with Rui on March 5.', "wait no, it's March 4"),
    null,
  );
  assert.equal(mended('I love hiking.', "wait no, it's March 4"), null);
  assert.equal(mended('Dentist at 2pm.', 'wait no, Braga'), null);
  assert.equal(mended('Dentist at 2pm.', 'sorry, 2pm'), null);
  // A date inside a longer one is not that date: "March 12" of "March 12 2027".
  assert.equal(mended('Flight on March 12 2027 at 9am.', "wait no, it's March 13"), null);
});
