import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Evidence } from '../../engine/contract/index.ts';
import { groupSpan, sameEvidenceGroups } from '../../renderer/evidence-groups.ts';

const said = (id: string, day: number, over: Partial<Evidence> = {}): Evidence => ({
  record_id: id,
  quote: 'My sister Lea is vegetarian.',
  text: 'My sister Lea is vegetarian.',
  kind: 'message',
  speaker: 'user',
  source_name: null,
  occurred_at: new Date(Date.UTC(2024, 0, day)).toISOString(),
  ...over,
});

test('evidence of the same words, kind, speaker and source is one group, in the place of its first', () => {
  const other = said('r_other', 2, { quote: 'Lea is vegetarian', text: 'Lea is vegetarian, she said.' });
  const groups = sameEvidenceGroups([
    said('r3', 3),
    other,
    said('r1', 1),
    said('r_ana', 4, { speaker: 'Ana' }),
    said('r_mail', 5, { source_name: 'mail' }),
    said('r2', 2, { speaker: ' USER ' }),
    said('r_no_text', 6, { text: null }),
  ]);
  assert.deepEqual(
    groups.map((g) => g.all.map((e) => e.record_id)),
    [['r3', 'r1', 'r2'], ['r_other'], ['r_ana'], ['r_mail'], ['r_no_text']],
  );
  const span = groupSpan(groups[0]!);
  assert.deepEqual([span.earliest.record_id, span.latest.record_id], ['r1', 'r3']);
});
