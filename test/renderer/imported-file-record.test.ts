import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importedFileRecord } from '../../renderer/imported-file-record.ts';

test("the importer's own Object reads as what the file held and why; any other Object is shown as it is", () => {
  assert.equal(
    importedFileRecord({
      type: 'mnemo-import-file',
      value: { source: 'ics', file: 'cal.ics', digests: ['a', 'b'] },
    }),
    'What cal.ics held when it was last imported (2 events), so that importing it again with “forget missing” can tell what was removed.',
  );
  assert.match(
    importedFileRecord({ type: 'mnemo-import-file', value: { source: 'vcf', file: 'c.vcf', items: ['x'] } })!,
    /\(1 contact\)/u,
  );
  assert.equal(importedFileRecord({ type: 'self', value: { employer: 'Zentrix' } }), null);
});

test("the importer's record of a folder's name and one it retired read as Mnemo's own, not as a person's", () => {
  assert.match(
    importedFileRecord({
      type: 'mnemo-import-file',
      value: { source: 'folder', name: 'Notes', devices: ['d'], places: ['p'] },
    })!,
    /^Which folders were imported as “Notes”/u,
  );
  assert.match(importedFileRecord({ type: 'mnemo-import-file', value: null })!, /no longer uses/u);
  assert.equal(importedFileRecord({ type: 'self', value: null }), null);
});
