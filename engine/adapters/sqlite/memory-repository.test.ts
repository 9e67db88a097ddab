import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Visibility } from '../../contract/index.ts';
import { encodeCursor } from '../../core/shared/page-cursor.ts';
import { foldText } from '../../core/shared/fold-text.ts';
import type { MemoryFilter, MemoryVersionRow } from '../../ports/index.ts';
import type { Store } from './store.ts';
import {
  citingSql,
  memoryPageSql,
  namedBySql,
  ownerNamesSql,
  sameStatementSql,
  sayingAny,
  settlingSql,
  subjectNamesSql,
} from './memory-repository.ts';
import { queryPlan, storeWithBrains, tempStore } from './testing.ts';
import { sqliteUnits, type SqliteUnitOfWork } from './unit-of-work.ts';

const day = (d: number) => Date.UTC(2026, 0, d);
const NOW = day(10);

/** A store with two Brains, each with a shareable Record and a local_only one. */
async function withRecords(): Promise<Store> {
  const store = await storeWithBrains('brn_1', 'brn_2');
  for (const uid of ['brn_1', 'brn_2']) {
    await sqliteUnits(store).write(uid, async (u) => {
      for (const [id, visibility] of [
        [`${uid}_shared`, 'shareable'],
        [`${uid}_local`, 'local_only'],
      ] as [string, Visibility][])
        await u.records.insert({
          id,
          brain_uid: uid,
          seq: await u.sequence.next(),
          kind: 'message',
          content: '{"kind":"message","text":"hi"}',
          text: 'hi',
          source_name: null,
          external_id: null,
          trust: 'medium',
          visibility,
          occurred_at: '2026-01-01T00:00:00.000Z',
          occurred_ms: day(1),
          created_at: '2026-01-01T00:00:00.000Z',
        });
    });
  }
  return store;
}

type Version = Partial<MemoryVersionRow> & { id: string; seq: number };

/** A Memory version of brn_1 (unless `brain_uid` says otherwise) citing these Records. */
function memory(store: Store, v: Version, ...recordIds: string[]) {
  const brain = v.brain_uid ?? 'brn_1';
  const from = v.valid_from_ms ?? day(1);
  store.tx(() => {
    // The citations first: a Memory with none is refused when its row is written.
    for (const r of recordIds.length > 0 ? recordIds : [`${brain}_shared`])
      store.run('INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?)', v.id, r, `q ${v.id}`);
    store.run(
      `INSERT INTO memories (id, brain_uid, lineage, slot, version, statement, norm, subject, owner_state,
                             owner_entity, owner_folded, source_key, valid_from, valid_from_ms, valid_to,
                             valid_to_ms, status, pending, revised_by, seq, learned_at, cause)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z', 'derived')`,
      v.id,
      brain,
      v.lineage ?? `lin_${v.id}`,
      v.slot ?? null,
      v.version ?? 1,
      v.statement ?? `statement ${v.id}`,
      v.statement ?? `statement ${v.id}`,
      v.subject ?? 'ana',
      v.owner_state ?? 'self',
      v.owner_entity ?? null,
      // As the repository writes it.
      v.owner_entity != null ? foldText(v.owner_entity) : null,
      new Date(from).toISOString(),
      from,
      v.valid_to_ms != null ? new Date(v.valid_to_ms).toISOString() : null,
      v.valid_to_ms ?? null,
      v.status ?? 'active',
      v.pending ? 1 : 0,
      v.revised_by ?? null,
      v.seq,
    );
  });
}

const filter = (f: Partial<MemoryFilter> = {}): MemoryFilter => ({
  nowMs: NOW,
  status: 'all',
  shareableOnly: false,
  ...f,
});

const ids = (rows: MemoryVersionRow[]) => rows.map((r) => r.id);

describe('the Memories of a unit of work over SQLite', () => {
  it('gets a version of its own Brain, pending or not, as the port types it', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    memory(store, {
      id: 'mem_a',
      seq: 3,
      slot: 'ana\u001flives in',
      pending: true,
      revised_by: 'brn_1_shared',
    });
    memory(store, { id: 'mem_x', seq: 3, brain_uid: 'brn_2' });
    const got = await units.read('brn_1', (u) => u.memories.get('mem_a'));
    assert.equal(got?.pending, true);
    assert.equal(got?.revised_by, 'brn_1_shared');
    assert.equal(got?.slot, 'ana\u001flives in');
    assert.equal(got?.valid_to_ms, null);
    assert.equal(await units.read('brn_1', (u) => u.memories.get('mem_x')), null);
    assert.equal((await units.read('brn_2', (u) => u.memories.get('mem_x')))?.pending, false);
  });

  it('reads citations by Memory then Record, leaving local_only Records out when asked', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    memory(store, { id: 'mem_b', seq: 3 }, 'brn_1_shared', 'brn_1_local');
    memory(store, { id: 'mem_a', seq: 3 }, 'brn_1_local');
    const cites = (shareableOnly: boolean) =>
      units.read('brn_1', (u) => u.memories.citations(['mem_b', 'mem_a'], { shareableOnly }));
    assert.deepEqual(
      (await cites(false)).map((c) => `${c.memory_id}/${c.record_id}`),
      ['mem_a/brn_1_local', 'mem_b/brn_1_local', 'mem_b/brn_1_shared'],
    );
    assert.deepEqual(await cites(true), [
      { memory_id: 'mem_b', record_id: 'brn_1_shared', quote: 'q mem_b' },
    ]);
    assert.deepEqual(
      await units.read('brn_1', (u) => u.memories.citations([], { shareableOnly: false })),
      [],
    );
  });

  it('lists by id in pages a cursor continues, never pending, only its own Brain', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    for (const id of ['mem_4', 'mem_2', 'mem_1', 'mem_3']) memory(store, { id, seq: 3 });
    memory(store, { id: 'mem_0', seq: 3, pending: true });
    memory(store, { id: 'mem_5', seq: 3, brain_uid: 'brn_2' });
    const first = await units.read('brn_1', (u) => u.memories.list({ ...filter(), limit: 3 }));
    assert.deepEqual(ids(first.rows), ['mem_1', 'mem_2', 'mem_3']);
    assert.ok(first.next);
    const rest = await units.read('brn_1', (u) =>
      u.memories.list({ ...filter(), limit: 3, cursor: first.next! }),
    );
    assert.deepEqual(ids(rest.rows), ['mem_4']);
    assert.equal(rest.next, null);
  });

  it('selects by status at now, as of a world time, and hosted only with a shareable supporting Record', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    const slot = 'ana\u001flives in';
    const lineage = 'lin_home';
    memory(store, {
      id: 'mem_old',
      seq: 3,
      slot,
      lineage,
      version: 1,
      valid_from_ms: day(1),
      valid_to_ms: day(5),
    });
    memory(store, {
      id: 'mem_now',
      seq: 4,
      slot,
      lineage,
      version: 2,
      valid_from_ms: day(5),
      valid_to_ms: day(20),
    });
    memory(store, { id: 'mem_next', seq: 5, slot, lineage, version: 3, valid_from_ms: day(20) });
    memory(store, { id: 'mem_gone', seq: 6, status: 'retracted' });
    memory(store, { id: 'mem_local', seq: 7 }, 'brn_1_local');
    const list = async (f: Partial<MemoryFilter>) =>
      ids((await units.read('brn_1', (u) => u.memories.list({ ...filter(f), limit: 10 }))).rows);
    assert.deepEqual(await list({ status: 'current' }), ['mem_local', 'mem_now']);
    assert.deepEqual(await list({ status: 'current', shareableOnly: true }), ['mem_now']);
    assert.deepEqual(await list({ status: 'scheduled' }), ['mem_next']);
    assert.deepEqual(await list({ status: 'superseded' }), ['mem_old']);
    assert.deepEqual(await list({ status: 'retracted' }), ['mem_gone']);
    assert.deepEqual(await list({ asOfMs: day(2) }), ['mem_local', 'mem_old']);
    assert.deepEqual(await list({ slot: lineage }), ['mem_next', 'mem_now', 'mem_old']);
  });

  it('selects by subject, owner, words and conflict', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    memory(store, {
      id: 'mem_a',
      seq: 3,
      subject: 'Bob',
      owner_state: 'other',
      owner_entity: 'Bob',
      statement: 'Bob paddles a Kayak',
    });
    memory(store, { id: 'mem_b', seq: 3, subject: 'ana', statement: 'ana rides a bike' });
    memory(store, {
      id: 'mem_c',
      seq: 3,
      slot: 'ana\u001fage',
      lineage: 'lin_age',
      version: 1,
      statement: 'ana is 30',
    });
    memory(store, {
      id: 'mem_d',
      seq: 3,
      slot: 'ana\u001fage',
      lineage: 'lin_age',
      version: 2,
      statement: 'ana is 31',
    });
    const list = async (f: Partial<MemoryFilter>) =>
      ids((await units.read('brn_1', (u) => u.memories.list({ ...filter(f), limit: 10 }))).rows);
    assert.deepEqual(await list({ subjects: ['BOB'] }), ['mem_a']);
    assert.deepEqual(await list({ subjects: ['bob', 'Ana'] }), ['mem_a', 'mem_b', 'mem_c', 'mem_d']);
    assert.deepEqual(await list({ subjects: [] }), []);
    assert.deepEqual(await list({ owner: { folded: ['bob'] } }), ['mem_a']);
    assert.deepEqual(await list({ owner: { folded: ['bob', 'nobody'] } }), ['mem_a']);
    assert.deepEqual(await list({ owner: { folded: [] } }), []);
    assert.deepEqual(await list({ owner: { state: 'self' } }), ['mem_b', 'mem_c', 'mem_d']);
    assert.deepEqual(await list({ words: ['kayak', 'bob'] }), ['mem_a']);
    assert.deepEqual(await list({ words: ['kayak', 'ana'] }), []);
    assert.deepEqual(await list({ contested: true }), ['mem_c', 'mem_d']);
  });

  it('reads changes after a step, up to a step, by step then write order, up to a limit', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    memory(store, { id: 'mem_z', seq: 4 });
    memory(store, { id: 'mem_y', seq: 3 });
    memory(store, { id: 'mem_x', seq: 4 });
    memory(store, { id: 'mem_w', seq: 6 });
    memory(store, { id: 'mem_v', seq: 5, pending: true });
    const changes = async (q: { afterSeq: number; limit?: number }) =>
      ids(await units.read('brn_1', (u) => u.memories.changes({ ...filter(), ...q })));
    assert.deepEqual(await changes({ afterSeq: 2 }), ['mem_y', 'mem_z', 'mem_x', 'mem_w']);
    assert.deepEqual(await changes({ afterSeq: 3, limit: 2 }), ['mem_z', 'mem_x']);
    assert.deepEqual(await changes({ afterSeq: 6 }), []);
  });

  it('reads a lineage by version, hosted only the versions with shareable support', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    memory(store, { id: 'mem_2', seq: 4, lineage: 'lin_l', version: 2 }, 'brn_1_local');
    memory(store, { id: 'mem_3', seq: 5, lineage: 'lin_l', version: 3 });
    memory(store, { id: 'mem_1', seq: 3, lineage: 'lin_l', version: 1 });
    const lineage = (shareableOnly: boolean) =>
      units.read('brn_1', async (u) => ids(await u.memories.lineage('lin_l', { shareableOnly })));
    assert.deepEqual(await lineage(false), ['mem_1', 'mem_2', 'mem_3']);
    assert.deepEqual(await lineage(true), ['mem_1', 'mem_3']);
    assert.deepEqual(
      await units.read('brn_2', async (u) => u.memories.lineage('lin_l', { shareableOnly: false })),
      [],
    );
  });

  it('tombstones since a step, all of them when no limit is given', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u: SqliteUnitOfWork) => {
      await u.tombstones.record('mem_a', 3, 'deleted', true);
      await u.tombstones.record('mem_b', 4, 'deleted', false);
      await u.tombstones.record('mem_c', 5, 'pending_rederivation', true);
    });
    const since = (after: number, limit: number | undefined, shareableOnly = false) =>
      units.read('brn_1', async (u) =>
        (await u.tombstones.since(after, limit, { shareableOnly })).map((t) => t.memory_id),
      );
    assert.deepEqual(await since(2, undefined), ['mem_a', 'mem_b', 'mem_c']);
    assert.deepEqual(await since(3, 1), ['mem_b']);
    assert.deepEqual(await since(2, undefined, true), ['mem_a', 'mem_c']);
  });
});

describe("the Memories' list", () => {
  it("reads an owner's page by name off the folded owners' index, in id order, first and by cursor", () => {
    const store = tempStore('mnemo-owner-');
    for (const [cursor, range] of [
      [undefined, ''],
      [encodeCursor('mem_x'), ' AND id>?'],
    ] as const) {
      const q = { ...filter({ owner: { folded: ['zoe'] }, status: 'current' }), limit: 50, cursor };
      const { sql, params } = memoryPageSql('brn_1', q);
      // One step, sorting nothing: no "USE TEMP B-TREE FOR ORDER BY".
      assert.equal(
        queryPlan(store, sql, ...params),
        `SEARCH m USING INDEX memories_owner_folded (brain_uid=? AND owner_folded=?${range})`,
      );
    }
  });
});

describe("the names a Brain's Memories are about and whose they are", () => {
  it('are each subject as written and each owner folded, once, in no order that matters', async () => {
    const store = await withRecords();
    const units = sqliteUnits(store);
    const people: Array<[string, string, string | null]> = [
      ['mem_a', 'Marko Babić', 'Marko Babić'],
      ['mem_b', 'MARKO BABIĆ', 'MARKO BABIĆ'],
      ['mem_c', 'marko babić', null],
      ['mem_d', 'Inês Duarte', 'Inês Duarte'],
    ];
    for (const [id, subject, owner] of people)
      memory(store, {
        id,
        seq: 1,
        subject,
        owner_state: owner === null ? 'unresolved' : 'other',
        owner_entity: owner,
      });
    memory(store, { id: 'mem_z', seq: 1, brain_uid: 'brn_2', subject: 'Zed', owner_entity: 'Zed' });
    const [subjects, owners] = await units.read('brn_1', async (u) => [
      await u.memories.subjectNames(),
      await u.memories.ownerNames(),
    ]);
    // One spelling of those the filter's NOCASE does not tell apart (ASCII's case): "MARKO BABIĆ" is another.
    assert.equal(subjects.length, 3, subjects.join());
    assert.deepEqual(subjects.map((x) => x.toLowerCase()).sort(), [
      'inês duarte',
      'marko babić',
      'marko babić',
    ]);
    assert.deepEqual(owners.sort(), ['ines duarte', 'marko babic']);
  });

  it('are read one seek of an index per name, not by reading every Memory', () => {
    const store = tempStore('mnemo-names-');
    for (const [sql, index] of [
      [subjectNamesSql, /USING COVERING INDEX memories_brain_subject_nocase \(brain_uid=\? AND subject>\?\)/],
      [ownerNamesSql, /USING COVERING INDEX memories_owner_folded \(brain_uid=\? AND owner_folded>\?\)/],
    ] as const) {
      const plan = queryPlan(store, sql, 'brn_1', 'brn_1');
      assert.match(plan, index, plan);
      assert.doesNotMatch(plan, /SCAN memories|TEMP B-TREE/, plan);
    }
  });
});

describe("the Memories' lookups derivation makes", () => {
  it('finds an identical statement through the statement index, not by reading the subject’s Memories', () => {
    const plan = queryPlan(tempStore('mnemo-admit-'), sameStatementSql, 'b', 'n', 's', 'self', null);
    assert.match(plan, /USING INDEX memories_brain_norm \(brain_uid=\? AND norm=\?\)/, plan);
  });

  it("reads a lineage's versions by the lineage, not by reading the Brain's Memories", () => {
    const plan = queryPlan(tempStore('mnemo-settle-'), settlingSql, 'lin_1', 'b');
    assert.match(plan, /SEARCH m USING INDEX sqlite_autoindex_memories_2 \(lineage=\?\)/, plan);
    assert.doesNotMatch(plan, /brain_uid=/, plan);
  });

  it('finds the lineages a Record retracted or revised by those columns, not by the Brain', () => {
    const plan = queryPlan(tempStore('mnemo-named-by-'), namedBySql, 'rec_1', 'rec_1', 'b');
    assert.match(plan, /memories_retracted_by \(retracted_by=\?\)/, plan);
    assert.match(plan, /memories_revised_by \(revised_by=\?\)/, plan);
    assert.doesNotMatch(plan, /brain_uid=/, plan);
  });

  it("finds the Memories citing a Record from the Record's citations", () => {
    const plan = queryPlan(tempStore('mnemo-citing-'), citingSql, 'rec_1', 'b');
    assert.match(plan, /^SEARCH c USING COVERING INDEX citations_record \(record_id=\?\)/, plan);
    assert.doesNotMatch(plan, /SEARCH m USING INDEX memories_brain_\w+ \(brain_uid=\?\)/, plan);
  });

  it("tests a plan's words as each statement's Unicode lower case holds them", () => {
    const store = tempStore('mnemo-saying-');
    // Letters whose cases LIKE does not fold (Kelvin's K lowers to ASCII k, İ to i and a dot, Σ to σ or
    // ς by where it stands), LIKE's wildcards and escape, and what a statement of ASCII holds.
    const unit = fc.constantFrom(
      ...'aAkKiIsS %_\\.'.split(''),
      '\u212a',
      '\u0130',
      'ß',
      'ẞ',
      'ü',
      'Ü',
      'σ',
      'Σ',
      'ς',
      '’',
      'e\u0301',
    );
    const word = (statement: string) => {
      const any = fc.string({ unit, maxLength: 4 });
      if (statement.length === 0) return any;
      // Often a piece of the statement, in either case, so that many words are found.
      const piece = fc
        .tuple(fc.nat(statement.length - 1), fc.integer({ min: 1, max: 4 }), fc.boolean())
        .map(([at, n, upper]) => {
          const w = statement.slice(at, at + n);
          return upper ? w.toUpperCase() : w;
        });
      return fc.oneof(any, piece);
    };
    const says = (statement: string, words: string[]) => {
      const q = sayingAny(words);
      return store.get<{ yes: number }>(
        `SELECT count(*) AS yes FROM (SELECT ? AS statement) WHERE 1 ${q.sql}`,
        statement,
        ...q.params,
      )!.yes;
    };
    fc.assert(
      fc.property(
        fc
          .string({ unit, maxLength: 12 })
          .chain((statement) =>
            fc.tuple(fc.constant(statement), fc.array(word(statement), { maxLength: 3 })),
          ),
        ([statement, words]) => {
          const expected =
            words.length === 0 || words.some((w) => statement.toLowerCase().includes(w.toLowerCase()));
          assert.equal(says(statement, words), expected ? 1 : 0, JSON.stringify({ statement, words }));
        },
      ),
      { numRuns: 3000 },
    );
    store.close();
  });
});
