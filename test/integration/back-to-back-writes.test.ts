import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { reusedPgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

// Imports and agent bursts write Records back to back, without waiting for derivation. What a
// Record's rules close (a call-off its plan's booking, a break-up what was said of the couple, a move
// back the home before) must be closed however the writes came, and alike on both engines. Each
// engine opens a store as a process starts on one: SQLite a new data dir, PostgreSQL a migrated
// database no process of these rules has started on (the first start of a new database, or of a new
// rules version).

const clock = () => new Date('2026-12-06T10:00:00Z');

// A case's database goes back after it, put back to the migrated state for the next case.
const database = await reusedPgliteDatabases({ migrated: true });
const handedOut: PgClient[] = [];
afterEach(async () => {
  await Promise.all(handedOut.splice(0).map((db) => db.close()));
});

const engines: ReadonlyArray<[string, () => Promise<Engine>]> = [
  ['SQLite', () => open(tempDir(), { clock })],
  [
    'PostgreSQL (PGlite)',
    async () => {
      const db = await database();
      handedOut.push(db);
      // Closing the engine closes its storage's client: the database outlives it, until afterEach.
      const kept: PgClient = { ...db, close: async () => {} };
      return (
        await openPostgresEngine({ open: () => postgresStorageOver(kept) }, { deployment: 'local', clock })
      ).engine;
    },
  ],
];

type Said = readonly [speaker: string, text: string, at: string];
const message = ([speaker, text, at]: Said): RecordCreate => ({
  content: { kind: 'message', speaker, text },
  occurred_at: at,
});

/**
 * Every Memory of a Brain of Tomislav's holding `said`, derived, sorted: written one after another
 * without waiting (`backToBack`), or each derived before the next is written.
 */
async function derived(opened: () => Promise<Engine>, said: readonly Said[], backToBack: boolean) {
  const engine = await opened();
  try {
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Tomislav Kovačević' } });
    for (const s of said) {
      await engine.rememberRecord(tenant, 'b', message(s), {});
      if (!backToBack) await engine.idle();
    }
    await engine.idle();
    return (await engine.listMemories(tenant, 'b', { limit: 100, status: 'all' })).data
      .map((m) => [m.statement, m.status, m.version, m.valid_to] as const)
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  } finally {
    await engine.close();
  }
}

/** Asserts that `said` derives to EXPECTED on both engines, written one at a time and back to back. */
async function derivesEveryWay(said: readonly Said[], expected: unknown) {
  for (const [name, opened] of engines)
    for (const backToBack of [false, true])
      assert.deepEqual(
        await derived(opened, said, backToBack),
        expected,
        `${name}, ${backToBack ? 'back to back' : 'one at a time'}`,
      );
}

const vienna: Said[] = [
  [
    'self',
    'Petra and I are planning a weekend in Vienna, December 12 to 14. We booked the Hotel Motto.',
    '2026-11-12T07:00:00Z',
  ],
  [
    'assistant',
    "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
    '2026-11-12T07:01:00Z',
  ],
  ['self', 'We cancelled Vienna.', '2026-11-23T08:00:00Z'],
];

// The same, the plan and its booking each a Record of its own, as a chat writes them.
const viennaApart: Said[] = [
  ['self', 'Petra and I are planning a weekend in Vienna, December 12 to 14.', '2026-11-12T07:00:00Z'],
  ['self', 'We booked the Hotel Motto.', '2026-11-12T07:00:30Z'],
  vienna[1]!,
  vienna[2]!,
];

const breakUp: Said[] = [
  ['self', "My girlfriend is Petra Novak. We've been together three years.", '2026-11-09T08:12:00Z'],
  ['self', 'Petra is a doctor.', '2026-11-10T08:00:00Z'],
  ['self', "Petra and I broke up last night. It's over.", '2026-11-23T09:00:00Z'],
];

const moveBack: Said[] = [
  ['self', 'I live in Zagreb.', '2026-01-10T09:00:00Z'],
  ['self', 'I moved to Vienna for the new job.', '2026-05-02T09:00:00Z'],
  ['self', 'I moved back to Zagreb.', '2026-10-20T09:00:00Z'],
];

describe('Records written back to back', () => {
  it("a call-off closes the plan, its booking and the assistant's note on both engines", async () => {
    const off = '2026-11-23T08:00:00Z';
    const expected = [
      [
        "Great, I've noted your Vienna trip with Petra from December 12 to 14 at Hotel Motto.",
        'superseded',
        1,
        off,
      ],
      ['Petra and I are planning a weekend in Vienna, December 12 to 14.', 'superseded', 1, off],
      ['We booked the Hotel Motto.', 'superseded', 1, off],
      ['We cancelled Vienna.', 'active', 2, null],
      ['We cancelled Vienna.', 'active', 2, null],
      ['We cancelled Vienna.', 'active', 2, null],
    ];
    await derivesEveryWay(vienna, expected);
  });

  it('a call-off of a plan said apart from its booking derives alike on both engines, however written', async () => {
    const off = '2026-11-23T08:00:00Z';
    const reference = await derived(engines[0]![1], viennaApart, false);
    // The booking said right after the plan, in a Record of its own, goes with it (changed-plans.ts
    // bookedApartOf, rules-v97), whatever the timing.
    assert.deepEqual(
      reference.filter((m) => m[1] === 'superseded').map(([statement, , , to]) => [statement, to]),
      [
        [vienna[1]![1], off],
        ['Petra and I are planning a weekend in Vienna, December 12 to 14.', off],
        ['We booked the Hotel Motto.', off],
      ],
    );
    await derivesEveryWay(viennaApart, reference);
  });

  for (const [what, said] of [
    ['a break-up after the partner', breakUp],
    ['a move, then a move back', moveBack],
  ] as const)
    it(`${what} derives on both engines as written one at a time`, async () => {
      const reference = await derived(engines[0]![1], said, false);
      for (const [name, opened] of engines)
        assert.deepEqual(await derived(opened, said, true), reference, `${name}, back to back`);
    });
});
