import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { importIdempotencyKey } from '../idempotency-key.ts';
import type { ParseOptions } from '../import-item.ts';
import { collect, writeTree } from '../test-support.ts';
import { maxOccurrencesPerSeries, maxRuleSteps, parseIcs } from './ics.ts';

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
      starts_at: '2024-03-21T09:30:00+01:00',
      ends_at: '2024-03-21T09:45:00+01:00',
      participants: ['Alice Martin', 'Lee, Sam', 'ben@example.com'],
      place: 'Room 4.12',
    });
    // In the event's own zone, as the calendar wrote it: the same instant as 08:30Z.
    assert.equal(first.occurred_at, '2024-03-21T09:30:00+01:00');
    const moved = byId.get(standups[1]!)!.content as { title: string; starts_at: string };
    assert.equal(moved.title, 'Team standup (moved)');
    assert.equal(moved.starts_at, '2024-04-04T11:00:00+02:00', 'summer time after the DST change');
    assert.equal(
      (byId.get(standups[2]!)!.content as { starts_at: string }).starts_at,
      '2024-04-11T09:30:00+02:00',
    );

    const bday = byId.get('ics:bday-ana')!.content as { title: string; starts_at: string; ends_at: string };
    assert.equal(
      bday.title,
      "Ana's birthday dinner at Tasca do Chico with the whole family and a few friends from Lisbon",
    );
    assert.deepEqual(
      [bday.starts_at, bday.ends_at],
      ['2024-05-12T00:00:00.000Z', '2024-05-13T00:00:00.000Z'],
      'all-day: the day at 00:00 UTC, whatever --time-zone says',
    );
    assert.equal(
      (byId.get('ics:ny-call')!.content as { starts_at: string }).starts_at,
      '2024-01-10T09:00:00-05:00',
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

test('an empty file, or a calendar with no events, is one skip that says so', async () => {
  for (const [text, reason] of [
    ['', 'empty file'],
    ['\r\n', 'empty file'],
    [
      crlf(['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VFREEBUSY', 'UID:f1', 'END:VFREEBUSY', 'END:VCALENDAR']),
      'no events, to-dos or journal entries in this calendar',
    ],
  ] as const) {
    const t = writeTree({ 'x.ics': text });
    try {
      const { records, skips } = await collect(parseIcs(join(t.root, 'x.ics'), {}));
      assert.equal(records.length, 0);
      assert.deepEqual(
        skips.map((s) => s.reason),
        [reason],
        JSON.stringify(text),
      );
    } finally {
      t.remove();
    }
  }
});

const vcalendar = (...lines: string[]) => crlf(['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR']);

async function parse(text: string | Uint8Array, o: ParseOptions = {}) {
  const t = writeTree({ 'cal.ics': text });
  try {
    return await collect(parseIcs(join(t.root, 'cal.ics'), o));
  } finally {
    t.remove();
  }
}

test('a value that cannot be read skips its event alone, named by UID and title', async () => {
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:good-1',
      'SUMMARY:Good event',
      'DTSTART:20240101T100000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:bad-start',
      'SUMMARY:Bad date event',
      'DTSTART:2024-01-02 10:00',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'SUMMARY:No UID and a bad end',
      'DTSTART:20240103T100000Z',
      'DTEND:2024-01-03 11:00',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:bad-exdate',
      'SUMMARY:Series with a bad EXDATE',
      'DTSTART:20240104T100000Z',
      'RRULE:FREQ=DAILY;COUNT=3',
      'EXDATE:2024-01-05 10',
      'END:VEVENT',
      // A broken override is skipped; its series keeps the rule's own occurrence.
      'BEGIN:VEVENT',
      'UID:daily',
      'SUMMARY:Daily',
      'DTSTART:20240110T100000Z',
      'RRULE:FREQ=DAILY;COUNT=3',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:daily',
      'RECURRENCE-ID:20240111T100000Z',
      'SUMMARY:Daily (moved)',
      'DTSTART:2024-01-11 15:00',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:good-2',
      'SUMMARY:Another good event',
      'DTSTART:20240120T100000Z',
      'END:VEVENT',
    ),
    { windowStart: new Date('2024-01-01T00:00:00Z'), windowEnd: new Date('2024-02-01T00:00:00Z') },
  );
  assert.deepEqual(
    records.map((r) => [r.body.source.external_id, (r.body.content as { title: string }).title]),
    [
      ['ics:good-1', 'Good event'],
      ['ics:daily@2024-01-10T10:00:00Z', 'Daily'],
      ['ics:daily@2024-01-11T10:00:00Z', 'Daily'],
      ['ics:daily@2024-01-12T10:00:00Z', 'Daily'],
      ['ics:good-2', 'Another good event'],
    ],
  );
  assert.deepEqual(
    skips.map((s) => [s.ref, s.reason]),
    [
      ['daily', 'event "Daily (moved)" cannot be read: DTSTART: not a valid date or time'],
      ['bad-start', 'event "Bad date event" cannot be read: DTSTART: not a valid date or time'],
      [
        'event "No UID and a bad end"',
        'event "No UID and a bad end" cannot be read: DTEND or DURATION: not a valid date or time',
      ],
      [
        'bad-exdate',
        'event "Series with a bad EXDATE" cannot be read: RRULE, RDATE or EXDATE: not a valid date-time',
      ],
    ],
  );
});

// "W. Europe Standard Time" is no IANA name: a right time proves the file's VTIMEZONE was used.
const westEurope = berlin.map((l) => (l === 'TZID:Europe/Berlin' ? 'TZID:W. Europe Standard Time' : l));
const damaged = vcalendar(
  ...westEurope,
  'BEGIN:VEVENT',
  'UID:weekly',
  'SUMMARY:Weekly',
  'DTSTART;TZID=W. Europe Standard Time:20240108T093000',
  'RRULE:FREQ=WEEKLY;COUNT=2',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:stray',
  'SUMMARY:Bad line',
  '  event',
  'DTSTART:20240109T100000Z',
  'this line has no colon',
  'END:VEVENT',
  // The override comes after the damage and still replaces its occurrence.
  'BEGIN:VEVENT',
  'UID:weekly',
  'RECURRENCE-ID;TZID=W. Europe Standard Time:20240115T093000',
  'SUMMARY:Weekly (moved)',
  'DTSTART;TZID=W. Europe Standard Time:20240115T140000',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:after',
  'SUMMARY:After the damage',
  'DTSTART;VALUE=DATE:20240120',
  'END:VEVENT',
);

test('a malformed line or a cut-off download loses only the events it damages', async () => {
  const window = {
    windowStart: new Date('2024-01-01T00:00:00Z'),
    windowEnd: new Date('2024-02-01T00:00:00Z'),
  };
  const cut = damaged + crlf(['BEGIN:VEVENT', 'UID:cut', 'SUMMARY:Trip to Po']).slice(0, -2);
  const { records, skips } = await parse(cut.replace('END:VCALENDAR\r\n', ''), window);
  assert.deepEqual(
    records.map((r) => {
      const c = r.body.content as { title: string; starts_at: string };
      return [r.body.source.external_id, c.title, c.starts_at];
    }),
    [
      ['ics:weekly@2024-01-08T09:30:00', 'Weekly', '2024-01-08T09:30:00+01:00'],
      ['ics:weekly@2024-01-15T09:30:00', 'Weekly (moved)', '2024-01-15T14:00:00+01:00'],
      ['ics:after', 'After the damage', '2024-01-20T00:00:00.000Z'],
    ],
  );
  assert.deepEqual(
    skips.map((s) => [s.ref, s.reason]),
    [
      [
        'stray',
        'event "Bad line event" at line 24 cannot be read: invalid line (no token ";" or ":") "this line has no colon"',
      ],
      ['cut', 'event "Trip to Po" at line 42 is cut off: no END:VEVENT (is the file truncated?)'],
    ],
  );

  // A to-do and a journal entry after the damage are read too; a cut-off one is named.
  const entries = await parse(
    damaged.replace(
      'END:VCALENDAR\r\n',
      crlf([
        'BEGIN:VTODO',
        'UID:passport',
        'SUMMARY:Renew passport',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'TRIGGER:-PT1H',
        'END:VALARM',
        'END:VTODO',
        'BEGIN:VJOURNAL',
        'UID:day',
        'SUMMARY:A long day',
        'DTSTART;VALUE=DATE:20240110',
        'END:VJOURNAL',
        'BEGIN:VTODO',
        'UID:cut-todo',
        'SUMMARY:Call the ba',
      ]),
    ),
    window,
  );
  assert.deepEqual(
    entries.records
      .filter((r) => (r.body.content as { kind: string }).kind === 'document')
      .map((r) => [r.body.source.external_id, (r.body.content as { text: string }).text]),
    [
      ['ics:passport#vtodo', 'To-do: Renew passport'],
      ['ics:day#vjournal', 'A long day'],
    ],
  );
  assert.deepEqual(
    entries.skips.map((s) => s.ref).filter((r) => r.startsWith('to-do')),
    ['to-do cut-todo'],
  );

  const nothing = await parse(vcalendar(...westEurope).slice(0, 200));
  assert.equal(nothing.records.length, 0);
  assert.equal(nothing.skips.length, 1, 'nothing readable: one skip for the file');
  assert.match(nothing.skips[0]!.reason, /^not an iCalendar file: /);

  // A mail read as a calendar: why in words, not the parser's internals.
  const mail = await parse('From a@example.org Mon Mar  4 09:00:00 2024\nFrom: A <a@example.org>\n\nHello\n');
  assert.deepEqual(
    mail.skips.map((x) => x.reason),
    ['not an iCalendar file: it has no BEGIN:VCALENDAR line'],
  );
});

test("all-day events are the same Records whatever the machine's or the import's zone", async () => {
  const text = vcalendar(
    'BEGIN:VEVENT',
    'UID:party',
    "SUMMARY:Mum's birthday party",
    'DTSTART;VALUE=DATE:20240615',
    'DTEND;VALUE=DATE:20240616',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'UID:bday',
    'SUMMARY:Ana turns a year older',
    'DTSTART;VALUE=DATE:20200101',
    'RRULE:FREQ=YEARLY',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'SUMMARY:No UID',
    'DTSTART;VALUE=DATE:20240301',
    'END:VEVENT',
  );
  const window = {
    windowStart: new Date('2023-06-01T00:00:00Z'),
    windowEnd: new Date('2025-06-01T00:00:00Z'),
  };
  const machineZone = process.env.TZ;
  const runs: string[][] = [];
  try {
    for (const tz of ['America/Los_Angeles', 'Europe/Berlin', 'Pacific/Kiritimati']) {
      process.env.TZ = tz;
      for (const timeZone of [undefined, 'Asia/Tokyo']) {
        const { records } = await parse(text, { ...window, ...(timeZone ? { timeZone } : {}) });
        runs.push(records.map((r) => importIdempotencyKey(r.body)));
        if (runs.length > 1) continue;
        assert.deepEqual(
          records.map((r) => {
            const c = r.body.content as { starts_at: string; ends_at?: string };
            return [r.body.source.external_id, c.starts_at, c.ends_at, r.body.occurred_at];
          }),
          [
            ['ics:party', '2024-06-15T00:00:00.000Z', '2024-06-16T00:00:00.000Z', '2024-06-15T00:00:00.000Z'],
            [
              'ics:bday@2024-01-01',
              '2024-01-01T00:00:00.000Z',
              '2024-01-02T00:00:00.000Z',
              '2024-01-01T00:00:00.000Z',
            ],
            [
              'ics:bday@2025-01-01',
              '2025-01-01T00:00:00.000Z',
              '2025-01-02T00:00:00.000Z',
              '2025-01-01T00:00:00.000Z',
            ],
            [
              records[3]!.body.source.external_id,
              '2024-03-01T00:00:00.000Z',
              '2024-03-02T00:00:00.000Z',
              '2024-03-01T00:00:00.000Z',
            ],
          ],
        );
      }
    }
  } finally {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
  }
  assert.equal(runs.length, 6);
  for (const keys of runs.slice(1))
    assert.deepEqual(keys, runs[0], 'same Idempotency-Keys: a re-import is unchanged');
});

test('a series over the cap keeps the occurrences nearest to now and says what it left out', async () => {
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:pills',
      'SUMMARY:Vitamins',
      'DTSTART:20200101T080000Z',
      'RRULE:FREQ=DAILY',
      'END:VEVENT',
    ),
    {
      windowStart: new Date('2020-01-01T00:00:00Z'),
      windowEnd: new Date('2024-01-01T00:00:00Z'),
      now: () => new Date('2022-01-01T12:00:00Z'),
    },
  );
  assert.equal(records.length, maxOccurrencesPerSeries);
  assert.equal(records[0]!.body.source.external_id, 'ics:pills@2020-08-20T08:00:00Z', '500 days up to now');
  assert.equal(records.at(-1)!.body.source.external_id, 'ics:pills@2023-05-16T08:00:00Z', 'and 500 after');
  assert.deepEqual(
    skips.map((s) => [s.ref, s.reason]),
    [
      [
        'pills',
        'series "Vitamins": 1461 occurrences in the import window, over the 1000 kept per series: kept those ' +
          'nearest to now (2020-08-20 to 2023-05-16), left out 232 earlier and 229 later',
      ],
    ],
  );
});

test('a rule walked to its step limit before the window ends says so', async () => {
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:tick',
      'SUMMARY:Every minute',
      'DTSTART:20230101T000000Z',
      'RRULE:FREQ=MINUTELY',
      'END:VEVENT',
    ),
    { windowStart: new Date('2024-01-01T00:00:00Z'), windowEnd: new Date('2024-02-01T00:00:00Z') },
  );
  assert.equal(records.length, 0);
  assert.deepEqual(
    skips.map((s) => [s.ref, s.reason]),
    [
      [
        'tick',
        `series "Every minute": its rule was followed for ${maxRuleSteps} repetitions, up to 2023-03-11; ` +
          'occurrences after that are left out',
      ],
    ],
  );
});

test('an override replaces an occurrence of its own series only', async () => {
  const { records } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:a',
      'SUMMARY:Series A',
      'DTSTART:20240108T093000Z',
      'RRULE:FREQ=WEEKLY;COUNT=2',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:b',
      'SUMMARY:Series B',
      'DTSTART:20240108T093000Z',
      'RRULE:FREQ=WEEKLY;COUNT=2',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:b',
      'RECURRENCE-ID:20240115T093000Z',
      'SUMMARY:Series B (moved)',
      'DTSTART:20240115T150000Z',
      'END:VEVENT',
    ),
    { windowStart: new Date('2024-01-01T00:00:00Z'), windowEnd: new Date('2024-02-01T00:00:00Z') },
  );
  assert.deepEqual(
    records.map((r) => [r.body.source.external_id, (r.body.content as { title: string }).title]),
    [
      ['ics:a@2024-01-08T09:30:00Z', 'Series A'],
      ['ics:a@2024-01-15T09:30:00Z', 'Series A'],
      ['ics:b@2024-01-08T09:30:00Z', 'Series B'],
      ['ics:b@2024-01-15T09:30:00Z', 'Series B (moved)'],
    ],
  );
});

test('an event without a start is skipped by its title, also when it has no UID to name it by', async () => {
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'SUMMARY:Dentist',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:u-1',
      'SUMMARY:Gym',
      'END:VEVENT',
    ),
  );
  assert.equal(records.length, 0);
  assert.deepEqual(
    skips.map((s) => s.reason),
    ['event "Dentist" has no DTSTART', 'event "Gym" has no DTSTART'],
  );
});

test('iCalendar: a description is a document of its own; a series wholly outside the window is named, not dropped silently', async () => {
  const t = writeTree({
    'cal.ics': crlf([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:dentist-1',
      'DTSTART;TZID=Europe/Lisbon:20240415T143000',
      'DTEND;TZID=Europe/Lisbon:20240415T150000',
      'SUMMARY:Dentist',
      'DESCRIPTION:Bring the insurance card.\\nArrive 10 minutes early.',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:standup-old',
      'DTSTART:20220307T090000Z',
      'RRULE:FREQ=WEEKLY;UNTIL=20220606T090000Z',
      'SUMMARY:Team standup',
      'DESCRIPTION:Daily numbers first.',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:floating-1',
      'DTSTART:20240420T100000',
      'SUMMARY:Market',
      'END:VEVENT',
      'END:VCALENDAR',
    ]),
  });
  try {
    const { records, skips } = await collect(
      parseIcs(join(t.root, 'cal.ics'), {
        timeZone: 'America/New_York',
        windowStart: new Date('2024-01-01T00:00:00Z'),
        windowEnd: new Date('2025-01-01T00:00:00Z'),
      }),
    );
    const byId = new Map(records.map((r) => [r.body.source.external_id, r.body]));
    assert.deepEqual(byId.get('ics:dentist-1#description'), {
      content: {
        kind: 'document',
        title: 'Dentist',
        text: 'Dentist: Bring the insurance card.\nArrive 10 minutes early.',
      },
      source: { name: 'ics', external_id: 'ics:dentist-1#description' },
      occurred_at: '2024-04-15T14:30:00+01:00',
    });
    // A floating time is the --time-zone's wall time, and says so by its offset.
    assert.equal(
      (byId.get('ics:floating-1')!.content as { starts_at: string }).starts_at,
      '2024-04-20T10:00:00-04:00',
    );
    assert.ok(![...byId.keys()].some((k) => k.startsWith('ics:standup-old')), 'outside the window');
    assert.deepEqual(
      skips.map((s) => [s.ref, s.reason]),
      [
        [
          'standup-old',
          'series "Team standup": no occurrence in the import window (2024-01-01 to 2025-01-01); its 14 ' +
            'occurrences ran from 2022-03-07 to 2022-06-06. Import it again with a window that holds them ' +
            "(mnemo import --since/--until, or the Import screen's dates)",
        ],
      ],
    );
  } finally {
    t.remove();
  }
});

test("iCalendar: a series' description is dated at the series' start, so a later import of the same file writes it the same", async () => {
  const t = writeTree({
    'cal.ics': crlf([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:standup-weekly',
      'DTSTART;TZID=Europe/Lisbon:20200106T093000',
      'RRULE:FREQ=WEEKLY',
      'SUMMARY:Team standup',
      'DESCRIPTION:Numbers first.',
      'END:VEVENT',
      'END:VCALENDAR',
    ]),
  });
  try {
    const description = async (now: string) => {
      const { records } = await collect(parseIcs(join(t.root, 'cal.ics'), { now: () => new Date(now) }));
      return records.find((r) => r.body.source.external_id === 'ics:standup-weekly#description')!.body;
    };
    const first = await description('2024-06-01T00:00:00Z');
    assert.equal(first.occurred_at, '2020-01-06T09:30:00+00:00');
    assert.deepEqual(await description('2024-06-08T00:00:00Z'), first);
  } finally {
    t.remove();
  }
});

test('a day a rule cannot have is no occurrence: a leap-day birthday falls in leap years only', async () => {
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:leap',
      "SUMMARY:Ines's birthday",
      'DTSTART;VALUE=DATE:20200229',
      'RRULE:FREQ=YEARLY',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:feb30',
      'SUMMARY:Month end review',
      'DTSTART:20240130T090000Z',
      'RRULE:FREQ=YEARLY;BYMONTH=1,2;BYMONTHDAY=30',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:never',
      'SUMMARY:The 30th of February',
      'DTSTART:20240130T090000Z',
      'RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:last',
      'SUMMARY:Last day of the month',
      'DTSTART:20240131T090000Z',
      'RRULE:FREQ=MONTHLY;BYMONTHDAY=-1',
      'RDATE:20250301T090000Z',
      'END:VEVENT',
    ),
    { windowStart: new Date('2024-01-01T00:00:00Z'), windowEnd: new Date('2029-01-01T00:00:00Z') },
  );
  const days = (uid: string) =>
    records
      .filter((r) => r.body.source.external_id?.startsWith(`ics:${uid}@`))
      .map((r) => (r.body.content as { starts_at: string }).starts_at.slice(0, 10));
  assert.deepEqual(days('leap'), ['2024-02-29', '2028-02-29']);
  // 30 January each year; never a 1 or 2 March for the 30 February that does not exist.
  assert.deepEqual(days('feb30'), ['2024-01-30', '2025-01-30', '2026-01-30', '2027-01-30', '2028-01-30']);
  const last = days('last');
  assert.ok(last.includes('2024-02-29') && last.includes('2025-02-28'), 'BYMONTHDAY=-1 is each month');
  assert.ok(last.includes('2025-03-01'), 'an RDATE is an occurrence whatever the rule says');
  assert.deepEqual(days('never'), []);
  assert.deepEqual(
    skips.map((s) => s.reason),
    [
      'series "The 30th of February": none of the days its rule gives in the import window exists (such as 30 February)',
    ],
  );
});

test('COUNT counts only days that exist: a leap-day rule three times is three leap years', async () => {
  const { records } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:rent',
      'SUMMARY:Pay rent',
      'DTSTART:20240131T090000Z',
      'RRULE:FREQ=MONTHLY;COUNT=6',
      'EXDATE:20240531T090000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:leapcount',
      'SUMMARY:Leap-day party',
      'DTSTART;VALUE=DATE:20200229',
      'RRULE:FREQ=YEARLY;COUNT=3',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:plain',
      'SUMMARY:Standup',
      'DTSTART:20240101T090000Z',
      'RRULE:FREQ=MONTHLY;COUNT=3',
      'END:VEVENT',
    ),
    { windowStart: new Date('2019-01-01T00:00:00Z'), windowEnd: new Date('2031-01-01T00:00:00Z') },
  );
  const days = (uid: string) =>
    records
      .filter((r) => r.body.source.external_id?.startsWith(`ics:${uid}@`))
      .map((r) => (r.body.content as { starts_at: string }).starts_at.slice(0, 10));
  // An EXDATE takes its instance out but still counts towards COUNT (RFC 5545 3.8.5.1).
  assert.deepEqual(days('rent'), ['2024-01-31', '2024-03-31', '2024-07-31', '2024-08-31', '2024-10-31']);
  assert.deepEqual(days('leapcount'), ['2020-02-29', '2024-02-29', '2028-02-29']);
  assert.deepEqual(days('plain'), ['2024-01-01', '2024-02-01', '2024-03-01']);
});

test('a line folded inside a UTF-8 character is read as the UTF-8 it is, not as Windows-1252', async () => {
  // "Café avec Zoë" in UTF-8, folded between the two bytes of "é" as some writers fold (by bytes).
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'BEGIN:VEVENT',
    'UID:cafe',
    'DTSTART:20240301T100000Z',
    'SUMMARY:Caf\xc3',
    ' \xa9 avec Zo\xc3\xab',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  const { records } = await parse(Buffer.from(crlf(lines), 'latin1'));
  assert.equal((records[0]!.body.content as { title: string }).title, 'Café avec Zoë');
});

test('one UID twice: the newest version is the event, the other is said; an exact copy is one event, the copy said too', async () => {
  const event = (uid: string, summary: string, start: string, extra: string[] = []) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `SUMMARY:${summary}`,
    `DTSTART:${start}`,
    ...extra,
    'END:VEVENT',
  ];
  const { records, skips } = await parse(
    vcalendar(
      ...event('dinner', 'Dinner at Sora', '20240301T190000Z', ['SEQUENCE:0']),
      ...event('dinner', 'Dinner at Sora (moved)', '20240302T190000Z', ['SEQUENCE:1']),
      ...event('copy', 'Dentist', '20240305T090000Z'),
      ...event('copy', 'Dentist', '20240305T090000Z'),
      ...event('clash', 'Call with Ana', '20240306T090000Z'),
      ...event('clash', 'Call with Bo', '20240307T090000Z'),
    ),
  );
  assert.deepEqual(
    records.map((r) => [r.body.source.external_id, (r.body.content as { title: string }).title]),
    [
      ['ics:dinner', 'Dinner at Sora (moved)'],
      ['ics:copy', 'Dentist'],
      ['ics:clash', 'Call with Ana'],
    ],
  );
  // The copy was dropped without a word, in neither the imported nor the skipped count; a copied
  // contact card is reported so (vcf.ts), and an event now is too.
  assert.deepEqual(
    skips.map((s) => [s.ref, s.reason]),
    [
      [
        'dinner',
        'event "Dinner at Sora" (SEQUENCE 0) is an older version of an event in the file; the newer one is imported',
      ],
      ['copy', 'an exact copy of the event "Dentist" in the file, which is imported'],
      [
        'clash',
        'event "Call with Bo" has the UID of another event in the file, "Call with Ana", which is imported (a UID names one event)',
      ],
    ],
  );
});

test('an invitation and its update in calendars of their own, one file: the update is the event', async () => {
  const invitation = (sequence: number, start: string, summary: string) =>
    crlf([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'METHOD:REQUEST',
      'BEGIN:VEVENT',
      'UID:dinner@example.com',
      `SEQUENCE:${sequence}`,
      `SUMMARY:${summary}`,
      `DTSTART:${start}`,
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
  const { records, skips } = await parse(
    invitation(0, '20240301T190000Z', 'Dinner') + invitation(1, '20240302T190000Z', 'Dinner (moved)'),
  );
  assert.deepEqual(
    records.map((r) => [r.body.source.external_id, (r.body.content as { title: string }).title]),
    [['ics:dinner@example.com', 'Dinner (moved)']],
  );
  assert.deepEqual(
    skips.map((s) => s.reason),
    ['event "Dinner" (SEQUENCE 0) is an older version of an event in the file; the newer one is imported'],
  );
});

test('a TZID neither defined in the file nor a zone name is read in the import zone, and said so', async () => {
  const event = (uid: string, tzid: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTART;TZID=${tzid}:20240304T090000`,
    `DTEND;TZID=${tzid}:20240304T100000`,
    `SUMMARY:${uid}`,
    'END:VEVENT',
  ];
  const t = writeTree({
    'cal.ics': crlf([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      ...event('mars', 'Mars/Olympus'),
      ...event('madrid', 'Europe/Madrid'),
      ...event('outlook', 'Pacific Standard Time'),
      'END:VCALENDAR',
    ]),
  });
  try {
    const { records } = await collect(parseIcs(join(t.root, 'cal.ics'), { timeZone: 'Europe/Lisbon' }));
    const [mars, madrid, outlook] = records;
    assert.ok(typeof mars!.body.content === 'object' && mars!.body.content.kind === 'event');
    assert.equal(mars!.body.content.starts_at, '2024-03-04T09:00:00+00:00');
    assert.equal(
      mars!.note,
      'TZID "Mars/Olympus" is neither defined in the file nor a time zone name: its times were read in Europe/Lisbon (a time zone given for the import chooses another)',
    );
    // A zone name the file does not define is followed as such, without a word.
    assert.ok(typeof madrid!.body.content === 'object' && madrid!.body.content.kind === 'event');
    assert.equal(madrid!.body.content.starts_at, '2024-03-04T09:00:00+01:00');
    assert.equal(madrid!.note, undefined);
    // Outlook's Windows zone name, without its VTIMEZONE, as CLDR maps it: Los Angeles.
    assert.ok(typeof outlook!.body.content === 'object' && outlook!.body.content.kind === 'event');
    assert.equal(outlook!.body.content.starts_at, '2024-03-04T09:00:00-08:00');
    assert.equal(outlook!.note, undefined);
  } finally {
    t.remove();
  }
});

test('a DTSTART that is no date-time is said to be one, without the value ical.js rearranged', async () => {
  const t = writeTree({
    'cal.ics': crlf([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:broken-1',
      'DTSTART:garbage',
      'SUMMARY:Broken',
      'END:VEVENT',
      'END:VCALENDAR',
    ]),
  });
  try {
    const { skips } = await collect(parseIcs(join(t.root, 'cal.ics'), {}));
    assert.deepEqual(
      skips.map((s) => s.reason),
      ['event "Broken" cannot be read: DTSTART: not a valid date-time'],
    );
  } finally {
    t.remove();
  }
});

test('calendars joined from files that each open with a byte order mark are all read, as without the marks', async () => {
  // `cat a.ics b.ics` of exports that each begin with a BOM: ical.js cannot read the file whole (a BOM
  // before BEGIN:VCALENDAR), and the block-by-block reading finds every calendar's events anyway.
  const o: ParseOptions = { now: () => new Date('2024-04-01T00:00:00Z') };
  const second = calendar.replace(/standup-1@example\.com/g, 'standup-2@example.com');
  const show = (r: Awaited<ReturnType<typeof parse>>) => [
    r.records.map((x) => [x.body.source.external_id, x.body.occurred_at]),
    r.skips,
  ];
  const plain = await parse(calendar + second, o);
  const marked = await parse('\ufeff' + calendar + '\ufeff' + second, o);
  assert.deepEqual(show(marked), show(plain));
  assert.ok(plain.records.some((r) => r.body.source.external_id?.startsWith('ics:standup-2@example.com@')));
});

test('an event that ends before it starts is kept without its end, and the report says why', async () => {
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:swapped',
      'SUMMARY:Dentist',
      'DTSTART:20240501T100000Z',
      'DTEND:20240501T090000Z',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:instant',
      'SUMMARY:Launch',
      'DTSTART:20240502T100000Z',
      'DTEND:20240502T100000Z',
      'END:VEVENT',
    ),
  );
  assert.deepEqual(skips, []);
  const [swapped, instant] = records;
  assert.ok(typeof swapped!.body.content === 'object' && swapped!.body.content.kind === 'event');
  assert.equal(swapped!.body.content.starts_at, '2024-05-01T10:00:00.000Z');
  assert.equal(swapped!.body.content.ends_at, undefined);
  assert.equal(swapped!.note, 'DTEND is before DTSTART: the event was kept without its end');
  // An end at the start is an instant event, kept as it is.
  assert.ok(typeof instant!.body.content === 'object' && instant!.body.content.kind === 'event');
  assert.equal(instant!.body.content.ends_at, '2024-05-02T10:00:00.000Z');
  assert.equal(instant!.note, undefined);
});

test("a calendar's to-dos and journal entries are documents beside its events; a cancelled one is a skip", async () => {
  // An all-day DUE is said as its date ("Due: 2026-02-01"), not as 00:00Z, which is another day west of UTC.
  const { records, skips } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:e1',
      'SUMMARY:Dentist',
      'DTSTART:20260302T093000Z',
      'END:VEVENT',
      'BEGIN:VTODO',
      'UID:t1',
      'CREATED:20260110T080000Z',
      'SUMMARY:Renew passport',
      'DUE;VALUE=DATE:20260201',
      'DESCRIPTION:Bring the old one and two photos.',
      'END:VTODO',
      'BEGIN:VTODO',
      'UID:t2',
      'DTSTAMP:20260111T080000Z',
      'SUMMARY:Book flights',
      'STATUS:COMPLETED',
      'COMPLETED:20260115T120000Z',
      'END:VTODO',
      'BEGIN:VTODO',
      'UID:t3',
      'SUMMARY:Call the bank',
      'STATUS:CANCELLED',
      'END:VTODO',
      'BEGIN:VJOURNAL',
      'UID:j1',
      'DTSTAMP:20260120T210000Z',
      'DTSTART;VALUE=DATE:20260120',
      'SUMMARY:Big decision',
      'DESCRIPTION:Decided to learn Japanese.',
      'END:VJOURNAL',
    ),
  );
  assert.deepEqual(
    records.slice(1).map((r) => [r.body.content, r.body.source.external_id, r.body.occurred_at]),
    [
      [
        {
          kind: 'document',
          title: 'To-do: Renew passport',
          text: 'To-do: Renew passport\nDue: 2026-02-01\nBring the old one and two photos.',
        },
        'ics:t1#vtodo',
        '2026-01-10T08:00:00.000Z',
      ],
      [
        {
          kind: 'document',
          title: 'To-do: Book flights',
          text: 'To-do: Book flights\nDone: 2026-01-15T12:00:00.000Z',
        },
        'ics:t2#vtodo',
        '2026-01-11T08:00:00.000Z',
      ],
      [
        { kind: 'document', title: 'Big decision', text: 'Big decision\nDecided to learn Japanese.' },
        'ics:j1#vjournal',
        '2026-01-20T00:00:00.000Z',
      ],
    ],
  );
  assert.equal((records[0]!.body.content as { kind: string }).kind, 'event');
  assert.deepEqual(
    skips.map((x) => x.reason),
    ['cancelled to-do'],
  );
});

test('a to-do due at a time of day says that time; one due on a date, in any zone, says the date', async () => {
  const todo = (uid: string, due: string) => [
    'BEGIN:VTODO',
    `UID:${uid}`,
    'DTSTAMP:20261201T080000Z',
    `SUMMARY:${uid}`,
    due,
    'END:VTODO',
  ];
  const dueLines = async (timeZone: string) => {
    const { records } = await parse(
      vcalendar(
        ...todo('date', 'DUE;VALUE=DATE:20261215'),
        ...todo('midnight', 'DUE:20261215T000000Z'),
        ...todo('afternoon', 'DUE:20261215T170000Z'),
      ),
      { timeZone },
    );
    return records.map((r) => (r.body.content as { text: string }).text.split('\n')[1]);
  };
  const expected = ['Due: 2026-12-15', 'Due: 2026-12-15T00:00:00.000Z', 'Due: 2026-12-15T17:00:00.000Z'];
  assert.deepEqual(await dueLines('America/New_York'), expected);
  assert.deepEqual(await dueLines('Asia/Tokyo'), expected);
});

test("an event's HTML description reads as text, its conference block as its join line", async () => {
  const fence = '-::~:~::~:~:~:~:~:~:~:~:~:~:~:~:~:~::~:~::-';
  const { records } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:e1',
      'SUMMARY:Team dinner',
      'DTSTART:20260302T193000Z',
      `DESCRIPTION:<b>Dress code</b>: casual<br>Bring &amp; share a dish.\\n\\n${fence}\\nJoin with Google Meet: https://meet.google.com/abc-defg-hij\\nOr dial: +1 555 0100 PIN: 123\\nLearn more about Meet at: https://support.google.com/a/users/answer/9282720\\n\\nPlease do not edit this section.\\n${fence}`,
      'END:VEVENT',
    ),
  );
  assert.deepEqual(records[1]!.body.content, {
    kind: 'document',
    title: 'Team dinner',
    text: 'Team dinner: Dress code: casual\nBring & share a dish.\n\nJoin with Google Meet: https://meet.google.com/abc-defg-hij',
  });
});

test("a plain description's angle brackets and ampersands stay as written", async () => {
  const { records } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:e2',
      'SUMMARY:Review',
      'DTSTART:20260302T193000Z',
      'DESCRIPTION:Rules: if score<b then fail\\nBudget & plans\\nInvited by Tom Reyes <tom@acme.com>',
      'END:VEVENT',
    ),
  );
  assert.equal(
    (records[1]!.body.content as { text: string }).text,
    'Review: Rules: if score<b then fail\nBudget & plans\nInvited by Tom Reyes <tom@acme.com>',
  );
});

test("a series in a zone the file defines no VTIMEZONE for keeps its last occurrence, on UNTIL's day", async () => {
  const { records } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:standup',
      'SUMMARY:Standup',
      'DTSTART;TZID=Europe/Berlin:20260302T093000',
      'RRULE:FREQ=DAILY;UNTIL=20260305T083000Z;BYDAY=MO,TU,WE,TH,FR',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:sync',
      'SUMMARY:Sync',
      'DTSTART;TZID=America/New_York:20260302T090000',
      'RRULE:FREQ=DAILY;UNTIL=20260303T130000Z',
      'END:VEVENT',
    ),
    { now: () => new Date('2026-03-01T00:00:00Z') },
  );
  assert.deepEqual(
    records.map((r) => [(r.body.content as { title: string }).title, r.body.occurred_at]),
    [
      ['Standup', '2026-03-02T09:30:00+01:00'],
      ['Standup', '2026-03-03T09:30:00+01:00'],
      ['Standup', '2026-03-04T09:30:00+01:00'],
      ['Standup', '2026-03-05T09:30:00+01:00'],
      // 09:00 New York is 14:00Z, after UNTIL on the 3rd: the 2nd only.
      ['Sync', '2026-03-02T09:00:00-05:00'],
    ],
  );
});

test('a series in a zone the importer does not know is read in the import zone to its last day, and a copy is still a copy', async () => {
  const standup = (uid: string, tzid: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'SUMMARY:Standup',
    `DTSTART;TZID=${tzid}:20260302T093000`,
    'RRULE:FREQ=DAILY;UNTIL=20260304T083000Z',
    'END:VEVENT',
  ];
  const { records, skips } = await parse(
    vcalendar(
      ...standup('outlook', 'Customized Time Zone'),
      ...standup('copy', 'Europe/Berlin'),
      ...standup('copy', 'Europe/Berlin'),
    ),
    { now: () => new Date('2026-03-01T00:00:00Z'), timeZone: 'Europe/Berlin' },
  );
  assert.deepEqual(
    records.filter((r) => r.body.source.external_id.startsWith('ics:outlook')).map((r) => r.body.occurred_at),
    ['2026-03-02T09:30:00+01:00', '2026-03-03T09:30:00+01:00', '2026-03-04T09:30:00+01:00'],
  );
  assert.ok(
    skips.some((x) => /an exact copy of the event/u.test(x.reason)),
    skips.map((x) => x.reason).join('\n'),
  );
});

test("a description's HTML tables, fonts and whole documents read as text", async () => {
  const { records } = await parse(
    vcalendar(
      'BEGIN:VEVENT',
      'UID:e3',
      'SUMMARY:Offsite',
      'DTSTART:20260302T193000Z',
      'DESCRIPTION:<html><body><table><tr><td>Room 4 &amp; 5</td><td>Floor 2</td></tr></table><font color="red">urgent</font></body></html>',
      'END:VEVENT',
    ),
  );
  const text = (records[1]!.body.content as { text: string }).text;
  assert.match(text, /Room 4 & 5/u);
  assert.doesNotMatch(text, /<|&amp;/u);
});
