// A page of a newest-first list read again from its own cursor, put in place of what it held.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pendingPages, withPageRead, type ListPage } from '../../renderer/api/pending-pages.ts';

type Row = { id: string; status: string };
const row = (n: number, status = 'ready'): Row => ({ id: `rec_${String(n).padStart(3, '0')}`, status });
const page = (rows: Row[], has_more = true): ListPage<Row> => ({
  data: rows,
  has_more,
  next_cursor: has_more ? (rows.at(-1)?.id ?? null) : null,
});
const ids = (p: ListPage<Row> | undefined) => p?.data.map((r) => `${r.id}:${r.status}`);
const loaded = () => ({
  pages: [
    page([row(9), row(8), row(7, 'processing')]),
    page([row(6), row(5, 'processing'), row(4)]),
    page([row(3)], false),
  ],
  pageParams: [null, 'rec_007', 'rec_004'],
});

test('only the pages holding a processing row are named', () => {
  assert.deepEqual(pendingPages(loaded()), [0, 1]);
});

test('a page read again takes its rows as they are now, drops one forgotten and takes none of the next page', () => {
  const next = withPageRead(loaded(), 1, page([row(6), row(5), row(3)]));
  assert.deepEqual(ids(next.pages[1]), ['rec_006:ready', 'rec_005:ready']);
  assert.deepEqual(ids(next.pages[0]), ids(loaded().pages[0]), 'other pages untouched');
  assert.deepEqual(ids(next.pages[2]), ['rec_003:ready']);
});

test('the first page read again takes the new rows on top and keeps the rows its read did not reach', () => {
  const next = withPageRead(loaded(), 0, page([row(11), row(10), row(9)]));
  assert.deepEqual(ids(next.pages[0]), [
    'rec_011:ready',
    'rec_010:ready',
    'rec_009:ready',
    'rec_008:ready',
    'rec_007:processing',
  ]);
});
