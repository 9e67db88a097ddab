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
