import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir, tenant, withBrain } from './local-helpers.ts';

/** Lea's Brain, with the embedder whose nearness by meaning the rules are about, and her words in it. */
async function leasBrain() {
  const { engine, remember } = await withBrain({ embedder: { provider: 'glove-sif', dataDir: tempDir() } });
  const said = (text: string, visibility?: 'local_only' | 'redacted_summary') =>
    remember({ content: { kind: 'message', speaker: 'Lea', text }, ...(visibility ? { visibility } : {}) });
  return { engine, said };
}

describe('private Records in a Context', () => {
  it('are served when the question names them, not for resembling it', async () => {
    const { engine, said } = await leasBrain();
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

  it('naming only the person a question asks a fact of, are not served for that fact', async () => {
    const { engine, said } = await leasBrain();
    await said("Marko's birthday is on March 13.");
    await said('Diary: some nights I quietly wonder whether Marko and I want the same future.', 'local_only');
    await said('Ana moved to Porto last spring, she loves it there.', 'local_only');
    await engine.idle();
    const context = async (query: string) => {
      const c = await engine.createContext(tenant, 'b', { query, include: ['explain'] }, { requestId: 'r' });
      assert.equal(c.status, 'ready');
      const dropped = (c.explain?.dropped ?? []) as Array<{ reason: string }>;
      return { text: c.text ?? '', reasons: dropped.map((d) => d.reason) };
    };

    // A birthday is asked: the diary names Marko and says nothing of it.
    const birthday = await context("When is Marko's birthday?");
    assert.match(birthday.text, /March 13/u);
    assert.doesNotMatch(birthday.text, /quietly wonder/u);
    assert.ok(
      birthday.reasons.some((r) => /^local_only: names whom the question asks of/u.test(r)),
      birthday.reasons.join('\n'),
    );
    // Typed in lower case, as a person types into a box, the name is read from whom the slot lane found.
    const typed = await context("when is marko's birthday");
    assert.match(typed.text, /March 13/u);
    assert.doesNotMatch(typed.text, /quietly wonder/u);
    // Asked about the person, or what the private Record holds, it is served as before.
    assert.match((await context('How do I feel about Marko?')).text, /quietly wonder/u);
    assert.match((await context('Where does Ana live now?')).text, /Porto/u);
  });

  it('answering a fact no slot holds in their own words, are served for it', async () => {
    const { engine, said } = await leasBrain();
    await said('Marko was born on 13 March 1990, in Split.', 'local_only');
    await said('Ivo teaches maths at a gymnasium in Zagreb.', 'local_only');
    await engine.idle();
    const text = async (query: string) => {
      const c = await engine.createContext(tenant, 'b', { query }, { requestId: 'r' });
      assert.equal(c.status, 'ready', query);
      return c.text ?? '';
    };
    assert.match(await text("When is Marko's birthday?"), /13 March 1990/u);
    assert.match(await text("What is Ivo's job?"), /teaches maths/u);
  });
});
