import assert from 'node:assert/strict';
import { test } from 'node:test';
import { atOffset, wallTimeToDate, wallTimeWithOffset } from './zoned-time.ts';

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

test('a wall time is written with the offset it was read at, naming the same instant', () => {
  const cases: Array<[string, string | undefined, string]> = [
    ['2024-03-12T21:17:45', 'America/New_York', '2024-03-12T21:17:45-04:00'],
    ['2024-01-02T09:15:00', 'Europe/Berlin', '2024-01-02T09:15:00+01:00'],
    ['2024-07-01T10:00:00', 'Asia/Kolkata', '2024-07-01T10:00:00+05:30'],
    ['2024-07-01T10:00:00', 'UTC', '2024-07-01T10:00:00.000Z'],
    // A time the clocks skipped (Lisbon, spring forward at 01:00): the instant it was read as.
    ['2024-03-31T01:30:00', 'Europe/Lisbon', '2024-03-31T01:30:00.000Z'],
    // Local mean time of 1880 (-0:36:45): no RFC 3339 offset, so UTC.
    ['1880-06-01T12:00:00', 'Europe/Lisbon', '1880-06-01T12:36:45.000Z'],
  ];
  for (const [wall, zone, written] of cases) {
    const [date, clock] = wall.split('T') as [string, string];
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    const [hour, minute, second] = clock.split(':').map(Number) as [number, number, number];
    const t = { year, month, day, hour, minute, second };
    const instant = wallTimeToDate(t, zone);
    const got = wallTimeWithOffset(t, instant);
    assert.equal(got, written, `${wall} ${zone}`);
    assert.equal(Date.parse(got), instant.getTime(), `${wall} ${zone}: the same instant`);
  }
});

test('an instant at an offset: its clock there, milliseconds only where there are some', () => {
  const at = new Date('2024-03-13T01:17:45.250Z');
  assert.equal(atOffset(at, -210), '2024-03-12T21:47:45.250-03:30');
  assert.equal(atOffset(new Date('2024-03-13T01:17:45Z'), 345), '2024-03-13T07:02:45+05:45');
  assert.equal(atOffset(new Date('2024-03-13T01:17:45Z'), 0), '2024-03-13T01:17:45+00:00');
  assert.equal(Date.parse(atOffset(at, -210)), at.getTime());
});
