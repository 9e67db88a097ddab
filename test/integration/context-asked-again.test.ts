import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextReady, type Context } from '../../engine/contract/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const ready = (c: Context) => {
  assert.equal(c.status, 'ready');
  return ContextReady.parse(c);
};
const opts = { requestId: 'req_asked_again' };
const day = (m: number, d: number, h = 10) => new Date(Date.UTC(2026, m - 1, d, h)).toISOString();

async function chat() {
  const { engine, remember } = await withBrain();
  const said = (text: string, at: string, speaker = 'user', thread = 'agent') =>
    remember({ content: { kind: 'message', speaker, text, thread }, occurred_at: at });
  const ask = async (query: string) => {
    const c = ready(await engine.createContext(tenant, 'b', { query, include: ['explain'] }, opts));
    const explain = c.explain as { dropped: { record_id: string; reason: string }[] };
    const cited = c.citations.map((x) => x.record_id);
    return { c, cited, dropped: new Map(explain.dropped.map((d) => [d.record_id, d.reason])) };
  };
  return { said, ask };
}

describe('a Context does not cite the question it is asked as evidence', () => {
  it("the person's message an agent wrote of the question now asked is dropped; the answer leads", async () => {
    const { said, ask } = await chat();
    const answer = await said('My sister Ivana moved to Rijeka last month.', day(11, 1));
    const q1 = await said('Where does my sister live these days?', day(11, 5));
    const first = await ask('Where does my sister live these days?');
    assert.equal(first.cited[0], answer.id);
    assert.ok(!first.cited.includes(q1.id), 'the question itself is not cited');
    assert.match(first.dropped.get(q1.id) ?? '', /^the question asked: /u);

    // Answered since, and asked again (no question mark): the earlier copy is what the reply answers,
    // and comes after it; the copy just written is the question now asked.
    const reply = await said('Your sister Ivana lives in Rijeka.', day(11, 5, 11), 'assistant');
    const q2 = await said('where does my sister live these days', day(11, 6));
    const again = await ask('Where does my sister live these days?');
    assert.equal(again.cited[0], answer.id);
    assert.ok(!again.cited.includes(q2.id));
    assert.match(again.dropped.get(q2.id) ?? '', /^the question asked: /u);
    assert.ok(again.cited.includes(reply.id));
    assert.equal(again.cited.at(-1), q1.id, 'the answered copy is cited last');
  });

  it('a question in other words, or in the same words by someone else, is evidence where it ranked', async () => {
    const { said, ask } = await chat();
    await said('My sister Ivana moved to Rijeka last month.', day(11, 1));
    const other = await said('Does my sister live in Rijeka now?', day(11, 5));
    assert.ok((await ask('Where does my sister live these days?')).cited.includes(other.id));

    // Mama asked it in her chat, and the person's "Yes." answers her: both are what the question needs.
    const mama = await said('Is the Lisbon trip still on?', day(6, 1), 'Mama', 'mama');
    const yes = await said('Yes.', day(6, 1, 11), 'user', 'mama');
    const { cited, dropped } = await ask('Is the Lisbon trip still on?');
    assert.ok(cited.includes(mama.id) && cited.includes(yes.id));
    assert.equal(dropped.get(mama.id), undefined);
  });

  it('the same short reply in two chats answers two questions: both are cited', async () => {
    const { said, ask } = await chat();
    await said('Is the Lisbon trip still on?', day(6, 1), 'Mama', 'mama');
    const june = await said('Yes.', day(6, 1, 11), 'user', 'mama');
    await said('Hey, is the Lisbon trip off now?', day(10, 2), 'Marko', 'marko');
    const october = await said('Yes.', day(10, 2, 11), 'user', 'marko');
    const { cited } = await ask('Is the Lisbon trip still on?');
    assert.ok(cited.includes(june.id) && cited.includes(october.id));
  });
});
