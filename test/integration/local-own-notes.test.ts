import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Census, RecordCreate } from '../../engine/contract/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

/** A Brain of the person Ana, and what a note written to it is remembered as. */
async function ana(self = true) {
  const { engine, remember } = await withBrain({}, self);
  const note = (text: string, extra: { title?: string; source?: string; at?: string } = {}) =>
    remember({
      content: { kind: 'document', text, ...(extra.title !== undefined ? { title: extra.title } : {}) },
      ...(extra.source !== undefined ? { source: { name: extra.source } } : {}),
      occurred_at: extra.at ?? '2024-01-01T10:00:00Z',
    } satisfies RecordCreate);
  const owners = async (r: { memory_ids: string[] }) =>
    Promise.all(
      r.memory_ids.map(async (id) => {
        const m = await engine.getMemory(tenant, 'b', id);
        return [m.statement, m.owner.state];
      }),
    );
  const unowned = async () =>
    (await engine.getCensus(tenant, 'b')).noise.find(
      (n: Census['noise'][number]) => n.kind === 'unresolved_owner',
    )?.count ?? 0;
  const profile = async () =>
    (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement).sort();
  const homes = async () => (await profile()).filter((s) => s.startsWith('Ana lives in'));
  return { engine, note, owners, unowned, profile, homes };
}

it("a note she writes in the first person is hers, not on the Census as nobody's", async () => {
  const { note, owners, unowned } = await ana();
  // Typed in the app as a "Note" (no speaker, no title), and a plain string from a client.
  const typed = await note('Tom and I booked a trip to Porto for May.', { source: 'Mnemo app' });
  assert.deepEqual(await owners(typed), [['Tom and I booked a trip to Porto for May.', 'self']]);
  const plain = await note('We adopted a cat called Miso.');
  assert.deepEqual(await owners(plain), [['We adopted a cat called Miso.', 'self']]);
  assert.equal(await unowned(), 0);
});

it('an imported note of hers in the first person holds her home, and a later one moves her', async () => {
  const { note, homes } = await ana();
  await note('# Week 1\n\nMy first week in the new flat. I live in Lisbon now.\n\nTags: #journal', {
    title: 'Week 1',
    source: 'obsidian',
  });
  assert.deepEqual(await homes(), ['Ana lives in Lisbon']);
  await note('i moved to porto', { source: 'markdown', at: '2024-06-01T10:00:00Z' });
  assert.deepEqual(await homes(), ['Ana lives in Porto']);
});

it('a note whose "I" is someone else\'s stays nobody\'s: a calendar, a pasted mail, a clipping', async () => {
  const { note, owners, profile } = await ana();
  const cases = [
    // A calendar event's description is its organiser's.
    note('Kick-off: I will bring the slides.', { title: 'Kick-off', source: 'ics' }),
    // A mail pasted into a note: its quote, a forwarded one, a mail's title.
    note('Carol on the move:\n\nOn Mon, 4 Mar 2024 at 10:02, Carol <c@x.io> wrote:\n> I live in Berlin.', {
      source: 'obsidian',
    }),
    note('---------- Forwarded message ---------\nI live in Oslo.', { source: 'markdown' }),
    note('I work at Zalando.', { title: 'Fwd: my new job', source: 'obsidian' }),
    // A web clipper's article.
    note('Why I left Berlin\n\nI live in Faro now.\n\nTags: #clippings', { source: 'obsidian' }),
    // The attachment an AI chat read.
    note('I live in Rome.', { title: 'cv.pdf', source: 'claude' }),
  ];
  for (const r of await Promise.all(cases))
    for (const [statement, owner] of await owners(r)) assert.equal(owner, 'unresolved', statement);
  assert.deepEqual(await profile(), []);
});

it('a note that never says "I" or "we", or a Brain with no person, keeps its owner unknown', async () => {
  const { note, owners } = await ana();
  const fact = await note('The Eiffel Tower is 330 m tall.');
  assert.deepEqual(await owners(fact), [['The Eiffel Tower is 330 m tall.', 'unresolved']]);
  const none = await ana(false);
  const mine = await none.note('Tom and I booked a trip to Porto for May.');
  assert.deepEqual(await none.owners(mine), [['Tom and I booked a trip to Porto for May.', 'unresolved']]);
});
