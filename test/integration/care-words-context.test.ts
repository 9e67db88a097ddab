import assert from 'node:assert/strict';
import { it } from 'node:test';
import { tempDir, tenant, withBrain } from './local-helpers.ts';

it('a question naming a carer finds by its words the Records that name only the care, and the other way', async () => {
  const { engine, remember } = await withBrain({ embedder: { provider: 'glove-sif', dataDir: tempDir() } });
  const said = async (text: string) =>
    (await remember({ content: { kind: 'message', speaker: 'Tom', text } })).id as string;
  const therapy = await said('Therapy today with Dr. Maja Horvat, we talked about work stress.');
  const dental = await said('Booked the dental check-up for Friday.');
  await said('Coffee with Luka after the football match.');
  await said('My knee hurts again after the run.');
  await engine.idle();
  /** The Records the lexical lane found for the question. */
  const byWords = async (query: string) => {
    const c = await engine.createContext(tenant, 'b', { query }, { requestId: 'r' });
    assert.equal(c.status, 'ready', query);
    const trace = await engine.getTrace(tenant, 'b', c.id);
    return trace.lanes
      .filter((l) => l.name === 'lexical')
      .flatMap((l) => l.candidates.map((x) => x.record_id));
  };
  assert.deepEqual(await byWords('Do I see a therapist?'), [therapy]);
  assert.deepEqual(await byWords('When do I see the dentist?'), [dental]);
});

it('a care word in another sense names no care: a private treatment is not served for the carer', async () => {
  const { engine, remember } = await withBrain({ embedder: { provider: 'glove-sif', dataDir: tempDir() } });
  const said = (text: string, visibility?: 'local_only') =>
    remember({ content: { kind: 'message', speaker: 'Lea', text }, ...(visibility ? { visibility } : {}) });
  await said('My therapist is Dr. Maja Horvat, sessions on Tuesdays.');
  await said('Oncologist says radiation therapy starts next week after the biopsy.', 'local_only');
  await said('Retail therapy again, spent too much on shoes.', 'local_only');
  await said('Physical therapy on Monday helped my knee.', 'local_only');
  await engine.idle();
  const c = await engine.createContext(tenant, 'b', { query: 'Who is my therapist?' }, { requestId: 'r' });
  assert.equal(c.status, 'ready');
  assert.match(c.text ?? '', /Dr\. Maja Horvat/u);
  assert.doesNotMatch(c.text ?? '', /radiation|Retail/u);
  // A therapy a therapist gives is that care.
  assert.match(c.text ?? '', /Physical therapy/u);
});
