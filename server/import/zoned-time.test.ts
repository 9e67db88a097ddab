import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wallTimeToDate } from './zoned-time.ts';

const at = (zone: string, y: number, mo: number, d: number, h: number, mi = 0) =>
  wallTimeToDate({ year: y, month: mo, day: d, hour: h, minute: mi }, zone).toISOString();

test('a wall time in a zone: ordinary times, a repeated hour taken first, a skipped hour read forward', () => {
  // Ordinary times on either side of the changes.
  assert.equal(at('Europe/Berlin', 2024, 7, 1, 12), '2024-07-01T10:00:00.000Z');
  assert.equal(at('Europe/Berlin', 2024, 12, 1, 12), '2024-12-01T11:00:00.000Z');
  assert.equal(at('America/New_York', 2024, 7, 1, 12), '2024-07-01T16:00:00.000Z');
  // Berlin's 27 October 2024: 02:00-03:00 came twice (summer time, then winter time); the first one.
  assert.equal(at('Europe/Berlin', 2024, 10, 27, 2, 30), '2024-10-27T00:30:00.000Z');
  assert.equal(at('Europe/Berlin', 2024, 10, 27, 3, 0), '2024-10-27T02:00:00.000Z');
  // New York's 3 November 2024: 01:00-02:00 came twice; the first one (still EDT).
  assert.equal(at('America/New_York', 2024, 11, 3, 1, 30), '2024-11-03T05:30:00.000Z');
  // Skipped hours, read with the offset before the gap (RFC 5545 3.3.5).
  assert.equal(at('America/New_York', 2024, 3, 10, 2, 30), '2024-03-10T07:30:00.000Z');
  assert.equal(at('Europe/Berlin', 2024, 3, 31, 2, 30), '2024-03-31T01:30:00.000Z');
  // A zone east of UTC whose change is at midnight, and one with a half-hour change (Lord Howe).
  assert.equal(at('Asia/Beirut', 2024, 3, 31, 0, 30), '2024-03-30T22:30:00.000Z');
  assert.equal(at('Australia/Lord_Howe', 2024, 4, 7, 1, 45), '2024-04-06T14:45:00.000Z');
  assert.equal(at('UTC', 2024, 3, 10, 2, 30), '2024-03-10T02:30:00.000Z');
});

test('messages either side of a repeated hour keep their order', () => {
  // 02:50 summer time, then the clocks go back, then 02:10 winter time: written as the phone showed them.
  const beforeChange = at('Europe/Berlin', 2024, 10, 27, 1, 50);
  const inRepeatedHour = at('Europe/Berlin', 2024, 10, 27, 2, 50);
  const afterRepeatedHour = at('Europe/Berlin', 2024, 10, 27, 3, 10);
  assert.ok(beforeChange < inRepeatedHour && inRepeatedHour < afterRepeatedHour);
});
