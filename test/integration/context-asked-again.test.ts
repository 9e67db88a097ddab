import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextReady, type Context } from '../../engine/contract/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

const ready = (c: Context) => {
  assert.equal(c.status, 'ready');
  return ContextReady.parse(c);
};
const opts = { requestId: 'req_asked_again' };
const day = (d: number, h = 10) => new Date(Date.UTC(2026, 10, d, h)).toISOString();

/** What an agent's loop writes: each turn's message, as docs/agents.md shows it. */
async function chat() {
  const { engine, remember } = await withBrain();
  const said = (text: string, at: string, speaker = 'user') =>
    remember({ content: { kind: 'message', speaker, text, thread: 'agent' }, occurred_at: at });
  const ask = async (query: string, budget?: number) => {
    const c = ready(
      await engine.createContext(
        tenant,
        'b',
        { query, include: ['explain'], ...(budget ? { budget: { tokens: budget } } : {}) },
        opts,
      ),
    );
    const explain = c.explain as { dropped: { record_id: string; reason: string }[] };
    return { c, dropped: new Map(explain.dropped.map((d) => [d.record_id, d.reason])) };
  };
  return { engine, said, ask };
}

describe('a Context does not cite the question it was asked, nor the same chatter twice', () => {
  it('the message an agent wrote of the question just asked is no evidence; the answer leads', async () => {
    const { said, ask } = await chat();
    const answer = await said('My sister Ivana moved to Rijeka last month.', day(1));
    const q1 = await said('Where does my sister live these days?', day(5));
    const { c, dropped } = await ask('Where does my sister live these days?');
    const cited = c.citations.map((x) => x.record_id);
    assert.equal(cited[0], answer.id);
    assert.ok(!cited.includes(q1.id), 'the question itself is not cited');
    assert.match(dropped.get(q1.id) ?? '', /^the question asked: /u);

    // The same question asked again on a later turn: neither copy is cited.
    await said('Your sister Ivana lives in Rijeka.', day(5, 11), 'assistant');
    const q2 = await said('where does my sister live these days', day(6));
    const again = await ask('Where does my sister live these days?');
    const citedAgain = again.c.citations.map((x) => x.record_id);
    assert.ok(!citedAgain.includes(q1.id) && !citedAgain.includes(q2.id));
    assert.equal(citedAgain[0], answer.id);
  });

  it('a question in other words is still evidence: it is not the one asked', async () => {
    const { said, ask } = await chat();
    await said('My sister Ivana moved to Rijeka last month.', day(1));
    const other = await said('Does my sister live in Rijeka now?', day(5));
    const { c } = await ask('Where does my sister live these days?');
    assert.ok(c.citations.some((x) => x.record_id === other.id));
  });

  it('chatter repeated word for word is cited once, and the room goes to other evidence', async () => {
    const { said, ask } = await chat();
    const repeats: { id: string }[] = [];
    for (let d = 1; d <= 6; d += 1) repeats.push(await said('Thursday after work?', day(d), 'Marko'));
    const job = await said('I started at Rimac as a data analyst this week, the work is great.', day(7));
    const { c, dropped } = await ask('How is work?');
    const cited = c.citations.map((x) => x.record_id);
    assert.ok(cited.includes(job.id));
    assert.equal(cited.filter((id) => repeats.some((r) => r.id === id)).length, 1);
    const kept = repeats.find((r) => cited.includes(r.id))!;
    for (const r of repeats.filter((x) => x !== kept))
      assert.match(dropped.get(r.id) ?? '', new RegExp(`^repeated: ${kept.id} says the same words`, 'u'));
  });

  it('a statement said again is still each time evidence: it says when', async () => {
    const { said, ask } = await chat();
    const first = await said('I took my allergy pill.', day(1));
    const second = await said('I took my allergy pill.', day(3));
    const { c } = await ask('When did I take my allergy pill?');
    const cited = c.citations.map((x) => x.record_id);
    assert.ok(cited.includes(first.id) && cited.includes(second.id));
  });
});
