import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asksFormer, heldSpan, inPastTense } from './held-span.ts';
import { timeIntent } from './time-expressions.ts';
import { timeZone } from './time-zone.ts';

// Asked on 5 December 2026 at noon. October in Lisbon is UTC+1 until its last Sunday, then UTC+0;
// in Berlin UTC+2, then UTC+1.
const now = Date.parse('2026-12-05T12:00:00Z');
const span = (query: string, zone = 'Europe/Lisbon', readMs = now) => {
  const s = heldSpan(query, timeIntent(query, readMs, timeZone(zone)), readMs);
  return s && [new Date(s.fromMs).toISOString(), new Date(s.toMs).toISOString()];
};

test('a month, a year or a time ago that has ended is the span asked about, in the zone of the Brain', () => {
  assert.deepEqual(span('Where did I live in mid October?'), [
    '2026-09-30T23:00:00.000Z',
    '2026-11-01T00:00:00.000Z',
  ]);
  assert.deepEqual(span('Where did I live in mid October?', 'Europe/Berlin'), [
    '2026-09-30T22:00:00.000Z',
    '2026-10-31T23:00:00.000Z',
  ]);
  assert.deepEqual(span('Where did I live last October?'), [
    '2026-09-30T23:00:00.000Z',
    '2026-11-01T00:00:00.000Z',
  ]);
  assert.deepEqual(span('Where did I live in 2023?'), [
    '2023-01-01T00:00:00.000Z',
    '2024-01-01T00:00:00.000Z',
  ]);
  // A month still to come this year, asked of the past, is last year's.
  assert.deepEqual(span('Where did I work in January?'), [
    '2026-01-01T00:00:00.000Z',
    '2026-02-01T00:00:00.000Z',
  ]);
  const ago = span('Where did I live two years ago?');
  assert.ok(ago && ago[1]! < '2025-12-07', ago?.join(' '));
  // Ended, it is the time asked about in the present tense too.
  assert.deepEqual(span('Who is my employer in 2023?'), [
    '2023-01-01T00:00:00.000Z',
    '2024-01-01T00:00:00.000Z',
  ]);
});

test('a time reaching the read time is a span only asked in the past tense, and ends at the read time', () => {
  const year = span('Where have I lived this year?');
  assert.equal(year?.[1], new Date(now + 1).toISOString());
  // The month asked in is one that has begun: up to now.
  assert.deepEqual(span('Where did I work in December?'), [
    '2026-12-01T00:00:00.000Z',
    new Date(now + 1).toISOString(),
  ]);
  assert.equal(span('Where do I work in December?'), null);
  assert.equal(span('Where did I work last week?')?.[1], new Date(now + 1).toISOString());
  assert.equal(span('Where do I work this week?'), null);
  assert.equal(span('Where am I based this year?'), null);
});

test('no time, a time to come, or only an order is no span: the read time is asked about', () => {
  assert.equal(span('Where do I live?'), null);
  assert.equal(span('Where did I live?'), null);
  assert.equal(span('Where will I live next month?'), null);
  assert.equal(span('Where am I moving next year?'), null);
  assert.equal(span('Where do I live currently?'), null);
});

test('as_of, as the read time, bounds the span and counts its relative times', () => {
  const asOf = Date.parse('2023-06-15T00:00:00Z');
  assert.deepEqual(span('Where did I live last month?', 'UTC', asOf)?.[1], new Date(asOf + 1).toISOString());
  // A year after as_of is still to come at it.
  assert.equal(span('Where did I live in 2024?', 'UTC', asOf), null);
});

test('the past tense: auxiliaries and the slot verbs in their past form, not "based" or "moved"', () => {
  for (const q of [
    'where did I live',
    'where was she working',
    'where I used to work',
    'where have I lived',
    'who employed me',
  ])
    assert.ok(inPastTense(q), q);
  for (const q of ['where do I live', 'where am I based', 'where is she working', 'who do I work for'])
    assert.ok(!inPastTense(q), q);
});

test('a former value asked for, naming no time, is asked of all the time before the read time', () => {
  for (const q of [
    'What was my old job?',
    "What's Lena's previous address?",
    'Where did I use to work?',
    'where I used to live',
    'Who was my former employer?',
  ]) {
    assert.equal(asksFormer(q), true, q);
    assert.deepEqual(heldSpan(q, null, 5_000), { fromMs: 0, toMs: 5_000 }, q);
  }
  for (const q of ['How old is my daughter?', 'Is the bread old?', 'Where do I work?', 'My dog is old'])
    assert.equal(asksFormer(q), false, q);
});
