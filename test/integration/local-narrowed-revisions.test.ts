import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate, Visibility } from '../../engine/contract/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const note = (text: string, visibility: Visibility): RecordCreate => ({
  content: { kind: 'document', text, title: 'dentist.md' },
  source: { name: 'markdown', external_id: 'dentist.md' },
  visibility,
});

describe('an item written again with a narrower visibility', () => {
  it('keeps only that revision, also when its write is a replay of an earlier one', async () => {
    const { engine } = await withBrain();
    const write = (visibility: Visibility, key: string) =>
      engine.rememberRecord(tenant, 'b', note('Dentist on Tuesday at 10.', visibility), {
        idempotencyKey: key,
      });
    const held = async () =>
      (await engine.listRecords(tenant, 'b', { limit: 50, source: 'markdown' })).data
        .map((r) => r.visibility)
        .sort();
    await write('shareable', 'k-shared');
    await write('local_only', 'k-home');
    assert.deepEqual(await held(), ['local_only']);
    // The shareable write again is a new revision (the one its key named is gone), wider than the
    // local_only one, which it leaves be; the local_only write again is a replay, and still narrows.
    await write('shareable', 'k-shared');
    assert.deepEqual(await held(), ['local_only', 'shareable']);
    const again = await write('local_only', 'k-home');
    assert.equal(again.replayed, true);
    assert.deepEqual(await held(), ['local_only']);
  });

  it('takes nothing back on a hosted deployment, where redacted_summary is served as it is', async () => {
    const { engine } = await withBrain({ deployment: 'hosted' });
    await engine.rememberRecord(tenant, 'b', note('Dentist on Tuesday at 10.', 'shareable'), {});
    await engine.rememberRecord(tenant, 'b', note('Dentist on Tuesday at 11.', 'redacted_summary'), {});
    const held = (await engine.listRecords(tenant, 'b', { limit: 50, source: 'markdown' })).data;
    assert.deepEqual(held.map((r) => r.visibility).sort(), ['redacted_summary', 'shareable']);
  });
});
