import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady } from '../../engine/contract/index.ts';
import { lenasWeek } from './lenas-week.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

// use4 H3: a question naming the Brain's own person by her first name, asked in her Brain.
describe('a question naming the self by her first name in her own Brain', () => {
  async function lena() {
    const engine = await open(tempDir(), { embedder: { provider: 'glove-sif', dataDir: tempDir() } });
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Lena Kovac' } });
    const ids = new Map<string, string>();
    for (const [at, thread, speaker, text] of lenasWeek) {
      const r = await engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'message', text, speaker, thread }, occurred_at: at },
        {},
      );
      ids.set(text, r.record.id);
    }
    await engine.idle();
    const cited = async (query: string, mode: 'fast' | 'thorough' = 'fast') => {
      const c = (await engine.createContext(
        tenant,
        'b',
        { query, mode },
        { requestId: 'r' },
      )) as ContextReady;
      const texts = new Map([...ids].map(([text, id]) => [id, text]));
      return c.citations.map((x) => texts.get(x.record_id) ?? x.record_id);
    };
    return { engine, cited };
  }

  it('"What should I not cook for Lena?" leads with her diet and her allergy, as "for her?" does', async () => {
    const { engine, cited } = await lena();
    const diet = "I don't eat meat anymore, since October. Fish is still fine for me.";
    const allergy = [
      "Turns out I'm allergic to walnuts. The doctor confirmed it today.",
      'Doctor says I am allergic to walnuts, so no walnut cake for me anymore.',
    ];
    try {
      for (const query of ['What should I not cook for Lena?', 'What should I not cook for her?'])
        for (const mode of ['fast', 'thorough'] as const) {
          const top = (await cited(query, mode)).slice(0, 2);
          assert.ok(
            top.includes(diet) && top.some((t) => allergy.includes(t)),
            `${query} ${mode}: ${top.join(' | ')}`,
          );
        }
      // Another person's name still finds what they said.
      const cats = "Saved. By the way, I'm allergic to cats, remember that when we visit Klara.";
      assert.equal((await cited('What is Jonas allergic to?'))[0], cats);
    } finally {
      await engine.close();
    }
  });
});
