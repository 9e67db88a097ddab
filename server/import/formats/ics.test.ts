import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { collect, writeTree } from '../test-support.ts';
import { parseIcs } from './ics.ts';

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n';
const berlin = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];
const calendar = crlf([
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Google Inc//Google Calendar 70.9054//EN',
  ...berlin,
  // Weekly standup across the DST change; one week cancelled (EXDATE), one moved (RECURRENCE-ID).
  'BEGIN:VEVENT',
  'UID:standup-1@example.com',
  'DTSTART;TZID=Europe/Berlin:20240321T093000',
  'DTEND;TZID=Europe/Berlin:20240321T094500',
  'RRULE:FREQ=WEEKLY;COUNT=4',
  'EXDATE;TZID=Europe/Berlin:20240328T093000',
  'SUMMARY:Team standup',
  'LOCATION:Room 4.12',
  'ORGANIZER;CN=Alice Martin:mailto:alice@example.org',
  'ATTENDEE;CN="Lee, Sam";PARTSTAT=ACCEPTED:mailto:sam@example.com',
  'ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:ben@example.com',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:standup-1@example.com',
  'RECURRENCE-ID;TZID=Europe/Berlin:20240404T093000',
  'DTSTART;TZID=Europe/Berlin:20240404T110000',
  'DTEND;TZID=Europe/Berlin:20240404T111500',
  'SUMMARY:Team standup (moved)',
  'END:VEVENT',
  // All-day, and a long folded summary.
  'BEGIN:VEVENT',
  'UID:bday-ana',
  'DTSTART;VALUE=DATE:20240512',
  'DTEND;VALUE=DATE:20240513',
  "SUMMARY:Ana's birthday dinner at Tasca do Chico with the whole family and a few",
  '  friends from Lisbon',
  'END:VEVENT',
  // A zone the file does not define, read as an IANA name.
  'BEGIN:VEVENT',
  'UID:ny-call',
  'DTSTART;TZID=America/New_York:20240110T090000',
  'SUMMARY:Call with NY office',
  'END:VEVENT',
  // UTC, no UID.
  'BEGIN:VEVENT',
  'DTSTART:20240201T120000Z',
  'SUMMARY:Lunch',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:cancelled-1',
  'DTSTART:20240202T120000Z',
  'STATUS:CANCELLED',
  'SUMMARY:Dentist',
  'END:VEVENT',
  // Daily forever: only the window is expanded.
  'BEGIN:VEVENT',
  'UID:pills',
  'DTSTART:20200101T080000Z',
  'RRULE:FREQ=DAILY',
  'SUMMARY:Vitamins',
  'END:VEVENT',
  'END:VCALENDAR',
]);

test('iCalendar: zones, recurrence with EXDATE and an override, all-day, participants, place, window', async () => {
  const t = writeTree({ 'work.ics': calendar });
  try {
    const { records, skips } = await collect(
      parseIcs(join(t.root, 'work.ics'), {
        timeZone: 'Europe/Lisbon',
        windowStart: new Date('2024-01-01T00:00:00Z'),
        windowEnd: new Date('2024-06-01T00:00:00Z'),
      }),
    );
    const byId = new Map(records.map((r) => [r.body.source.external_id, r.body]));
    const standups = [...byId.keys()].filter((k) => k.startsWith('ics:standup-1@example.com@'));
    assert.deepEqual(standups, [
      'ics:standup-1@example.com@2024-03-21T09:30:00',
      'ics:standup-1@example.com@2024-04-04T09:30:00',
      'ics:standup-1@example.com@2024-04-11T09:30:00',
    ]);
    const first = byId.get(standups[0]!)!;
    assert.deepEqual(first.content, {
      kind: 'event',
      title: 'Team standup',
      starts_at: '2024-03-21T08:30:00.000Z',
      ends_at: '2024-03-21T08:45:00.000Z',
      participants: ['Alice Martin', 'Lee, Sam', 'ben@example.com'],
      place: 'Room 4.12',
    });
    assert.equal(first.occurred_at, '2024-03-21T08:30:00.000Z');
    const moved = byId.get(standups[1]!)!.content as { title: string; starts_at: string };
    assert.equal(moved.title, 'Team standup (moved)');
    assert.equal(moved.starts_at, '2024-04-04T09:00:00.000Z', 'summer time after the DST change');
    assert.equal(
      (byId.get(standups[2]!)!.content as { starts_at: string }).starts_at,
      '2024-04-11T07:30:00.000Z',
    );

    const bday = byId.get('ics:bday-ana')!.content as { title: string; starts_at: string; ends_at: string };
    assert.equal(
      bday.title,
      "Ana's birthday dinner at Tasca do Chico with the whole family and a few friends from Lisbon",
    );
    assert.equal(
      bday.starts_at,
      '2024-05-11T23:00:00.000Z',
      'all-day starts at midnight in --time-zone (Lisbon, UTC+1)',
    );
    assert.equal(
      (byId.get('ics:ny-call')!.content as { starts_at: string }).starts_at,
      '2024-01-10T14:00:00.000Z',
    );
    assert.ok(
      [...byId.keys()].some((k) => /^ics:sha256:[0-9a-f]{32}$/.test(k)),
      'no UID: a hash of its fields',
    );

    const pills = [...byId.keys()].filter((k) => k.startsWith('ics:pills@'));
    assert.equal(pills.length, 152, 'a daily series begun in 2020: only the days inside the window');
    assert.equal(pills[0], 'ics:pills@2024-01-01T08:00:00Z');
    assert.equal(pills.at(-1), 'ics:pills@2024-05-31T08:00:00Z');
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['cancelled event'],
    );
  } finally {
    t.remove();
  }
});

test('not iCalendar: one skip with a reason', async () => {
  const t = writeTree({ 'x.ics': 'BEGIN:VCALENDAR\r\nthis is : broken ; \r\n' });
  try {
    const { records, skips } = await collect(parseIcs(join(t.root, 'x.ics'), {}));
    assert.equal(records.length, 0);
    assert.equal(skips.length, 1);
  } finally {
    t.remove();
  }
});
