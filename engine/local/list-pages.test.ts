import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { profileGroups, type MemoryListQuery } from '../contract/index.ts';
import { encodeCursor } from '../core/shared/page-cursor.ts';
import type { SqlParam } from '../adapters/sqlite/store.ts';
import { queryPlan, tempStore } from '../adapters/sqlite/testing.ts';
import {
  recordPageSql,
  sourceItemsSql,
  sourceListSql,
  type RecordListFilter,
} from '../adapters/sqlite/record-repository.ts';
import { currentOfSelfSql, memoryPageSql } from '../adapters/sqlite/memory-repository.ts';
import { censusView, memoryTallySql, noiseQueries } from '../adapters/sqlite/census-reads.ts';
import { memoryFilter, type Named } from './memories.ts';

/**
 * A page, or a read of one part of a Brain, must be a range read of an index in the page's order,
 * stopping at the limit: sorting the whole Brain for every page took ~120 ms at 100,000 Records.
 */
describe('list reads use an index of what they read, in their order', () => {
  const store = tempStore('mnemo-pages-');
  const plan = (q: { sql: string; params: SqlParam[] }) => queryPlan(store, q.sql, ...q.params);
  const records = (q: Partial<RecordListFilter>, hosted = false) =>
    plan(recordPageSql('brn_a', { limit: 50, hideLocalOnly: hosted, ...q }));

  it('listRecords, newest first, with and without a cursor or a kind', () => {
    for (const p of [
      records({}),
      records({ cursor: encodeCursor('rec_01') }),
      records({ kind: 'message' }),
    ]) {
      assert.match(p, /USING INDEX records_brain_id/, p);
      assert.doesNotMatch(p, /TEMP B-TREE/, p);
    }
    const hosted = records({}, true);
    assert.doesNotMatch(hosted, /TEMP B-TREE/, hosted);
  });

  it('listMemories by id, either way, whatever it filters by, as it serves locally or hosted', () => {
    // Each with the subjects and owners it names (whomNamed): one, or several people of one name.
    const queries: Array<[Partial<MemoryListQuery>, Named?]> = [
      [{}],
      [{ cursor: encodeCursor('mem_01') }],
      [{ subject: 'Alice' }, { subjects: ['Alice'] }],
      [{ subject: 'Marko' }, { subjects: ['Marko', 'Marko Babić', 'marko babić'] }],
      [{ owner: 'self' }, { owner: { state: 'self' } }],
      [{ owner: 'marko' }, { owner: { folded: ['marko', 'marko babic'] } }],
      [{ q: 'kayak' }],
      [{ status: 'all' }],
      [{ status: 'superseded' }],
      [{ as_of: '2024-01-01T00:00:00Z' }],
    ];
    for (const hosted of [false, true])
      for (const [q, named = {}] of queries)
        for (const order of ['asc', 'desc'] as const) {
          const at = Date.UTC(2026, 0, 1);
          const f = memoryFilter({ limit: 50, ...q } as MemoryListQuery, at, hosted, false, named);
          const p = plan(memoryPageSql('brn_a', { ...f, limit: 50, cursor: q.cursor, order }));
          const said = `${JSON.stringify({ ...q, order })}\n${p}`;
          assert.match(p, /USING INDEX memories_brain_id/, said);
          assert.doesNotMatch(p, /TEMP B-TREE FOR ORDER BY/, said);
        }
  });

  it('listRecords of one source, and listSources', () => {
    const bySource = records({ sourceName: 'notes' });
    assert.match(bySource, /USING INDEX records_brain_source \(brain_uid=\? AND source_name=\?\)/, bySource);
    assert.doesNotMatch(bySource, /TEMP B-TREE/, bySource);
    for (const hosted of [false, true]) {
      const sources = plan({ sql: sourceListSql(hosted), params: ['brn_a'] });
      assert.match(sources, /USING INDEX records_brain_source \(brain_uid=\? AND source_name>\?\)/, sources);
      assert.doesNotMatch(sources, /TEMP B-TREE/, sources);
      const items = plan({ sql: sourceItemsSql(hosted), params: ['brn_a'] });
      assert.match(items, /USING (?:COVERING )?INDEX records_external \(brain_uid=\?\)/, items);
      assert.doesNotMatch(items, /TEMP B-TREE/, items);
    }
  });

  it('the census’s conflicts: only slot values are read', () => {
    for (const hosted of [false, true]) {
      const q = noiseQueries(censusView(Date.UTC(2026, 0, 1), hosted)).find((n) => n.kind === 'conflicts')!;
      const p = plan({ sql: q.sql, params: q.params('brn_a') });
      assert.match(p, /SEARCH m USING INDEX memories_brain_slot/, p);
    }
  });

  it('the census’s duplicates, low-trust Records and Memory counts: no read of every text', () => {
    for (const hosted of [false, true]) {
      const v = censusView(Date.UTC(2026, 0, 1), hosted);
      const kind = (k: string) => {
        const q = noiseQueries(v).find((n) => n.kind === k)!;
        return plan({ sql: q.sql, params: q.params('brn_a') });
      };
      const dup = kind('duplicates');
      // The repeated keys from the index alone; each Record of one compared only with its equals.
      assert.match(dup, /SEARCH records USING COVERING INDEX records_brain_text_key \(brain_uid=\?\)/, dup);
      assert.match(dup, /SEARCH r USING INDEX records_brain_text_key \(brain_uid=\? AND text_key=\?\)/, dup);
      assert.match(
        dup,
        /SEARCH e EXISTS USING INDEX records_brain_text_key \(brain_uid=\? AND text_key=\?/,
        dup,
      );
      assert.doesNotMatch(dup, /GROUP BY/, dup);
      const low = kind('low_trust_source');
      assert.match(low, /USING (COVERING )?INDEX records_brain_low_trust \(brain_uid=\?\)/, low);
      const tally = memoryTallySql(v);
      const t = plan({ sql: tally.sql, params: tally.params('brn_a') });
      assert.equal(t.match(/SEARCH m /g)?.length, 1, t);
    }
  });

  it('the profile: the self’s current Memories, each group (health, slot lines, the rest) newest first', () => {
    for (const hosted of [false, true])
      for (const group of profileGroups) {
        const p = plan(
          currentOfSelfSql('brn_a', {
            nowMs: Date.UTC(2026, 0, 1),
            shareableOnly: hosted,
            limit: 51,
            group,
          }),
        );
        // The health and slot lines on indexes of their own: a first page walks none of the rest.
        const index = {
          health: 'memories_self_health_from',
          slot: 'memories_self_slot_from',
          other: 'memories_self_from',
        }[group];
        assert.match(p, new RegExp(`USING INDEX ${index} \\(brain_uid=\\?\\)`), p);
        assert.doesNotMatch(p, /TEMP B-TREE FOR ORDER BY/, p);
        // A line said before from the same Record: found by its statement's key, and a line quoting it
        // through the line's own citations, not by walking every Memory of the self for each line.
        assert.match(p, /SEARCH o USING INDEX memories_brain_norm \(brain_uid=\? AND norm=\?\)/, p);
        if (group === 'other')
          assert.match(p, /SEARCH l USING INDEX memories_brain_id \(brain_uid=\? AND id=\?\)/, p);
        assert.doesNotMatch(p, /SEARCH [lo] USING INDEX memories_self_from/, p);
        // A later page starts on the index at the cursor's valid_from, not at the newest line.
        const next = plan(
          currentOfSelfSql('brn_a', {
            nowMs: Date.UTC(2026, 0, 1),
            shareableOnly: hosted,
            limit: 51,
            group,
            after: { validFromMs: Date.UTC(2025, 0, 1), n: 7 },
          }),
        );
        assert.match(
          next,
          new RegExp(`USING INDEX ${index} \\(brain_uid=\\? AND valid_from_ms<\\?\\)`),
          next,
        );
        assert.doesNotMatch(next, /TEMP B-TREE FOR ORDER BY/, next);
      }
  });
});
