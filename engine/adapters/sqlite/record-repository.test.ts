import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordRow } from '../../ports/index.ts';
import type { Store } from './store.ts';
import { storeWithBrains } from './testing.ts';
import { sqliteUnits, type SqliteUnitOfWork } from './unit-of-work.ts';

const withBrains = () => storeWithBrains('brn_1', 'brn_2');

/** A message Record at the Brain's next step; `id` orders Records (ids are ULIDs in the engine). */
async function remember(
  u: SqliteUnitOfWork,
  id: string,
  o: Partial<Pick<RecordRow, 'kind' | 'source_name' | 'external_id' | 'visibility' | 'occurred_at'>> = {},
): Promise<Omit<RecordRow, 'n'>> {
  const occurredAt = o.occurred_at ?? '2026-01-01T00:00:00.000Z';
  return u.records.insert({
    id,
    brain_uid: u.brainUid,
    seq: await u.sequence.next(),
    kind: o.kind ?? 'message',
    content: '{"kind":"message","text":"hi"}',
    text: `text of ${id}`,
    source_name: o.source_name ?? null,
    external_id: o.external_id ?? null,
    trust: 'medium',
    visibility: o.visibility ?? 'shareable',
    occurred_at: occurredAt,
    occurred_ms: Date.parse(occurredAt),
    created_at: '2026-01-01T00:00:00.000Z',
  });
}

/** A Memory `memoryId` of brn_1 citing these Records. */
function cite(store: Store, memoryId: string, ...recordIds: string[]) {
  store.tx(() => {
    for (const r of recordIds)
      store.run('INSERT INTO citations (memory_id, record_id, quote) VALUES (?, ?, ?)', memoryId, r, 'hi');
    store.run(
      `INSERT INTO memories (id, brain_uid, lineage, version, statement, norm, subject, owner_state, source_key,
                             valid_from, valid_from_ms, status, seq, learned_at, cause)
       VALUES (?, 'brn_1', ?, 1, 'hi', 'hi', 'ana', 'self', '', '2026-01-01T00:00:00Z', 0,
               'active', 1, '2026-01-01T00:00:00Z', 'derived')`,
      memoryId,
      `lin_${memoryId}`,
    );
  });
}

const queueDerive = (store: Store, recordId: string) =>
  store.run(
    "INSERT INTO derive_queue (brain_uid, job, record_id, record_seq) VALUES ('brn_1', 'derive', ?, 1)",
    recordId,
  );

describe('the Records of a unit of work over SQLite', () => {
  it('appends a Record with its n and finds it by id, only in its own Brain', async () => {
    const store = await withBrains();
    const units = sqliteUnits(store);
    const written = await units.write('brn_1', (u) => remember(u, 'rec_a'));
    assert.equal(written.seq, 1);
    const n = store.get<{ n: number }>("SELECT n FROM records WHERE id = 'rec_a'")!.n;
    assert.deepEqual(await units.read('brn_1', (u) => u.records.get('rec_a')), { ...written, n });
    assert.equal(await units.read('brn_2', (u) => u.records.get('rec_a')), null);
    assert.equal(await units.read('brn_1', (u) => u.records.get('rec_none')), null);
  });

  it('tells a Record processing while its derivation is queued, then the Memories citing it', async () => {
    const store = await withBrains();
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => {
      for (const id of ['rec_a', 'rec_b', 'rec_c']) await remember(u, id);
    });
    queueDerive(store, 'rec_a');
    cite(store, 'mem_2', 'rec_b', 'rec_a');
    cite(store, 'mem_1', 'rec_b');
    const states = () => units.read('brn_1', (u) => u.records.states(['rec_c', 'rec_a', 'rec_b']));
    assert.deepEqual(await states(), [
      { processing: false, memoryIds: [] },
      { processing: true, memoryIds: [] },
      { processing: false, memoryIds: ['mem_1', 'mem_2'] },
    ]);
    store.run("DELETE FROM derive_queue WHERE record_id = 'rec_a'");
    assert.deepEqual((await states())[1], { processing: false, memoryIds: ['mem_2'] });
  });

  it('lists newest first in pages a cursor continues, within each filter and its own Brain', async () => {
    const store = await withBrains();
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => {
      await remember(u, 'rec_1', { occurred_at: '2026-01-01T00:00:00.000Z' });
      await remember(u, 'rec_2', {
        kind: 'document',
        source_name: 'notes',
        occurred_at: '2026-02-01T00:00:00.000Z',
      });
      await remember(u, 'rec_3', { visibility: 'local_only', occurred_at: '2026-03-01T00:00:00.000Z' });
      await remember(u, 'rec_4', { source_name: 'notes', occurred_at: '2026-04-01T00:00:00.000Z' });
    });
    await units.write('brn_2', (u) => remember(u, 'rec_5'));
    queueDerive(store, 'rec_2');
    const ids = async (q: Partial<Parameters<SqliteUnitOfWork['records']['list']>[0]>) => {
      const page = await units.read('brn_1', (u) =>
        u.records.list({ limit: 10, hideLocalOnly: false, ...q }),
      );
      return page.rows.map((r) => r.id);
    };
    const first = await units.read('brn_1', (u) => u.records.list({ limit: 3, hideLocalOnly: false }));
    assert.deepEqual(
      first.rows.map((r) => r.id),
      ['rec_4', 'rec_3', 'rec_2'],
    );
    assert.ok(first.next);
    const rest = await units.read('brn_1', (u) =>
      u.records.list({ limit: 3, cursor: first.next!, hideLocalOnly: false }),
    );
    assert.deepEqual(
      rest.rows.map((r) => r.id),
      ['rec_1'],
    );
    assert.equal(rest.next, null);
    assert.deepEqual(await ids({ limit: 4 }), ['rec_4', 'rec_3', 'rec_2', 'rec_1']);
    assert.equal(
      (await units.read('brn_1', (u) => u.records.list({ limit: 4, hideLocalOnly: false }))).next,
      null,
    );
    assert.deepEqual(await ids({ hideLocalOnly: true }), ['rec_4', 'rec_2', 'rec_1']);
    assert.deepEqual(await ids({ kind: 'document' }), ['rec_2']);
    assert.deepEqual(await ids({ sourceName: 'notes' }), ['rec_4', 'rec_2']);
    assert.deepEqual(await ids({ visibility: 'local_only' }), ['rec_3']);
    assert.deepEqual(await ids({ status: 'processing' }), ['rec_2']);
    assert.deepEqual(await ids({ status: 'ready' }), ['rec_4', 'rec_3', 'rec_1']);
    assert.deepEqual(await ids({ sinceMs: Date.parse('2026-02-01T00:00:00.000Z') }), [
      'rec_4',
      'rec_3',
      'rec_2',
    ]);
    assert.deepEqual(await ids({ untilMs: Date.parse('2026-02-01T00:00:00.000Z') }), ['rec_2', 'rec_1']);
  });

  it('counts the Records and items of each source (revisions of one item once), hiding local_only ones from a hosted reader', async () => {
    const store = await withBrains();
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => {
      await remember(u, 'rec_1', {
        source_name: 'mail',
        external_id: 'm1',
        occurred_at: '2026-03-01T00:00:00.000Z',
      });
      await remember(u, 'rec_2', { source_name: 'mail', occurred_at: '2026-01-01T00:00:00.000Z' });
      await remember(u, 'rec_3', { source_name: 'chat', visibility: 'local_only' });
      await remember(u, 'rec_4');
      // m1 edited: a second revision of the same item.
      await remember(u, 'rec_6', {
        source_name: 'mail',
        external_id: 'm1',
        occurred_at: '2026-02-01T00:00:00.000Z',
      });
    });
    await units.write('brn_2', (u) => remember(u, 'rec_5', { source_name: 'mail' }));
    const sources = (hideLocalOnly: boolean) =>
      units.read('brn_1', (u) => u.records.sources({ hideLocalOnly }));
    assert.deepEqual(await sources(false), [
      {
        name: 'chat',
        records: 1,
        reconciled: 0,
        items: 1,
        first_ms: Date.parse('2026-01-01T00:00:00.000Z'),
        last_ms: Date.parse('2026-01-01T00:00:00.000Z'),
      },
      {
        name: 'mail',
        records: 3,
        reconciled: 2,
        items: 2,
        first_ms: Date.parse('2026-01-01T00:00:00.000Z'),
        last_ms: Date.parse('2026-03-01T00:00:00.000Z'),
      },
    ]);
    assert.deepEqual(
      (await sources(true)).map((s) => s.name),
      ['mail'],
    );
  });

  it('names the Records of a source by write order and removes Records with what hangs on them', async () => {
    const store = await withBrains();
    const units = sqliteUnits(store);
    await units.write('brn_1', async (u) => {
      await remember(u, 'rec_b', { source_name: 'mail' });
      await remember(u, 'rec_a', { source_name: 'mail', visibility: 'local_only' });
      await remember(u, 'rec_c');
      await u.idempotency.remember('rememberRecord', 'k1', { bodyHash: 'h', target: { record: 'rec_b' } });
    });
    await units.write('brn_2', (u) => remember(u, 'rec_d', { source_name: 'mail' }));
    queueDerive(store, 'rec_b');
    cite(store, 'mem_1', 'rec_b', 'rec_c');
    const ids = await units.read('brn_1', (u) => u.records.idsOfSource('mail'));
    assert.deepEqual(ids, ['rec_b', 'rec_a']);
    await assert.rejects(
      units.write('brn_1', async (u) => {
        await u.records.remove(ids);
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.equal(store.all('SELECT 1 FROM records WHERE brain_uid = ?', 'brn_1').length, 3);
    await units.write('brn_1', (u) => u.records.remove(ids));
    assert.deepEqual(
      store.all<{ id: string }>('SELECT id FROM records ORDER BY id').map((r) => r.id),
      ['rec_c', 'rec_d'],
    );
    assert.equal(store.all("SELECT 1 FROM derive_queue WHERE record_id = 'rec_b'").length, 0);
    assert.deepEqual(
      store.all<{ record_id: string }>('SELECT record_id FROM citations').map((c) => c.record_id),
      ['rec_c'],
    );
    assert.equal(await units.read('brn_1', (u) => u.idempotency.find('rememberRecord', 'k1')), null);
    // Another Brain's Records are not this Brain's to remove.
    await units.write('brn_1', (u) => u.records.remove(['rec_d']));
    assert.equal(store.all("SELECT 1 FROM records WHERE id = 'rec_d'").length, 1);
  });
});
