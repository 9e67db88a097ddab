import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { filesContaining, open, tempDir, tenant } from './local-helpers.ts';

const said = (text: string) => ({ content: { kind: 'message' as const, text, speaker: 'user' } });

describe('local engine: forgetting', () => {
  // Unencrypted on purpose: with encryption the marker is never visible anyway, so only plaintext
  // pages prove that secure_delete, FTS5 secure-delete and the WAL checkpoint really remove the bytes.
  it('cascades (deleted / pending re-derivation / re-derived from survivors) and leaves no byte of the Record', async () => {
    const dir = tempDir();
    // Long enough that the reads below see the Memory still pending on a loaded machine; idle() waits it out.
    const engine = await open(dir, { dbKey: null, rederiveDelayMs: 5_000 });
    try {
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      const marker = 'quokka7731forgetmarker';
      const a = await engine.rememberRecord(
        tenant,
        'b',
        said(`I like sailing. The locker code is ${marker}.`),
        {},
      );
      const b = await engine.rememberRecord(tenant, 'b', said('I like sailing.'), {});
      await engine.idle();
      const recA = await engine.getRecord(tenant, 'b', a.record.id);
      const recB = await engine.getRecord(tenant, 'b', b.record.id);
      const shared = recB.memory_ids[0]!;
      assert.ok(recA.memory_ids.includes(shared), 'the same statement from two Records is one Memory');
      const ctx = await engine.createContext(tenant, 'b', { query: 'locker code' }, { requestId: 'req_1' });
      assert.ok(ctx.status === 'ready' && ctx.text?.includes(marker));
      assert.ok(filesContaining(dir, marker).length > 0, 'the scan does see plaintext before forgetting');

      const receipt = await engine.forgetRecord(tenant, 'b', a.record.id);
      assert.deepEqual(receipt.deleted, { records: 1, memories: 1, objects: 0 });
      assert.deepEqual(receipt.rederiving, { memories: 1 });
      await assert.rejects(
        engine.getMemory(tenant, 'b', shared),
        (e: MnemoError) => e.code === 'memory_pending_rederivation',
      );
      const lost = recA.memory_ids.find((id) => id !== shared)!;
      await assert.rejects(
        engine.getMemory(tenant, 'b', lost),
        (e: MnemoError) => e.code === 'memory_not_found',
      );
      assert.equal(
        (await engine.listMemories(tenant, 'b', { limit: 50 })).data.length,
        0,
        'pending is excluded from reads',
      );
      assert.equal((await engine.getCensus(tenant, 'b')).counts.memories_pending_rederivation, 1);
      await assert.rejects(
        engine.getRecord(tenant, 'b', a.record.id),
        (e: MnemoError) => e.code === 'record_not_found',
      );
      await assert.rejects(
        engine.forgetRecord(tenant, 'b', a.record.id),
        (e: MnemoError) => e.code === 'record_not_found',
      );

      await engine.idle();
      const rederived = await engine.getMemory(tenant, 'b', shared);
      assert.equal(rederived.status, 'active');
      assert.deepEqual(rederived.citations, [{ record_id: b.record.id, quote: 'I like sailing.' }]);
      const after = await engine.createContext(tenant, 'b', { query: 'locker code' }, { requestId: 'req_2' });
      assert.ok(after.status === 'ready' && !(after.text ?? '').includes(marker));
      assert.deepEqual(filesContaining(dir, marker), []);
    } finally {
      await engine.close();
    }
    assert.deepEqual(filesContaining(dir, 'quokka7731forgetmarker'), []);
  });

  it('a Memory re-derived after a forget speaks in the words of a surviving Record, not the forgotten one', async () => {
    const dir = tempDir();
    const engine = await open(dir, { dbKey: null, embedder: { provider: 'hash', dataDir: dir } });
    try {
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      // The two statements differ only in case and punctuation, so they are one Memory, worded as the first.
      const loud = await engine.rememberRecord(
        tenant,
        'b',
        said('I ADORE PURPLE TULIPS SAID WALRUSCASE!!'),
        {},
      );
      const quiet = await engine.rememberRecord(
        tenant,
        'b',
        said('i adore purple tulips said walruscase'),
        {},
      );
      await engine.idle();
      const shared = (await engine.getRecord(tenant, 'b', quiet.record.id)).memory_ids[0]!;
      assert.equal(
        (await engine.getMemory(tenant, 'b', shared)).statement,
        'I ADORE PURPLE TULIPS SAID WALRUSCASE!!',
      );
      await engine.forgetRecord(tenant, 'b', loud.record.id);
      await engine.idle();
      const m = await engine.getMemory(tenant, 'b', shared);
      assert.equal(m.statement, 'i adore purple tulips said walruscase');
      assert.deepEqual(
        m.citations.map((c) => c.record_id),
        [quiet.record.id],
      );
      const profile = JSON.stringify(await engine.getProfile(tenant, 'b', { limit: 50 }));
      assert.ok(!profile.includes('WALRUSCASE'), profile);
    } finally {
      await engine.close();
    }
    assert.deepEqual(filesContaining(dir, 'WALRUSCASE'), []);
  });

  it('forgetBrain removes everything; a recreated Brain refuses the old watermarks', async () => {
    const dir = tempDir();
    const engine = await open(dir, { dbKey: null });
    try {
      await engine.createBrain(tenant, { id: 'b' });
      const marker = 'wombat5520brainmarker';
      const w = await engine.rememberRecord(tenant, 'b', { content: `Remember ${marker} please.` }, {});
      await engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'fact', subject: 'x', predicate: 'y', value: marker } },
        {},
      );
      await engine.acceptObject(
        tenant,
        'b',
        { type: 'note', key: 'k', value: marker },
        { idempotencyKey: 'o1' },
      );
      await engine.idle();
      assert.ok(filesContaining(dir, marker).length > 0);
      const receipt = await engine.forgetBrain(tenant, 'b');
      assert.deepEqual(receipt.deleted, { records: 2, memories: 2, objects: 1 });
      assert.equal(receipt.watermark, null);
      await assert.rejects(engine.getBrain(tenant, 'b'), (e: MnemoError) => e.code === 'brain_not_found');
      assert.deepEqual(filesContaining(dir, marker), []);
      await engine.createBrain(tenant, { id: 'b' });
      await assert.rejects(
        engine.listMemories(tenant, 'b', { limit: 5, since_watermark: w.watermark }),
        (e: MnemoError) => e.code === 'invalid_watermark',
      );
      assert.equal((await engine.listRecords(tenant, 'b', { limit: 50 })).data.length, 0);
    } finally {
      await engine.close();
    }
  });

  it('other tenants see brain_not_found; reconciled Records are not erasable', async () => {
    const dir = tempDir();
    const engine = await open(dir);
    try {
      await engine.createBrain(tenant, { id: 'b' });
      const r = await engine.rememberRecord(
        tenant,
        'b',
        { content: 'from the mail import', source: { name: 'mbox', external_id: '<id@x>' } },
        {},
      );
      assert.equal(r.record.erasable, false);
      await assert.rejects(
        engine.forgetRecord(tenant, 'b', r.record.id),
        (e: MnemoError) => e.code === 'record_not_erasable',
      );
      for (const other of [
        { project: 'other', env: 'test' as const },
        { project: 'acme', env: 'live' as const },
      ]) {
        await assert.rejects(
          engine.getRecord(other, 'b', r.record.id),
          (e: MnemoError) => e.code === 'brain_not_found',
        );
        await assert.rejects(engine.forgetBrain(other, 'b'), (e: MnemoError) => e.code === 'brain_not_found');
      }
    } finally {
      await engine.close();
    }
  });
});
