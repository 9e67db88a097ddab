import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startDay } from './start-day.ts';

// Friday 6 March 2026, 18:00 UTC.
const friday = '2026-03-06T18:00:00Z';

test('a day said to come is read from the day it was said', () => {
  const cases: Array<[string, string]> = [
    ['today', '2026-03-06'],
    ['tomorrow', '2026-03-07'],
    ['the day after tomorrow', '2026-03-08'],
    ['on Monday', '2026-03-09'],
    ['monday', '2026-03-09'],
    ['next Monday', '2026-03-09'],
    ['this coming Tuesday', '2026-03-10'],
    // The weekday it was said on is a week on.
    ['on Friday', '2026-03-13'],
    ['next week', '2026-03-09'],
    ['next month', '2026-04-01'],
    ['next year', '2027-01-01'],
    ['in two weeks', '2026-03-20'],
    ['in 3 days', '2026-03-09'],
    ['in a couple of weeks', '2026-03-20'],
    ['in a month', '2026-04-06'],
    ['on the 15th', '2026-03-15'],
    // A day of this month that has gone is next month's.
    ['on the 1st', '2026-04-01'],
    ['on March 20th', '2026-03-20'],
    ['3 March', '2027-03-03'],
    ['the 3rd of April', '2026-04-03'],
    ['from May', '2026-05-01'],
    ['in January', '2027-01-01'],
    // This month's is that day itself.
    ['in March', '2026-03-06'],
    ['on April 1, 2026', '2026-04-01'],
  ];
  for (const [when, day] of cases) assert.equal(startDay(when, friday), `${day}T00:00:00.000Z`, when);
});

test('the day is the one of the offset the Record was written in', () => {
  // 23:30 on Sunday in New York is Monday in UTC: "tomorrow" is Monday there, from its midnight.
  assert.equal(startDay('tomorrow', '2026-03-08T23:30:00-04:00'), '2026-03-09T04:00:00.000Z');
  assert.equal(startDay('on Monday', '2026-03-06T10:00:00+01:00'), '2026-03-08T23:00:00.000Z');
});

test('words that name no day, or one gone or no calendar has, give none', () => {
  for (const when of [
    'soon',
    'later',
    'someday',
    'on the 32nd',
    'on February 30',
    'on March 3 2020',
    'next time',
  ])
    assert.equal(startDay(when, friday), null, when);
});

test('how long ago a move was counts back from the day it was said', () => {
  assert.equal(startDay('2 weeks ago', friday), '2026-02-20T00:00:00.000Z');
  assert.equal(startDay('three years ago', friday), '2023-03-06T00:00:00.000Z');
  assert.equal(startDay('a few months ago', friday), '2025-12-06T00:00:00.000Z');
});

test("a move's year is that year's first day, this year's the day it was said, a year to come none", () => {
  assert.equal(startDay('in 2023', friday), '2023-01-01T00:00:00.000Z');
  assert.equal(startDay('in 2026', friday), '2026-03-06T00:00:00.000Z');
  assert.equal(startDay('in 2027', friday), null);
  // In the offset the Record was written in, as any other day.
  assert.equal(startDay('in 2023', '2026-03-06T18:00:00+01:00'), '2022-12-31T23:00:00.000Z');
});
