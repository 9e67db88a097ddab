import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { PgClient } from './client.ts';
import { censusTimeoutMs, pgCensusReads } from './census-reads.ts';
import { addBrain, addRecord, migratedDatabase, migratedPglite, serverForTests } from './testing/fixtures.ts';

const db: PgClient = await migratedPglite();
await addBrain(db, 'b1');
// Three of one text, two of another, one alone: three are duplicates, first ids kept.
for (const [id, text] of [
  ['rec_a', 'same words'],
  ['rec_b', 'other words'],
  ['rec_c', 'same words'],
  ['rec_d', 'other words'],
  ['rec_e', 'same words'],
  ['rec_f', 'alone'],
] as const)
  await addRecord(db, 'b1', id, Number(id.charCodeAt(4)), text);

const read = { nowMs: Date.parse('2026-06-01T00:00:00Z'), shareableOnly: false, examples: 5 };

test("a Census's statements run under a time limit of their own, and find each Record after the first of its text", async () => {
  await db.transaction(async (tx) => {
    const census = await pgCensusReads(tx, 'b1').census(read);
    assert.deepEqual(census.noise.duplicates, { count: 3, examples: ['rec_c', 'rec_d', 'rec_e'] });
    const shown = await tx.query<{ statement_timeout: string }>('SHOW statement_timeout');
    assert.equal(shown.rows[0]!.statement_timeout, `${censusTimeoutMs / 1000}s`);
  });
  // Only that transaction's: the next statement has the database's own (none).
  const outside = await db.query<{ statement_timeout: string }>('SHOW statement_timeout');
  assert.equal(outside.rows[0]!.statement_timeout, '0');
});

// PGlite runs no statement_timeout (one thread, no timer interrupts): a real server shows the bound.
const server = await serverForTests();
describe('a Census on a PostgreSQL server', { skip: server.skip }, () => {
  it('past its time limit is store_unavailable, saying so, and the connection serves the next request', async () => {
    const [pg] = await migratedDatabase(server.cluster(), 1, 1);
    await addBrain(pg!, 'big');
    await pg!.query(
      `INSERT INTO records (brain_uid, id, seq, kind, content, text, trust, visibility, occurred_at, occurred_ms, created_at)
       SELECT 'big', 'rec_' || g, g, 'message', '{}', 'text ' || (g % 1000), 'medium', 'shareable',
              '2026-01-01T00:00:00Z', 0, '2026-01-01T00:00:00Z' FROM generate_series(1, 20000) g`,
    );
    await assert.rejects(
      pg!.transaction((tx) => pgCensusReads(tx, 'big', 1).census(read)),
      (e: unknown) => {
        assert.ok(e instanceof MnemoError);
        assert.equal(e.code, 'store_unavailable');
        assert.match(e.message, /^The Census of this Brain took longer than 0\.001 s/);
        return true;
      },
    );
    // The pool's one connection is free again, its time limit gone with the transaction.
    assert.equal((await pg!.query<{ n: number }>('SELECT 1 AS n')).rows[0]!.n, 1);
  });
});
