import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PgClient, PgQueryable } from './client.ts';
import { migrate } from './migrate.ts';
import { addBrain, serverForTests } from './testing/fixtures.ts';
import { insertMemory, insertRecord } from './testing/records.ts';
import { pgUnitsOfWork } from './unit-of-work.ts';

interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** The client, with every statement it runs (in transactions too) written down. */
function recorded(db: PgClient, seen: Statement[]): PgClient {
  const wrap = (q: PgQueryable): PgQueryable => ({
    query: (sql, params = []) => {
      seen.push({ sql, params });
      return q.query(sql, params);
    },
    exec: (sql) => q.exec(sql),
  });
  return {
    ...wrap(db),
    transaction: (work, options) => db.transaction((tx, opened) => work(wrap(tx), opened), options),
    ping: (ms) => db.ping(ms),
    close: () => db.close(),
  };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodes = (p: PlanNode): PlanNode[] => [p, ...(p.Plans ?? []).flatMap(nodes)];

/** The plan's nodes, with the planner told to read an index wherever one can serve the statement. */
async function plan(db: PgClient, s: Statement): Promise<PlanNode[]> {
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    await tx.query('SET LOCAL enable_bitmapscan = off');
    const r = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${s.sql}`,
      s.params,
    );
    return nodes(r.rows[0]!['QUERY PLAN'][0].Plan);
  });
}

const server = await serverForTests();

describe('pages on a server whose text order is a locale', { skip: server.skip }, () => {
  // A tenant's Brains are few: their list may sort.
  it('read an index in bytewise order, sorting nothing', async () => {
    const cluster = server.cluster();
    const db = cluster.connect(await cluster.freshDatabase({ icuLocale: 'en-US' }), 2);
    await migrate(db);
    const uid = 'b_order';
    await addBrain(db, uid, 'brain-a');
    await addBrain(db, 'b_other', 'Brain-B');
    for (const id of ['rec_a', 'rec_B', 'rec_c']) {
      await insertRecord(db, { brainUid: uid, id, text: `words of ${id}`, source: id.slice(-1) });
      await insertMemory(db, uid, `mem_${id}`, id, `words of ${id}`);
    }
    await db.query(
      `INSERT INTO object_versions (brain_uid, type, key, version, value, accepted_at, seq)
       SELECT $1, t, k, 1, '{}', '2026-01-01T00:00:00Z', 1 FROM unnest(ARRAY['note', 'Note']) t, unnest(ARRAY['a', 'B']) k`,
      [uid],
    );
    await db.query(
      `INSERT INTO memory_removals (brain_uid, memory_id, seq, reason, shareable)
       SELECT $1, m, 2, 'deleted', true FROM unnest(ARRAY['mem_x', 'mem_Y']) m`,
      [uid],
    );
    await db.query('ANALYZE');

    const seen: Statement[] = [];
    const watched = recorded(db, seen);
    const pages: Record<string, () => Promise<unknown>> = {
      records: () =>
        pgUnitsOfWork(watched).read(uid, (u) =>
          u.records.list({ limit: 2, cursor: undefined, hideLocalOnly: false }),
        ),
      memories: () =>
        pgUnitsOfWork(watched).read(uid, (u) =>
          u.memories.list({ limit: 2, nowMs: Date.now(), status: 'all', shareableOnly: false }),
        ),
      objects: () => pgUnitsOfWork(watched).read(uid, (u) => u.objects.list({ limit: 2 })),
      tombstones: () =>
        pgUnitsOfWork(watched).read(uid, (u) => u.tombstones.since(0, 10, { shareableOnly: false })),
      // A delta read of Memories read on from a place inside a step (a forgotten import split across pages).
      'tombstones from a place': () =>
        pgUnitsOfWork(watched).read(uid, (u) =>
          u.tombstones.since(2, 10, { shareableOnly: false, afterId: 'mem_Y' }),
        ),
      // A delta read of Memories read on from a place inside a step (one step's many changes).
      'memory changes from a place': () =>
        pgUnitsOfWork(watched).read(uid, (u) =>
          u.memories.changes({
            afterSeq: 1,
            afterN: 1,
            limit: 2,
            nowMs: Date.now(),
            status: 'all',
            shareableOnly: false,
          }),
        ),
      // The change feed read on from a place inside a step (a forgotten import split across pages).
      'feed records': () =>
        pgUnitsOfWork(watched).read(uid, (u) =>
          u.records.changes({ afterSeq: 1, afterId: 'rec_B', limit: 2, hideLocalOnly: true }),
        ),
      'feed removals': () =>
        pgUnitsOfWork(watched).read(uid, (u) =>
          u.records.removals({ afterSeq: 1, afterId: 'rec_x', limit: 2 }),
        ),
    };
    for (const [name, read] of Object.entries(pages)) {
      seen.length = 0;
      await read();
      const ordered = seen.filter((s) => /ORDER BY/i.test(s.sql));
      assert.ok(ordered.length > 0, `${name}: a statement that orders its page`);
      for (const s of ordered) {
        const types = (await plan(db, s)).map((n) => n['Node Type']);
        assert.ok(!types.some((t) => /Sort/.test(t)), `${name}: ${types.join(' > ')}\n${s.sql}`);
        assert.ok(
          types.some((t) => /Index/.test(t)),
          `${name} reads an index: ${types.join(' > ')}`,
        );
      }
    }
    await db.close();
  });
});
