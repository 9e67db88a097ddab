import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queryPlan, tempStore } from '../adapters/sqlite/testing.ts';
import { sameStatementSql } from './admit-claims.ts';

describe('admitClaims lookups', () => {
  it('finds an identical statement through the statement index, not by reading the subject’s Memories', () => {
    const plan = queryPlan(tempStore('mnemo-admit-'), sameStatementSql, 'b', 'n', 's', 'self', null);
    assert.match(plan, /USING INDEX memories_brain_norm \(brain_uid=\? AND norm=\?\)/, plan);
  });
});
