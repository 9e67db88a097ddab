import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextProcessing, ContextReady, MemoryPage, Trace } from '../../engine/contract/index.ts';
import type { Context } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { tempDir, tenant, withBrain } from './local-helpers.ts';

const ready = (c: Context) => {
  assert.equal(c.status, 'ready');
  return ContextReady.parse(c);
};
const opts = { requestId: 'req_test' };

describe('local engine: context', () => {
  it('honours Brain-Watermark: processing until derivation reaches it, then ready with cited evidence', async () => {
    // Answered without waiting for an fsync, which would let the derive worker run before the Context.
    const { engine } = await withBrain({ durability: 'normal' });
    const w = await engine.rememberRecord(
      tenant,
      'b',
      {
        content: { kind: 'message', text: 'Our wifi password is on the fridge.', speaker: 'user' },
        source: { name: 'chat' },
      },
      {},
    );
    // No macrotask has run since the write, so derivation cannot have reached it.
    const early = await engine.createContext(
      tenant,
      'b',
      { query: 'wifi password' },
      { ...opts, watermark: w.watermark },
    );
    assert.equal(early.status, 'processing');
    ContextProcessing.parse(early);
    assert.deepEqual(early.unknowns, ['wifi password']);
    await engine.idle();
    const ctx = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'wifi password' },
        { ...opts, watermark: w.watermark },
      ),
    );
    assert.deepEqual(ctx.citations, [
      { record_id: w.record.id, quote: 'Our wifi password is on the fridge.' },
    ]);
    // "user" is one of the names for the Brain's own person (self: Ana), so the header names her.
    assert.match(ctx.text!, /speaker: "Ana" \(self\)/);
    assert.match(ctx.text!, /source: "chat"/);
    assert.match(ctx.text!, /date: \d{4}-/);
    assert.equal(ctx.cost.model_calls_total, 0);
    assert.ok(ctx.budget.estimated_tokens > 0 && ctx.budget.requested_tokens === 4000);
    await engine.createBrain(tenant, { id: 'other' });
    await assert.rejects(
      engine.createContext(tenant, 'other', { query: 'wifi' }, { ...opts, watermark: w.watermark }),
      (e: MnemoError) => e.code === 'invalid_watermark',
    );
  });

  it('reports conflicts and abstains with conflicting_evidence when the query is about the slot', async () => {
    const { engine, remember } = await withBrain();
    const at = '2024-03-01T00:00:00Z';
    const a = await remember({
      content: { kind: 'fact', subject: 'Ana', predicate: 'home_city', value: 'Porto' },
      occurred_at: at,
      source: { name: 'crm' },
    });
    const b = await remember({
      content: { kind: 'fact', subject: 'Ana', predicate: 'home_city', value: 'Braga' },
      occurred_at: at,
      source: { name: 'email' },
    });
    const ctx = ready(await engine.createContext(tenant, 'b', { query: 'Ana home city' }, opts));
    assert.deepEqual(ctx.abstained, { reason: 'conflicting_evidence' });
    assert.equal(ctx.conflicts.length, 1);
    const c = ctx.conflicts[0]!;
    assert.deepEqual([c.subject, c.predicate], ['Ana', 'home_city']);
    assert.deepEqual(c.values.map((v) => v.memory_id).sort(), [...a.memory_ids, ...b.memory_ids].sort());
    assert.ok(c.values.every((v) => v.citations.length === 1 && v.valid_from === at));
  });

  it('does not abstain over a conflict whose evidence says no word of the query', async () => {
    const { engine, remember } = await withBrain({ embedder: { provider: 'glove-sif', dataDir: tempDir() } });
    for (const [value, source] of [
      ['1990-07-14', 'crm'],
      ['1990-07-41', 'email'],
    ] as const)
      await remember({
        content: { kind: 'fact', subject: 'Tomás', predicate: 'birthday', value },
        occurred_at: '2024-03-01T00:00:00Z',
        source: { name: source },
      });
    const note = await remember({
      content: {
        kind: 'document',
        title: 'Big news',
        text: 'Tomás proposed to me last night. We are getting married in Sevilla on 20 September 2026.',
      },
      occurred_at: '2025-02-15T00:00:00Z',
    });
    const asked = async (query: string) => ready(await engine.createContext(tenant, 'b', { query }, opts));
    const unrelated = await asked('When is my wedding?');
    // The word embedding ranks the disputed birthdays near a wedding; the answer is the note.
    assert.equal(unrelated.abstained, undefined);
    assert.ok(unrelated.citations.some((c) => c.record_id === note.id));
    assert.deepEqual((await asked("When is Tomás's birthday?")).abstained, {
      reason: 'conflicting_evidence',
    });
  });

  it('a conflict shows only the values the request may see: filtered-out sources neither appear nor abstain', async () => {
    const { engine, remember } = await withBrain();
    const at = '2024-03-01T00:00:00Z';
    const fact = (value: string, source: string) =>
      remember({
        content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value },
        occurred_at: at,
        source: { name: source },
      });
    const crm = await fact('Acme', 'crm');
    const hr = await fact('Globex', 'hr');
    const diary = await fact('Initech', 'diary');
    const ask = (sources: string[]) =>
      engine.createContext(tenant, 'b', { query: 'Ana employer', filter: { sources } }, opts).then(ready);

    const one = await ask(['crm']);
    assert.deepEqual(one.conflicts, []);
    assert.equal(one.abstained, undefined);
    assert.deepEqual(
      one.citations.map((c) => c.record_id),
      [crm.id],
    );

    const two = await ask(['crm', 'hr']);
    assert.deepEqual(two.abstained, { reason: 'conflicting_evidence' });
    const cited = two.conflicts.flatMap((c) => c.values.flatMap((v) => v.citations.map((x) => x.record_id)));
    assert.deepEqual(cited.sort(), [crm.id, hr.id].sort());
    assert.ok(!cited.includes(diary.id));
  });

  it('a superseded fact is not presented as current evidence; as_of brings it back', async () => {
    const { engine, remember } = await withBrain();
    const old = await remember({
      content: { kind: 'fact', subject: 'user', predicate: 'employer', value: 'Globex' },
      occurred_at: '2020-01-01T00:00:00Z',
    });
    const neu = await remember({
      content: { kind: 'fact', subject: 'user', predicate: 'employer', value: 'Initech' },
      occurred_at: '2023-01-01T00:00:00Z',
    });
    const now = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'user employer', include: ['memories', 'explain'] },
        opts,
      ),
    );
    assert.deepEqual(
      now.citations.map((c) => c.record_id),
      [neu.id],
    );
    assert.deepEqual(
      now.memories?.map((m) => m.id),
      neu.memory_ids,
    );
    assert.ok(JSON.stringify(now.explain).includes(old.id), 'explain says why the old Record was dropped');
    const then = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'user employer', as_of: '2021-06-01T00:00:00Z', include: ['memories'] },
        opts,
      ),
    );
    assert.deepEqual(
      then.citations.map((c) => c.record_id),
      [old.id],
    );
    assert.deepEqual(
      then.memories?.map((m) => m.id),
      old.memory_ids,
    );
    // A window that ends before the newer fact: within it the old one was current, so it is evidence.
    const window = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'user employer', filter: { until: '2021-06-01T00:00:00Z' }, include: ['memories'] },
        opts,
      ),
    );
    assert.deepEqual(
      window.citations.map((c) => c.record_id),
      [old.id],
    );
    assert.deepEqual(
      window.memories?.map((m) => m.id),
      old.memory_ids,
    );
  });

  it('a match on a superseded value brings in what superseded it, though it shares no word with the query', async () => {
    const { engine, remember } = await withBrain();
    const porto = await remember({
      content: { kind: 'message', text: 'I live in Porto.', speaker: 'Ana' },
      occurred_at: '2020-01-01T10:00:00Z',
      source: { name: 'chat', external_id: 'm1' },
    });
    const braga = await remember({
      content: { kind: 'message', text: 'I moved to Braga.', speaker: 'Ana' },
      occurred_at: '2023-06-01T10:00:00Z',
      source: { name: 'notes', external_id: 'n1' },
    });
    const ask = async (extra: object = {}) =>
      ready(
        await engine.createContext(
          tenant,
          'b',
          { query: 'where do I live?', include: ['memories', 'explain'], ...extra },
          opts,
        ),
      );
    const now = await ask();
    assert.deepEqual(
      now.citations.map((c) => c.record_id),
      [braga.id],
    );
    assert.equal(now.abstained, undefined);
    assert.match(now.text ?? '', /Braga/);
    assert.doesNotMatch(now.text ?? '', /Porto/, 'the old value is not presented as current');
    assert.deepEqual(
      now.memories?.map((m) => m.statement),
      ['Ana lives in Braga'],
    );
    type Explained = { evidence: { record_id: string; lanes: string[] }[] };
    // The slot lane reads "live" as a question about the home and leads with its holder; a question
    // it does not read, matching only the old home's words, gets the successor in the old one's place.
    assert.ok((now.explain as Explained).evidence[0]!.lanes.includes('slot'));
    const porto2 = ready(
      await engine.createContext(tenant, 'b', { query: 'what about Porto?', include: ['explain'] }, opts),
    );
    assert.deepEqual(
      porto2.citations.map((c) => c.record_id),
      [braga.id],
    );
    const explained = porto2.explain as Explained;
    assert.ok(explained.evidence[0]!.lanes.includes('successor'), JSON.stringify(explained));
    // Only what the request may see: a filter that leaves the new value out brings nothing in.
    const filtered = await ask({ filter: { sources: ['chat'] } });
    assert.deepEqual(filtered.citations, []);
    assert.equal(filtered.abstained?.reason, 'no_evidence');
    // Before the move, Porto was current and is the evidence itself.
    const then = await ask({ as_of: '2021-01-01T00:00:00Z' });
    assert.deepEqual(
      then.citations.map((c) => c.record_id),
      [porto.id],
    );
  });

  it('a question naming a time in the past is answered with what held then, though superseded since', async () => {
    const { engine, remember } = await withBrain({ timeZone: 'UTC' });
    const farfetch = await remember({
      content: { kind: 'message', text: 'I work at Farfetch as a product designer.', speaker: 'Ana' },
      occurred_at: '2022-09-01T10:00:00Z',
    });
    const sonae = await remember({
      content: { kind: 'message', text: 'I started a new job at Sonae.', speaker: 'Ana' },
      occurred_at: '2023-11-16T10:00:00Z',
    });
    const cited = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts)).citations.map((c) => c.record_id);
    // The job of September 2022 is evidence for a question about then, and the slot lane's first: the
    // holder then, not the one since.
    assert.equal((await cited('Where did I work in September 2022?'))[0], farfetch.id);
    // Asked about now, or about a time after it was superseded, the old job is not presented: the
    // sentence is evidence of her occupation still, quoted without the employer.
    const now = ready(await engine.createContext(tenant, 'b', { query: 'Where do I work?' }, opts));
    assert.equal(now.citations[0]?.record_id, sonae.id);
    assert.ok(!now.text?.includes('Farfetch'), now.text ?? '');
    assert.deepEqual(
      now.citations.filter((c) => c.record_id === farfetch.id).map((c) => c.quote),
      now.citations.length > 1 ? ['as a product designer'] : [],
    );
    const later = ready(
      await engine.createContext(tenant, 'b', { query: 'Where did I work in December 2023?' }, opts),
    );
    assert.ok(!later.text?.includes('Farfetch'), later.text ?? '');
  });

  it('a question about where someone lives or works finds the Record behind the slot, in whatever words it was said', async () => {
    const { engine, remember } = await withBrain();
    const braga = await remember({
      content: { kind: 'message', text: 'I moved to Braga.', speaker: 'Ana' },
      occurred_at: '2023-06-01T10:00:00Z',
      source: { name: 'chat' },
    });
    const globex = await remember({
      content: { kind: 'message', text: "I've just started working at Globex!", speaker: 'Ana' },
      occurred_at: '2023-07-01T10:00:00Z',
      source: { name: 'chat' },
    });
    const marta = await remember({
      content: { kind: 'message', text: 'I relocated to Coimbra.', speaker: 'Marta' },
      occurred_at: '2023-08-01T10:00:00Z',
      source: { name: 'chat' },
    });
    await remember({
      content: { kind: 'message', text: 'The weather was lovely today.', speaker: 'Ana' },
      occurred_at: '2023-09-01T10:00:00Z',
      source: { name: 'chat' },
    });
    const cited = async (query: string, extra: object = {}) => {
      const c = ready(
        await engine.createContext(tenant, 'b', { query, include: ['explain'], ...extra }, opts),
      );
      return c.citations.map((x) => x.record_id);
    };
    for (const q of [
      'where do I live?',
      'Where does the user live now?',
      'where do you live?',
      "What's my home city?",
      'Where am I based?',
    ])
      assert.deepEqual(await cited(q), [braga.id], q);
    assert.deepEqual(await cited('where does Marta live?'), [marta.id]);
    assert.deepEqual(await cited("What is Marta's home town?"), [marta.id]);
    assert.deepEqual(await cited('Where do I work?'), [globex.id]);
    for (const q of ['Who is my employer?', 'Where is my workplace?', 'Which company employs me?'])
      assert.deepEqual(await cited(q), [globex.id], q);
    for (const q of ['Where is my residence?', 'My home city?'])
      assert.deepEqual(await cited(q), [braga.id], q);
    // Naming Ana also finds everything she said (the speaker is searched): the slot comes first.
    assert.equal((await cited("who is Ana's employer?"))[0], globex.id);
    // With no one named and not in the first person, every holder of the slot, the Brain's own first.
    assert.deepEqual(await cited('who lives where?'), [braga.id, marta.id]);
    // What the request may not see is not brought in: before the move, and outside the sources.
    assert.deepEqual(await cited('where do I live?', { as_of: '2023-01-01T00:00:00Z' }), []);
    assert.deepEqual(await cited('where do I live?', { filter: { sources: ['mail'] } }), []);
    // Marta is the one asked about even where her home is out of sight: nobody else's is offered.
    assert.deepEqual(await cited('where does Marta live?', { as_of: '2023-07-15T00:00:00Z' }), []);
    // Not a question about a home or a job: the lane stays out of it.
    const slotHits = async (query: string) => {
      const c = ready(await engine.createContext(tenant, 'b', { query, include: ['explain'] }, opts));
      // A miss has no explain; had the lane found anything, it would have been evidence.
      if (c.explain === undefined) return c.citations.length === 0 ? 0 : undefined;
      const lanes = (c.explain as { lanes: { name: string; candidates: number }[] }).lanes;
      return lanes.find((l) => l.name === 'slot')?.candidates;
    };
    assert.equal(await slotHits('how was the weather?'), 0);
    // Nobody named, not in the first person, and not asking where or who: not about a home or a job.
    assert.equal(await slotHits('How does the printer work?'), 0);
    // In the first person too: a word that can be about much else needs a question of where, who or which.
    for (const q of [
      'How does my printer work?',
      'What is my thesis based on?',
      'Can you help me move the meeting?',
    ])
      assert.equal(await slotHits(q), 0, q);
    assert.equal(await slotHits('where do I live?'), 1);
    // A word about a home or a job that asks about neither, and a question about someone the Brain
    // holds no home for, named or not: nobody else's home is the answer.
    for (const q of [
      'Did I finish the job on the deck?',
      'When do I get home?',
      'Which city is the concert in?',
      'Where does Rita live?',
      'Where does my sister live?',
    ])
      assert.equal(await slotHits(q), 0, q);
    // A first name alone is the person of that name, not a reason to answer with everyone's home.
    const carol = await remember({
      content: { kind: 'message', text: 'I moved to Lisbon.', speaker: 'Carol Diaz' },
      occurred_at: '2023-10-01T10:00:00Z',
      source: { name: 'chat' },
    });
    assert.deepEqual(await cited('where does Carol live?'), [carol.id]);
  });

  it("a bare answer's slot is found by a question in other words: the job, the birthday, the partner", async () => {
    const { engine, remember } = await withBrain();
    const said = (text: string, minute: number, speaker = 'Ana') =>
      remember({
        content: { kind: 'message', text, speaker, thread: 'onboarding' },
        occurred_at: `2026-03-01T10:${String(minute).padStart(2, '0')}:00Z`,
      });
    await said('And what do you do?', 0, 'assistant');
    const nurse = await said('nurse', 1);
    await said("What's your boyfriend's name?", 2, 'assistant');
    const rui = await said('Rui', 3);
    await said('The weather was lovely today.', 4);
    const cited = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts)).citations.map((c) => c.record_id);
    for (const q of ["what's my job?", 'what do I do for work?', 'What does the user do for a living?'])
      assert.equal((await cited(q))[0], nurse.id, q);
    assert.equal((await cited("what's my partner's name?"))[0], rui.id);
  });

  it('a question naming the Brain’s own person finds what they said as "self": their Records come first', async () => {
    const { engine, remember } = await withBrain();
    const at = (m: number) => `2024-06-15T10:0${m}:00Z`;
    const say = (text: string, speaker: string, m: number) =>
      remember({ content: { kind: 'message', text, speaker, thread: 't' }, occurred_at: at(m) });
    await say('Nice to meet you Ana! Are you vegetarian like Rui?', 'assistant', 0);
    const own = await say('I went vegetarian in May.', 'self', 1);
    await say('Rui is vegetarian too, and Ana should try his curry.', 'Marta', 2);
    const ctx = ready(
      await engine.createContext(tenant, 'b', { query: 'Is Ana vegetarian?', include: ['explain'] }, opts),
    );
    const lanes = (ctx.explain as { lanes: { name: string; candidates: number }[] }).lanes;
    assert.equal(lanes.find((l) => l.name === 'entity')?.candidates, 1);
    assert.equal(ctx.citations[0]?.record_id, own.id);
  });

  it('"the user" in an agent\'s question is the person asked about, not a word to find in every turn', async () => {
    const { engine, remember } = await withBrain();
    const say = (text: string, speaker: string, m: number) =>
      remember({
        content: { kind: 'message', text, speaker, thread: `t${m}` },
        occurred_at: `2024-06-15T10:${String(m).padStart(2, '0')}:00Z`,
      });
    // Many turns written as "user" (as docs/agents.md has agents write them); the answer was written
    // with the person's own name for speaker, as an import writes it.
    const chatter = [
      'ugh my boss is literally satan lol',
      'hi! im sam, nice to meet you',
      'ok i took it!! starting next month',
      'my partner is Jordan',
      'Coffee is life. 3 espressos a day minimum',
      'so tired today',
    ];
    for (const [i, text] of chatter.entries()) await say(text, 'user', i);
    const vegan = await say('Not vegan anymore lol, cheese won', 'Ana', 10);
    await say('Leo here, I run a bakery', 'Leo', 11);
    await engine.idle();
    const ctx = ready(await engine.createContext(tenant, 'b', { query: 'is the user vegan?' }, opts));
    assert.equal(ctx.citations[0]?.record_id, vegan.id);
  });

  it("a question in the first person is about the Brain's own person: what Leo said of himself comes after", async () => {
    const { engine, remember } = await withBrain();
    const say = (text: string, speaker: string, m: number) =>
      remember({
        content: { kind: 'message', text, speaker, thread: `t${m}` },
        occurred_at: `2024-06-${String(m + 1).padStart(2, '0')}T10:00:00Z`,
      });
    await say("I'm vegan btw", 'Leo', 0);
    const own = await say('not vegan anymore lol, cheese won', 'user', 1);
    await say('Leo is vegan and so is his wife', 'Maya', 2);
    // Beside another speaker the question names, it is about what that one said.
    const tom = await say('Tom: I went vegan in March', 'Tom', 3);
    assert.equal(
      ready(
        await engine.createContext(tenant, 'b', { query: 'what did Tom tell me about vegan food?' }, opts),
      ).citations[0]?.record_id,
      tom.id,
    );
    for (const query of ['am I vegan?', 'is the user vegan?'])
      assert.equal(
        ready(await engine.createContext(tenant, 'b', { query }, opts)).citations[0]?.record_id,
        own.id,
        query,
      );
  });

  it('a question of what happened in a time, and nothing else, is answered from that time alone', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-07-01T12:00:00Z') });
    const say = (text: string, day: number) =>
      remember({
        content: { kind: 'message', text, speaker: 'Ana', thread: `d${day}` },
        occurred_at: `2026-06-${String(day).padStart(2, '0')}T10:00:00Z`,
      });
    await say('So much happened at work today, the server fell over', 1);
    const hike = await say('We hiked up to the lighthouse, windy but lovely', 4);
    const dinner = await say('Dinner at Rui and Marta’s, they made bacalhau', 5);
    await say('Nothing much happened, just reading', 20);
    const cited = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts))
        .citations.map((c) => c.record_id)
        .sort();
    assert.deepEqual(await cited('what happened between Jun 3 and Jun 5?'), [hike.id, dinner.id].sort());
    // Nothing then: nothing to cite, said so.
    const none = ready(
      await engine.createContext(tenant, 'b', { query: 'what happened between Jun 10 and Jun 12?' }, opts),
    );
    assert.deepEqual([none.citations, none.abstained?.reason], [[], 'no_evidence']);
    // Saying more than the time, it is ranked, not restricted: the lighthouse of another time may answer.
    assert.ok((await cited('what happened at work between Jun 3 and Jun 5?')).length > 2);
  });

  it('so is one asked in Portuguese, of the time it names in Portuguese', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-07-01T12:00:00Z') });
    const say = (text: string, day: number) =>
      remember({
        content: { kind: 'message', text, speaker: 'Ana', thread: `d${day}` },
        occurred_at: `2026-06-${String(day).padStart(2, '0')}T10:00:00Z`,
      });
    await say('Aconteceu tanta coisa no trabalho hoje, o servidor foi abaixo', 1);
    const hike = await say('Subimos até ao farol, com vento mas lindo', 26);
    const dinner = await say('Jantar em casa do Rui e da Marta, fizeram bacalhau', 28);
    await say('Não aconteceu nada de especial, só li', 12);
    const cited = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts))
        .citations.map((c) => c.record_id)
        .sort();
    // 1 July 2026: last week holds the 26th and the 28th, not the 1st nor the 12th.
    assert.deepEqual(await cited('O que aconteceu na semana passada?'), [hike.id, dinner.id].sort());
    assert.deepEqual(await cited('O que fizemos na semana passada?'), [hike.id, dinner.id].sort());
  });

  it('a question naming a topic ("dietary restrictions", "allergies") finds what was said of its members', async () => {
    const { engine, remember } = await withBrain();
    const say = (text: string, m: number) =>
      remember({
        content: { kind: 'message', text, speaker: 'Ana', thread: `t${m}` },
        occurred_at: `2024-06-${String(m + 1).padStart(2, '0')}T10:00:00Z`,
      });
    await say('ugh my boss is a nightmare lol', 0);
    const vegetarian = await say("oh and I'm vegetarian.", 1);
    const peanuts = await say('I am seriously allergic to peanuts, I carry an epipen', 2);
    await say('went hiking in Gerês, amazing views', 3);
    const shellfish = await say('I had shellfish once and ended up in the ER', 4);
    await say('booked flights to Berlin for March', 5);
    const cited = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts)).citations.map((c) => c.record_id);
    const diet = await cited('what should I remember about dietary restrictions?');
    assert.ok(diet.includes(vegetarian.id) && diet.includes(peanuts.id), JSON.stringify(diet));
    const allergies = await cited('does Ana have any allergies?');
    assert.ok(allergies.includes(peanuts.id) && allergies.includes(shellfish.id), JSON.stringify(allergies));
    // A phone, a partner, a birthday, in the words people say them in.
    const number = await say('new number again: +351 966 777 888', 6);
    const gf = await say('my gf Marta says hi', 7);
    const bday = await say('my bday is 4 march btw', 8);
    assert.ok((await cited("what's her phone?")).includes(number.id));
    assert.ok((await cited('who is her partner?')).includes(gf.id));
    assert.ok((await cited('when is her birthday?')).includes(bday.id));
    // Kin by the word a question uses for them.
    const sister = await say('My sister Marta is a teacher.', 9);
    const son = await say(
      'Tomás started school this week, my little boy is growing up. Our son loves it.',
      10,
    );
    assert.ok((await cited('does Ana have any siblings?')).includes(sister.id));
    assert.ok((await cited('how old are her children?')).includes(son.id));
  });

  it('a favourite said again with another value replaces the old one, in Memories and in Context', async () => {
    const { engine, remember } = await withBrain();
    const green = await remember({
      content: { kind: 'message', text: 'My favourite colour is green.', speaker: 'Ana' },
      occurred_at: '2024-01-10T09:02:00Z',
    });
    const blue = await remember({
      content: { kind: 'message', text: 'Actually my favourite colour is blue now.', speaker: 'Ana' },
      occurred_at: '2024-06-15T10:04:00Z',
    });
    const current = await engine.listMemories(tenant, 'b', { q: 'favourite colour', limit: 50 });
    assert.deepEqual(
      current.data.map((m) => [m.statement, m.status, m.citations[0]!.record_id]),
      [["Ana's favourite colour is blue", 'active', blue.id]],
    );
    const old = await engine.listMemories(tenant, 'b', {
      q: 'favourite colour',
      status: 'superseded',
      limit: 50,
    });
    assert.deepEqual(
      old.data.map((m) => [m.statement, m.valid_to]),
      [["Ana's favourite colour is green", '2024-06-15T10:04:00Z']],
    );
    const ctx = ready(
      await engine.createContext(tenant, 'b', { query: "What's my favourite colour?" }, opts),
    );
    assert.deepEqual(
      ctx.citations.map((c) => c.record_id),
      [blue.id],
    );
    assert.doesNotMatch(ctx.text ?? '', /green/, 'the old value is not presented as current');
    // As of before the change, green was the favourite.
    const then = await engine.listMemories(tenant, 'b', {
      q: 'favourite colour',
      as_of: '2024-03-01T00:00:00Z',
      limit: 50,
    });
    assert.deepEqual(
      then.data.map((m) => m.citations[0]!.record_id),
      [green.id],
    );
  });

  it("an agent's question goes below the statements when the person's answer is evidence too", async () => {
    const { engine, remember } = await withBrain();
    const say = (speaker: string, text: string, at: string, thread = 'onboarding') =>
      remember({ content: { kind: 'message', text, speaker, thread }, occurred_at: at });
    const asked = await say('assistant', 'What city do you live in?', '2024-05-01T10:00:00Z');
    const answer = await say('Ana', 'I live in Lisbon.', '2024-05-01T10:00:05Z');
    const museum = await say('Ana', 'I went to the city museum with my sister.', '2024-05-02T18:00:00Z');
    const query = { query: 'What city do I live in?' };
    const order = (c: Context) => ready(c).citations.map((x) => x.record_id);
    assert.deepEqual(order(await engine.createContext(tenant, 'b', query, opts)), [
      answer.id,
      museum.id,
      asked.id,
    ]);
    // Not answered in the evidence (another thread): ranked as retrieval ranked it.
    const lone = await say(
      'assistant',
      'Which city museum do you like best?',
      '2024-05-03T10:00:00Z',
      'later',
    );
    const ids = order(await engine.createContext(tenant, 'b', { query: 'city museum' }, opts));
    assert.ok(ids.indexOf(lone.id) < ids.indexOf(asked.id), ids.join(' '));
  });

  it("an agent's question asked without its mark goes below the person's answer too", async () => {
    const { engine, remember } = await withBrain();
    const say = (speaker: string, text: string, at: string) =>
      remember({ content: { kind: 'message', text, speaker, thread: 'chat' }, occurred_at: at });
    const asked = await say('assistant', 'Can you tell me what city you live in', '2024-05-01T10:00:00Z');
    const answer = await say('Ana', 'I live in Lisbon.', '2024-05-01T10:00:05Z');
    const museum = await say('Ana', 'I went to the city museum with my sister.', '2024-05-02T18:00:00Z');
    const context = await engine.createContext(tenant, 'b', { query: 'What city do I live in?' }, opts);
    assert.deepEqual(
      ready(context).citations.map((x) => x.record_id),
      [answer.id, museum.id, asked.id],
    );
  });

  it('a sentence that holds a home and says more: after a move, what else it said stands, without the old home', async () => {
    const { engine, remember } = await withBrain();
    const porto = await remember({
      content: {
        kind: 'message',
        text: 'I live in Porto and my dentist is Carla Silva. My cat is Miso.',
        speaker: 'Ana',
      },
      occurred_at: '2022-01-01T10:00:00Z',
    });
    await remember({
      content: { kind: 'message', text: 'I moved to Braga.', speaker: 'Ana' },
      occurred_at: '2024-01-01T10:00:00Z',
    });
    const active = (await engine.listMemories(tenant, 'b', { limit: 50 })).data.map((m) => m.statement);
    assert.deepEqual(active.sort(), ['Ana lives in Braga', 'My cat is Miso.', 'my dentist is Carla Silva.']);
    const c = ready(await engine.createContext(tenant, 'b', { query: 'Who is my dentist?' }, opts));
    const quote = c.citations.find((x) => x.record_id === porto.id)?.quote;
    assert.ok(quote?.startsWith('my dentist is Carla Silva.'), quote);
    assert.doesNotMatch(quote ?? '', /Porto/);
    assert.doesNotMatch(c.text ?? '', /Porto/);
  });

  it('possessive questions: no_attribution without self, answered with self; filters are enforced', async () => {
    const anon = await withBrain({}, false);
    await anon.remember({ content: 'My dentist is Dr. Costa.' });
    const abst = ready(await anon.engine.createContext(tenant, 'b', { query: 'who is my dentist' }, opts));
    assert.equal(abst.text, null);
    assert.deepEqual(abst.abstained, { reason: 'no_attribution' });
    assert.deepEqual(abst.unknowns, ['ownership of: who is my dentist']);
    const ours = ready(await anon.engine.createContext(tenant, 'b', { query: 'who is our dentist' }, opts));
    assert.deepEqual(ours.abstained, { reason: 'no_attribution' });

    const { engine, remember } = await withBrain();
    const r1 = await remember({
      content: 'My dentist is Dr. Costa.',
      source: { name: 'notes' },
      occurred_at: '2022-01-01T00:00:00Z',
    });
    const r2 = await remember({
      content: 'The dentist moved to Braga.',
      source: { name: 'mail' },
      occurred_at: '2024-01-01T00:00:00Z',
    });
    const both = ready(await engine.createContext(tenant, 'b', { query: 'who is my dentist' }, opts));
    assert.equal(both.citations.length, 2);
    const bySource = ready(
      await engine.createContext(tenant, 'b', { query: 'dentist', filter: { sources: ['mail'] } }, opts),
    );
    assert.deepEqual(
      bySource.citations.map((c) => c.record_id),
      [r2.id],
    );
    const bySince = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'dentist', filter: { until: '2023-01-01T00:00:00Z' } },
        opts,
      ),
    );
    assert.deepEqual(
      bySince.citations.map((c) => c.record_id),
      [r1.id],
    );
    const miss = ready(
      await engine.createContext(
        tenant,
        'b',
        { query: 'dentist', filter: { since: '2025-01-01T00:00:00Z' } },
        opts,
      ),
    );
    assert.deepEqual([miss.text, miss.unknowns, miss.abstained?.reason], [null, ['dentist'], 'no_evidence']);
  });

  it('a contraction\'s tail is no search word: "What\'s ..." misses when nothing else matches', async () => {
    const { engine, remember } = await withBrain();
    await remember({ content: "It's raining again, that's the third day." });
    const hit = await remember({ content: "Ana's bike is the blue one, she'll ride it to work." });
    // The tokenizer splits "What's" into "what" and "s"; as a term, "s" matched both Records above.
    const miss = ready(
      await engine.createContext(tenant, 'b', { query: "What's the capital of France?" }, opts),
    );
    assert.deepEqual(
      [miss.text, miss.unknowns, miss.abstained?.reason],
      [null, ["What's the capital of France?"], 'no_evidence'],
    );
    const bike = ready(await engine.createContext(tenant, 'b', { query: "Where's Ana's bike?" }, opts));
    assert.deepEqual(
      bike.citations.map((c) => c.record_id),
      [hit.id],
    );
  });

  it('Japanese, Chinese, Thai and Hindi are searched by word: unspaced runs cut, vowel signs kept', async () => {
    const { engine, remember } = await withBrain();
    const kyoto = await remember({ content: '先週、京都に行きました。紅葉がとてもきれいでした。' });
    const beijing = await remember({ content: '我明天去北京开会，下周回来。' });
    const phone = await remember({ content: '新しいiPhoneを大阪で買った。' });
    const chiangMai = await remember({ content: 'ฉันไปเชียงใหม่เมื่อวาน' });
    const eat = await remember({ content: 'ฉันกินข้าวกับแม่' });
    const hindi = await remember({ content: 'मैं कल दिल्ली जाऊँगा' });
    const tanaka = await remember({
      content: { kind: 'message', speaker: '田中太郎', text: 'See you at the station.' },
    });
    await remember({ content: 'The ferry to Porto leaves at nine.' });
    const ask = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts)).citations.map((c) => c.record_id);
    // Each was one unbroken token before: nothing but the whole sentence found it.
    assert.deepEqual(await ask('京都'), [kyoto.id]);
    assert.deepEqual(await ask('京都の紅葉はどうでしたか'), [kyoto.id]);
    assert.deepEqual(await ask('北京'), [beijing.id]);
    assert.deepEqual(await ask('大阪'), [phone.id], 'a word glued to Latin letters is a word of its own');
    assert.deepEqual(await ask('田中太郎'), [tanaka.id], 'a speaker written in Han is found by name');
    // Thai and Hindi vowel signs are combining marks: a word keeps them, so it is not matched by the
    // loose letters it shares with other words (กิน "eat" against the Chiang Mai trip).
    assert.deepEqual(await ask('เชียงใหม่'), [chiangMai.id]);
    assert.deepEqual(await ask('กิน'), [eat.id]);
    assert.deepEqual(await ask('दिल्ली'), [hindi.id]);
    const ctx = ready(await engine.createContext(tenant, 'b', { query: '紅葉' }, opts));
    assert.match(ctx.citations[0]!.quote, /紅葉/, 'the quote is where the word is');
    // A particle alone is no search word, as "s" is not: a question about Tokyo misses.
    const miss = ready(await engine.createContext(tenant, 'b', { query: '東京の天気' }, opts));
    assert.deepEqual([miss.text, miss.abstained?.reason], [null, 'no_evidence']);
  });

  it('a word inside a CJK compound or a Korean word with its particle is found', async () => {
    const { engine, remember } = await withBrain();
    const tower = await remember({ content: '東京タワーの近くのカフェで友達に会った。' });
    const hospital = await remember({ content: '我在北京协和医院工作。' });
    const seoul = await remember({ content: '서울에 친구가 살아요.' });
    const station = await remember({ content: '東京駅で待ち合わせ。' });
    const ask = async (query: string) =>
      ready(await engine.createContext(tenant, 'b', { query }, opts)).citations.map((c) => c.record_id);
    assert.deepEqual((await ask('東京')).sort(), [tower.id, station.id].sort());
    assert.deepEqual(await ask('医院'), [hospital.id]);
    assert.deepEqual(await ask('서울'), [seoul.id]);
    assert.deepEqual(await ask('친구'), [seoul.id]);
    // A longer word inside a compound, and a Korean word with another particle, by their bigrams.
    assert.deepEqual(await ask('タワー'), [tower.id]);
    assert.deepEqual(await ask('서울에서'), [seoul.id]);
    // Asked whole, the compound is still found, ahead of a Record holding only a part of it.
    assert.deepEqual((await ask('東京タワー'))[0], tower.id);
  });

  it('an emoji selector or a lone accent is no search word: "Do I ❤️ sushi?" misses', async () => {
    const { engine, remember } = await withBrain();
    await remember({ content: 'Thanks for the ride ✌️' });
    await remember({ content: 'Happy birthday ☺️ and a lone accent \u0301 here' });
    for (const query of ['Do I ❤️ sushi?', 'sushi \u0301']) {
      const miss = ready(await engine.createContext(tenant, 'b', { query }, opts));
      assert.deepEqual([miss.text, miss.abstained?.reason], [null, 'no_evidence'], query);
    }
  });

  it('a small budget truncates with exact-substring quotes; traces are kept, bounded and list newest first', async () => {
    const { engine, remember } = await withBrain({ traceBufferSize: 3 });
    const long = Array.from(
      { length: 40 },
      (_, i) => `Harbour note ${i}: the ferry schedule changes in spring.`,
    ).join(' ');
    const recs = [];
    for (let i = 0; i < 4; i += 1) recs.push(await remember({ content: `${long} Part ${i}.` }));
    const ctx = ready(
      await engine.createContext(tenant, 'b', { query: 'ferry schedule', budget: { tokens: 300 } }, opts),
    );
    assert.equal(ctx.budget.truncated, true);
    assert.ok(ctx.budget.estimated_tokens <= 300);
    for (const c of ctx.citations) {
      const rec = await engine.getRecord(tenant, 'b', c.record_id);
      assert.ok(rec.content.kind === 'document' && rec.content.text.includes(c.quote));
    }
    const trace = Trace.parse(await engine.getTrace(tenant, 'b', ctx.id));
    assert.equal(trace.lanes[0]?.name, 'lexical');
    assert.match(trace.lanes[0]!.candidates[0]!.reason, /shared words: ferry, schedule/);
    assert.ok(trace.budget.cut.length > 0);
    const failed = await engine.recordFailedContext(tenant, 'b', {
      requestId: 'req_x',
      query: 'q',
      mode: 'fast',
      request: { query: 'q' },
      error: { code: 'invalid_request_body', message: 'budget.tokens: must be an integer' },
    });
    assert.match(failed!, /^trc_/);
    assert.equal((await engine.getTrace(tenant, 'b', failed!)).status, 'failed');
    for (let i = 0; i < 3; i += 1) await engine.createContext(tenant, 'b', { query: `ferry ${i}` }, opts);
    const page = await engine.listTraces(tenant, 'b', { limit: 10 });
    assert.deepEqual(
      page.data.map((t) => t.query),
      ['ferry 2', 'ferry 1', 'ferry 0'],
    );
    await assert.rejects(
      engine.getTrace(tenant, 'b', ctx.id),
      (e: MnemoError) => e.code === 'trace_not_found',
    );
    assert.equal(
      await engine.recordFailedContext(tenant, 'nope', {
        requestId: 'r',
        query: 'q',
        mode: 'fast',
        request: {},
        error: { code: 'x', message: 'y' },
      }),
      null,
    );
  });

  it('hosted deployment: local_only refused on write and absent from evidence', async () => {
    const { engine, remember } = await withBrain({ deployment: 'hosted' });
    await assert.rejects(
      engine.rememberRecord(tenant, 'b', { content: 'diary', visibility: 'local_only' }, {}),
      (e: MnemoError) => e.code === 'local_only_record',
    );
    await remember({ content: 'The diary is shareable now.' });
    const ctx = ready(await engine.createContext(tenant, 'b', { query: 'diary' }, opts));
    assert.equal(ctx.citations.length, 1);
  });

  it('delta reads: oldest change first, at most limit entries a page even inside one step, the watermark chains', async () => {
    const { engine, remember } = await withBrain();
    const start = (await engine.getCensus(tenant, 'b')).watermark;
    // One Record derives three Memories in one sequence step.
    await remember({
      content: { kind: 'message', text: 'I cook pasta. I run daily. I read novels.', speaker: 'user' },
    });
    await remember({
      content: { kind: 'fact', subject: 'user', predicate: 'pet', value: 'cat' },
      occurred_at: '2020-01-01T00:00:00Z',
    });
    await remember({
      content: { kind: 'fact', subject: 'user', predicate: 'pet', value: 'dog' },
      occurred_at: '2022-01-01T00:00:00Z',
    });
    await assert.rejects(
      engine.listMemories(tenant, 'b', { limit: 2, since_watermark: start, cursor: 'x' }),
      (e: MnemoError) => e.code === 'conflicting_parameters',
    );
    await assert.rejects(
      engine.listMemories(tenant, 'b', { limit: 2, since_watermark: 'wm_forged' }),
      (e: MnemoError) => e.code === 'invalid_watermark',
    );
    const seen: string[] = [];
    let wm = start;
    for (let guard = 0; guard < 10; guard += 1) {
      const page = MemoryPage.parse(
        await engine.listMemories(tenant, 'b', { limit: 2, since_watermark: wm }),
      );
      assert.equal(page.next_cursor, null);
      assert.ok(
        page.data.length + page.removed!.length <= 2,
        'the three Memories of one step take two pages',
      );
      seen.push(...page.data.map((m) => `${m.statement}|${m.status}`));
      wm = page.watermark!;
      if (!page.has_more) break;
    }
    assert.deepEqual(seen.slice(0, 3).sort(), [
      'I cook pasta.|active',
      'I read novels.|active',
      'I run daily.|active',
    ]);
    // The cat version changed twice (learned, then superseded): a delta reader sees its latest state.
    assert.ok(seen.includes('user pet: cat|superseded') && seen.includes('user pet: dog|active'));
    const empty = await engine.listMemories(tenant, 'b', { limit: 2, since_watermark: wm });
    assert.deepEqual([empty.data.length, empty.has_more], [0, false]);
    // Full read by cursor.
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const p = await engine.listMemories(tenant, 'b', { limit: 2, status: 'all', cursor });
      ids.push(...p.data.map((m) => m.id));
      cursor = p.next_cursor ?? undefined;
    } while (cursor);
    assert.equal(ids.length, 5);
    assert.deepEqual([...ids].sort(), ids);
  });

  it('a Record whose other sentences still hold is quoted without the sentence a correction replaced', async () => {
    const { engine, remember } = await withBrain();
    const said = await remember({
      content: {
        kind: 'message',
        speaker: 'Ana',
        text: 'I live in Braga with my two cats. My dentist is Carla Silva, her clinic is near the river.',
      },
      occurred_at: '2024-01-10T10:00:00Z',
    });
    const listed = await engine.listMemories(tenant, 'b', { q: 'dentist', limit: 50 });
    const dentist = listed.data[0]!;
    await remember({
      content: { kind: 'correction', corrects: dentist.id, statement: 'My dentist is Rui Costa in Porto.' },
    });
    const ctx = ready(await engine.createContext(tenant, 'b', { query: 'Who is my dentist?' }, opts));
    // The Record is still evidence (Ana still lives in Braga), but not of the old dentist.
    assert.doesNotMatch(ctx.text ?? '', /Carla Silva/);
    assert.match(ctx.text ?? '', /Rui Costa/);
    for (const c of ctx.citations.filter((x) => x.record_id === said.id))
      assert.doesNotMatch(c.quote, /Carla/);
  });

  for (const [name, extra] of [
    ['lexical lanes only', {}],
    ['with the word embedding', { embedder: { provider: 'glove-sif', dataDir: tempDir() } }],
  ] as const)
    it(`a greeting before a statement that answers alone is not evidence; a prompt an answer needs is (${name})`, async () => {
      const { engine, remember } = await withBrain(extra);
      const say = (speaker: string, text: string, thread: string, at: string) =>
        remember({
          content: { kind: 'message', text, speaker, thread },
          occurred_at: at,
          source: { name: 'chat' },
        });
      const cited = async (query: string) =>
        ready(await engine.createContext(tenant, 'b', { query }, opts)).citations.map((c) => c.quote);
      await say('assistant', 'Hello! How can I help you today?', 'colour', '2024-03-01T10:00:00Z');
      await say('user', 'My favourite colour is green.', 'colour', '2024-03-01T10:00:05Z');
      await say('assistant', 'Hello! How can I help you today?', 'job', '2024-03-02T10:00:00Z');
      await say('user', 'I work as a nurse at Hospital Santa Maria.', 'job', '2024-03-02T10:00:05Z');
      await say('assistant', 'Is that your third one?', 'book', '2024-03-03T10:00:00Z');
      await say('user', "Yep! It's about loss, identity and connection.", 'book', '2024-03-03T10:00:05Z');
      assert.deepEqual(await cited('What is my favourite colour?'), ['My favourite colour is green.']);
      // The slot lane's Record: the value of the slot asked about, in words the query does not use.
      assert.deepEqual(await cited('Where do I do my job?'), ['I work as a nurse at Hospital Santa Maria.']);
      // "It's about …" does not say what it is: the question it answers does.
      const book = await cited('What book about identity am I reading?');
      assert.ok(book.includes('Is that your third one?'), JSON.stringify(book));
      assert.ok(book.includes("Yep! It's about loss, identity and connection."), JSON.stringify(book));
    });
});
