import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Memory } from '../../engine/contract/index.ts';
import { listedChars, listedMemory } from './listed-memory.ts';

const memory = (statement: string, quotes: string[]): Memory => ({
  id: 'mem_01',
  object: 'memory',
  statement,
  subject: 'Ana',
  predicate: null,
  slot: null,
  owner: { state: 'self', entity: 'Ana' },
  valid_from: '2024-01-01T00:00:00.000Z',
  valid_to: null,
  version: 2,
  status: 'active',
  citations: quotes.map((quote, i) => ({ record_id: `rec_0${i}`, quote })),
});

test('a long statement and a long quote are cut, never between the halves of a surrogate pair', () => {
  const statement = `${'s'.repeat(listedChars.statement - 1)}🙂 and more`;
  const quote = `${'q'.repeat(listedChars.quote - 1)}🙂 and more`;
  const listed = listedMemory(memory(statement, [quote, 'another']));
  assert.equal(listed.statement, `${'s'.repeat(listedChars.statement - 1)}…`);
  assert.equal(listed.statement_cut, true);
  assert.deepEqual(listed.first_citation, {
    record_id: 'rec_00',
    quote: `${'q'.repeat(listedChars.quote - 1)}…`,
    quote_cut: true,
  });
  // A revision says so: a delta read tells it from a new Memory.
  assert.equal(listed.version, 2);
  assert.equal(listed.citation_count, 2);
});

test('a statement that fits is whole, unflagged, and a quote of its very words is left out', () => {
  const listed = listedMemory(memory('I live in Lisbon.', ['I live in Lisbon.']));
  assert.equal(listed.statement, 'I live in Lisbon.');
  assert.equal('statement_cut' in listed, false);
  assert.deepEqual(listed.first_citation, { record_id: 'rec_00' });
});
