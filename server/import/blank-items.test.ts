import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ImportItem } from './import-item.ts';
import { collectRecords, parsers } from './run-import.ts';

const item = (ref: string, content: unknown): ImportItem =>
  ({
    type: 'record',
    ref,
    body: { content, source: { name: 'vcf', external_id: `vcf:${ref}` } },
  }) as ImportItem;

test('an importer item that is blank where a Memory takes its words is skipped with the reason, not sent', async () => {
  const real = parsers.vcf;
  parsers.vcf = () => [
    item('blank value', { kind: 'fact', subject: 'Ana', predicate: 'email', value: '   ' }),
    item('blank text', { kind: 'message', text: '\n\n' }),
    item('kept', { kind: 'fact', subject: 'Ana', predicate: 'email', value: 'ana@example.com' }),
  ];
  try {
    const { records, skippedItems } = await collectRecords('vcf', 'unused.vcf', {});
    assert.deepEqual(
      records.map((r) => r.ref),
      ['kept'],
    );
    assert.deepEqual(skippedItems, [
      { ref: 'blank value', reason: 'content.value: must not be blank' },
      { ref: 'blank text', reason: 'content.text: must not be blank' },
    ]);
  } finally {
    parsers.vcf = real;
  }
});
