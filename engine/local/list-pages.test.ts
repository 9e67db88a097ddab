import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RecordListQuery } from '../contract/index.ts';
import { encodeCursor } from '../shared/page-cursor.ts';
import { currentSql } from '../store/memory-view.ts';
import { openStore, type SqlParam } from '../store/store.ts';
import { memoryPageSql } from './memories.ts';
import { profileSql } from './profile-census.ts';
import { recordPageSql } from './records.ts';
import { sourceListSql } from './sources.ts';

/**
 * A page of Records or Memories must be a range read of an index in the page's order, stopping at the
 * limit: sorting the whole Brain for every page took ~120 ms at 100,000 Records.
 */
describe('list pages read an index in page order', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-pages-'));
  const store = openStore({ dataDir: dir, key: null });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const plan = (q: { sql: string; params: SqlParam[] }) =>
    store
      .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${q.sql}`, ...q.params)
      .map((r) => r.detail)
      .join('\n');
  const records = (q: Partial<RecordListQuery>) =>
    recordPageSql('brn_a', false, { limit: 50, ...q } as RecordListQuery);

  it('listRecords, newest first, with and without a cursor or a kind', () => {
    for (const q of [{}, { cursor: encodeCursor('rec_01') }, { kind: 'message' as const }]) {
      const p = plan(records(q));
      assert.match(p, /USING INDEX records_brain_id/, p);
      assert.doesNotMatch(p, /TEMP B-TREE/, p);
    }
    const hosted = plan(recordPageSql('brn_a', true, { limit: 50 } as RecordListQuery));
    assert.doesNotMatch(hosted, /TEMP B-TREE/, hosted);
  });

  it('listMemories, current ones by id, with and without a cursor', () => {
    const now = currentSql(Date.UTC(2026, 0, 1));
    const where = `m.brain_uid = ? AND m.pending = 0 AND ${now.sql}`;
    for (const [w, params] of [
      [where, ['brn_a', ...now.params]],
      [`${where} AND m.id > ?`, ['brn_a', ...now.params, 'mem_01']],
    ] as const) {
      const p = plan(memoryPageSql(w, [...params], 50));
      assert.match(p, /USING INDEX memories_brain_id/, p);
      assert.doesNotMatch(p, /TEMP B-TREE/, p);
    }
  });
});

describe('reads of one part of a Brain use an index of that part', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-parts-'));
  const store = openStore({ dataDir: dir, key: null });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const plan = (sql: string, ...params: SqlParam[]) =>
    store
      .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, ...params)
      .map((r) => r.detail)
      .join('\n');

  it('listRecords of one source, and listSources', () => {
    const q = recordPageSql('brn_a', false, { limit: 50, source: 'notes' } as RecordListQuery);
    const bySource = plan(q.sql, ...q.params);
    assert.match(bySource, /USING INDEX records_brain_source \(brain_uid=\? AND source_name=\?\)/, bySource);
    assert.doesNotMatch(bySource, /TEMP B-TREE/, bySource);
    for (const hosted of [false, true]) {
      const sources = plan(sourceListSql(hosted), 'brn_a');
      assert.match(sources, /USING INDEX records_brain_source \(brain_uid=\? AND source_name>\?\)/, sources);
      assert.doesNotMatch(sources, /TEMP B-TREE/, sources);
    }
  });

  it('the profile: the self’s current Memories, newest first', () => {
    const now = currentSql(Date.UTC(2026, 0, 1));
    for (const hosted of [false, true]) {
      const p = plan(profileSql(hosted, now.sql), 'brn_a', ...now.params, 50);
      assert.match(p, /USING INDEX memories_self_from \(brain_uid=\?\)/, p);
      assert.doesNotMatch(p, /TEMP B-TREE FOR ORDER BY/, p);
    }
  });
});
