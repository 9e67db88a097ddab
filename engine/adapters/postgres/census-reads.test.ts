import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MnemoError } from '../../errors/mnemo-error.ts';
import type { PgClient, PgQueryable } from './client.ts';
import { censusTimeoutMs, pgCensusReads } from './census-reads.ts';
import { addBrain, addRecord, migratedPglite } from './testing/fixtures.ts';

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

test('a Census past its time limit is store_unavailable, saying so', async () => {
  let statements = 0;
  const timingOut: PgQueryable = {
    async query() {
      statements += 1;
      if (statements > 1)
        throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
      return { rows: [], rowCount: 0 } as never;
    },
    exec: async () => {},
  };
  await assert.rejects(pgCensusReads(timingOut, 'b1').census(read), (e: unknown) => {
    assert.ok(e instanceof MnemoError);
    assert.equal(e.code, 'store_unavailable');
    assert.match(e.message, /^The Census of this Brain took longer than 15 s/);
    return true;
  });
});
