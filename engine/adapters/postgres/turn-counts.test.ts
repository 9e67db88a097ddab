import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { turnWeights } from '../../core/retrieve/turn-shape.ts';
import type { RecordRow } from '../../ports/index.ts';
import type { PgQueryable } from './client.ts';
import { postgresStorageOver } from './storage.ts';
import { addBrain, brainRow, migrateThrough, recordRow } from './testing/fixtures.ts';
import { pgliteDatabases } from './testing/pglite.ts';
import { insertRecord } from './testing/records.ts';

const blank = await pgliteDatabases();
const migrated = await pgliteDatabases({ migrated: true });

/** Each Brain's kept count beside a count of its turns, for the Brains `uids` names. */
async function counts(db: PgQueryable, uids: string[]): Promise<{ kept: number; counted: number }[]> {
  const rows = await db.query<{ kept: number; counted: number }>(
    `SELECT b.turn_count::int AS kept, (SELECT count(*) FROM turns t WHERE t.brain_uid = b.uid)::int AS counted
     FROM unnest($1::text[]) WITH ORDINALITY AS u(uid, ord) JOIN brains b ON b.uid = u.uid ORDER BY u.ord`,
    [uids],
  );
  return rows.rows;
}

let made = 0;
/** A message of `thread` at `ms`, as rememberRecord inserts one. */
function message(id: string, text: string, ms: number, thread: string | null = 't1'): Omit<RecordRow, 'n'> {
  const at = new Date(ms).toISOString();
  return {
    ...recordRow('', id, ++made),
    content: JSON.stringify({ kind: 'message', text, ...(thread ? { thread } : {}) }),
    text,
    occurred_at: at,
    occurred_ms: ms,
    created_at: at,
  };
}

describe("each Brain's turn count, kept in its row", () => {
  it('equals the count of its turns after writes, rewrites, a rolled-back unit and forgets', async () => {
    const db = await migrated();
    const s = await postgresStorageOver(db);
    await s.brains.create(brainRow('brn_a', 'a'));
    await s.brains.create(brainRow('brn_b', 'b'));
    const exact = async (a: number, b: number) =>
      assert.deepEqual(await counts(db, ['brn_a', 'brn_b']), [
        { kept: a, counted: a },
        { kept: b, counted: b },
      ]);
    await exact(0, 0);

    // Batched units: their Records go in one multi-row INSERT; out of order in a thread, so the
    // turns around each are rewritten.
    const write = (uid: string, rows: Omit<RecordRow, 'n'>[]) =>
      Promise.all(rows.map((r) => s.write(uid, (u) => u.records.insert(r), { batch: true })));
    await write('brn_a', [
      message('m1', 'kiwi', 1000),
      message('m4', 'plum', 4000),
      message('m2', 'lime', 2000),
      message('m3', 'mango', 3000),
      message('solo', 'fig', 1500, null),
    ]);
    await write('brn_b', [message('o1', 'pear', 1000), message('o2', 'kiwi', 500)]);
    await write('brn_a', [message('m0', 'kiwi again', 500)]);
    await exact(6, 2);

    // A unit that fails after its Record reached the table is rolled back to its savepoint alone.
    const outcomes = await Promise.allSettled([
      s.write('brn_a', (u) => u.records.insert(message('kept', 'lime', 6000)), { batch: true }),
      s.write(
        'brn_a',
        async (u) => {
          await u.records.insert(message('undone', 'pear', 7000));
          await u.records.get('undone');
          throw new Error('refused');
        },
        { batch: true },
      ),
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected'],
    );
    await exact(7, 2);

    // Forgetting Records (several in one statement, one of them in the middle of the thread).
    await s.write('brn_a', (u) => u.records.remove(['m2', 'solo', 'no_such']));
    await exact(5, 2);

    // Forgetting a Brain leaves the other's count as it was.
    await s.brains.remove('brn_b');
    assert.deepEqual(await counts(db, ['brn_b']), []);
    assert.deepEqual(await counts(db, ['brn_a']), [{ kept: 5, counted: 5 }]);
  });

  it("gives the lexical lane the Brain's N: a word's IDF as counting its turns gives it", async () => {
    const db = await migrated();
    const s = await postgresStorageOver(db);
    await s.brains.create(brainRow('brn_n', 'n'));
    const texts = ['kiwi and lime', 'lime', 'lime tart', 'mango', 'plum', 'kiwi'];
    for (const [i, text] of texts.entries())
      await s.write('brn_n', (u) => u.records.insert(message(`r${i}`, text, 1000 * i, null)));
    // Counted here, not kept: the score must not move by a bit with where N comes from.
    const expected = await db.query<{ id: string; score: number }>(
      `WITH q AS (SELECT phraseto_tsquery('english', 'lime') AS q),
            total AS (SELECT count(*) AS n FROM turns WHERE brain_uid = 'brn_n'),
            held AS (SELECT count(*) AS n FROM turns t, q WHERE t.brain_uid = 'brn_n' AND t.tsv @@ q.q)
       SELECT r.id, greatest(ln((total.n - held.n + 0.5)::float8 / (held.n + 0.5)), 1e-6)
                    * ts_rank($1::float4[], t.tsv, q.q, 1) AS score
       FROM turns t JOIN records r ON r.brain_uid = t.brain_uid AND r.n = t.n, q, total, held
       WHERE t.brain_uid = 'brn_n' AND t.tsv @@ q.q ORDER BY score DESC, r.n`,
      [[turnWeights.after, turnWeights.speaker, turnWeights.before, turnWeights.text]],
    );
    assert.equal(expected.rows.length, 3);
    const found = await s.lexical.search({
      terms: ['lime'],
      scope: { brainUid: 'brn_n', excludeLocalOnly: false },
      cut: 10,
      limit: 10,
    });
    assert.deepEqual(
      found.map((h) => ({ id: h.recordId, score: h.score })),
      expected.rows,
    );
    assert.equal((await s.lexical.textFrequencies('brn_n', ['lime'], 10)).records, texts.length);
  });

  it('is counted for the Brains a database already holds when the migration comes', async () => {
    const db = await blank();
    await migrateThrough(db, 10);
    await addBrain(db, 'brn_old');
    await addBrain(db, 'brn_empty');
    for (const i of [1, 2, 3])
      await insertRecord(db, { brainUid: 'brn_old', id: `r${i}`, text: `text ${i}`, occurredMs: i });
    assert.deepEqual(await migrateThrough(db, 11), [11]);
    assert.deepEqual(await counts(db, ['brn_old', 'brn_empty']), [
      { kept: 3, counted: 3 },
      { kept: 0, counted: 0 },
    ]);
  });
});
