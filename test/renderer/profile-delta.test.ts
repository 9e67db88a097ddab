// A Memories delta applied to the loaded Profile (renderer/api/profile-delta.ts), under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profileGroupOf, type Memory, type Profile } from '../../engine/contract/index.ts';
import {
  applyDeltaToProfile,
  applyDeltaToUpcoming,
  dueByClock,
  nextClockChange,
  spliceFresh,
  stampProfile,
  type ProfileData,
} from '../../renderer/api/profile-delta.ts';
import { mem } from './memory-fixture.ts';

const now = Date.parse('2025-01-01T00:00:00Z');
const day = (d: number) => new Date(Date.UTC(2024, 0, d)).toISOString();

/** A Memory of the self dated day `d`; `slotted` holds a slot. */
const m = (id: string, d: number, slotted = true, status: Memory['status'] = 'active'): Memory => ({
  ...mem(id, 'Ana', slotted ? `p_${id}` : null, `line ${id}`, status),
  valid_from: day(d),
});
/** A health line of the self's (an allergy: no slot) dated day `d`. */
const h = (id: string, d: number): Memory => ({
  ...mem(id, 'Ana', null, `I'm allergic to ${id}.`),
  valid_from: day(d),
});

const line = (x: Memory): Profile['lines'][number] => ({
  memory_id: x.id,
  statement: x.statement,
  subject: x.subject,
  valid_from: x.valid_from,
  citations: x.citations,
  group: profileGroupOf(x),
});

/** A loaded Profile: pages of Memories, the last with `more` when "Show more" would read on. */
const profile = (pages: Memory[][], more = false): ProfileData => ({
  pages: pages.map((ms, i) => ({
    object: 'profile',
    brain_id: 'b',
    self: { type: 'person', name: 'Ana' },
    watermark: 'wm_1',
    lines: ms.map(line),
    has_more: i === pages.length - 1 ? more : true,
    next_cursor: i === pages.length - 1 && !more ? null : `c${i}`,
  })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});

const ids = (d: ProfileData) => d.pages.map((p) => p.lines.map((l) => l.memory_id));
const delta = (changed: Memory[], removed: string[] = []) => ({ changed, removed: new Set(removed) });

const a = m('a', 30);
const b = m('b', 20);
const c = m('c', 10);
const d = m('d', 5);

test('a line removed, withdrawn or no longer the self’s leaves the Profile; one changed in place is replaced', () => {
  const out = applyDeltaToProfile(
    profile(
      [
        [a, b],
        [c, d],
      ],
      true,
    ),
    delta(
      [
        { ...b, status: 'retracted' },
        { ...c, owner: { state: 'other' } },
        { ...d, statement: 'now d' },
      ],
      ['a'],
    ),
    now,
  );
  assert.deepEqual(ids(out.data), [[], ['d']]);
  assert.equal(out.data.pages[1]!.lines[0]!.statement, 'now d');
  assert.deepEqual(out.unplaced, []);
  // Cursors are kept: "Show more" goes on from where it was.
  assert.equal(out.data.pages[1]!.next_cursor, 'c1');
});

test('a slot’s value newer than every loaded line goes on top; a value dated later than now is not a line', () => {
  const e = m('e', 40);
  const future = { ...m('f', 40), valid_from: '2030-01-01T00:00:00Z' };
  const out = applyDeltaToProfile(profile([[a, b], [c]], true), delta([e, future]), now);
  assert.deepEqual(ids(out.data), [['e', 'a', 'b'], ['c']]);
  assert.deepEqual(out.unplaced, []);
});

test('a new line goes where its group and date put it: health on top, a slot’s value among them by date, a line past the loaded ones with Show more', () => {
  const allergy = h('h', 1);
  const older = m('o', 15);
  const note = m('n', 40, false);
  const out = applyDeltaToProfile(profile([[a, b], [c]], true), delta([allergy, older, note]), now);
  assert.deepEqual(ids(out.data), [
    ['h', 'a', 'b'],
    ['o', 'c'],
  ]);
  assert.deepEqual(out.unplaced, []);
  // Read to its end: past them, in the Profile's order.
  const whole = applyDeltaToProfile(profile([[a, b], [c]]), delta([m('o', 1), note]), now);
  assert.deepEqual(ids(whole.data), [
    ['a', 'b'],
    ['c', 'o', 'n'],
  ]);
});

test('a line dated as a loaded line of its group is left for a read: write order, which a line does not carry, decides', () => {
  const tie = m('t', 30);
  // Dated as `a` too, in another group: its place is known.
  const note = m('n', 30, false);
  const out = applyDeltaToProfile(
    profile([
      [a, b],
      [c, m('x', 9, false)],
    ]),
    delta([tie, note]),
    now,
  );
  assert.deepEqual(ids(out.data), [
    ['a', 'b'],
    ['c', 'n', 'x'],
  ]);
  assert.deepEqual(
    out.unplaced.map((x) => x.id),
    ['t'],
  );
});

test('the last loaded line holding no slot: a line holding none goes by its date, or with Show more when older', () => {
  const older = applyDeltaToProfile(
    profile([[a, b], [m('x', 9, false)]], true),
    delta([m('n1', 8, false)]),
    now,
  );
  assert.deepEqual(ids(older.data), [['a', 'b'], ['x']]);
  assert.deepEqual(older.unplaced, []);
  const newer = applyDeltaToProfile(
    profile([[a], [m('x', 9, false)]], true),
    delta([m('n2', 12, false)]),
    now,
  );
  assert.deepEqual(ids(newer.data), [['a'], ['n2', 'x']]);
  assert.deepEqual(newer.unplaced, []);
});

test('a line whose statement comes to speak of health leaves its place for the top', () => {
  const out = applyDeltaToProfile(
    profile([[a, b], [c]], true),
    delta([{ ...b, statement: 'Ana allergies: penicillin' }]),
    now,
  );
  assert.deepEqual(ids(out.data), [['b', 'a'], ['c']]);
  assert.equal(out.data.pages[0]!.lines[0]!.group, 'health');
});

test('an empty Profile read to its end takes the new lines, health first, then slots’ values', () => {
  const out = applyDeltaToProfile(profile([[]]), delta([m('n', 40, false), m('s', 1), h('h', 2)]), now);
  assert.deepEqual(ids(out.data), [['h', 's', 'n']]);
  // Not read to its end: where its first lines go is not known without a read.
  const more = applyDeltaToProfile(profile([[]], true), delta([m('n', 40, false)]), now);
  assert.deepEqual(
    more.unplaced.map((x) => x.id),
    ['n'],
  );
});

test('pages read again from the top join the loaded ones once they hold the new line and meet a loaded line', () => {
  const loaded = profile(
    [
      [a, b],
      [c, d],
    ],
    true,
  );
  const n = m('n', 25, false);
  const x = m('x', 3);
  const fresh1 = profile([[a, n]], true).pages;
  // The new line read, but the read's last line is not a loaded one yet: read on.
  assert.equal(spliceFresh(loaded, fresh1, [null], ['n', 'x']), null);
  const fresh2 = profile([[a, n], [b]], true).pages;
  const joined = spliceFresh(loaded, fresh2, [null, 'c0'], ['n']);
  assert.ok(joined);
  assert.deepEqual(ids(joined), [['a', 'n'], ['b'], ['c', 'd']]);
  assert.equal(joined.pages.at(-1)!.next_cursor, 'c1');
  // Each page with the cursor it was read from.
  assert.deepEqual(joined.pageParams, [null, 'c0', 'c0']);
  // Read as far as was loaded without meeting the line: the read is the Profile.
  const all = profile(
    [
      [a, b],
      [c, x],
    ],
    true,
  ).pages;
  assert.deepEqual(ids(spliceFresh(loaded, all, [null, 'c0'], ['n'])!), [
    ['a', 'b'],
    ['c', 'x'],
  ]);
});

test('a Profile brought up to a watermark says so on every page', () => {
  const out = stampProfile(profile([[a], [b]]), 'wm_9');
  assert.deepEqual(
    out.pages.map((p) => p.watermark),
    ['wm_9', 'wm_9'],
  );
});

test('the Profile’s next change by the clock is the earliest start of a value dated later, or end of one in force', () => {
  const later = { ...m('later', 400, true, 'scheduled'), valid_from: '2025-03-01T00:00:00Z' };
  const sooner = { ...m('sooner', 400, true, 'scheduled'), valid_from: '2025-02-01T00:00:00Z' };
  const ending = { ...m('ending', 1), valid_to: '2025-01-15T00:00:00Z' };
  assert.equal(nextClockChange([]), null);
  assert.equal(nextClockChange([later, sooner]), Date.parse('2025-02-01T00:00:00Z'));
  assert.equal(nextClockChange([later, sooner, ending]), Date.parse('2025-01-15T00:00:00Z'));
  assert.deepEqual(
    dueByClock([later, sooner, ending], Date.parse('2025-02-01T00:00:00Z')).map((x) => x.id),
    ['sooner', 'ending'],
  );
});

test('a delta keeps the values the clock will change: new ones join, begun or removed ones leave', () => {
  const s1 = { ...m('s1', 400, true, 'scheduled'), valid_from: '2025-03-01T00:00:00Z' };
  const s2 = { ...m('s2', 400, true, 'scheduled'), valid_from: '2025-04-01T00:00:00Z' };
  const s3 = { ...m('s3', 400, true, 'scheduled'), valid_from: '2025-05-01T00:00:00Z' };
  const other = { ...s3, id: 'o', owner: { state: 'other' as const, entity: 'Tom' } };
  const out = applyDeltaToUpcoming([s1, s2], delta([{ ...s1, status: 'active' }, s3, other, a], ['s2']));
  assert.deepEqual(
    out.map((x) => x.id),
    ['s3'],
    'another’s value dated later, or a current one with no end, changes no line of the Profile',
  );
});

test('one sentence that closed several plans, a new Memory of each, is one new line', () => {
  const offOf = (id: string): Memory => ({
    ...mem(id, 'Ana', null, 'We cancelled Vienna.'),
    valid_from: day(25),
    citations: [{ record_id: 'rec_off', quote: 'We cancelled Vienna.' }],
  });
  const out = applyDeltaToProfile(
    profile([[a, b, c, d]]),
    delta([offOf('x1'), offOf('x2'), offOf('x3')]),
    now,
  );
  assert.equal(out.data.pages[0]!.lines.filter((l) => l.statement === 'We cancelled Vienna.').length, 1);
  // Said again in another Record, it is a line of its own (dated as a loaded one: read for its place).
  const again = { ...offOf('y'), citations: [{ record_id: 'rec_again', quote: 'We cancelled Vienna.' }] };
  const twice = applyDeltaToProfile(out.data, delta([offOf('x4'), again]), now);
  assert.deepEqual(
    twice.unplaced.map((u) => u.id),
    ['y'],
  );
});

test("a break-up's sentence beside its slot line, which quotes it, is not a new line of the rest", () => {
  const said = 'Petra and I broke up tonight.';
  const cited = [{ record_id: 'rec_breakup', quote: said }];
  const ended = {
    ...mem('ended', 'Ana', 'girlfriend', "Ana's girlfriend is no longer Petra"),
    valid_from: day(25),
  };
  const sentence = { ...mem('sentence', 'Ana', null, said), valid_from: day(25) };
  const out = applyDeltaToProfile(
    profile([[a, b, c, d]]),
    delta([
      { ...ended, citations: cited },
      { ...sentence, citations: cited },
    ]),
    now,
  );
  const lines = out.data.pages[0]!.lines.map((l) => l.statement);
  assert.ok(lines.includes("Ana's girlfriend is no longer Petra"));
  assert.ok(!lines.includes(said));
  // The same words from another Record are a line of their own.
  const elsewhere = applyDeltaToProfile(
    profile([[a, b, c, d]]),
    delta([
      { ...sentence, citations: [{ record_id: 'rec_other', quote: said }] },
      { ...ended, citations: cited },
    ]),
    now,
  );
  assert.ok(elsewhere.data.pages[0]!.lines.some((l) => l.statement === said));
});
