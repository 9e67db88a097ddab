import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordPage } from '../../engine/contract/index.ts';
import { recordPages, type PageQuery } from './record-pages.ts';

const pageOf = (ids: string[], next: string | null) =>
  ({ data: ids, next_cursor: next }) as unknown as RecordPage;

describe('recordPages', () => {
  it('follows next_cursor to the last page, asking with the caller’s filters', async () => {
    const asked: (PageQuery & { source: string })[] = [];
    const pages: Record<string, RecordPage> = {
      first: pageOf(['a', 'b'], 'c1'),
      c1: pageOf(['c'], 'c2'),
      c2: pageOf([], null),
    };
    const seen: unknown[] = [];
    for await (const page of recordPages(
      async (q: PageQuery & { source: string }) => {
        asked.push(q);
        return pages[q.cursor ?? 'first']!;
      },
      { source: 'notes' },
    ))
      seen.push(...(page?.data ?? []));
    assert.deepEqual(seen, ['a', 'b', 'c']);
    assert.deepEqual(asked, [
      { source: 'notes', limit: 200 },
      { source: 'notes', limit: 200, cursor: 'c1' },
      { source: 'notes', limit: 200, cursor: 'c2' },
    ]);
  });

  it('yields a page read as null, and reads no further', async () => {
    let calls = 0;
    const seen: (RecordPage | null)[] = [];
    for await (const page of recordPages(async () => {
      calls += 1;
      return null;
    }, {}))
      seen.push(page);
    assert.deepEqual(seen, [null]);
    assert.equal(calls, 1);
  });
});
