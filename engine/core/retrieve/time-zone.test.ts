import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTimeZone, timeZone } from './time-zone.ts';
import { timeIntent } from './time-expressions.ts';

const at = (iso: string) => Date.parse(iso);
const isoOf = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('time zones', () => {
  it('turns instants into wall-clock time and back, either side of a DST change', () => {
    const lisbon = timeZone('Europe/Lisbon');
    // Winter: Lisbon is on UTC; summer: UTC+1.
    assert.equal(isoOf(lisbon.toWall(at('2023-01-10T12:00:00Z'))), '2023-01-10T12:00:00.000Z');
    assert.equal(isoOf(lisbon.toWall(at('2023-07-10T12:00:00Z'))), '2023-07-10T13:00:00.000Z');
    assert.equal(isoOf(lisbon.toInstant(at('2023-07-10T00:00:00Z'))), '2023-07-09T23:00:00.000Z');
    const la = timeZone('America/Los_Angeles');
    assert.equal(isoOf(la.toInstant(at('2023-11-20T00:00:00Z'))), '2023-11-20T08:00:00.000Z');
    assert.equal(isoOf(la.toInstant(at('2023-07-20T00:00:00Z'))), '2023-07-20T07:00:00.000Z');
    // Offsets of a quarter hour exist (Nepal: UTC+5:45).
    assert.equal(
      isoOf(timeZone('Asia/Kathmandu').toInstant(at('2023-05-01T00:00:00Z'))),
      '2023-04-30T18:15:00.000Z',
    );
  });

  it('resolves wall times that a DST change skips or repeats like Temporal does', () => {
    const ny = timeZone('America/New_York');
    // 12 March 2023: 02:00 -> 03:00. 02:30 does not exist: the clock had jumped, so 03:30 EDT.
    assert.equal(isoOf(ny.toInstant(at('2023-03-12T02:30:00Z'))), '2023-03-12T07:30:00.000Z');
    assert.equal(isoOf(ny.toInstant(at('2023-03-12T03:30:00Z'))), '2023-03-12T07:30:00.000Z');
    // 5 November 2023: 02:00 -> 01:00. 01:30 happens twice: the earlier (EDT).
    assert.equal(isoOf(ny.toInstant(at('2023-11-05T01:30:00Z'))), '2023-11-05T05:30:00.000Z');
    // Round trips hold away from the change.
    for (const iso of ['2023-03-11T23:59:00Z', '2023-03-13T00:00:00Z', '2023-11-06T00:00:00Z']) {
      const wall = at(iso);
      assert.equal(ny.toWall(ny.toInstant(wall)), wall, iso);
    }
  });

  it('knows the platform zones and refuses unknown names', () => {
    assert.ok(isTimeZone('Europe/Lisbon') && isTimeZone('UTC'));
    assert.equal(isTimeZone('Mars/Olympus_Mons'), false);
    assert.throws(() => timeZone('Mars/Olympus_Mons'), /unknown time zone: "Mars\/Olympus_Mons"/);
  });

  it('reads "yesterday" and dates as days where the person lives', () => {
    // 21:00 on 4 October in Los Angeles is already 5 October in UTC.
    const now = at('2023-10-05T04:00:00Z');
    const la = timeZone('America/Los_Angeles');
    const local = timeIntent('what did I do yesterday?', now, la)!;
    assert.deepEqual(
      [isoOf(local.fromMs), isoOf(local.toMs)],
      ['2023-10-03T07:00:00.000Z', '2023-10-04T07:00:00.000Z'],
    );
    const inUtc = timeIntent('what did I do yesterday?', now)!;
    assert.deepEqual(
      [isoOf(inUtc.fromMs), isoOf(inUtc.toMs)],
      ['2023-10-04T00:00:00.000Z', '2023-10-05T00:00:00.000Z'],
    );
    const date = timeIntent('the dinner on 8 May 2023', now, timeZone('Asia/Tokyo'))!;
    assert.deepEqual(
      [isoOf(date.fromMs), isoOf(date.toMs)],
      ['2023-05-07T15:00:00.000Z', '2023-05-08T15:00:00.000Z'],
    );
  });
});
