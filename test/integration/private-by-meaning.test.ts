import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir, tenant, withBrain } from './local-helpers.ts';

describe('private Records in a Context', () => {
  it('are served when the question names them, not for resembling it', async () => {
    const { engine, remember } = await withBrain({ embedder: { provider: 'glove-sif', dataDir: tempDir() } });
    const said = (text: string, visibility?: 'local_only' | 'redacted_summary') =>
      remember({ content: { kind: 'message', speaker: 'Lea', text }, ...(visibility ? { visibility } : {}) });
    await said('My dentist is Dr. Babić on Ilica, since Tuesday.');
    await said("I'm allergic to penicillin, the doctor confirmed it.", 'local_only');
    await said('Session with my therapist about anxiety went well.', 'redacted_summary');
    await said('Marko and I are planning a hike on Medvednica.');
    await engine.idle();
    const ask = async (query: string) => {
      const c = await engine.createContext(tenant, 'b', { query }, { requestId: 'r' });
      assert.equal(c.status, 'ready');
      return c.text ?? '';
    };

    const dentist = await ask('Who is my dentist?');
    assert.match(dentist, /Dr\. Babić/u);
    assert.doesNotMatch(dentist, /penicillin/u);
    assert.doesNotMatch(dentist, /therapist/u);
    // What was held back, and why, is in the explanation.
    const explained = await engine.createContext(
      tenant,
      'b',
      { query: 'Who is my dentist?', include: ['explain'] },
      { requestId: 'r' },
    );
    assert.equal(explained.status, 'ready');
    const dropped = (explained.explain?.dropped ?? []) as Array<{ reason: string }>;
    const reasons = dropped.map((d) => d.reason.split(':')[0]).sort();
    assert.deepEqual(reasons, ['local_only', 'redacted_summary']);

    // Named, they are served as before.
    assert.match(await ask('What am I allergic to?'), /penicillin/u);
    assert.match(await ask('How did the session with my therapist go?'), /therapist/u);
  });
});
