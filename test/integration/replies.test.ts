import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rememberReady, tenant, withBrain } from './local-helpers.ts';

/** Ana's chat in Brain b: each message by its speaker in a thread, derived before the next. */
async function chat() {
  const { engine, remember } = await withBrain();
  const said = (text: string, at: string, speaker = 'Ana', thread = 'chat') =>
    remember({ content: { kind: 'message', text, speaker, thread }, occurred_at: at });
  const current = async () =>
    (await engine.listMemories(tenant, 'b', { limit: 50 })).data.map((m) => m.statement).sort();
  const memory = (id: string) => engine.getMemory(tenant, 'b', id);
  return { engine, said, current, memory };
}

/** A message that only gives a value in place of one said a moment before mends that slot. */
describe('a value said in place of the one said just before', () => {
  it('"wait no, it\'s march 14" mends the birthday and withdraws the slip', async () => {
    const { said, current, memory } = await chat();
    const slip = await said('my birthday is march 4', '2026-03-01T10:00:00Z');
    const mend = await said("wait no, it's march 14", '2026-03-01T10:00:40Z');
    assert.deepEqual(await current(), ["Ana's birthday is march 14"]);
    const wrong = await memory(slip.memory_ids[0]!);
    assert.equal(wrong.status, 'retracted');
    assert.deepEqual(
      [wrong.withdrawn_by?.record_id, wrong.withdrawn_by?.text],
      [mend.id, "wait no, it's march 14"],
    );
    const right = await memory(mend.memory_ids[0]!);
    assert.deepEqual(
      [right.slot, right.status, right.citations.map((c) => c.quote)],
      [wrong.slot, 'active', ["wait no, it's march 14"]],
    );
  });

  it("mends a partner's birthday named with who she is; the evidence left does not say the slip", async () => {
    const { engine, said, current } = await chat();
    await said("My partner Priya's birthday is March 4.", '2026-03-01T10:00:00Z');
    const mend = await said("wait no, it's March 14", '2026-03-01T10:00:30Z');
    assert.deepEqual(await current(), ["Ana's partner is Priya", "Priya's birthday is March 14"]);
    const asked = await engine.createContext(
      tenant,
      'b',
      { query: "When is my partner's birthday?" },
      {
        requestId: 'req_test',
      },
    );
    assert.equal(asked.status, 'ready');
    if (asked.status !== 'ready') return;
    assert.ok(asked.citations.some((c) => c.record_id === mend.id));
    assert.ok(!asked.text?.includes('March 4'), asked.text ?? '');
  });

  it("an assistant's wrong read-back is withdrawn, the person's value holds the slot", async () => {
    const { said, current, memory } = await chat();
    const readBack = await said('Got it: you work at Globant.', '2026-03-01T10:00:00Z', 'assistant');
    await said('globex not globant lol', '2026-03-01T10:00:30Z');
    assert.deepEqual(await current(), ['Ana works at Globex']);
    assert.equal((await memory(readBack.memory_ids[0]!)).status, 'retracted');
  });

  it('a read-back that contradicts what she said before is withdrawn; her value keeps its citation', async () => {
    const { said, current, memory } = await chat();
    const own = await said('I work at Globex.', '2026-02-01T10:00:00Z', 'Ana', 'older');
    const readBack = await said('Got it, you work at Globant.', '2026-03-01T10:00:00Z', 'assistant');
    assert.ok((await current()).includes('Got it, you work at Globant.'));
    const mend = await said('Globex, not Globant.', '2026-03-01T10:00:30Z');
    assert.deepEqual(await current(), ['Ana works at Globex']);
    assert.deepEqual(mend.memory_ids, own.memory_ids);
    assert.equal((await memory(readBack.memory_ids[0]!)).status, 'retracted');
  });

  it('a value true for a while elsewhere is superseded, not withdrawn', async () => {
    const { said, current, memory } = await chat();
    const porto = await said('I live in Porto.', '2026-01-01T10:00:00Z', 'Ana', 'older');
    await said('I live in Porto.', '2026-03-01T10:00:00Z');
    await said('sorry, I meant Braga', '2026-03-01T10:00:20Z');
    assert.deepEqual(await current(), ['Ana lives in Braga']);
    assert.equal((await memory(porto.memory_ids[0]!)).status, 'superseded');
  });

  it('a surname said in place of the one before mends the name, the first name kept', async () => {
    const { said, current } = await chat();
    await said("My partner's name is Jordan Lee.", '2026-03-01T10:00:00Z');
    await said("No, it's Jordan Reyes, not Lee.", '2026-03-01T10:00:30Z');
    assert.deepEqual(await current(), ["Ana's partner is Jordan Reyes"]);
    // Another first name is not a surname's mend.
    await said('My boss is Tom Silva.', '2026-03-01T11:00:00Z', 'Ana', 't2');
    await said('Rui Sousa, not Silva', '2026-03-01T11:00:30Z', 'Ana', 't2');
    assert.ok((await current()).includes("Ana's manager is Tom Silva"));
  });

  it('forgetting the mending message brings the value back', async () => {
    const { engine, said, current } = await chat();
    await said('My partner is Jake.', '2026-03-01T10:00:00Z');
    const mend = await said('wait no, Tom Reyes', '2026-03-01T10:00:10Z');
    assert.deepEqual(await current(), ["Ana's partner is Tom Reyes"]);
    await engine.forgetRecord(tenant, 'b', mend.id);
    await engine.idle();
    assert.deepEqual(await current(), ["Ana's partner is Jake"]);
  });

  it("a mend of a mend, and a mend after the assistant's reply, mend the slot", async () => {
    const { said, current } = await chat();
    await said('my birthday is march 4', '2026-03-01T10:00:00Z');
    await said('wait no, march 14', '2026-03-01T10:00:10Z');
    await said('ugh no, march 15', '2026-03-01T10:00:20Z');
    await said('I live in Porto.', '2026-03-01T11:00:00Z');
    await said('Noted! 🏠', '2026-03-01T11:00:05Z', 'assistant');
    await said('oops, I meant Braga', '2026-03-01T11:00:30Z');
    assert.deepEqual(await current(), ['Ana lives in Braga', "Ana's birthday is march 15"]);
  });

  it("a mend of a bare answer, and of her words after the assistant's reply, mend the slot", async () => {
    const { said, current } = await chat();
    await said("When's your birthday?", '2026-03-01T10:00:00Z', 'assistant');
    await said('march 4', '2026-03-01T10:00:10Z');
    await said("wait no, it's march 14", '2026-03-01T10:00:20Z');
    await said('Where are you based?', '2026-03-01T11:00:00Z', 'assistant');
    await said('Lisbn', '2026-03-01T11:00:10Z');
    await said('*Lisbon', '2026-03-01T11:00:20Z');
    await said('I work at Globant', '2026-03-01T12:00:00Z');
    await said('Congrats on Globant!', '2026-03-01T12:00:05Z', 'assistant');
    await said('globex not globant', '2026-03-01T12:00:30Z');
    assert.deepEqual(await current(), [
      'Ana lives in Lisbon',
      'Ana works at Globex',
      "Ana's birthday is march 14",
      'Congrats on Globant!',
    ]);
  });

  it("a reply to the assistant's question or its own date is no mend of what she said before", async () => {
    const { said, current } = await chat();
    await said("Rui's birthday is November 3", '2026-03-01T10:00:00Z');
    await said('Noted! Want me to remind you on November 1?', '2026-03-01T10:00:05Z', 'assistant');
    await said('no, October 30', '2026-03-01T10:00:20Z');
    await said('my number is 912 345 678', '2026-03-01T11:00:00Z');
    await said("Saved! What's your work number, in case?", '2026-03-01T11:00:05Z', 'assistant');
    await said("oh it's 226 123 456", '2026-03-01T11:00:20Z');
    await said('my birthday is march 4', '2026-03-01T12:00:00Z');
    await said("Noted! I'll remind you on March 3.", '2026-03-01T12:00:05Z', 'assistant');
    await said('no, March 2', '2026-03-01T12:00:20Z');
    const now = await current();
    for (const kept of [
      "Rui's birthday is November 3",
      "Ana's phone number is 912 345 678",
      "Ana's birthday is march 4",
    ])
      assert.ok(now.includes(kept), `${kept}: ${now.join(' | ')}`);
  });

  it('replies that say no more than a word hold her values as they were', async () => {
    const { said, current } = await chat();
    await said('i live in porto', '2026-03-01T10:00:00Z');
    await said("ah, it's beautiful", '2026-03-01T10:00:10Z');
    await said('I work at Sonae.', '2026-03-01T11:00:00Z');
    await said('No, Maria', '2026-03-01T11:00:10Z');
    await said('My partner is Jake.', '2026-03-01T12:00:00Z');
    await said('nope, still together', '2026-03-01T12:00:10Z');
    await said(
      'Got it, you work at Sonae. Want me to remind you about the team lunch?',
      '2026-03-01T13:00:00Z',
      'assistant',
    );
    await said('Nah, Netflix', '2026-03-01T13:00:10Z');
    await said('Got it: you live in Porto.', '2026-03-01T14:00:00Z', 'assistant');
    await said('no, Braga', '2026-03-01T14:00:10Z', 'Bob');
    const now = await current();
    assert.ok(now.includes('Ana lives in Porto'), now.join(' | '));
    assert.ok(now.includes('Ana works at Sonae'), now.join(' | '));
    assert.ok(now.includes("Ana's partner is Jake"), now.join(' | '));
  });

  it('mends nothing from another thread, another speaker, an hour later, or two slots of a kind', async () => {
    const { said, current } = await chat();
    await said('I live in Porto.', '2026-03-01T10:00:00Z', 'Ana', 'one');
    await said('wait no, Braga', '2026-03-01T10:00:10Z', 'Ana', 'two');
    await said('I work at Sonae.', '2026-03-01T11:00:00Z', 'Ana', 'three');
    await said('no, Jeronimo Martins', '2026-03-01T11:00:10Z', 'Bob', 'three');
    await said('my birthday is march 4', '2026-03-01T12:00:00Z', 'Ana', 'four');
    await said("wait no, it's march 14", '2026-03-01T13:00:01Z', 'Ana', 'four');
    await said('I live in Porto and work at Sonae.', '2026-03-02T10:00:00Z', 'Ana', 'five');
    await said('oops, make that Faro', '2026-03-02T10:00:10Z', 'Ana', 'five');
    assert.deepEqual(await current(), [
      'Ana lives in Porto',
      'Ana works at Sonae',
      "Ana's birthday is march 4",
      'no, Jeronimo Martins',
      'oops, make that Faro',
      'wait no, Braga',
      "wait no, it's march 14",
    ]);
  });
});

describe('a date, a time or a number said in place of one in a sentence of no slot', () => {
  it("mends a trip's dates and withdraws the slip; forgetting the mend brings it back", async () => {
    const { engine, said, current, memory } = await chat();
    const trip = await said(
      'My partner Jordan and I are going to Lisbon from March 12 to March 20.',
      '2026-03-01T10:00:00Z',
    );
    const mend = await said("wait no, it's March 14 to March 22", '2026-03-01T10:00:30Z');
    assert.deepEqual(
      (await current()).filter((m) => m.includes('Lisbon')),
      ['My partner Jordan and I are going to Lisbon from March 14 to March 22.'],
    );
    const memories = await Promise.all(trip.memory_ids.map(memory));
    const slip = memories.find((m) => m.statement.includes('Lisbon'))!;
    assert.deepEqual([slip.status, slip.withdrawn_by?.record_id], ['retracted', mend.id]);
    const right = await memory(mend.memory_ids[0]!);
    assert.deepEqual(
      right.citations.map((c) => c.quote),
      ["wait no, it's March 14 to March 22"],
    );
    await engine.forgetRecord(tenant, 'b', mend.id);
    await engine.idle();
    assert.deepEqual(
      (await current()).filter((m) => m.includes('Lisbon')),
      ['My partner Jordan and I are going to Lisbon from March 12 to March 20.'],
    );
  });

  it("a number after the assistant's own is a mend of the assistant's, not of what she said", async () => {
    const { said, current } = await chat();
    await said('Dentist appointment is at 2pm on Friday.', '2026-03-01T10:00:00Z');
    await said("Okay, I'll set a reminder for 1pm.", '2026-03-01T10:00:10Z', 'assistant');
    await said('no, 12pm', '2026-03-01T10:00:30Z');
    assert.ok((await current()).includes('Dentist appointment is at 2pm on Friday.'));
  });

  it('mends an hour; two dates of the shape, or words that are no date, mend nothing', async () => {
    const { said, current } = await chat();
    await said('Dentist on Tuesday at 2pm.', '2026-03-01T10:00:00Z');
    await said('sorry, 3pm', '2026-03-01T10:00:20Z');
    assert.deepEqual(await current(), ['Dentist on Tuesday at 3pm.']);
    await said(
      'Lunch with Tom on March 3 and dinner with Rui on March 5.',
      '2026-03-02T10:00:00Z',
      'Ana',
      'two',
    );
    await said("wait no, it's March 4", '2026-03-02T10:00:20Z', 'Ana', 'two');
    assert.ok(
      (await current()).includes('Lunch with Tom on March 3 and dinner with Rui on March 5.'),
      (await current()).join(' | '),
    );
  });
});

describe('a plan said moved', () => {
  it('supersedes the plan it names; its time mended a moment later, the mend holds it', async () => {
    const { engine, said, current, memory } = await chat();
    const booked = await said('I booked a dentist appointment for Thursday at 3pm.', '2026-03-01T10:00:00Z');
    await said(
      'The dentist moved my appointment to Friday at 10am instead of Thursday.',
      '2026-03-02T09:00:00Z',
    );
    const mend = await said('sorry, 11am', '2026-03-02T09:00:20Z');
    assert.deepEqual(await current(), [
      'The dentist moved my appointment to Friday at 11am instead of Thursday.',
    ]);
    const plan = await memory(mend.memory_ids[0]!);
    assert.deepEqual(
      plan.revisions.map((r) => [r.version, r.status]),
      [
        [1, 'superseded'],
        [2, 'retracted'],
        [3, 'active'],
      ],
    );
    assert.equal((await memory(booked.memory_ids[0]!)).valid_to, '2026-03-02T09:00:20Z');
    const asked = await engine.createContext(
      tenant,
      'b',
      { query: 'When is my dentist appointment?' },
      { requestId: 'req_test' },
    );
    assert.equal(asked.status, 'ready');
    if (asked.status !== 'ready') return;
    assert.ok(asked.citations.some((c) => c.record_id === mend.id));
    assert.ok(!asked.text?.includes('Thursday at 3pm'), asked.text ?? '');
  });
});

describe('a plan its person calls off', () => {
  it("supersedes that person's plan, whoever passes it on; a guest who cannot come calls off no party", async () => {
    const { engine, said, current, memory } = await chat();
    const visit = await said(
      'My sister Inês is visiting next weekend, her flight lands at 18:40.',
      '2026-03-01T10:00:00Z',
    );
    await said("We're having a party on Saturday at 8pm.", '2026-03-01T10:01:00Z');
    const off = await said(
      'Sorry, Inês just told me she has to cancel, she will come in January instead.',
      '2026-03-03T09:00:00Z',
    );
    await said("Sam can't make it.", '2026-03-03T09:01:00Z');
    const now = await current();
    assert.ok(
      !now.includes('My sister Inês is visiting next weekend, her flight lands at 18:40.'),
      now.join(' | '),
    );
    assert.ok(now.includes("We're having a party on Saturday at 8pm."), now.join(' | '));
    const plan = await memory(off.memory_ids[0]!);
    assert.deepEqual(
      [plan.version, plan.owner, plan.revisions.map((r) => r.status)],
      [2, { state: 'other', entity: 'Inês' }, ['superseded', 'active']],
    );
    // The visit's own Memory is the version before.
    assert.ok(visit.memory_ids.includes(plan.revisions[0]!.id), JSON.stringify(plan.revisions));
    await engine.forgetRecord(tenant, 'b', off.id);
    await engine.idle();
    assert.ok(
      (await current()).includes('My sister Inês is visiting next weekend, her flight lands at 18:40.'),
      (await current()).join(' | '),
    );
  });
});

describe('a plan someone named changes', () => {
  it("may be that person's own where the speaker has none, and stays theirs", async () => {
    const { said, current, memory } = await chat();
    await said('My sister Inês is visiting next weekend.', '2026-03-01T10:00:00Z');
    const off = await said('Inês cancelled the trip.', '2026-03-03T09:00:00Z');
    const now = await current();
    assert.ok(!now.includes('My sister Inês is visiting next weekend.'), now.join(' | '));
    const plan = await memory(off.memory_ids[0]!);
    assert.deepEqual([plan.version, plan.owner], [2, { state: 'other', entity: 'Inês' }]);
  });
});

describe('a plan named by one word', () => {
  it('is called off by that word, and another plan that does not say it stays', async () => {
    const { said, current } = await chat();
    await said('Physio with Dr. Lee on Tuesday at 9.', '2026-03-01T10:00:00Z');
    await said('Dentist cleaning on Thursday at 4pm.', '2026-03-01T10:01:00Z');
    await said('Cancelled my physio, feeling much better.', '2026-03-02T09:00:00Z', 'Ana', 'other');
    assert.deepEqual(await current(), [
      'Cancelled my physio, feeling much better.',
      'Dentist cleaning on Thursday at 4pm.',
    ]);
  });
});

describe('an idea said to be dropped', () => {
  it("withdraws the speaker's statement of it just before; another's or an older one stays", async () => {
    const { engine, said, current } = await chat();
    await said('I think we will adopt a cat this spring.', '2026-03-01T10:00:00Z');
    await said('Love that idea!', '2026-03-01T10:00:10Z', 'Jordan');
    const drop = await said('Actually, scratch the cat idea, Jordan is allergic.', '2026-03-01T10:00:40Z');
    const now = await current();
    assert.ok(!now.includes('I think we will adopt a cat this spring.'), now.join(' | '));
    assert.ok(now.includes('Actually, scratch the cat idea, Jordan is allergic.'), now.join(' | '));
    await engine.forgetRecord(tenant, 'b', drop.id);
    await engine.idle();
    assert.ok(
      (await current()).includes('I think we will adopt a cat this spring.'),
      (await current()).join(' | '),
    );
    // A fact that names the idea's word is no plan to drop.
    await said(
      'Our cat Mimi is sick again. I think we should get a second cat.',
      '2026-03-03T10:00:00Z',
      'Ana',
      'mimi',
    );
    await said('Forget the cat idea.', '2026-03-03T10:00:20Z', 'Ana', 'mimi');
    const mimi = await current();
    assert.ok(mimi.includes('Our cat Mimi is sick again.'), mimi.join(' | '));
    assert.ok(!mimi.includes('I think we should get a second cat.'), mimi.join(' | '));
    // Said by someone else, or a day before, it is not this slip to withdraw.
    await said('We could get a dog instead.', '2026-03-02T10:00:00Z', 'Jordan', 'other');
    await said('Scratch the dog idea.', '2026-03-02T10:00:20Z', 'Ana', 'other');
    assert.ok((await current()).includes('We could get a dog instead.'), (await current()).join(' | '));
  });
});

describe('a message that opens with "she" or "he"', () => {
  it("is the person the speaker's message before named, within it or the message before", async () => {
    const { engine, said } = await chat();
    await said('My sister Inês lives in Madrid.', '2026-03-01T10:00:00Z');
    await said("she's a nurse", '2026-03-01T10:00:20Z');
    await said('Inês is a nurse. She works at Santa Maria.', '2026-03-01T11:00:00Z', 'Ana', 'other');
    await said('Tom is vegan', '2026-03-01T12:00:00Z', 'Bob', 'third');
    await said('she loves pizza', '2026-03-01T12:00:10Z', 'Ana', 'third');
    const profile = (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement);
    assert.deepEqual(profile, ['she loves pizza', "Ana's sister is Inês"]);
    const ines = (await engine.listMemories(tenant, 'b', { limit: 50 })).data
      .filter((m) => m.subject === 'Inês')
      .map((m) => m.statement)
      .sort();
    assert.deepEqual(
      ines,
      [
        "Ana's sister is Inês",
        'Inês works at Santa Maria',
        "Inês's occupation is nurse",
        'My sister Inês lives in Madrid.',
      ].sort(),
    );
    // "she's a nurse" and "Inês is a nurse." hold one slot of hers, citing both.
    const job = (await engine.listMemories(tenant, 'b', { limit: 50 })).data.find(
      (m) => m.statement === "Inês's occupation is nurse",
    )!;
    const cited = (await engine.getMemory(tenant, 'b', job.id)).citations.map((c) => c.quote);
    assert.deepEqual(cited.sort(), ['Inês is a nurse.', "she's a nurse"].sort());
  });
});

describe('"she" or "he" opening a message, said of the one named before', () => {
  it("holds that person's slot, unless it would change what was just said of them", async () => {
    const { engine, said } = await chat();
    await said('My sister Inês lives in Madrid.', '2026-03-01T10:00:00Z');
    await said('She works at Santa Maria.', '2026-03-01T10:00:20Z');
    await said('Rui is a doctor.', '2026-03-01T11:00:00Z', 'Ana', 'other');
    await said("she's a nurse", '2026-03-01T11:00:20Z', 'Ana', 'other');
    const of = async (who: string) =>
      (await engine.listMemories(tenant, 'b', { limit: 50 })).data
        .filter((m) => m.subject === who)
        .map((m) => [m.statement, m.slot !== null])
        .sort();
    assert.deepEqual(await of('Inês'), [
      ["Ana's sister is Inês", false],
      ['Inês works at Santa Maria', true],
      ['My sister Inês lives in Madrid.', true],
    ]);
    assert.deepEqual(await of('Rui'), [
      ["Rui's occupation is doctor", true],
      ["she's a nurse", false],
    ]);
  });
});

/** A bare value answering another speaker's question about one of the person's slots holds that slot. */
describe('a bare answer to a question about a slot', () => {
  it("answers an assistant's question: the home, the birthday, the partner", async () => {
    const { engine, said, current } = await chat();
    await said('Nice to meet you! Where are you based?', '2026-03-01T10:00:00Z', 'assistant');
    const braga = await said('Braga', '2026-03-01T10:00:20Z');
    await said("Lovely. When's your birthday?", '2026-03-01T10:01:00Z', 'assistant');
    await said('march 14', '2026-03-01T10:01:10Z');
    await said("And what's your wife's name?", '2026-03-01T10:02:00Z', 'assistant');
    await said('Sarah 😍', '2026-03-01T10:02:10Z');
    assert.deepEqual(await current(), [
      'Ana lives in Braga',
      "Ana's birthday is march 14",
      "Ana's wife is Sarah",
    ]);
    const home = await engine.getMemory(tenant, 'b', braga.memory_ids[0]!);
    assert.deepEqual(
      home.citations.map((c) => c.quote),
      ['Braga'],
    );
  });

  it("a friend's question in a chat, answered later, replaces the value before", async () => {
    const { said, current } = await chat();
    await said('I work at Sonae.', '2025-01-01T10:00:00Z', 'Ana', 'older');
    await said('where do u work these days?', '2026-03-01T10:00:00Z', 'Bob');
    await said('at globex now', '2026-03-01T10:05:00Z');
    assert.deepEqual(await current(), ['Ana works at Globex']);
  });

  it('"no, Braga" to "Do you still live in Porto?" moves her', async () => {
    const { said, current } = await chat();
    await said('I live in Porto.', '2025-01-01T10:00:00Z', 'Ana', 'older');
    await said('I work at Sonae.', '2025-01-01T10:01:00Z', 'Ana', 'older');
    await said('Do you still live in Porto?', '2026-03-01T10:00:00Z', 'assistant');
    await said('no, Braga', '2026-03-01T10:00:20Z');
    await said('Are you still at Sonae?', '2026-03-01T10:01:00Z', 'assistant');
    await said('Nope, Globex.', '2026-03-01T10:01:20Z');
    assert.deepEqual(await current(), ['Ana lives in Braga', 'Ana works at Globex']);
  });

  it('a yes to a "still" question is the value it names again', async () => {
    const { engine, said, current } = await chat();
    const porto = await said('I live in Porto.', '2025-01-01T10:00:00Z', 'Ana', 'older');
    await said('Do you still live in Porto?', '2026-03-01T10:00:00Z', 'assistant');
    const yes = await said('yep, still porto', '2026-03-01T10:00:10Z');
    await said('Where are you based?', '2026-03-01T11:00:00Z', 'assistant');
    await said('Lisbon mostly', '2026-03-01T11:00:10Z');
    assert.deepEqual(yes.memory_ids, porto.memory_ids);
    const now = await current();
    assert.ok(now.includes('Ana lives in Porto'), now.join(' | '));
    assert.ok(!now.includes('Ana lives in Lisbon'), now.join(' | '));
    const m = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
    assert.deepEqual(
      m.citations.map((c) => c.quote),
      ['I live in Porto.', 'yep, still porto'],
    );
  });

  it('a "still" question is answered by a mend, an open one by a value, neither by anything else', async () => {
    const { said, current } = await chat();
    await said('I live in Porto.', '2025-01-01T10:00:00Z', 'Ana', 'older');
    await said('Do you still live in Porto?', '2026-03-01T10:00:00Z', 'assistant');
    await said('Of course', '2026-03-01T10:00:10Z');
    await said('Got it, you live in Porto. Where do you work?', '2026-03-01T11:00:00Z', 'assistant');
    await said('no, Braga', '2026-03-01T11:00:10Z');
    await said('Where are you based? Wanna grab coffee sometime?', '2026-03-01T12:00:00Z', 'Bob');
    await said('Tomorrow works', '2026-03-01T12:00:10Z');
    await said('Where do you work?', '2026-03-01T13:00:00Z', 'assistant');
    await said('Retired', '2026-03-01T13:00:10Z');
    const now = await current();
    assert.ok(now.includes('Ana lives in Porto'), now.join(' | '));
    assert.equal(now.filter((m) => /^Ana (lives|works)/u.test(m)).length, 1, now.join(' | '));
  });

  it('holds nothing for her own question, another thread, an hour later, two questions or no value', async () => {
    const { said, current } = await chat();
    await said('Where do you live?', '2026-03-01T10:00:00Z', 'assistant', 'one');
    await said('Braga', '2026-03-01T10:00:10Z', 'Ana', 'two');
    await said('Where are you based?', '2026-03-01T11:00:00Z', 'assistant', 'three');
    await said('Faro', '2026-03-01T12:00:01Z', 'Ana', 'three');
    await said('Where do you live and where do you work?', '2026-03-01T13:00:00Z', 'assistant', 'four');
    await said('Porto', '2026-03-01T13:00:10Z', 'Ana', 'four');
    await said('Where are you from?', '2026-03-01T14:00:00Z', 'assistant', 'five');
    await said('Lisbon', '2026-03-01T14:00:10Z', 'Ana', 'five');
    await said('Where did I park?', '2026-03-01T15:00:00Z', 'Ana', 'six');
    await said('Level 2', '2026-03-01T15:00:10Z', 'Ana', 'six');
    // A reply to another's question is that exchange: "Lisbon" alone said nothing.
    assert.deepEqual(await current(), [
      'Braga',
      'Faro',
      'Level 2',
      'Where are you from? — Lisbon',
      'Where do you live and where do you work? — Porto',
    ]);
  });

  it('a short reply that holds no slot is the exchange it ends, quoting the reply as written', async () => {
    const { engine, said, current } = await chat();
    await said("When's your birthday?", '2026-03-01T10:00:00Z', 'assistant');
    const october = await said('probably early october', '2026-03-01T10:00:10Z');
    await said("What's Pimenta like? Is she shy?", '2026-03-01T11:00:00Z', 'assistant');
    await said('very fluffy', '2026-03-01T11:00:10Z');
    await said('Nice weather today.', '2026-03-01T12:00:00Z', 'assistant');
    await said('so sunny', '2026-03-01T12:00:10Z');
    await said("I'm not married", '2026-03-01T13:00:10Z');
    assert.deepEqual(await current(), [
      "I'm not married",
      'Nice weather today.',
      "When's your birthday? — probably early october",
      'so sunny',
      'very fluffy',
    ]);
    const m = await engine.getMemory(tenant, 'b', october.memory_ids[0]!);
    assert.deepEqual(
      m.citations.map((c) => c.quote),
      ['probably early october'],
    );
  });

  it("a short reply's exchange quotes the question asked, not what the asker said of themselves before it", async () => {
    const { engine, said } = await chat();
    await said('I will be out sick today, can you cover the standup?', '2026-03-02T09:00:00Z', 'Sam');
    const reply = await said('Sure, get well soon.', '2026-03-02T09:02:00Z');
    const m = await engine.getMemory(tenant, 'b', reply.memory_ids[0]!);
    assert.deepEqual(
      [m.statement, m.owner.state, m.citations.map((c) => c.quote)],
      ['Can you cover the standup? — Sure, get well soon.', 'self', ['Sure, get well soon.']],
    );
  });
});

describe("a person's number given as news", () => {
  it('"Marko has a new number: …" replaces his old one, and holds once an agent\'s fact of it is forgotten', async () => {
    const { engine, said } = await chat();
    await said("Marko's number is +385 91 234 5678 if you need him.", '2026-11-28T09:15:00Z');
    const fact = await rememberReady(engine, {
      content: { kind: 'fact', subject: 'Marko', predicate: 'phone number', value: '+385 98 765 4321' },
      occurred_at: '2026-12-02T18:15:00Z',
    });
    await said('Marko has a new number: +385 98 765 4321. The old one is gone.', '2026-12-02T18:00:00Z');
    await engine.forgetRecord(tenant, 'b', fact.id);
    const current = (await engine.listMemories(tenant, 'b', { limit: 50 })).data
      .filter((m) => m.predicate === 'phone number')
      .map((m) => [m.subject, m.statement]);
    assert.deepEqual(current, [['Marko', "Marko's phone number is +385 98 765 4321"]]);
  });
});
