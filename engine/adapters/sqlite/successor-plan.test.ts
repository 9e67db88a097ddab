import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryPlan, tempStore } from './testing.ts';
import { successorSql } from './context-reads.ts';

test("the successor query starts from the dropped Memories, never from the Brain's Records", () => {
  const store = tempStore('mnemo-successor-plan-');
  for (const [asOf, sources] of [
    [undefined, undefined],
    [Date.parse('2024-01-01T00:00:00Z'), ['chat']],
  ] as const) {
    const scope = {
      brainUid: 'brain',
      excludeLocalOnly: true,
      ...(sources ? { sources: [...sources] } : {}),
    };
    const q = successorSql(['mem_a', 'mem_b'], { scope, readMs: asOf, nowMs: Date.now() }, 2);
    const steps = queryPlan(store, q.sql, ...q.params)
      .split('\n')
      .map((s) => s.trim());
    const plan = steps.join('\n');
    assert.match(steps.find((s) => /^(SCAN|SEARCH) /.test(s)) ?? '', /^SEARCH old USING .*\(id=\?\)/, plan);
    assert.equal(steps.filter((s) => /^SCAN (old|cur|sc|sr)\b/.test(s)).length, 0, plan);
    for (const s of steps.filter((x) => x.startsWith('SEARCH sr '))) assert.match(s, /\bid=\?/, plan);
  }
});
