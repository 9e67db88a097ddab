import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { filesContaining, open, tempDir, tenant } from './local-helpers.ts';

const said = (text: string, source?: { name: string; external_id?: string }): RecordCreate => ({
  content: { kind: 'message', text, speaker: 'user' },
  ...(source ? { source } : {}),
});
const homeCity = (value: string, source: string, at: string): RecordCreate => ({
  content: { kind: 'fact', subject: 'user', predicate: 'home_city', value },
  source: { name: source, external_id: `${source}:home_city` },
  occurred_at: at,
});

describe('local engine: forgetting a whole source', () => {
  // Unencrypted on purpose (see local-forget.test.ts): only plaintext pages show that the bytes are gone.
  it('one transaction: Records, their FTS rows and Memories go; shared Memories re-derive; closed values re-open; no byte is left', async () => {
    const dir = tempDir();
    // Long enough that the shared Memory is still pending when checked on a loaded machine; idle() waits it out.
    const engine = await open(dir, { dbKey: null, rederiveDelayMs: 5_000 });
    try {
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      const marker = 'pangolin4410sourcemarker';
      const notes = { name: 'notes' };
      const imported = [
        await engine.rememberRecord(
          tenant,
          'b',
          said(`I like sailing. The alarm code is ${marker}.`, { ...notes, external_id: 'a.md' }),
          {},
        ),
        await engine.rememberRecord(tenant, 'b', said(`Locker ${marker} is mine.`, notes), {}),
        await engine.rememberRecord(tenant, 'b', homeCity('Lisbon', 'notes', '2024-06-01T00:00:00Z'), {}),
      ];
      const survivor = await engine.rememberRecord(tenant, 'b', said('I like sailing.'), {});
      const older = await engine.rememberRecord(
        tenant,
        'b',
        homeCity('Porto', 'phone', '2024-01-01T00:00:00Z'),
        {},
      );
      await engine.idle();
      const shared = (await engine.getRecord(tenant, 'b', survivor.record.id)).memory_ids[0]!;
      const porto = (await engine.getRecord(tenant, 'b', older.record.id)).memory_ids[0]!;
      assert.equal((await engine.getMemory(tenant, 'b', porto)).status, 'superseded', 'Lisbon is newer');
      const ownMemories = new Set<string>();
      for (const r of imported)
        for (const id of (await engine.getRecord(tenant, 'b', r.record.id)).memory_ids) ownMemories.add(id);
      ownMemories.delete(shared);
      assert.ok(filesContaining(dir, marker).length > 0, 'the scan sees plaintext before forgetting');

      const receipt = await engine.forgetSource(tenant, 'b', 'notes');
      assert.deepEqual(receipt.target, { type: 'source', id: 'notes' });
      assert.deepEqual(receipt.deleted, { records: 3, memories: ownMemories.size, objects: 0 });
      assert.deepEqual(receipt.rederiving, { memories: 1 });
      for (const r of imported) {
        await assert.rejects(
          engine.getRecord(tenant, 'b', r.record.id),
          (e: MnemoError) => e.code === 'record_not_found',
        );
      }
      for (const id of ownMemories) {
        await assert.rejects(
          engine.getMemory(tenant, 'b', id),
          (e: MnemoError) => e.code === 'memory_not_found',
        );
      }
      await assert.rejects(
        engine.getMemory(tenant, 'b', shared),
        (e: MnemoError) => e.code === 'memory_pending_rederivation',
      );
      const reopened = await engine.getMemory(tenant, 'b', porto);
      assert.equal(reopened.status, 'active', 'the older value is current again');
      assert.equal(reopened.valid_to, null);
      assert.deepEqual(
        (await engine.listSources(tenant, 'b')).data.map((s) => s.name),
        ['phone'],
      );
      await assert.rejects(
        engine.forgetSource(tenant, 'b', 'notes'),
        (e: MnemoError) => e.code === 'source_not_found',
      );

      await engine.idle();
      const rederived = await engine.getMemory(tenant, 'b', shared);
      assert.deepEqual(rederived.citations, [{ record_id: survivor.record.id, quote: 'I like sailing.' }]);
      const ctx = await engine.createContext(
        tenant,
        'b',
        { query: 'alarm code locker' },
        { requestId: 'r1' },
      );
      assert.ok(ctx.status === 'ready' && !(ctx.text ?? '').includes(marker));
      assert.deepEqual(filesContaining(dir, marker), []);
    } finally {
      await engine.close();
    }
    assert.deepEqual(filesContaining(dir, 'pangolin4410sourcemarker'), []);
  });

  it('a re-import after removal writes the Records again (their Idempotency-Keys went with them)', async () => {
    const dir = tempDir();
    const engine = await open(dir);
    try {
      await engine.createBrain(tenant, { id: 'b' });
      const body = said('Dinner on Friday at eight', { name: 'whatsapp', external_id: 'chat:1' });
      const first = await engine.rememberRecord(tenant, 'b', body, { idempotencyKey: 'imp_1' });
      const replay = await engine.rememberRecord(tenant, 'b', body, { idempotencyKey: 'imp_1' });
      assert.equal(replay.record.id, first.record.id);
      await engine.forgetSource(tenant, 'b', 'whatsapp');
      const again = await engine.rememberRecord(tenant, 'b', body, { idempotencyKey: 'imp_1' });
      assert.notEqual(again.record.id, first.record.id);
      await assert.rejects(
        engine.forgetSource({ project: 'other', env: 'test' }, 'b', 'whatsapp'),
        (e: MnemoError) => e.code === 'brain_not_found',
      );
    } finally {
      await engine.close();
    }
  });

  it("a person's correction still holds after the import it corrected is removed and brought back", async () => {
    const engine = await open(tempDir());
    try {
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      const chat = (): RecordCreate => ({
        content: { kind: 'message', text: 'I moved to Coimbra last week.', speaker: 'Marta' },
        source: { name: 'whatsapp', external_id: 'chat:7' },
        occurred_at: '2024-03-01T10:00:00Z',
      });
      const current = async () =>
        (await engine.listMemories(tenant, 'b', { limit: 50, subject: 'Marta' })).data.map(
          (m) => m.statement,
        );
      await engine.rememberRecord(tenant, 'b', chat(), { idempotencyKey: 'imp_7' });
      await engine.idle();
      const [coimbra] = (await engine.listMemories(tenant, 'b', { limit: 50, q: 'Marta' })).data;
      assert.equal(coimbra?.statement, 'Marta lives in Coimbra');
      await engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'correction', corrects: coimbra.id, statement: 'Marta lives in Aveiro' } },
        {},
      );
      await engine.idle();
      assert.deepEqual(await current(), ['Marta lives in Aveiro']);

      await engine.forgetSource(tenant, 'b', 'whatsapp');
      await engine.idle();
      assert.deepEqual(await current(), ['Marta lives in Aveiro']);
      await engine.rememberRecord(tenant, 'b', chat(), { idempotencyKey: 'imp_7' });
      await engine.idle();
      assert.deepEqual(
        await current(),
        ['Marta lives in Aveiro'],
        'the import brought back does not undo it',
      );
      const context = await engine.createContext(
        tenant,
        'b',
        { query: 'where does Marta live?', include: ['memories'] },
        { requestId: 'req_test' },
      );
      assert.equal(context.status, 'ready');
      if (context.status === 'ready') {
        assert.deepEqual(
          context.memories?.map((m) => m.statement),
          ['Marta lives in Aveiro'],
        );
        assert.doesNotMatch(context.text ?? '', /Coimbra/);
      }

      // A later value from the chat still ends the correction: it is news, not the corrected value.
      await engine.rememberRecord(
        tenant,
        'b',
        {
          content: { kind: 'message', text: 'I moved to Lisbon.', speaker: 'Marta' },
          source: { name: 'whatsapp', external_id: 'chat:8' },
          occurred_at: '2025-01-01T10:00:00Z',
        },
        {},
      );
      await engine.idle();
      assert.deepEqual(await current(), ['Marta lives in Lisbon']);
    } finally {
      await engine.close();
    }
  });
});
