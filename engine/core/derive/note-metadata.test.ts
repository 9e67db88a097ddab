import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isNoteMetadataKey, withoutNoteMetadata } from './note-metadata.ts';

test("a note's opening property lines that file it are blanked; those about a person or thing stay", () => {
  const text = [
    'status: active',
    'aliases: Relaunch, Site v2',
    'employer: Infobip',
    'Date created: 2026-10-01',
    'css-class: wide',
    '',
    'status: we ship in May.',
  ].join('\n');
  const read = withoutNoteMetadata(text);
  assert.equal(read.length, text.length, 'every position stays where it was');
  assert.deepEqual(
    read.split('\n').map((l) => l.trim()),
    ['', '', 'employer: Infobip', '', '', '', 'status: we ship in May.'],
  );
});

test('a note that opens with words, not a property, is read whole', () => {
  for (const text of [
    'We move the site to Astro.\nstatus: active',
    '# Relaunch\nstatus: active',
    'Status:active is how the tracker writes it.',
  ])
    assert.equal(withoutNoteMetadata(text), text, text);
});

test('metadata keys are read as Obsidian, Jekyll and Hugo write them, in any case or separator', () => {
  for (const key of [
    'status',
    'Type',
    'ID',
    'cssclasses',
    'date_modified',
    'lastmod',
    'publishDate',
    'permalink',
  ])
    assert.ok(isNoteMetadataKey(key), key);
  // What the importers date the note by is not written as a line: a "Date:" line is the note's own.
  for (const key of ['birthday', 'employer', 'company', 'city', 'partner', 'author', 'date', 'description'])
    assert.ok(!isNoteMetadataKey(key), key);
});
