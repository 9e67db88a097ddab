import assert from 'node:assert/strict';
import { it } from 'node:test';
import { tenant, withBrain } from './local-helpers.ts';

/** A chat of the person Ana with an assistant, as docs/agents.md tells an agent to write one. */
async function chat() {
  const { engine, remember } = await withBrain();
  const say = (speaker: string, text: string, at: string) =>
    remember({ content: { kind: 'message', text, speaker, thread: 'chat' }, occurred_at: at });
  const current = async () =>
    (await engine.listMemories(tenant, 'b', { limit: 50 })).data
      .map((m) => [m.statement, m.owner.state])
      .sort((a, b) => a[0]!.localeCompare(b[0]!));
  return { engine, say, current };
}

it("an assistant's restatement of her home joins it, and leaves with it when she moves", async () => {
  const { engine, say, current } = await chat();
  const home = await say('self', 'I live in Braga.', '2024-01-01T10:00:00Z');
  const noted = await say('assistant', 'Noted: Ana lives in Braga.', '2024-01-01T10:00:05Z');
  // No Memory of its own beside her home: a citation of it.
  assert.deepEqual(noted.memory_ids, home.memory_ids);
  assert.deepEqual(await current(), [['Ana lives in Braga', 'self']]);
  await say('self', 'I moved to Porto.', '2024-06-01T10:00:00Z');
  assert.deepEqual(await current(), [['Ana lives in Porto', 'self']]);
  const m = await engine.getMemory(tenant, 'b', home.memory_ids[0]!);
  assert.deepEqual(
    [m.status, m.citations.map((c) => c.quote)],
    ['superseded', ['I live in Braga.', 'Noted: Ana lives in Braga.']],
  );
});

it("an assistant's restatement alone holds her slot, and her own later word replaces it", async () => {
  const { say, current } = await chat();
  await say('assistant', 'Got it, you work at Feedzai.', '2024-01-01T10:00:00Z');
  assert.deepEqual(await current(), [['Ana works at Feedzai', 'self']]);
  await say('self', 'I work at Sonae now.', '2024-03-01T10:00:00Z');
  assert.deepEqual(await current(), [['Ana works at Sonae', 'self']]);
});

it("an assistant's other value never replaces what she said: it stays the assistant's statement", async () => {
  const { engine, say, current } = await chat();
  await say('self', 'I live in Porto.', '2024-01-01T10:00:00Z');
  const wrong = await say('assistant', 'Noted: Ana lives in Braga.', '2024-01-01T10:00:05Z');
  assert.deepEqual(await current(), [
    ['Ana lives in Porto', 'self'],
    ['Noted: Ana lives in Braga.', 'other'],
  ]);
  const m = await engine.getMemory(tenant, 'b', wrong.memory_ids[0]!);
  assert.deepEqual([m.owner, m.slot], [{ state: 'other', entity: 'assistant' }, null]);
});

it("an assistant's read-back of another person's value joins it, and goes with it when she corrects it", async () => {
  const { engine, say, current } = await chat();
  const own = await say('self', "My sister Marina's birthday is on March 3.", '2024-01-01T10:00:00Z');
  const noted = await say(
    'assistant',
    "Noted: Marina's birthday is March 3. I'll remind you in late February.",
    '2024-01-01T10:00:05Z',
  );
  const birthday = own.memory_ids.find((id) => noted.memory_ids.includes(id));
  assert.ok(birthday !== undefined, 'the read-back cites her birthday Memory');
  await say('self', "Marina's birthday is actually 13 March.", '2024-02-01T10:00:00Z');
  // Not "Noted: Marina's birthday is March 3." beside the corrected day.
  assert.deepEqual(
    (await current()).filter(([s]) => /birthday/u.test(s!)),
    [["Marina's birthday is 13 March", 'other']],
  );
  const m = await engine.getMemory(tenant, 'b', birthday);
  assert.deepEqual([m.status, m.citations.map((c) => c.record_id)], ['superseded', [own.id, noted.id]]);
  // Another day read back while hers holds stays the assistant's statement, as for her own slots.
  await say('assistant', "Noted: Marina's birthday is May 9.", '2024-02-01T10:00:05Z');
  assert.deepEqual(
    (await current()).filter(([s]) => /birthday/u.test(s!)),
    [
      ["Marina's birthday is 13 March", 'other'],
      ["Noted: Marina's birthday is May 9.", 'other'],
    ],
  );
});

it("an assistant's read-back of what she said cites her Memory; forgetting hers leaves it on the read-back", async () => {
  const { engine, say, current } = await chat();
  const own = await say('self', "I'm allergic to penicillin.", '2024-01-01T10:00:00Z');
  const noted = await say('assistant', "Noted, you're allergic to penicillin.", '2024-01-01T10:00:05Z');
  assert.deepEqual(noted.memory_ids, own.memory_ids);
  assert.deepEqual(await current(), [["I'm allergic to penicillin.", 'self']]);
  const m = await engine.getMemory(tenant, 'b', own.memory_ids[0]!);
  assert.deepEqual(
    m.citations.map((c) => [c.record_id, c.quote]),
    [
      [own.id, "I'm allergic to penicillin."],
      [noted.id, "Noted, you're allergic to penicillin."],
    ],
  );
  // Forgetting only her Record leaves the fact resting on the read-back, which the person can now see
  // and forget too, since it cites the same Memory.
  await engine.forgetRecord(tenant, 'b', own.id);
  await engine.idle();
  const left = await engine.getMemory(tenant, 'b', own.memory_ids[0]!);
  assert.deepEqual(
    left.citations.map((c) => c.record_id),
    [noted.id],
  );
  await engine.forgetRecord(tenant, 'b', noted.id);
  await engine.idle();
  assert.deepEqual(await current(), []);
});

it('what an assistant says it notes of her is hers, in her words; its own words and advice stay its own', async () => {
  const { say, current } = await chat();
  await say('self', 'I love hiking.', '2024-01-01T10:00:00Z');
  const noted = await say(
    'assistant',
    "I'll remember that you're training for a marathon in May.",
    '2024-01-01T10:00:05Z',
  );
  await say('assistant', 'I think you love hiking too much.', '2024-01-01T10:00:10Z');
  await say('assistant', 'Noted, you should rest before the race.', '2024-01-01T10:00:15Z');
  assert.deepEqual(await current(), [
    ['I am training for a marathon in May.', 'self'],
    ['I love hiking.', 'self'],
    ['I think you love hiking too much.', 'other'],
    ['Noted, you should rest before the race.', 'other'],
  ]);
  // Her own words later are the same Memory: a citation of it.
  const own = await say('self', "I'm training for a marathon in May!", '2024-01-02T09:00:00Z');
  assert.deepEqual(own.memory_ids, noted.memory_ids);
});

it("an assistant's read-back of her diet after a lead joins her diet, not a Memory beside it", async () => {
  const { say, current } = await chat();
  const own = await say('self', "I'm vegetarian.", '2024-01-01T10:00:00Z');
  const noted = await say('assistant', "Noted, you're vegetarian.", '2024-01-01T10:00:05Z');
  assert.deepEqual(noted.memory_ids, own.memory_ids);
  assert.deepEqual(await current(), [["Ana's diet is vegetarian", 'self']]);
});

it("her request to keep something in mind is no part of it: the assistant's read-back joins it", async () => {
  const { say, current } = await chat();
  const own = await say(
    'self',
    "I'm allergic to peanuts, so keep that in mind for any recipes.",
    '2024-01-01T10:00:00Z',
  );
  const noted = await say(
    'assistant',
    "Got it, you're allergic to peanuts. I'll avoid them.",
    '2024-01-01T10:00:05Z',
  );
  assert.ok(noted.memory_ids.includes(own.memory_ids[0]!));
  assert.deepEqual(await current(), [
    ["I'll avoid them.", 'other'],
    ["I'm allergic to peanuts", 'self'],
  ]);
});

it("an agent's note of another person's slot holds it where it is empty, and never replaces hers", async () => {
  const { engine, remember } = await withBrain();
  const note = (text: string, at: string) =>
    remember({ content: { kind: 'document', text }, source: { name: 'mcp' }, occurred_at: at });
  const homes = async (q: string) =>
    (await engine.listMemories(tenant, 'b', { limit: 50, owner: 'Sam', q })).data.map((m) => [
      m.statement,
      m.slot !== null,
    ]);
  await note('Sam lives in Leeds.', '2024-01-01T10:00:00Z');
  assert.deepEqual(await homes('lives'), [['Sam lives in Leeds', true]]);
  // Ana's own word replaces it, as it would an assistant's restatement of hers.
  await remember({
    content: { kind: 'message', text: 'Sam moved to York last month.', speaker: 'self' },
    occurred_at: '2024-03-01T10:00:00Z',
  });
  // The agent's later note of another city is its statement, not a move.
  await note('Sam lives in Bristol.', '2024-04-01T10:00:00Z');
  const current = (await engine.listMemories(tenant, 'b', { limit: 50, owner: 'Sam' })).data.map((m) => [
    m.statement,
    m.slot !== null,
  ]);
  assert.deepEqual(current.sort(), [
    ['Sam lives in Bristol.', false],
    ['Sam moved to York last month.', true],
  ]);
});

/** Ana's own words in a chat, an agent's untitled notes through MCP, and the Memories of one person. */
async function saidAndNoted() {
  const { engine, remember } = await withBrain();
  const say = (text: string, at: string) =>
    remember({ content: { kind: 'message', text, speaker: 'self' }, occurred_at: at });
  const note = (text: string, at: string) =>
    remember({ content: { kind: 'document', text }, source: { name: 'mcp' }, occurred_at: at });
  const of = async (owner: string) =>
    (await engine.listMemories(tenant, 'b', { limit: 50, owner })).data
      .map((m) => [m.statement, m.slot !== null])
      .sort();
  return { say, note, of };
}

it("an agent's note that another person's slot has ended never ends what she said of them", async () => {
  const { say, note, of } = await saidAndNoted();
  await say('Sam is a nurse.', '2024-01-01T10:00:00Z');
  // As an agent does not end hers ("you no longer work at Acme"): its statement, the job as she said.
  await note("Sam isn't a nurse anymore.", '2024-02-01T10:00:00Z');
  assert.deepEqual(await of('Sam'), [
    ["Sam isn't a nurse anymore.", false],
    ["Sam's occupation is nurse", true],
  ]);
});

it("an agent's note of two slots of another person held otherwise is one statement of its sentence", async () => {
  const { say, note, of } = await saidAndNoted();
  await say('Rui is a teacher. Rui works at Globex.', '2024-01-01T10:00:00Z');
  await note('Rui works as a nurse at Santa Maria.', '2024-02-01T10:00:00Z');
  // Not a Memory of its clause "Rui works as a nurse" beside it.
  assert.deepEqual(await of('Rui'), [
    ['Rui works as a nurse at Santa Maria.', false],
    ['Rui works at Globex', true],
    ["Rui's occupation is teacher", true],
  ]);
});
