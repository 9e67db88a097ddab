import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Claim } from '../core/derive/deriver.ts';
import { slotKey } from '../core/derive/slot-key.ts';
import type { MemoryVersionRow } from '../ports/index.ts';
import { withHeldEndings } from './held-endings.ts';

const owner = { state: 'self' as const, entity: 'Ana' };
const ms = (iso: string) => Date.parse(iso);

/** A version of Ana's `predicate` slot saying `statement` from `from` until `to`. */
function version(predicate: string, statement: string, from: string, to: string | null = null) {
  return {
    slot: slotKey('Ana', predicate, owner),
    statement,
    subject: 'Ana',
    predicate,
    status: 'active',
    revised_by: null,
    valid_from_ms: ms(from),
    valid_to_ms: to === null ? null : ms(to),
  } as MemoryVersionRow;
}

const storeOf = (versions: MemoryVersionRow[]) => ({
  slotVersions: async (slot: string) => versions.filter((v) => v.slot === slot),
});

const plain: Claim = {
  statement: 'We broke up.',
  subject: 'Ana',
  predicate: null,
  owner,
  quote: 'We broke up.',
};
const held = (predicate: string, as: 'endsHeld' | 'restoresHeld', more: Claim['endsHeld'] = {}): Claim => ({
  ...plain,
  predicate,
  [as]: { oneOf: 'partner', ...more },
});
const at = ms('2024-05-01T00:00:00Z');

test('a parting ends only the partner of now, of whichever role, and leaves the sentence', async () => {
  const store = storeOf([
    version('boyfriend', "Ana's boyfriend is Jim", '2015-01-01T00:00:00Z'),
    version('husband', "Ana's husband is Tom Reyes", '2020-01-01T00:00:00Z'),
  ]);
  const claims = [
    plain,
    held('boyfriend', 'endsHeld'),
    held('husband', 'endsHeld'),
    held('wife', 'endsHeld'),
  ];
  assert.deepEqual(
    (await withHeldEndings(store, claims, at)).map((c) => [c.predicate, c.statement, c.ends]),
    [
      [null, 'We broke up.', undefined],
      ['husband', "Ana's husband is no longer Tom Reyes", 'Tom Reyes'],
    ],
  );
  // Named: only that name ("Tom" names "Tom Reyes"), and the status only where it ended a partner.
  const status = {
    ...plain,
    predicate: 'relationship status',
    endsHeld: { values: ['in a relationship'], withPartner: true as const },
  };
  const named = (name: string) => [held('husband', 'endsHeld', { values: [name] }), status];
  const withStatus = storeOf([
    version('husband', "Ana's husband is Tom Reyes", '2020-01-01T00:00:00Z'),
    version('relationship status', "Ana's relationship status is in a relationship", '2019-01-01T00:00:00Z'),
  ]);
  assert.equal((await withHeldEndings(withStatus, named('Tom'), at)).length, 2);
  assert.deepEqual(await withHeldEndings(withStatus, named('Jim'), at), []);
});

test('a value that began at the parting itself, or after it, is not ended by it', async () => {
  const store = storeOf([version('boyfriend', "Ana's boyfriend is Jim", '2024-05-01T00:00:00Z')]);
  assert.deepEqual(await withHeldEndings(store, [held('boyfriend', 'endsHeld')], at), []);
});

test('getting back together restores the value the latest ending in force ended', async () => {
  const store = storeOf([
    version('girlfriend', "Ana's girlfriend is no longer Sara", '2019-01-01T00:00:00Z'),
    version('boyfriend', "Ana's boyfriend is no longer Tom", '2024-01-01T00:00:00Z'),
  ]);
  const claims = [held('girlfriend', 'restoresHeld'), held('boyfriend', 'restoresHeld')];
  assert.deepEqual(
    (await withHeldEndings(store, claims, at)).map((c) => [c.predicate, c.statement, c.ends]),
    [['boyfriend', "Ana's boyfriend is Tom", undefined]],
  );
});
