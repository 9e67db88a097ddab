import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openStore } from '../store/store.ts';
import { sameStatementSql } from './admit-claims.ts';

describe('admitClaims lookups', () => {
  it('finds an identical statement through the statement index, not by reading the subject’s Memories', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mnemo-admit-'));
    const store = openStore({ dataDir: dir, key: null });
    after(() => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const plan = store
      .all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sameStatementSql}`, 'b', 'n', 's', 'self', null)
      .map((r) => r.detail)
      .join('\n');
    assert.match(plan, /USING INDEX memories_brain_norm \(brain_uid=\? AND norm=\?\)/, plan);
  });
});
