// All-day events read as their day, whatever the viewer's zone. The zone is set west of UTC before
// the renderer's modules are loaded (their date formats are made once, in the zone of that moment).
process.env.TZ = 'America/Los_Angeles';

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { allDayDays, textDays as daysAt } from '../../engine/contract/all-day.ts';
import type { TypedContent } from '../../engine/contract/index.ts';
import { recordText } from '../../engine/core/derive/record-text.ts';
import { parseIcs } from '../../server/import/formats/ics.ts';
import { birthdayAndDentist, collect, icsOf, writeTree } from '../../server/import/test-support.ts';

const { evidenceDays, evidenceWhen, eventTimesWorded, formatAllDay, formatDays, memoryDays, recordDays } =
  await import('../../renderer/all-day.ts');
const { validitySpan } = await import('../../renderer/format.ts');

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const textDays = (text: string, at: string) => daysAt(text, Date.parse(at));
const event = (starts_at?: string, ends_at?: string): Extract<TypedContent, { kind: 'event' }> => ({
  kind: 'event',
  title: "Mum's birthday",
  ...(starts_at ? { starts_at } : {}),
  ...(ends_at ? { ends_at } : {}),
});

test('an event from a UTC midnight to a UTC midnight whole days later, or with no end, is all-day', () => {
  assert.deepEqual(allDayDays('2024-04-15T00:00:00.000Z', '2024-04-16T00:00:00.000Z'), {
    first: day('2024-04-15'),
    last: day('2024-04-15'),
  });
  assert.deepEqual(allDayDays('2024-04-15T00:00:00Z', '2024-04-18T00:00:00Z'), {
    first: day('2024-04-15'),
    last: day('2024-04-17'),
  });
  assert.deepEqual(allDayDays('2024-04-15T00:00:00+00:00', undefined), {
    first: day('2024-04-15'),
    last: day('2024-04-15'),
  });
  assert.deepEqual(allDayDays('2024-04-15T00:00:00Z', '2024-04-15T00:00:00Z'), {
    first: day('2024-04-15'),
    last: day('2024-04-15'),
  });
});

test('an event with a time of day, an offset of its own, or an end that is not a midnight is not all-day', () => {
  assert.equal(allDayDays('2024-04-15T09:30:00Z', '2024-04-15T10:00:00Z'), null);
  assert.equal(allDayDays('2024-04-15T00:00:00Z', '2024-04-15T01:00:00Z'), null, 'one hour from 00:00Z');
  // 01:00 in Lisbon is 00:00Z, but it was written as Lisbon's wall time: a time, not a day.
  assert.equal(allDayDays('2024-04-15T01:00:00+01:00', '2024-04-16T01:00:00+01:00'), null);
  assert.equal(allDayDays('2024-04-15T00:00:00Z', '2024-04-14T00:00:00Z'), null, 'ends before it starts');
  assert.equal(allDayDays(undefined, '2024-04-16T00:00:00Z'), null);
  assert.equal(allDayDays('not a time', undefined), null);
});

test("a Record's occurred_at names a day only when it is an all-day event dated at its start", () => {
  const at = '2024-04-15T00:00:00.000Z';
  assert.deepEqual(recordDays({ content: event(at, '2024-04-16T00:00:00.000Z'), occurred_at: at }), {
    first: day('2024-04-15'),
    last: day('2024-04-15'),
  });
  assert.equal(
    recordDays({ content: event(at, '2024-04-16T00:00:00.000Z'), occurred_at: '2024-04-10T08:00:00Z' }),
    null,
    'written down at another time: that time is an instant',
  );
  assert.equal(recordDays({ content: { kind: 'document', text: 'Note' }, occurred_at: at }), null);
});

test("evidence and an event's Memory are read from the engine's own line for the event", () => {
  const at = '2024-04-15T00:00:00.000Z';
  const content = { ...event(at, '2024-04-17T00:00:00.000Z'), place: 'Porto', participants: ['Ana'] };
  const text = recordText(content);
  assert.deepEqual(textDays(text, at), { first: day('2024-04-15'), last: day('2024-04-16') });
  assert.deepEqual(memoryDays({ statement: text, valid_from: at }), {
    first: day('2024-04-15'),
    last: day('2024-04-16'),
  });
  assert.equal(memoryDays({ statement: text, valid_from: '2024-04-20T00:00:00Z' }), null, 'another start');
  assert.equal(textDays(recordText(event(at)), at)?.last, day('2024-04-15'));
  const timed = recordText(event('2024-04-15T09:00:00+01:00', '2024-04-15T10:00:00+01:00'));
  assert.equal(textDays(timed, '2024-04-15T08:00:00Z'), null);
  assert.equal(textDays('I was born when: 2024-04-15T00:00:00Z', at), null, 'not the event line');
});

test('all-day events show the day of the calendar west of UTC, with no time', () => {
  const at = '2024-04-15T00:00:00.000Z';
  const one = { first: day('2024-04-15'), last: day('2024-04-15') };
  assert.equal(formatDays(one), 'Apr 15, 2024');
  assert.equal(formatAllDay(one), 'Apr 15, 2024 (all day)');
  // ICU puts thin spaces around the dash.
  assert.match(formatDays({ first: day('2024-04-15'), last: day('2024-04-17') }), /^Apr 15\s–\s17, 2024$/u);
  const evidence = {
    kind: 'event',
    text: recordText(event(at, '2024-04-16T00:00:00.000Z')),
    occurred_at: at,
  };
  assert.equal(evidenceWhen(evidence), 'Apr 15, 2024 (all day)');
  // A time of day keeps the viewer's zone: 09:00 in Lisbon is 01:00 in Los Angeles.
  assert.match(evidenceWhen({ ...evidence, kind: 'message', occurred_at: '2024-04-15T08:00:00Z' }), /1:00/);
  assert.equal(validitySpan(at, null, true), 'since Apr 15, 2024');
  assert.equal(validitySpan(at, null), 'since Apr 14, 2024', "in the viewer's zone it is the day before");
});

test("the calendar importer's all-day event is recognised as one, and its timed event is not", async () => {
  const t = writeTree({
    'cal.ics': icsOf(...birthdayAndDentist, [
      'UID:trip@example.com',
      'DTSTART;VALUE=DATE:20240420',
      'SUMMARY:Trip',
    ]),
  });
  try {
    const { records } = await collect(parseIcs(join(t.root, 'cal.ics'), {}));
    const days = (title: string) => {
      const body = records.find((r) => (r.body.content as { title?: string }).title === title)!.body;
      return recordDays({ content: body.content as TypedContent, occurred_at: body.occurred_at! });
    };
    assert.deepEqual(days("Mum's birthday"), { first: day('2024-04-15'), last: day('2024-04-15') });
    assert.deepEqual(days('Trip'), { first: day('2024-04-20'), last: day('2024-04-20') });
    assert.equal(days('Dentist'), null);
  } finally {
    t.remove();
  }
});

test("an event's line reads its times as dates: an all-day one as its day, a timed one as a span", () => {
  assert.equal(
    eventTimesWorded("Maya's birthday; when: 2027-03-14T00:00:00.000Z to 2027-03-15T00:00:00.000Z"),
    "Maya's birthday; when: Mar 14, 2027 (all day)",
  );
  // 18:00-19:30 UTC in Los Angeles (this file's zone): 10:00-11:30 AM.
  assert.match(
    eventTimesWorded('Portuguese class; when: 2026-11-17T18:00:00Z to 2026-11-17T19:30:00Z; where: Rua X'),
    /^Portuguese class; when: Nov 17, 2026, 10:00\s?–\s?11:30\sAM; where: Rua X$/u,
  );
  for (const text of [
    'Ana lives in Porto',
    'Dentist; when: soon',
    'Dentist; when: 2026-11-17T18:00:00Z to nope',
    'Dinner with Tom; when: 7/8; bring wine',
    'Dinner; when: 2024-06-01 to 2024-05-30',
    'Dinner; when: 2024-06-01 to 2024-06-02T00:00:00.000Z',
  ])
    assert.equal(eventTimesWorded(text), text);
});

test("an all-day event's line says its days as dates, the last inclusive; a timed one its instants", () => {
  const at = '2026-12-23T00:00:00.000Z';
  const trip = { ...event(at, '2026-12-27T00:00:00.000Z'), title: 'Trip to Porto' };
  assert.equal(recordText(trip), 'Trip to Porto; when: 2026-12-23 to 2026-12-26');
  assert.equal(recordText(event(at, '2026-12-24T00:00:00.000Z')), "Mum's birthday; when: 2026-12-23");
  assert.equal(recordText(event(at, at)), "Mum's birthday; when: 2026-12-23", 'an end at its start: one day');
  assert.equal(recordText(event(at)), "Mum's birthday; when: 2026-12-23");
  assert.equal(
    recordText(event('2026-12-23T09:00:00+01:00', '2026-12-23T10:00:00+01:00')),
    "Mum's birthday; when: 2026-12-23T09:00:00+01:00 to 2026-12-23T10:00:00+01:00",
  );
  assert.equal(
    recordText(event(at, '2026-12-23T01:00:00.000Z')),
    "Mum's birthday; when: 2026-12-23T00:00:00.000Z to 2026-12-23T01:00:00.000Z",
  );
});

test('an all-day event reads as the same days in the text written now and in the text written before', () => {
  const at = '2026-12-23T00:00:00.000Z';
  const days = { first: day('2026-12-23'), last: day('2026-12-26') };
  const now = 'Trip to Porto; when: 2026-12-23 to 2026-12-26; where: Porto';
  const before = 'Trip to Porto; when: 2026-12-23T00:00:00.000Z to 2026-12-27T00:00:00.000Z; where: Porto';
  for (const text of [now, before]) {
    assert.deepEqual(textDays(text, at), days);
    assert.deepEqual(memoryDays({ statement: text, valid_from: at }), days);
    assert.deepEqual(evidenceDays({ kind: 'event', text, occurred_at: at }), days);
    assert.match(eventTimesWorded(text), /^Trip to Porto; when: Dec 23\s–\s26, 2026; where: Porto$/u);
  }
  assert.equal(
    eventTimesWorded("Maya's birthday; when: 2027-03-14"),
    "Maya's birthday; when: Mar 14, 2027 (all day)",
  );
  assert.equal(textDays('Trip; when: 2026-12-23', at)?.last, day('2026-12-23'));
});
