import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  itemDigest,
  MissingItems,
  reconcileMissing,
  recordHeld,
  type HeldStore,
  type WholeSource,
} from './forget-missing.ts';
import { parseIcs } from './formats/ics.ts';
import { collect, writeTree } from './test-support.ts';

const calendar = (...events: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', ...events, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');
const series = vevent(
  'UID:standup@example.com',
  'DTSTART:20240101T100000Z',
  'RRULE:FREQ=DAILY;COUNT=3',
  'SUMMARY:Standup',
  'DESCRIPTION:Bring notes',
);
const override = vevent(
  'UID:standup@example.com',
  'RECURRENCE-ID:20240102T100000Z',
  'DTSTART:20240102T110000Z',
  'SUMMARY:Standup (late)',
);
const dentist = vevent('UID:dentist', 'DTSTART:20240105T090000Z', 'SUMMARY:Dentist');
const window = { windowStart: new Date('2023-12-01T00:00:00Z'), windowEnd: new Date('2024-03-01T00:00:00Z') };

/** A HeldStore in memory, as the Brain's Objects keep it, given each file's items as a Mnemo before digests did. */
function memoryStore(files: Record<string, string[]>): HeldStore {
  const held = new Map(
    Object.entries(files).map(([file, items]) => [
      file,
      { source: items[0]?.split(':')[0], digests: new Set(items.map(itemDigest)) },
    ]),
  );
  return {
    read: async (source: WholeSource) =>
      new Map([...held].filter(([, h]) => h.source === source).map(([f, h]) => [f, { digests: h.digests }])),
    write: async (source, file, digests) => {
      held.set(file, { source, digests: new Set(digests) });
      return null;
    },
  };
}

/** What a file is recorded as holding, for ITEMS. */
const digests = (...items: string[]) => items.map(itemDigest).sort();

/** What an import of the file at PATH reads: its UIDs, and the item of each Record the parser gives. */
async function imported(path: string): Promise<MissingItems> {
  const missing = new MissingItems();
  await missing.coverNotes([path], undefined, async (id) => id);
  const onText = await missing.coverFile('ics', path);
  for (const r of (await collect(parseIcs(path, { ...window, onText }))).records) missing.sawRecord(r, path);
  return missing;
}

test('a series gone from its calendar goes with every occurrence, override and description; one still there keeps them all', async () => {
  const t = writeTree({ 'cal.ics': calendar(series, override, dentist) });
  try {
    const path = realpathSync(join(t.root, 'cal.ics'));
    const stored = [
      'ics:dentist',
      'ics:standup@example.com@2024-01-01T10:00:00Z',
      'ics:standup@example.com@2024-01-02T10:00:00Z',
      'ics:standup@example.com@2023-01-01T10:00:00Z',
      'ics:standup@example.com#description',
    ];
    const store = memoryStore({ [path]: ['ics:dentist', 'ics:standup@example.com'] });
    // Still in the file: every Record of its UID stays, an occurrence the window no longer reads too.
    let plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], []);
    assert.deepEqual(plan.kept, []);

    writeFileSync(path, calendar(dentist));
    plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], [['ics', stored.slice(1)]]);
    assert.deepEqual(plan.held, [{ source: 'ics', file: path, digests: digests('ics:dentist') }]);

    // An event the parser skips (no DTSTART) is still in the file: its UID keeps its Records.
    writeFileSync(path, calendar(series, vevent('UID:dentist', 'SUMMARY:Dentist')));
    plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], []);

    // Its override alone left in the file (a RECURRENCE-ID of the UID): the series is still there.
    writeFileSync(path, calendar(override, dentist));
    plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], []);
  } finally {
    t.remove();
  }
});

test('an occurrence a series no longer gives (deleted, cancelled, a rule moved) is missing; one outside what was read is kept', async () => {
  const weekly = (...extra: string[]) =>
    vevent(
      'UID:standup@example.com',
      'DTSTART:20240101T100000Z',
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'SUMMARY:Standup',
      ...extra,
    );
  const at = (day: string) => `ics:standup@example.com@2024-01-${day}T10:00:00Z`;
  const t = writeTree({ 'cal.ics': calendar(weekly(), dentist) });
  try {
    const path = realpathSync(join(t.root, 'cal.ics'));
    const store = memoryStore({ [path]: ['ics:dentist', 'ics:standup@example.com'] });
    // Stored by earlier imports: the four Mondays, one from before the window, and the description.
    const stored = [
      'ics:dentist',
      at('01'),
      at('08'),
      at('15'),
      at('22'),
      'ics:standup@example.com@2023-06-05T10:00:00Z',
      'ics:standup@example.com#description',
    ];
    // All read, or outside what was read (before the window): nothing is missing.
    let plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], []);

    // The 15th deleted (EXDATE): that occurrence alone is missing.
    writeFileSync(path, calendar(weekly('EXDATE:20240115T100000Z'), dentist));
    plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], [['ics', [at('15')]]]);

    // The 8th cancelled by an override of its own.
    const cancelled = vevent(
      'UID:standup@example.com',
      'RECURRENCE-ID:20240108T100000Z',
      'DTSTART:20240108T100000Z',
      'STATUS:CANCELLED',
      'SUMMARY:Standup',
    );
    writeFileSync(path, calendar(weekly(), cancelled, dentist));
    plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], [['ics', [at('08')]]]);

    // Moved from Mondays to Tuesdays: every Monday in the window read is gone; one before it is kept.
    writeFileSync(
      path,
      calendar(
        vevent(
          'UID:standup@example.com',
          'DTSTART:20240102T100000Z',
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'SUMMARY:Standup',
        ),
        dentist,
      ),
    );
    plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], [['ics', [at('01'), at('08'), at('15'), at('22')]]]);
  } finally {
    t.remove();
  }
});

test('occurrences in wall time are judged only well inside the window; past a cap, only between those read', async () => {
  const t = writeTree({
    'cal.ics': calendar(
      vevent(
        'UID:yoga',
        'DTSTART;TZID=Europe/Lisbon:20240101T100000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
        'SUMMARY:Yoga',
      ),
    ),
  });
  try {
    const path = realpathSync(join(t.root, 'cal.ics'));
    const store = memoryStore({ [path]: ['ics:yoga'] });
    const stored = [
      'ics:yoga@2024-01-01T10:00:00',
      'ics:yoga@2024-01-22T10:00:00',
      // The window opens on 1 December, UTC: a wall time on its first hours may lie before it.
      'ics:yoga@2023-12-01T05:00:00',
      'ics:yoga@2024-02-29T20:00:00',
    ];
    const plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], [['ics', ['ics:yoga@2024-01-22T10:00:00']]]);
  } finally {
    t.remove();
  }
  // A daily rule over a window longer than the cap keeps the occurrences nearest to now: the others in
  // the window were not read, and stay.
  const daily = writeTree({
    'cal.ics': calendar(vevent('UID:pill', 'DTSTART:20200101T080000Z', 'RRULE:FREQ=DAILY', 'SUMMARY:Pill')),
  });
  try {
    const path = realpathSync(join(daily.root, 'cal.ics'));
    const store = memoryStore({ [path]: ['ics:pill'] });
    const wide = {
      windowStart: new Date('2020-01-01T00:00:00Z'),
      windowEnd: new Date('2024-03-01T00:00:00Z'),
    };
    const missing = new MissingItems();
    await missing.coverNotes([path], undefined, async (id) => id);
    const onText = await missing.coverFile('ics', path);
    const { records } = await collect(
      parseIcs(path, { ...wide, now: () => new Date('2024-02-01T00:00:00Z'), onText }),
    );
    for (const r of records) missing.sawRecord(r, path);
    const plan = await missing.missing(async () => ['ics:pill@2020-01-02T08:00:00Z'], store);
    assert.deepEqual([...plan.bySource], []);
  } finally {
    daily.remove();
  }
});

test('an event without UID is named by its title and start: edited, the old one is missing, the new one is not', async () => {
  const noUid = (title: string) => vevent('DTSTART:20240110T090000Z', `SUMMARY:${title}`);
  const t = writeTree({ 'cal.ics': calendar(noUid('Gym'), dentist) });
  try {
    const path = realpathSync(join(t.root, 'cal.ics'));
    const first = await collect(parseIcs(path, window));
    const gym = first.records.find((r) => r.ref !== 'dentist')!;
    assert.match(gym.item!, /^ics:sha256:/);
    const store = memoryStore({ [path]: ['ics:dentist', gym.item!] });
    writeFileSync(path, calendar(noUid('Gym with Ana'), dentist));
    const stored = ['ics:dentist', gym.body.source.external_id];
    const plan = await (await imported(path)).missing(async () => stored, store);
    assert.deepEqual([...plan.bySource], [['ics', [gym.body.source.external_id]]]);
  } finally {
    t.remove();
  }
});

test('what no file was recorded as holding is kept and counted; a calendar holding none of what it held is refused', async () => {
  const t = writeTree({ 'cal.ics': calendar(dentist) });
  try {
    const path = realpathSync(join(t.root, 'cal.ics'));
    // Imported before files were recorded: which file it came from is unknown.
    let plan = await (await imported(path)).missing(async () => ['ics:dentist', 'ics:old'], memoryStore({}));
    assert.deepEqual([...plan.bySource], []);
    assert.match(plan.kept.join('\n'), /^1 calendar event the Brain holds is in no calendar \(\.ics\) file/);
    assert.deepEqual(plan.held, [{ source: 'ics', file: path, digests: digests('ics:dentist') }]);

    // Every event it held is gone from it: more likely an empty export or another file than all deleted.
    const store = memoryStore({ [path]: ['ics:a', 'ics:b'] });
    plan = await (await imported(path)).missing(async () => ['ics:a', 'ics:b', 'ics:dentist'], store);
    assert.deepEqual([...plan.bySource], []);
    assert.match(
      plan.kept.join('\n'),
      /the 2 calendar events the Brain holds from ".*cal\.ics" are all missing/,
    );
    // Still known as the file's, for when it is right.
    assert.deepEqual(plan.held, [
      { source: 'ics', file: path, digests: digests('ics:a', 'ics:b', 'ics:dentist') },
    ]);
  } finally {
    t.remove();
  }
});

test('what a file holds, not recorded for want of a scope, is said per file; also when nothing was written', async () => {
  const t = writeTree({ 'cal.ics': calendar(dentist) });
  try {
    const path = realpathSync(join(t.root, 'cal.ics'));
    const noReads: HeldStore = { read: async () => null, write: async () => null };
    const noWrites: HeldStore = { read: async () => new Map(), write: async () => 'no objects:write' };
    const [unread] = await recordHeld(await imported(path), noReads);
    assert.match(unread!, /cal\.ics" holds now was not recorded \(.*objects:read\): .* kept, not forgotten/);
    const [unwritten] = await recordHeld(await imported(path), noWrites);
    assert.match(unwritten!, /not recorded \(no objects:write\)/);
    const done = await reconcileMissing(await imported(path), {
      written: 0,
      failed: 0,
      nothingWritten: 'nothing was written',
      stored: async () => [],
      forget: async () => ({ deleted: { records: 0, memories: 0 } }),
      held: noReads,
    });
    assert.equal(done.notes[0], 'nothing was written');
    assert.match(done.notes[1]!, /cal\.ics" holds now was not recorded/);
  } finally {
    t.remove();
  }
});
