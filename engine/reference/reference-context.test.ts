import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createReferenceEngine } from './index.ts';

test('the reference engine orders equal matches newest first by instant, whatever offset a time is written with', async () => {
  const engine = createReferenceEngine();
  const t = { project: 'p', env: 'test' as const };
  await engine.createBrain(t, { id: 'b' });
  // 13:30Z, written in the event's own zone as a calendar import writes it; then 13:45Z, 15 minutes later.
  const earlier = await engine.rememberRecord(
    t,
    'b',
    { content: 'Dentist appointment', occurred_at: '2024-04-15T14:30:00+01:00' },
    {},
  );
  const later = await engine.rememberRecord(
    t,
    'b',
    { content: 'Dentist called back', occurred_at: '2024-04-15T13:45:00Z' },
    {},
  );
  const ctx = await engine.createContext(t, 'b', { query: 'dentist' }, { requestId: 'req_ref' });
  assert.deepEqual(
    ctx.citations.map((c) => c.record_id),
    [later.record.id, earlier.record.id],
  );
});
