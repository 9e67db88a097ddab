import assert from 'node:assert/strict';
import { it } from 'node:test';
import { open, rememberReady, tempDir, tenant } from './local-helpers.ts';

async function maya() {
  const engine = await open(tempDir());
  await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Maya Costa' } });
  const doc = (title: string, text: string, at: string) =>
    rememberReady(engine, {
      content: { kind: 'document', title, text },
      source: { name: 'obsidian' },
      occurred_at: at,
    });
  const profile = async () =>
    (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement).sort();
  return { engine, doc, profile };
}

it('an "About me" note is the self\'s: its home and job reach the Profile, and a later one moves her', async () => {
  const { engine, doc, profile } = await maya();
  await doc(
    'About me',
    '# About me\n\nI live in Lisbon. I work at Feedzai.\n\nTags: #me',
    '2024-01-01T10:00:00Z',
  );
  assert.deepEqual(await profile(), ['Maya Costa lives in Lisbon', 'Maya Costa works at Feedzai']);
  await doc('Maya Costa', 'I moved to Porto.', '2024-06-01T10:00:00Z');
  assert.deepEqual(await profile(), ['Maya Costa lives in Porto', 'Maya Costa works at Feedzai']);
  await engine.close();
});

it('a note with another title is hers by its "I", unless it is a clipped article or a pasted mail', async () => {
  const { engine, doc, profile } = await maya();
  // A web clipper's article, tagged so, and a mail pasted with its quote: another's "I".
  const clipped = await doc(
    'Why I left Berlin',
    'I live in Berlin. I work at Zalando.\n\nTags: #clippings',
    '2024-01-01T10:00:00Z',
  );
  await doc(
    'Carol',
    'On Mon, 4 Mar 2024 at 10:02, Carol <c@x.io> wrote:\n> I live in Faro.',
    '2024-01-02T10:00:00Z',
  );
  assert.deepEqual(await profile(), []);
  const m = await engine.getMemory(tenant, 'b', clipped.memory_ids[0]!);
  assert.deepEqual([m.statement, m.owner.state], ['I live in Berlin. I work at Zalando.', 'unresolved']);
  // Her own note of any title, her first name's too, is hers (rules-v36, own-note.ts).
  await doc('Maya', 'I live in Faro.', '2024-01-03T10:00:00Z');
  assert.deepEqual(await profile(), ['Maya Costa lives in Faro']);
  await engine.close();
});
