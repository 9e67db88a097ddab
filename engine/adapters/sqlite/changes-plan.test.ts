import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryPlan, tempStore } from './testing.ts';
import { changedVersionsSql, changesSql } from './context-reads.ts';

test("the changes query reads the span's Records by the time index, never the Brain's Memories", () => {
  const store = tempStore('mnemo-changes-plan-');
  for (const scope of [
    { brainUid: 'brain', excludeLocalOnly: false },
    { brainUid: 'brain', excludeLocalOnly: true, shareableOnly: true, sources: ['chat'] },
  ]) {
    const span = { fromMs: Date.parse('2026-11-28T00:00:00Z'), toMs: Date.parse('2026-12-05T18:00:00Z') };
    const q = changesSql(span, { scope, readMs: undefined, nowMs: span.toMs }, 24);
    const steps = queryPlan(store, q.sql, ...q.params)
      .split('\n')
      .map((s) => s.trim());
    const plan = steps.join('\n');
    assert.match(
      plan,
      /SEARCH r USING INDEX records_brain_occurred \(brain_uid=\? AND occurred_ms>\? AND occurred_ms<\?\)/,
      plan,
    );
    assert.equal(steps.filter((s) => /^SCAN (m|c|e|er|r|ec)\b/.test(s)).length, 0, plan);
    for (const s of steps.filter((x) => /^SEARCH m /.test(x)))
      assert.match(s, /\b(id|retracted_by)=\?/, plan);
  }
});

test("the changed lineages' versions are read by each lineage, never the Brain's Memories", () => {
  const store = tempStore('mnemo-changed-versions-plan-');
  for (const scope of [
    { brainUid: 'brain', excludeLocalOnly: false },
    { brainUid: 'brain', excludeLocalOnly: true, shareableOnly: true, sources: ['chat'] },
  ]) {
    const q = changedVersionsSql(scope, ['mem_1', 'mem_2'], 'brain');
    const plan = queryPlan(store, q.sql, ...q.params);
    assert.match(plan, /SEARCH m USING INDEX sqlite_autoindex_memories_2 \(lineage=\?\)/, plan);
    assert.doesNotMatch(plan, /(SEARCH|SCAN) m USING (COVERING )?INDEX memories_brain/, plan);
  }
});
