import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allDayDate } from './all-day.ts';
import { timeIntent } from './time-expressions.ts';
import { timeZone } from './time-zone.ts';

const july4 = Date.parse('2024-07-04T00:00:00Z');
const event = (when: string, occurredMs = july4) => ({
  kind: 'event',
  text: `Picnic; when: ${when}; where: the lake`,
  occurredMs,
});

describe('allDayDate', () => {
  it('is the date of an event starting at a UTC midnight with no end or an end whole days later', () => {
    assert.equal(allDayDate(event('2024-07-04T00:00:00.000Z')), july4);
    assert.equal(allDayDate(event('2024-07-04T00:00:00.000Z to 2024-07-05T00:00:00.000Z')), july4);
    assert.equal(allDayDate(event('2024-07-04T00:00:00+00:00 to 2024-07-07T00:00:00+00:00')), july4);
  });

  it('is the first date of an event whose text says its days as dates, as the engine now writes them', () => {
    assert.equal(allDayDate(event('2024-07-04')), july4);
    assert.equal(allDayDate(event('2024-07-04 to 2024-07-06')), july4);
    assert.equal(
      allDayDate(event('2024-07-04', Date.parse('2024-07-05T00:00:00Z'))),
      null,
      'dated elsewhere',
    );
    assert.equal(allDayDate(event('2024-07-04 to 2024-07-03')), null, 'ends before it starts');
    assert.equal(allDayDate(event('2024-07-04 to 2024-07-05T00:00:00.000Z')), null, 'a date and an instant');
    assert.equal(allDayDate(event('2024-02-30')), null, 'no such date');
    assert.equal(allDayDate({ kind: 'message', text: 'Picnic; when: 2024-07-04', occurredMs: july4 }), null);
  });

  it('is null for a timed event, an event dated elsewhere, and any other kind at 00:00Z', () => {
    // 17:00 in Los Angeles is 00:00Z: a wall time with its own offset names no date.
    assert.equal(allDayDate(event('2024-07-03T17:00:00-07:00 to 2024-07-03T18:00:00-07:00')), null);
    assert.equal(allDayDate(event('2024-07-04T00:00:00.000Z to 2024-07-04T01:00:00.000Z')), null);
    assert.equal(allDayDate(event('2024-07-04T00:00:00.000Z to 2024-07-03T00:00:00.000Z')), null);
    assert.equal(allDayDate(event('2024-07-05T00:00:00.000Z', july4)), null);
    assert.equal(allDayDate({ kind: 'message', text: 'Fireworks!', occurredMs: july4 }), null);
    assert.equal(
      allDayDate({ kind: 'document', text: 'x; when: 2024-07-04T00:00:00.000Z', occurredMs: july4 }),
      null,
    );
  });
});

describe("a query's calendar dates", () => {
  it('are the local days as 00:00 UTC of each date, whatever the zone', () => {
    const la = timeIntent(
      'on 4 July 2024',
      Date.parse('2024-08-01T00:00:00Z'),
      timeZone('America/Los_Angeles'),
    )!;
    assert.deepEqual(
      [la.fromMs, la.toMs, la.fromDay, la.toDay].map((ms) => new Date(ms!).toISOString()),
      [
        '2024-07-04T07:00:00.000Z',
        '2024-07-05T07:00:00.000Z',
        '2024-07-04T00:00:00.000Z',
        '2024-07-05T00:00:00.000Z',
      ],
    );
  });
});
