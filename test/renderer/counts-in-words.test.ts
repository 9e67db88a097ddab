// Counts the UI says in words take the singular for one: "1 byte", "1 embedding call".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costWords, formatBytes } from '../../renderer/format.ts';

test('a chosen file of one byte is "1 byte"; other small sizes stay in bytes', () => {
  assert.equal(formatBytes(1), '1 byte');
  assert.equal(formatBytes(0), '0 bytes');
  assert.equal(formatBytes(586), '586 bytes');
});

test("a Context's cost says one call in the singular and other counts in the plural", () => {
  assert.equal(
    costWords({ generative_calls: 0, embedding_calls: 1, processing_units: 0.675 }),
    '0 generative calls, 1 embedding call, 0.675 processing units',
  );
  assert.equal(
    costWords({ generative_calls: 1, embedding_calls: 2, processing_units: 3 }),
    '1 generative call, 2 embedding calls, 3 processing units',
  );
});
