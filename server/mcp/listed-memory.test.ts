import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Memory, Profile } from '../../engine/contract/index.ts';
import { listedChars, listedMemory, shownProfile } from './listed-memory.ts';

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

test("shownProfile keeps a line's quote where it says more than the statement, cut at listedChars.quote", () => {
  const long = `I now work at the harbour office, ${'by the river where the boats come in, '.repeat(10)}daily.`;
  const profile: Profile = {
    object: 'profile',
    brain_id: 'me',
    self: null,
    watermark: 'wm_x',
    lines: [
      {
        memory_id: 'mem_1',
        statement: 'Ana works at the harbour office',
        subject: 'Ana',
        valid_from: '2024-01-01T00:00:00Z',
        citations: [
          { record_id: 'rec_1', quote: long },
          { record_id: 'rec_2', quote: 'Ana works at the harbour office' },
          { record_id: 'rec_3', quote: 'I work at the harbour.' },
        ],
        group: 'slot',
      },
    ],
    has_more: false,
    next_cursor: null,
  };
  const [line] = shownProfile(profile).lines;
  const [cut, same, short] = line!.citations;
  assert.equal(cut!.quote_cut, true);
  assert.equal(cut!.quote, `${long.slice(0, listedChars.quote)}…`);
  assert.deepEqual(same, { record_id: 'rec_2' });
  assert.deepEqual(short, { record_id: 'rec_3', quote: 'I work at the harbour.' });
});
