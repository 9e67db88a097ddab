import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createHashModel } from '../../embed/hash-model.ts';
import { pgEmbeddingQueue } from './embedding-queue.ts';
import { addBrain, migratedDatabase, serverForTests } from './testing/fixtures.ts';
import { pglite } from './testing/pglite.ts';
import { insertMemory, insertRecord } from './testing/records.ts';
import { pgVectorIndex } from './vector-index.ts';
import type { PgClient } from './client.ts';

const db = await pglite({ vector: true, migrated: true });
const server = await serverForTests();
const vectors = pgVectorIndex(db);
const queue = pgEmbeddingQueue(db, vectors);
const hash = createHashModel(32);
const model = { provider: 'hash', model: 'bag-32', dims: 32 };
/** The real hash embedder, counting what it was given. */
const seen: string[] = [];
const embed = async (texts: string[]) => {
  seen.push(...texts);
  return texts.map((t) => hash.embedOne(t));
};

const queued = async () =>
  (
    await db.query<{ owner: string; owner_n: number }>(
      'SELECT owner, owner_n FROM embed_queue ORDER BY owner, owner_n',
    )
  ).rows.map((r) => `${r.owner}:${r.owner_n}`);
const vectorsOf = async (brainUid: string) =>
  (
    await db.query<{ owner: string; owner_n: number }>(
      'SELECT owner, owner_n FROM embeddings WHERE brain_uid = $1 ORDER BY owner, owner_n',
      [brainUid],
    )
  ).rows.map((r) => `${r.owner}:${r.owner_n}`);
const memoryN = async (id: string) =>
  (await db.query<{ n: number }>('SELECT n FROM memories WHERE id = $1', [id])).rows[0]!.n;
const drainAll = async () => {
  while ((await queue.drain(model, embed, 3)) > 0);
};

describe("PostgreSQL's embedding queue", () => {
  it('embeds every Record and Memory written, a message with its speaker, not a Memory restating its Record', async () => {
    await addBrain(db, 'brn_e');
    const said = await insertRecord(db, {
      brainUid: 'brn_e',
      id: 'rec_said',
      text: 'I moved to Lisbon',
      content: { kind: 'message', text: 'I moved to Lisbon', speaker: 'Ana' },
    });
    const doc = await insertRecord(db, {
      brainUid: 'brn_e',
      id: 'rec_doc',
      text: 'a note on gardens',
      kind: 'document',
    });
    await insertMemory(db, 'brn_e', 'mem_same', 'rec_doc', 'a note on gardens');
    await insertMemory(db, 'brn_e', 'mem_other', 'rec_said', 'Ana lives in Lisbon');
    const [same, other] = [await memoryN('mem_same'), await memoryN('mem_other')];
    assert.deepEqual(
      await queued(),
      [`memory:${same}`, `memory:${other}`, `record:${said}`, `record:${doc}`].sort(),
    );

    seen.length = 0;
    await drainAll();
    assert.deepEqual(await queued(), []);
    assert.deepEqual(await vectorsOf('brn_e'), [`memory:${other}`, `record:${said}`, `record:${doc}`].sort());
    assert.deepEqual(seen.sort(), ['Ana lives in Lisbon', 'Ana: I moved to Lisbon', 'a note on gardens']);
    const [near] = await vectors.nearest(model, 'record', 'brn_e', hash.embedOne('ana'), 1);
    assert.equal(near?.n, said, "the speaker's name finds the message");
  });

  it('queues what a model lacks once per model, and everything for a new one', async () => {
    await queue.queueMissing(model);
    const same = `memory:${await memoryN('mem_same')}`;
    assert.deepEqual(
      await queued(),
      [same],
      'what has no vector: the restating Memory, looked at again once',
    );
    await drainAll();
    assert.deepEqual(await queued(), []);
    await queue.queueMissing(model);
    assert.deepEqual(await queued(), []);
    await addBrain(db, 'brn_m');
    const r = await insertRecord(db, { brainUid: 'brn_m', id: 'rec_m', text: 'plums and figs' });
    await db.query('DELETE FROM embed_queue');
    await queue.queueMissing(model);
    assert.deepEqual(await queued(), [], 'this model was queued for already');
    const other = { provider: 'hash', model: 'bag-32-b', dims: 32 };
    await queue.queueMissing(other);
    const all = await queued();
    assert.ok(
      all.includes(`record:${r}`) && all.length >= 5,
      `everything again for a new model: ${all.join(' ')}`,
    );
    assert.ok(all.includes(`memory:${await memoryN('mem_same')}`));
    await queue.discard();
    assert.deepEqual(await queued(), []);
  });

  it('passes over an owner forgotten after it was queued, and re-embeds one whose text changed', async () => {
    await addBrain(db, 'brn_f');
    const gone = await insertRecord(db, { brainUid: 'brn_f', id: 'rec_gone', text: 'soon forgotten' });
    const kept = await insertRecord(db, { brainUid: 'brn_f', id: 'rec_kept', text: 'kept words' });
    await insertMemory(db, 'brn_f', 'mem_f', 'rec_kept', 'old statement');
    await db.query("DELETE FROM records WHERE brain_uid = 'brn_f' AND id = 'rec_gone'");
    seen.length = 0;
    await drainAll();
    assert.ok(!seen.includes('soon forgotten'));
    const m = await memoryN('mem_f');
    assert.deepEqual(await vectorsOf('brn_f'), [`memory:${m}`, `record:${kept}`]);
    assert.ok(!(await vectorsOf('brn_f')).includes(`record:${gone}`));

    await db.query("UPDATE memories SET statement = 'new statement' WHERE id = 'mem_f'");
    await vectors.drop('memory', m, 'brn_f');
    assert.deepEqual(await queued(), [`memory:${m}`]);
    seen.length = 0;
    await drainAll();
    assert.deepEqual(seen, ['new statement']);
    const [near] = await vectors.nearest(model, 'memory', 'brn_f', hash.embedOne('new statement'), 1);
    assert.ok(near && near.distance < 1e-3, 'the vector is the new text');
  });

  it('queues what is missing again after a discard took something', async () => {
    await addBrain(db, 'brn_x');
    await queue.queueMissing(model);
    await drainAll();
    const r = await insertRecord(db, { brainUid: 'brn_x', id: 'rec_x', text: 'pears' });
    assert.equal(await queue.discard(), 1);
    assert.equal(await queue.discard(), 0);
    await queue.queueMissing(model);
    const again = await db.query("SELECT owner, owner_n FROM embed_queue WHERE brain_uid = 'brn_x'");
    assert.deepEqual(again.rows, [{ owner: 'record', owner_n: r }], 'the discarded Record, with no vector');
    await drainAll();
    assert.deepEqual(await vectorsOf('brn_x'), [`record:${r}`]);
  });

  it("goes with its Brain's deletion", async () => {
    await addBrain(db, 'brn_d');
    await insertRecord(db, { brainUid: 'brn_d', id: 'rec_d', text: 'x' });
    await db.query("DELETE FROM brains WHERE uid = 'brn_d'");
    assert.equal((await db.query("SELECT 1 FROM embed_queue WHERE brain_uid = 'brn_d'")).rows.length, 0);
    await queue.discard();
  });
});

/** A database of its own on the real server, two pools, or why the test cannot run there. */
async function serverDatabase(): Promise<[PgClient, PgClient] | string> {
  if (server.skip) return server.skip;
  const [a, b] = await migratedDatabase(server.cluster(), 2, 2);
  const found = await a!.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
  return found.rows.length > 0 ? [a!, b!] : 'the PostgreSQL server has no pgvector (the vector extension)';
}

describe("PostgreSQL's embedding queue beside a forget, on a server", () => {
  it('a worker passes over a Brain being forgotten, so neither waits for the other', async (t) => {
    const dbs = await serverDatabase();
    if (typeof dbs === 'string') return t.skip(dbs);
    const [forgetting, working] = dbs;
    for (const uid of ['brn_gone', 'brn_kept']) await addBrain(forgetting, uid);
    await insertRecord(forgetting, { brainUid: 'brn_gone', id: 'rec_g', text: 'going' });
    await insertMemory(forgetting, 'brn_gone', 'mem_g', 'rec_g', 'it is going');
    const kept = await insertRecord(forgetting, { brainUid: 'brn_kept', id: 'rec_k', text: 'staying' });
    const worker = pgEmbeddingQueue(working, pgVectorIndex(working));
    let locked!: () => void;
    const brainLocked = new Promise<void>((r) => (locked = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    // As brain-repository.ts forgets a Brain: its row FOR UPDATE, then its Memories, then the row.
    const forget = forgetting.transaction(async (tx) => {
      await tx.query("SELECT 1 FROM brains WHERE uid = 'brn_gone' FOR UPDATE");
      locked();
      await released;
      await tx.query("DELETE FROM memories WHERE brain_uid = 'brn_gone'");
      await tx.query("DELETE FROM brains WHERE uid = 'brn_gone'");
    });
    await brainLocked;
    const drained = worker.drain(model, embed, 100);
    const waited = sleep(5_000).then(() => 'waited for the forget');
    try {
      assert.equal(await Promise.race([drained, waited]), 1, "only the other Brain's Record");
    } finally {
      release();
    }
    await forget;
    const left = await working.query<{ brain_uid: string; owner_n: number }>(
      'SELECT brain_uid, owner_n FROM embeddings ORDER BY brain_uid',
    );
    assert.deepEqual(left.rows, [{ brain_uid: 'brn_kept', owner_n: kept }]);
    assert.equal((await working.query('SELECT 1 FROM embed_queue')).rows.length, 0);
  });

  it('a discard passes over the rows another transaction holds, and takes them at its next call', async (t) => {
    if (server.skip) return t.skip(server.skip);
    const [holding, discarding] = await migratedDatabase(server.cluster(), 2, 2);
    await addBrain(holding!, 'brn_h');
    await insertRecord(holding!, { brainUid: 'brn_h', id: 'rec_h1', text: 'held' });
    await insertRecord(holding!, { brainUid: 'brn_h', id: 'rec_h2', text: 'free' });
    const queue2 = pgEmbeddingQueue(discarding!, pgVectorIndex(discarding!));
    let locked!: () => void;
    const rowLocked = new Promise<void>((r) => (locked = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    // As a forget's cascade or a worker holds a row until it commits.
    const hold = holding!.transaction(async (tx) => {
      await tx.query(
        "SELECT 1 FROM embed_queue WHERE owner_n = (SELECT n FROM records WHERE id = 'rec_h1') FOR UPDATE",
      );
      locked();
      await released;
    });
    await rowLocked;
    const waited = sleep(5_000).then(() => 'waited for the holder');
    try {
      assert.equal(await Promise.race([queue2.discard(), waited]), 1, 'the row no one holds');
    } finally {
      release();
    }
    await hold;
    assert.equal(await queue2.discard(), 1, 'the row released since');
  });
});
