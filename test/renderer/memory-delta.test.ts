// A Memories delta applied to a loaded list (renderer/api/memory-delta.ts), under Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Memory, MemoryPage } from '../../engine/contract/index.ts';
import { applyDeltaToList } from '../../renderer/api/memory-delta.ts';
import { mem } from './memory-fixture.ts';

const m = (n: number, status: Memory['status'] = 'active', statement = `note ${n}`) =>
  mem(`mem_0${n}`, 'Ana', null, statement, status);

/** A loaded list: its pages of Memory numbers, the last with `more` when "Show more" would read on. */
const list = (pages: number[][], more = false) => ({
  pages: pages.map((ns, i) => ({
    data: ns.map((n) => m(n)),
    has_more: i === pages.length - 1 ? more : true,
    next_cursor: i === pages.length - 1 && !more ? null : `c${i}`,
  })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `c${i - 1}`)),
});

const shown = (data: { pages: MemoryPage[] }) => data.pages.map((p) => p.data.map((x) => x.statement));

test('oldest first: a change replaces its row, a removal drops it, new Memories go where their id puts them', () => {
  const delta = { changed: [m(3), m(5), m(4, 'active', 'note 4, revised')], removed: new Set(['mem_02']) };
  assert.deepEqual(shown(applyDeltaToList(list([[2, 4]]), delta, 'active')), [
    ['note 3', 'note 4, revised', 'note 5'],
  ]);
  // Past the end of a list not read to its end: "Show more" brings it, in its place.
  assert.deepEqual(shown(applyDeltaToList(list([[2, 4]], true), delta, 'active', 'asc')), [
    ['note 3', 'note 4, revised'],
  ]);
});

test('newest first: a new Memory goes on top, an older one where its id puts it, none past the loaded end', () => {
  const delta = { changed: [m(9), m(5), m(1)], removed: new Set<string>() };
  assert.deepEqual(
    shown(
      applyDeltaToList(
        list([
          [8, 6],
          [4, 2],
        ]),
        delta,
        'active',
        'desc',
      ),
    ),
    // note 1 is older than every loaded one, and the list is complete: it goes last.
    [
      ['note 9', 'note 8', 'note 6'],
      ['note 5', 'note 4', 'note 2', 'note 1'],
    ],
  );
  assert.deepEqual(
    shown(
      applyDeltaToList(
        list(
          [
            [8, 6],
            [4, 2],
          ],
          true,
        ),
        delta,
        'active',
        'desc',
      ),
    ),
    [
      ['note 9', 'note 8', 'note 6'],
      ['note 5', 'note 4', 'note 2'],
    ],
  );
});

test('a changed Memory that no longer has the list’s status leaves it, in either order', () => {
  const delta = { changed: [m(4, 'superseded'), m(7, 'superseded')], removed: new Set<string>() };
  for (const order of ['asc', 'desc'] as const)
    assert.deepEqual(
      shown(applyDeltaToList(list([order === 'asc' ? [2, 4, 6] : [6, 4, 2]]), delta, 'active', order)),
      [order === 'asc' ? ['note 2', 'note 6'] : ['note 6', 'note 2']],
    );
});
