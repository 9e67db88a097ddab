import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { Context, ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { PgClient } from '../../engine/adapters/postgres/client.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { pgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { PostgresEngineOptions } from '../../engine/hosted/index.ts';
import type { Engine } from '../../engine/types.ts';
import { tenant } from './local-helpers.ts';

/**
 * Two engines over one database, as two `mnemo serve --engine postgres` processes are: what one
 * process keeps in memory, the other's writes and forgets reach only through the store. PGlite keeps
 * this in one process and cheap; postgres-processes.test.ts runs real processes on a cluster.
 */
const database = await pgliteDatabases({ migrated: true });
const opts = { requestId: 'req_test' };

async function twoProcesses(options: Omit<PostgresEngineOptions, 'storage'>): Promise<[Engine, Engine]> {
  const db = await database();
  // Each engine closes its storage's client: the database outlives both, and closes after them.
  const kept: PgClient = { ...db, close: async () => {} };
  const open = async () =>
    (await openPostgresEngine({ open: () => postgresStorageOver(kept) }, options)).engine;
  const engines: [Engine, Engine] = [await open(), await open()];
  after(async () => {
    await Promise.all(engines.map((e) => e.close()));
    await db.close();
  });
  return engines;
}

const said = (text: string): RecordCreate => ({ content: { kind: 'message', text, speaker: 'Ana' } });

/** Sends the request again until it is no longer processing (the retry after a 202). */
async function untilReady(send: () => Promise<Context>): Promise<ContextReady> {
  let c = await send();
  for (let i = 0; c.status === 'processing' && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 20));
    c = await send();
  }
  assert.equal(c.status, 'ready');
  return c as ContextReady;
}

describe('engines sharing one PostgreSQL database', () => {
  it('a thorough Context kept by one process is not served once another process forgot a Record it cites', async () => {
    // Every thorough assembly outlasts the 10 ms budget: the first request answers 202 and keeps it.
    const slow = { name: 'slow', search: async () => (await new Promise((r) => setTimeout(r, 40)), []) };
    const [a, b] = await twoProcesses({ thoroughSyncMs: 10, lanes: [slow] });
    await a.createBrain(tenant, { id: 'b' });
    const [key, pot] = await Promise.all(
      ['The spare key is under the blue pot.', 'The blue pot has a spare key sticker.'].map(
        async (text) => (await a.rememberRecord(tenant, 'b', said(text), {})).record.id,
      ),
    );
    const written = (await a.rememberRecord(tenant, 'b', said('Nothing to do with keys.'), {})).watermark;
    await a.idle();
    // With the write's Brain-Watermark, as a client that reads its own writes sends it.
    const body = { query: 'spare key', mode: 'thorough' as const };
    const ask = () => a.createContext(tenant, 'b', body, { ...opts, watermark: written });
    const first = await ask();
    assert.equal(first.status, 'processing');
    // The kept Context is finished (its Trace says so), citing both.
    for (let i = 0; i < 500 && (await a.getTrace(tenant, 'b', first.id)).status === 'processing'; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.ok((await a.getTrace(tenant, 'b', first.id)).citations.some((c) => c.record_id === key));
    await b.forgetRecord(tenant, 'b', key!);
    // Assembled afresh over what is left: never the kept Context that cites the forgotten Record.
    const again = await untilReady(ask);
    const cited = again.citations.map((c) => c.record_id);
    assert.ok(cited.includes(pot!), 'the Record left is cited');
    assert.ok(!cited.includes(key!), 'the forgotten Record is not');
    assert.doesNotMatch(again.text ?? '', /under the blue pot/);
  });
});

describe('a thorough Context answered 202 by one process', () => {
  /** A lane that holds every assembly until the test opens it, counting the assemblies. */
  function heldLane() {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    const lane = {
      calls: 0,
      name: 'held',
      search: async () => {
        lane.calls += 1;
        await opened;
        return [];
      },
    };
    return { lane, open };
  }

  it('is answered by another process: the same id, assembled once, one Trace', async () => {
    const held = heldLane();
    const [a, b] = await twoProcesses({ thoroughSyncMs: 30, lanes: [held.lane] });
    await a.createBrain(tenant, { id: 'b' });
    await a.rememberRecord(tenant, 'b', said('The spare key is under the blue pot.'), {});
    await a.idle();
    const body = { query: 'spare key', mode: 'thorough' as const };
    const first = await a.createContext(tenant, 'b', body, opts);
    assert.equal(first.status, 'processing');
    // Sent again to the other process while the first still assembles it: its 202, the same id.
    const meanwhile = await b.createContext(tenant, 'b', body, opts);
    assert.deepEqual([meanwhile.status, meanwhile.id], ['processing', first.id]);
    held.open();
    const done = await untilReady(() => b.createContext(tenant, 'b', body, opts));
    assert.equal(done.id, first.id);
    assert.match(done.text ?? '', /under the blue pot/);
    assert.equal(held.lane.calls, 1, 'assembled once, by the process that answered first');
    const traces = (await b.listTraces(tenant, 'b', { limit: 10 })).data.filter((t) => t.mode === 'thorough');
    assert.deepEqual(
      traces.map((t) => [t.id, t.status]),
      [[first.id, 'ready']],
    );
    // Served once: the next identical request is assembled afresh, under a new id.
    const fresh = await untilReady(() => a.createContext(tenant, 'b', body, opts));
    assert.notEqual(fresh.id, first.id);
  });

  it('leaves nothing of the Brain kept in the database once a Record is forgotten', async () => {
    const held = heldLane();
    const db = await database();
    const kept: PgClient = { ...db, close: async () => {} };
    const open = async () =>
      (
        await openPostgresEngine(
          { open: () => postgresStorageOver(kept) },
          { thoroughSyncMs: 20, lanes: [held.lane] },
        )
      ).engine;
    const [a, b] = [await open(), await open()];
    after(async () => {
      await Promise.all([a.close(), b.close()]);
      await db.close();
    });
    await a.createBrain(tenant, { id: 'b' });
    const key = (await a.rememberRecord(tenant, 'b', said('The spare key is under the blue pot.'), {})).record
      .id;
    await a.idle();
    const first = await a.createContext(tenant, 'b', { query: 'spare key', mode: 'thorough' }, opts);
    assert.equal(first.status, 'processing');
    held.open();
    for (let i = 0; i < 500 && (await a.getTrace(tenant, 'b', first.id)).status === 'processing'; i++)
      await new Promise((r) => setTimeout(r, 10));
    const keptRows = async () =>
      (
        await db.query<{ n: number; quoting: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE context::text LIKE '%blue pot%')::int AS quoting
         FROM thorough_contexts`,
        )
      ).rows[0]!;
    assert.deepEqual(await keptRows(), { n: 1, quoting: 1 }, 'the finished Context waits for its retry');
    await b.forgetRecord(tenant, 'b', key);
    assert.deepEqual(await keptRows(), { n: 0, quoting: 0 });
  });
});

const withVector = await pgliteDatabases({ migrated: true, vector: true });

/** A Brain told one thing and asked about it: the Context, and the names of its Trace's lanes. */
async function askedOnce(engine: Engine): Promise<{ ctx: ContextReady; lanes: string[] }> {
  await engine.createBrain(tenant, { id: 'tea' });
  await engine.rememberRecord(tenant, 'tea', said('Tea with lemon, no sugar.'), {});
  await engine.idle();
  const ctx = await untilReady(() => engine.createContext(tenant, 'tea', { query: 'tea with lemon' }, opts));
  return { ctx, lanes: (await engine.getTrace(tenant, 'tea', ctx.id)).lanes.map((l) => l.name) };
}

describe('a process whose embedder failed to load, on a database with the vector extension', () => {
  it('lists the semantic lane in every Trace as not run, with the reason', async () => {
    const failed = Promise.reject(new Error('no model here'));
    failed.catch(() => {});
    const { engine, semantic } = await openPostgresEngine(
      { open: async () => postgresStorageOver(await withVector()) },
      { embedder: failed },
    );
    after(() => engine.close());
    assert.equal(semantic.on, true);
    const { lanes } = await askedOnce(engine);
    assert.ok(
      lanes.includes('semantic (not run: the embedder failed to load: Error: no model here)'),
      lanes.join(', '),
    );
  });
});

describe('a database without the vector extension', () => {
  it('lists the semantic lane in every Trace as not run, with the reason', async () => {
    const db = await database();
    const { engine, semantic } = await openPostgresEngine({ open: () => postgresStorageOver(db) });
    after(() => engine.close());
    assert.equal(semantic.on, false);
    const { ctx, lanes } = await askedOnce(engine);
    assert.equal(ctx.citations.length, 1, 'the lexical lane answers');
    assert.ok(lanes.includes(`semantic (not run: ${semantic.reason})`), lanes.join(', '));
    assert.ok(!lanes.includes('semantic'), 'listed once, as not run');
  });
});
