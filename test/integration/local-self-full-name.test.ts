import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady } from '../../engine/contract/index.ts';
import { open, rememberReady, tempDir, tenant } from './local-helpers.ts';

/**
 * A Record names the self as its writer spelt her: an export without accents, or macOS and some chat
 * exports in decomposed form (NFD). Each is the Brain's own person, as her first name alone already was.
 */
describe("the self's full name is the self without accents or in decomposed form", () => {
  const spellings = [
    ['without accents', 'Ines Conceicao'],
    ['decomposed (NFD)', 'Ine\u0302s Concei\u00e7a\u0303o'],
  ] as const;

  for (const [spelt, speaker] of spellings)
    it(`her name ${spelt} says where the self lives, and a Context marks the words hers`, async () => {
      const engine = await open(tempDir());
      try {
        await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Inês Conceição' } });
        const porto = await rememberReady(engine, {
          content: { kind: 'message', text: 'I live in Porto.', speaker, thread: 'chat' },
          occurred_at: '2024-01-01T10:00:00Z',
        });
        const m = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
        assert.deepEqual(
          [m.statement, m.owner.state, m.subject],
          ['Inês Conceição lives in Porto', 'self', 'Inês Conceição'],
        );
        const profile = await engine.getProfile(tenant, 'b', { limit: 50 });
        assert.deepEqual(
          profile.lines.map((l) => l.statement),
          ['Inês Conceição lives in Porto'],
        );
        const context = (await engine.createContext(
          tenant,
          'b',
          { query: 'Where do I live?' },
          { requestId: 'r' },
        )) as ContextReady;
        assert.deepEqual(
          context.citations.map((c) => c.record_id),
          [porto.id],
        );
        assert.match(context.text ?? '', /speaker: "Inês Conceição" \(self\) · source/);
      } finally {
        await engine.close();
      }
    });
});
