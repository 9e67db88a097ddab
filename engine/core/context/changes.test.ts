import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChangedVersion, ChangeEvent } from '../../ports/index.ts';
import { statementKey } from '../derive/statement-key.ts';
import { recordChanges } from './changes.ts';

const version = (
  id: string,
  lineage: string,
  n: number,
  statement: string,
  more: Partial<ChangedVersion> = {},
): ChangedVersion => ({
  id,
  lineage,
  slot: null,
  version: n,
  statement,
  norm: statementKey(statement),
  subject: 'Lea Horvat',
  predicate: null,
  status: 'active',
  pending: false,
  corrects: null,
  cause: 'derived',
  recordId: `rec_${id}`,
  ...more,
});
const slot = (subject: string, predicate: string) => ({
  slot: `${subject.toLowerCase()}\u001f${predicate}`,
  subject,
  predicate,
});
const made = (
  recordId: string,
  memoryId: string,
  day: number,
  more: Partial<ChangeEvent> = {},
): ChangeEvent => ({
  recordId,
  memoryId,
  occurredAt: `2026-12-0${day}T10:00:00+01:00`,
  occurredMs: Date.UTC(2026, 11, day, 9),
  how: 'version',
  evidence: true,
  ...more,
});

const dentist = slot('Lea Horvat', 'dentist');
const perić = version('m1', 'L1', 1, 'Lea Horvat dentist: Dr. Perić', { ...dentist, status: 'superseded' });
const babić = version('m2', 'L1', 2, 'Lea Horvat dentist: Dr. Babić', dentist);
const birthday = slot('Marko', 'birthday');
const march3 = version('m3', 'L2', 1, "Marko's birthday is March 3", { ...birthday, status: 'superseded' });
const march13 = version('m4', 'L2', 2, "Marko's birthday is March 13", {
  ...birthday,
  corrects: 'm3',
  cause: 'correction',
});
const booked = version('m5', 'L3', 1, 'Booked the trip for December 12 to 15.', { status: 'superseded' });
const movedTrip = version('m6', 'L3', 2, 'We moved the trip: it is now January 9 to 12.', {
  cause: 'superseded_by_record',
});

describe('what changed in a span, a block per Record', () => {
  it('each next version as its value before and after, a correction said so, oldest first', () => {
    const shown = recordChanges({
      events: [made('r4', 'm4', 4), made('r6', 'm6', 3), made('r2', 'm2', 2)],
      versions: [perić, babić, march3, march13, booked, movedTrip],
    });
    assert.deepEqual(
      shown.map((c) => [c.recordId, c.memoryIds, c.shown]),
      [
        [
          'r2',
          ['m2'],
          [
            {
              how: 'changed',
              what: "Lea Horvat's dentist",
              from: 'Dr. Perić',
              to: 'Dr. Babić',
              on: '2026-12-02',
            },
          ],
        ],
        [
          'r6',
          ['m6'],
          [
            {
              how: 'changed',
              what: null,
              from: 'Booked the trip for December 12 to 15.',
              to: 'We moved the trip: it is now January 9 to 12.',
              on: '2026-12-03',
            },
          ],
        ],
        [
          'r4',
          ['m4'],
          [{ how: 'corrected', what: "Marko's birthday", from: 'March 3', to: 'March 13', on: '2026-12-04' }],
        ],
      ],
    );
  });

  it('a value before that the request may not see is said to be there, not shown', () => {
    const [c] = recordChanges({
      events: [made('r2', 'm2', 2)],
      versions: [{ ...perić, recordId: null }, babić],
    });
    assert.deepEqual(c!.shown[0], {
      how: 'changed',
      what: "Lea Horvat's dentist",
      from: null,
      fromHidden: true,
      to: 'Dr. Babić',
      on: '2026-12-02',
    });
  });

  it('leaves out a value contested (both stand) and one said again in the same words', () => {
    const contested = recordChanges({
      events: [made('r2', 'm2', 2)],
      versions: [{ ...perić, status: 'active' }, babić],
    });
    assert.deepEqual(contested, []);
    const again = recordChanges({
      events: [made('r2', 'm2', 2)],
      versions: [perić, { ...babić, statement: perić.statement, norm: perić.norm }],
    });
    assert.deepEqual(again, []);
  });

  it('a slot first valued in the span is new, after the changes; not where its lineage changed too', () => {
    const therapist = version(
      'm7',
      'L4',
      1,
      "Lea Horvat's therapist is Dr. Kovač",
      slot('Lea Horvat', 'therapist'),
    );
    const chatter = version('m8', 'L5', 1, 'Had pasta for lunch.');
    const shown = recordChanges({
      events: [made('r2', 'm2', 2), made('r1', 'm1', 1), made('r7', 'm7', 1), made('r8', 'm8', 1)],
      versions: [perić, babić, therapist, chatter],
    });
    assert.deepEqual(
      shown.map((c) => [c.recordId, c.shown.map((x) => x.how)]),
      [
        ['r2', ['changed']],
        ['r7', ['new']],
      ],
    );
    assert.equal(shown[1]!.shown[0]!.to, 'Dr. Kovač');
    // A first value a correction says never held is no new value.
    const never = recordChanges({ events: [made('r3', 'm3', 1)], versions: [march3, march13] });
    assert.deepEqual(never, []);
  });

  it('a withdrawal quotes the Record that withdrew, or where it cannot be quoted, the one withdrawn', () => {
    const gym = version('m9', 'L6', 1, 'I have a gym class on Friday.', { status: 'retracted' });
    const bySaying = recordChanges({
      events: [made('r10', 'm9', 2, { how: 'retracted' })],
      versions: [gym],
    });
    assert.deepEqual(bySaying[0], {
      recordId: 'r10',
      memoryIds: ['m9'],
      shown: [
        { how: 'withdrawn', what: null, from: 'I have a gym class on Friday.', to: null, on: '2026-12-02' },
      ],
    });
    const bare = recordChanges({
      events: [made('r10', 'm9', 2, { how: 'retracted', evidence: false })],
      versions: [gym],
    });
    assert.equal(bare[0]!.recordId, 'rec_m9');
    // Neither may be quoted: nothing to show.
    assert.deepEqual(
      recordChanges({
        events: [made('r10', 'm9', 2, { how: 'retracted', evidence: false })],
        versions: [{ ...gym, recordId: null }],
      }),
      [],
    );
  });

  it('a Record that made several changes is one block, at its first', () => {
    const event = version('m11', 'L7', 1, 'Flight to Lisbon; when: 2026-12-12', { status: 'superseded' });
    const eventMoved = version('m12', 'L7', 2, 'We moved the trip: it is now January 9 to 12.', {
      cause: 'superseded_by_record',
    });
    const shown = recordChanges({
      events: [made('r6', 'm6', 3), made('r6', 'm12', 3)],
      versions: [booked, movedTrip, event, eventMoved],
    });
    assert.equal(shown.length, 1);
    assert.deepEqual(shown[0]!.memoryIds, ['m6', 'm12']);
    assert.deepEqual(
      shown[0]!.shown.map((x) => x.from),
      ['Booked the trip for December 12 to 15.', 'Flight to Lisbon; when: 2026-12-12'],
    );
  });

  it('with words of what it asks about, only the changes saying the most of them', () => {
    const read = {
      events: [made('r4', 'm4', 4), made('r2', 'm2', 2), made('r6', 'm6', 3)],
      versions: [
        perić,
        babić,
        march3,
        march13,
        { ...booked, statement: 'Booked the trip with Marko.' },
        movedTrip,
      ],
    };
    const of = (topic: string[]) => recordChanges(read, topic).map((c) => c.recordId);
    assert.deepEqual(of(['marko']), ['r6', 'r4']);
    assert.deepEqual(of(['marko', 'birthday']), ['r4']);
    assert.deepEqual(of(['dentist']), ['r2']);
    assert.deepEqual(of(['salary']), []);
  });
});
