import assert from 'node:assert/strict';
import { test } from 'node:test';
import { settlement } from './settle-lineage.ts';

/** Version `version` of a lineage, written in that order, from `at`; of no slot unless a predicate is given. */
const version = (version: number, statement: string, at: string, predicate: string | null = null) => ({
  n: version,
  id: `mem_${version}`,
  version,
  valid_from: at,
  valid_from_ms: Date.parse(at),
  valid_to: null,
  status: 'active' as const,
  corrects: null as string | null,
  cause: (version === 1 ? 'derived' : 'superseded_by_record') as
    'derived' | 'superseded_by_record' | 'correction',
  retracted_by: null,
  source_key: version === 1 ? 'ics' : 'whatsapp',
  revised_at: null,
  revised_ms: null,
  statement,
  subject: 'Zoë Kovač',
  predicate,
});
/** Each version's [id, status, valid_to] after settling. */
const settled = (rows: ReturnType<typeof version>[]) => {
  const changed = new Map(settlement(rows).map((c) => [c.id, c.lifecycle]));
  return rows.map((r) => {
    const l = changed.get(r.id) ?? { status: r.status, valid_to: r.valid_to };
    return [r.id, l.status, l.valid_to];
  });
};

const event = 'Dentist – Dr. Ferreira; when: 2026-12-10T09:30:00+00:00 to 2026-12-10T10:30:00+00:00';
const moved = 'The dentist moved my appointment from Thursday to Friday 11 December.';

test("a calendar's event changed before its day is replaced from its start; its change holds from when said", () => {
  const rows = [version(1, event, '2026-12-10T09:30:00+00:00'), version(2, moved, '2026-12-04T12:00:00Z')];
  assert.deepEqual(settled(rows), [
    ['mem_1', 'superseded', '2026-12-10T09:30:00+00:00'],
    ['mem_2', 'active', null],
  ]);
  // Moved again: the second move closes the first, the event stays replaced.
  assert.deepEqual(settled([...rows, version(3, 'Now it is Monday.', '2026-12-06T08:00:00Z')]), [
    ['mem_1', 'superseded', '2026-12-10T09:30:00+00:00'],
    ['mem_2', 'superseded', '2026-12-06T08:00:00Z'],
    ['mem_3', 'active', null],
  ]);
});

test('a value of a slot given later for an earlier time is an earlier value, not a replacement', () => {
  const rows = [
    version(1, 'Zoë lives in Porto', '2026-11-18T00:00:00Z', 'lives in'),
    version(2, 'Zoë lives in Lisbon', '2025-06-01T10:00:00Z', 'lives in'),
  ];
  assert.deepEqual(settled(rows), [
    ['mem_1', 'active', null],
    ['mem_2', 'superseded', '2026-11-18T00:00:00Z'],
  ]);
});

test('a correction dated later than the value it corrects closes that value at its own start, and the earlier value holds until the date', () => {
  const acme = version(1, 'Zoë works at Acme', '2024-01-01T00:00:00Z', 'works at');
  const sonae = version(2, 'Zoë works at Sonae', '2026-10-01T10:00:00Z', 'works at');
  const corrected = (at: string) => ({
    ...version(3, 'Zoë works at Sonae', at, 'works at'),
    corrects: sonae.id,
    cause: 'correction' as const,
    source_key: sonae.source_key,
  });
  assert.deepEqual(settled([acme, sonae, corrected('2027-01-11T00:00:00Z')]), [
    ['mem_1', 'superseded', '2027-01-11T00:00:00Z'],
    ['mem_2', 'superseded', '2026-10-01T10:00:00Z'],
    ['mem_3', 'active', null],
  ]);
  // Dated earlier, or not dated (its own start): closed where the correction starts, as before.
  assert.deepEqual(settled([acme, sonae, corrected('2026-09-01T00:00:00Z')]), [
    ['mem_1', 'superseded', '2026-09-01T00:00:00Z'],
    ['mem_2', 'superseded', '2026-09-01T00:00:00Z'],
    ['mem_3', 'active', null],
  ]);
  assert.deepEqual(settled([acme, sonae, corrected(sonae.valid_from)]), [
    ['mem_1', 'superseded', sonae.valid_from],
    ['mem_2', 'superseded', sonae.valid_from],
    ['mem_3', 'active', null],
  ]);
});
