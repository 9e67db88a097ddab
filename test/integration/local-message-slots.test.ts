import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { tenant, withBrain } from './local-helpers.ts';

/** What a person told the app over time replaces what they told it before, as the QA pass read it. */
describe('a later message replaces what an earlier one said of the same slot', () => {
  async function ana() {
    const { engine, remember } = await withBrain();
    const said = (text: string, at: string, speaker = 'Ana') =>
      remember({ content: { kind: 'message', text, speaker, thread: 'chat' }, occurred_at: at });
    const current = async () =>
      (await engine.listMemories(tenant, 'b', { limit: 50 })).data.map((m) => m.statement).sort();
    const record = (body: RecordCreate) => remember(body);
    /** The current Memories of her boyfriend and her relationship status. */
    const together = async () => (await current()).filter((s) => /boyfriend|status/u.test(s));
    return { engine, said, current, record, together };
  }

  it('"we moved to Lisbon" moves the speaker, superseding her earlier home', async () => {
    const { engine, said, current } = await ana();
    const berlin = await said('I live in Berlin.', '2024-01-01T10:00:00Z');
    const lisbon = await said('We moved to Lisbon.', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Lisbon']);
    const old = await engine.getMemory(tenant, 'b', berlin.memory_ids[0]!);
    assert.equal(old.status, 'superseded');
    const now = await engine.getMemory(tenant, 'b', lisbon.memory_ids[0]!);
    assert.equal(now.slot, old.slot);
  });

  it('"we moved to Slack" leaves her home as it was: a tool is no place', async () => {
    const { engine, said, current } = await ana();
    const berlin = await said('I live in Berlin.', '2024-01-01T10:00:00Z');
    await said('We moved to Slack.', '2024-02-01T10:00:00Z');
    await said('We moved to Postgres last year.', '2024-02-02T10:00:00Z');
    assert.deepEqual(await current(), [
      'Ana lives in Berlin',
      'We moved to Postgres last year.',
      'We moved to Slack.',
    ]);
    assert.equal((await engine.getMemory(tenant, 'b', berlin.memory_ids[0]!)).status, 'active');
    // A place still moves her (the sentence is the home's version, in its own words).
    await said('My wife and I moved to Porto.', '2024-03-01T10:00:00Z');
    assert.deepEqual(
      (await current()).filter((s) => !s.startsWith('We moved')),
      ['My wife and I moved to Porto.'],
    );
  });

  it('"Sorry, my number is 555-0199, I had a typo" replaces the number said before', async () => {
    const { engine, said, current } = await ana();
    const typo = await said('My number is 555-0198.', '2024-03-01T10:00:00Z');
    const fixed = await said('Sorry, my number is 555-0199, I had a typo.', '2024-03-01T10:05:00Z');
    assert.deepEqual(await current(), ["Ana's phone number is 555-0199"]);
    const old = await engine.getMemory(tenant, 'b', typo.memory_ids[0]!);
    assert.equal(old.status, 'superseded');
    const now = await engine.getMemory(tenant, 'b', fixed.memory_ids[0]!);
    assert.deepEqual(
      [now.slot, now.citations[0]!.quote],
      [old.slot, 'Sorry, my number is 555-0199, I had a typo.'],
    );
  });

  it('a phone number said again in another spelling is the same number: one Memory citing both', async () => {
    const { engine, said, current } = await ana();
    const first = await said('My number is 555-0198.', '2024-03-01T10:00:00Z');
    const spellings = ['My number is 555 0198.', 'My number is (555) 0198.', 'my number is 555.0198'];
    for (const [i, text] of spellings.entries()) {
      const again = await said(text, `2024-03-0${i + 2}T10:00:00Z`);
      assert.deepEqual(again.memory_ids, first.memory_ids, text);
    }
    assert.deepEqual(await current(), ["Ana's phone number is 555-0198"]);
    const m = await engine.getMemory(tenant, 'b', first.memory_ids[0]!);
    assert.equal(m.status, 'active');
    assert.deepEqual(
      m.citations.map((c) => c.quote),
      ['My number is 555-0198.', ...spellings],
    );
    // A number that differs still replaces it.
    await said('My number is 555-0199.', '2024-04-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's phone number is 555-0199"]);
  });

  it('two sources giving one phone number in two spellings at one instant are no conflict', async () => {
    const { engine, record } = await ana();
    const at = '2024-03-01T10:00:00Z';
    const from = (name: string, text: string) =>
      record({ content: { kind: 'message', text, speaker: 'Ana' }, source: { name }, occurred_at: at });
    const contested = async () =>
      (await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data.map((m) => m.statement);
    const a = await from('chat', 'My number is 555-0198.');
    const b = await from('mail', 'My number is 555 0198.');
    assert.deepEqual(b.memory_ids, a.memory_ids);
    assert.deepEqual(await contested(), []);
    // Another number from a third source at that instant is a conflict, as before.
    await from('sms', 'My number is 555-0199.');
    assert.deepEqual((await contested()).sort(), [
      "Ana's phone number is 555-0198",
      "Ana's phone number is 555-0199",
    ]);
  });

  it("an assistant's questions are no Memories; the answer is", async () => {
    const { said, current } = await ana();
    const asked = await said('What city do you live in?', '2024-04-01T10:00:00Z', 'assistant');
    await said('Lisbon. I live in Lisbon.', '2024-04-01T10:01:00Z');
    const offer = await said('Would you like me to remember that?', '2024-04-01T10:02:00Z', 'assistant');
    assert.deepEqual(await current(), ['Ana lives in Lisbon']);
    for (const r of [asked, offer]) {
      assert.equal(r.status, 'ready');
      assert.deepEqual(r.memory_ids, []);
    }
  });

  it('a home said with more ends when she moves: no Memory of the sentence stays current', async () => {
    const { engine, said, current } = await ana();
    const lisbon = await said('I live in Lisbon with my partner Tom.', '2024-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['I live in Lisbon with my partner Tom.']);
    const porto = await said('I moved to Porto.', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto']);
    assert.equal(lisbon.memory_ids.length, 1);
    const old = await engine.getMemory(tenant, 'b', lisbon.memory_ids[0]!);
    const now = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
    // Superseded by the move, in the home's lineage: its end is where the move starts.
    assert.deepEqual([old.status, old.valid_to, old.slot], ['superseded', '2024-02-01T10:00:00Z', now.slot]);
    assert.deepEqual(
      now.revisions.map((r) => r.statement),
      ['I live in Lisbon with my partner Tom.', 'Ana lives in Porto'],
    );
    // Said again in other words, the same home only adds a citation.
    const again = await said('I live in Porto.', '2024-03-01T10:00:00Z');
    assert.deepEqual(again.memory_ids, porto.memory_ids);
  });

  it('a home said with more ends when a correction replaces it', async () => {
    const { engine, said, current, record } = await ana();
    const lisbon = await said('I live in Lisbon with my partner Tom.', '2024-01-01T10:00:00Z');
    await record({
      content: { kind: 'correction', corrects: lisbon.memory_ids[0]!, statement: 'Ana lives in Sintra' },
    });
    assert.deepEqual(await current(), ['Ana lives in Sintra']);
    assert.equal((await engine.getMemory(tenant, 'b', lisbon.memory_ids[0]!)).status, 'superseded');
  });

  it('"I no longer work at Acme" ends the job it names, and says she has none', async () => {
    const { engine, said, current } = await ana();
    const acme = await said('I work at Acme.', '2024-01-01T10:00:00Z');
    // Someone else's, or asked: her job is as it was.
    await said('My sister no longer works at Acme.', '2024-01-15T10:00:00Z');
    await said('Do I no longer work at Acme?', '2024-01-16T10:00:00Z');
    assert.equal((await engine.getMemory(tenant, 'b', acme.memory_ids[0]!)).status, 'active');
    const left = await said('I no longer work at Acme.', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana no longer works at Acme', 'My sister no longer works at Acme.']);
    const old = await engine.getMemory(tenant, 'b', acme.memory_ids[0]!);
    const now = await engine.getMemory(tenant, 'b', left.memory_ids[0]!);
    assert.deepEqual(
      [old.status, old.valid_to, now.slot, now.citations[0]!.quote],
      ['superseded', '2024-02-01T10:00:00Z', old.slot, 'I no longer work at Acme.'],
    );
  });

  it('a correction in her own words replaces the home it denies', async () => {
    const { engine, said, current } = await ana();
    const porto = await said('I live in Porto.', '2024-01-01T10:00:00Z');
    const braga = await said('Actually, I live in Braga, not Porto.', '2024-01-02T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Braga']);
    assert.equal((await engine.getMemory(tenant, 'b', porto.memory_ids[0]!)).status, 'superseded');
    const now = await engine.getMemory(tenant, 'b', braga.memory_ids[0]!);
    assert.deepEqual(
      [now.statement, now.citations[0]!.quote],
      ['Ana lives in Braga', 'Actually, I live in Braga, not Porto.'],
    );
    await said("No, I don't live in Braga, I live in Faro.", '2024-01-03T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Faro']);
  });

  it('a job taken replaces the one before; a job quit ends it', async () => {
    const { engine, said, current } = await ana();
    const acme = await said('I work at Acme.', '2024-01-01T10:00:00Z');
    const globex = await said('I just got a new job at Globex!', '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana works at Globex']);
    const old = await engine.getMemory(tenant, 'b', acme.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2024-03-01T10:00:00Z']);
    const quit = await said('I quit my job at Globex.', '2024-09-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana no longer works at Globex']);
    const job = await engine.getMemory(tenant, 'b', globex.memory_ids[0]!);
    const end = await engine.getMemory(tenant, 'b', quit.memory_ids[0]!);
    assert.deepEqual(
      [job.status, job.valid_to, end.slot, end.citations[0]!.quote],
      ['superseded', '2024-09-01T10:00:00Z', job.slot, 'I quit my job at Globex.'],
    );
  });

  it('a job said with how long it has lasted, after the home, replaces both the home and the job', async () => {
    const { said, current } = await ana();
    await said('I live in Lisbon and work at Acme.', '2024-01-01T10:00:00Z');
    await said('I live in Porto and have been working at Sonae for a year.', '2025-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'Ana works at Sonae']);
    await said("I'm from Porto but live in Braga now.", '2025-06-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana works at Sonae', "I'm from Porto but live in Braga now."]);
  });

  it('a new manager replaces the one before, and a birthday the age', async () => {
    const { engine, said, current } = await ana();
    const tom = await said('My manager is Tom Reyes.', '2024-01-01T10:00:00Z');
    await said("I'm 34 years old.", '2024-02-01T10:00:00Z');
    await said('My new boss is Rita Gomes.', '2024-06-01T10:00:00Z');
    await said('I just turned 35!', '2024-09-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's age is 35", "Ana's manager is Rita Gomes"]);
    const old = await engine.getMemory(tenant, 'b', tom.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2024-06-01T10:00:00Z']);
  });

  it('a new diet replaces the one before, and "I\'m not vegan anymore" ends it', async () => {
    const { engine, said, current } = await ana();
    const vegetarian = await said("I'm vegetarian.", '2024-01-01T10:00:00Z');
    const vegan = await said("I'm a vegan now!", '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's diet is vegan"]);
    const old = await engine.getMemory(tenant, 'b', vegetarian.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2024-03-01T10:00:00Z']);
    const over = await said("I'm not vegan anymore.", '2024-06-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's diet is no longer vegan"]);
    const ended = await engine.getMemory(tenant, 'b', vegan.memory_ids[0]!);
    const ending = await engine.getMemory(tenant, 'b', over.memory_ids[0]!);
    assert.deepEqual(
      [ended.status, ended.valid_to, ending.slot === old.slot],
      ['superseded', '2024-06-01T10:00:00Z', true],
    );
  });

  it('an engagement replaces "single", and a wedding the engagement', async () => {
    const { engine, said, current } = await ana();
    const single = await said("I'm single.", '2023-01-01T10:00:00Z');
    await said('I got engaged!', '2024-02-14T10:00:00Z');
    const wedding = await said('We just got married!', '2024-09-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's relationship status is married"]);
    const old = await engine.getMemory(tenant, 'b', single.memory_ids[0]!);
    const now = await engine.getMemory(tenant, 'b', wedding.memory_ids[0]!);
    assert.deepEqual(
      [old.status, old.valid_to, now.slot === old.slot, now.citations[0]!.quote],
      ['superseded', '2024-02-14T10:00:00Z', true, 'We just got married!'],
    );
  });

  it('"married to Tom" holds the status in its own words, and a divorce replaces it', async () => {
    const { engine, said, current } = await ana();
    const engaged = await said("I'm engaged.", '2023-01-01T10:00:00Z');
    const tom = await said("I'm married to Tom now.", '2024-05-01T10:00:00Z');
    assert.deepEqual(await current(), ["I'm married to Tom now."]);
    const before = await engine.getMemory(tenant, 'b', engaged.memory_ids[0]!);
    assert.deepEqual([before.status, before.valid_to], ['superseded', '2024-05-01T10:00:00Z']);
    await said("I'm divorced, so I'm moving out.", '2025-03-01T10:00:00Z');
    assert.deepEqual(await current(), ["I'm divorced, so I'm moving out."]);
    const old = await engine.getMemory(tenant, 'b', tom.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2025-03-01T10:00:00Z']);
  });

  it('"we broke up" ends the partner who held the slot, and the status "in a relationship"', async () => {
    const { engine, said, current, together } = await ana();
    await said("I'm in a relationship.", '2023-01-01T10:00:00Z');
    const tom = await said('My boyfriend is Tom.', '2023-02-01T10:00:00Z');
    const parting = await said('We broke up last week 😢', '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), [
      "Ana's boyfriend is no longer Tom",
      "Ana's relationship status is no longer in a relationship",
      'We broke up last week 😢',
    ]);
    const old = await engine.getMemory(tenant, 'b', tom.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2024-03-01T10:00:00Z']);
    assert.equal(parting.memory_ids.length, 3);
    // A new boyfriend later holds the slot again; "I'm single now" ends him in turn.
    await said('My new boyfriend is Jim Park.', '2024-06-01T10:00:00Z');
    await said("I'm single now.", '2025-01-01T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is no longer Jim Park",
      "Ana's relationship status is single",
    ]);
  });

  it('a parting that names someone else, or comes with no partner held, ends nothing', async () => {
    const { engine, said, current } = await ana();
    const sara = await said('My wife is Sara.', '2023-01-01T10:00:00Z');
    await said('I broke up with Jim.', '2023-05-01T10:00:00Z');
    await said('Dad dumped me.', '2023-06-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's wife is Sara", 'Dad dumped me.', 'I broke up with Jim.']);
    assert.equal((await engine.getMemory(tenant, 'b', sara.memory_ids[0]!)).status, 'active');
    // Her name, in a chat's lower case, is hers: Sara ends.
    await said('sara and i split up', '2024-01-01T10:00:00Z');
    assert.ok((await current()).includes("Ana's wife is no longer Sara"));
  });

  it("a parting in a story of an ex ends that ex only, not today's partner", async () => {
    const { said, together } = await ana();
    await said("I'm in a relationship.", '2023-01-01T10:00:00Z');
    await said('My boyfriend is Tom.', '2023-02-01T10:00:00Z');
    await said('I dated Jake in college. He dumped me.', '2024-03-01T10:00:00Z');
    await said('My ex was a mess. We broke up.', '2024-03-02T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is Tom",
      "Ana's relationship status is in a relationship",
    ]);
    // The story's partner is today's: the parting is his.
    await said('I used to date Tom in high school, then again now. He dumped me.', '2024-04-01T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is no longer Tom",
      "Ana's relationship status is no longer in a relationship",
    ]);
  });

  it('"we got back together" gives the slot back to the partner a parting ended', async () => {
    const { said, together } = await ana();
    await said("I'm in a relationship.", '2023-01-01T10:00:00Z');
    await said('My boyfriend is Tom.', '2023-02-01T10:00:00Z');
    await said('We broke up.', '2023-03-01T10:00:00Z');
    await said("I'm back with Jim.", '2023-04-01T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is no longer Tom",
      "Ana's relationship status is no longer in a relationship",
    ]);
    await said('Tom and I got back together 🥰', '2023-05-01T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is Tom",
      "Ana's relationship status is in a relationship",
    ]);
  });

  it('being together ends with a named partner only, not with whatever else one "broke up with"', async () => {
    const { said, together } = await ana();
    await said("I'm in a relationship.", '2023-01-01T10:00:00Z');
    await said('My boyfriend is Tom.', '2023-02-01T10:00:00Z');
    await said('I broke up with Facebook lol', '2023-03-01T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is Tom",
      "Ana's relationship status is in a relationship",
    ]);
    await said('I broke up with Tom.', '2023-04-01T10:00:00Z');
    assert.deepEqual(await together(), [
      "Ana's boyfriend is no longer Tom",
      "Ana's relationship status is no longer in a relationship",
    ]);
  });

  it('"..., and now I\'m in Denver" at the end of a story of moves replaces the home', async () => {
    const { engine, said, current } = await ana();
    const boston = await said('I live in Boston.', '2023-01-01T10:00:00Z');
    await said("I moved to Boston after college, and now I'm in Denver", '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ["I moved to Boston after college, and now I'm in Denver"]);
    const old = await engine.getMemory(tenant, 'b', boston.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2024-03-01T10:00:00Z']);
    // A trip is no move.
    await said("Right now I'm in Paris for a conference.", '2024-04-01T10:00:00Z');
    assert.ok((await current()).includes("I moved to Boston after college, and now I'm in Denver"));
  });

  it('a chat all in lower case holds each slot it says, one sentence after another', async () => {
    const { current, said } = await ana();
    await said('i live in porto. its nice here. i work at globex', '2024-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'Ana works at Globex', 'its nice here.']);
  });

  it('a transfer replaces the school before it, and a graduation ends it', async () => {
    const { engine, said, current } = await ana();
    const mit = await said('I study at MIT.', '2022-09-01T10:00:00Z');
    const ucl = await said('I just transferred to UCL!', '2023-09-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana studies at UCL']);
    const old = await engine.getMemory(tenant, 'b', mit.memory_ids[0]!);
    assert.deepEqual([old.status, old.valid_to], ['superseded', '2023-09-01T10:00:00Z']);
    await said('I graduated from UCL! 🎓', '2025-07-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana no longer studies at UCL']);
    const ended = await engine.getMemory(tenant, 'b', ucl.memory_ids[0]!);
    assert.deepEqual([ended.status, ended.valid_to], ['superseded', '2025-07-01T10:00:00Z']);
  });

  it("where she says her sister lives is replaced by her sister's move; her own home stays", async () => {
    const { engine, said, current } = await ana();
    await said('I live in Lisbon.', '2024-01-01T10:00:00Z');
    const madrid = await said('My sister Carla lives in Madrid.', '2024-01-02T10:00:00Z');
    const paris = await said('Carla moved to Paris.', '2024-05-01T10:00:00Z');
    // Who Carla is to her outlives the move: a Memory of no slot, hers.
    assert.deepEqual(await current(), [
      'Ana lives in Lisbon',
      "Ana's sister is Carla",
      'Carla lives in Paris',
    ]);
    const old = await engine.getMemory(tenant, 'b', madrid.memory_ids[0]!);
    const now = await engine.getMemory(tenant, 'b', paris.memory_ids[0]!);
    assert.deepEqual(
      [old.status, old.statement, now.slot === old.slot, now.owner],
      ['superseded', 'My sister Carla lives in Madrid.', true, { state: 'other', entity: 'Carla' }],
    );
    // What another speaker says of the Brain's own person contests her home, and never replaces it.
    await said('Ana moved to Berlin.', '2024-06-01T10:00:00Z', 'Tom');
    const told = await current();
    assert.ok(
      told.includes('Ana lives in Lisbon') && told.includes('Tom says Ana lives in Berlin'),
      `${told}`,
    );
  });

  it('an appointment said after who the dentist is moves when the dentist moves it; the dentist stays', async () => {
    const { engine, said, current } = await ana();
    const first = await said(
      'My dentist is Dr. Sousa, my appointment is on Tuesday December 8.',
      '2026-11-23T10:00:00Z',
    );
    await said('My dentist moved my appointment to Thursday December 10.', '2026-11-25T10:00:00Z');
    assert.deepEqual(await current(), [
      "Ana's dentist is Dr. Sousa",
      'My dentist moved my appointment to Thursday December 10.',
    ]);
    const before = await Promise.all(first.memory_ids.map((id) => engine.getMemory(tenant, 'b', id)));
    assert.deepEqual(before.map((m) => m.status).sort(), ['active', 'superseded']);
  });

  it('a new home, job and diet said as news replace the ones said before', async () => {
    const { said, current } = await ana();
    await said("I'm vegetarian.", '2024-01-01T10:00:00Z');
    await said('I live at Rua das Flores 12, Porto.', '2024-01-02T10:00:00Z');
    await said('I work at Farfetch.', '2024-01-03T10:00:00Z');
    await said("I've started a pescatarian diet now, I eat fish again.", '2024-06-01T10:00:00Z');
    await said('We moved! Our new address is Avenida da Boavista 800, Porto.', '2024-06-02T10:00:00Z');
    await said("I got a new job: I'm now a product manager at Sonae.", '2024-06-03T10:00:00Z');
    assert.deepEqual(await current(), [
      'Ana lives at Avenida da Boavista 800, Porto',
      'Ana works at Sonae',
      "Ana's occupation is product manager",
      "I've started a pescatarian diet now, I eat fish again.",
      'We moved!',
    ]);
  });

  it("her sister's diet said again in other words replaces the old one; her own stays hers", async () => {
    const { engine, said, current } = await ana();
    await said("I'm vegetarian.", '2024-01-01T10:00:00Z');
    const vegan = await said('My sister Marta is vegan.', '2024-01-02T10:00:00Z');
    const now = await said('Marta is vegetarian rather than vegan these days.', '2024-06-01T10:00:00Z');
    assert.deepEqual(await current(), [
      "Ana's diet is vegetarian",
      "Ana's sister is Marta",
      "Marta's diet is vegetarian",
    ]);
    const old = await engine.getMemory(tenant, 'b', vegan.memory_ids[0]!);
    const hers = await engine.getMemory(tenant, 'b', now.memory_ids[0]!);
    assert.deepEqual(
      [old.status, old.valid_to, hers.slot === old.slot, hers.owner],
      ['superseded', '2024-06-01T10:00:00Z', true, { state: 'other', entity: 'Marta' }],
    );
    await said("Marta isn't vegetarian anymore.", '2024-09-01T10:00:00Z');
    assert.deepEqual(await current(), [
      "Ana's diet is vegetarian",
      "Ana's sister is Marta",
      "Marta's diet is no longer vegetarian",
    ]);
  });

  it('"He moved to York." after where her brother lives, in one message, is his home now', async () => {
    const { engine, said } = await ana();
    await said('My brother Sam lives in Leeds. He moved to York.', '2024-01-01T10:00:00Z');
    const sams = await engine.listMemories(tenant, 'b', { subject: 'Sam', limit: 50 });
    assert.deepEqual(
      sams.data.filter((m) => m.owner.state === 'other').map((m) => m.statement),
      ['Sam lives in York'],
    );
    // Leeds is his home's history, not a conflict of one message with itself.
    assert.deepEqual((await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data, []);
  });

  it('a "she" nothing says is Rui\'s moves nobody: his home stays', async () => {
    const { engine, said } = await ana();
    await said('Rui lives in Porto. She moved to Lisbon.', '2024-01-01T10:00:00Z');
    // One speaker's two messages, his "his" in the first: the "she" of the second is not his.
    await said('Tiago lives in Faro with his wife.', '2024-01-02T10:00:00Z');
    await said('She works at Google.', '2024-01-02T10:01:00Z');
    const of = async (subject: string) =>
      (await engine.listMemories(tenant, 'b', { subject, limit: 50 })).data
        .filter((m) => m.slot !== null)
        .map((m) => [m.statement, m.status]);
    assert.deepEqual(await of('Rui'), [['Rui lives in Porto', 'active']]);
    assert.deepEqual(await of('Tiago'), [['Tiago lives in Faro with his wife.', 'active']]);
  });

  it('"I don\'t live in Lisbon anymore" after a move ends nothing: the new home stays current', async () => {
    const { engine, said, current } = await ana();
    await said('I live in Lisbon.', '2024-01-01T10:00:00Z');
    const porto = await said('I moved to Porto.', '2024-02-01T10:00:00Z');
    const not = await said("I don't live in Lisbon anymore.", '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'Ana no longer lives in Lisbon']);
    assert.equal((await engine.getMemory(tenant, 'b', porto.memory_ids[0]!)).status, 'active');
    assert.equal((await engine.getMemory(tenant, 'b', not.memory_ids[0]!)).slot, null);
  });

  it('a move said all in lower case, or "based in", replaces the home; "i live in porto" is Porto', async () => {
    const { engine, said, current } = await ana();
    const lisbon = await said('I live in Lisbon.', '2024-01-01T10:00:00Z');
    await said('i moved to porto lol', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto']);
    assert.equal((await engine.getMemory(tenant, 'b', lisbon.memory_ids[0]!)).status, 'superseded');
    // The same home in a cased sentence is the same value: a citation, not a new version.
    const again = await said('i live in porto', '2024-02-15T10:00:00Z');
    const porto = await said('I live in Porto.', '2024-02-20T10:00:00Z');
    assert.deepEqual(porto.memory_ids, again.memory_ids);
    await said("I'm based out of Berlin.", '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Berlin']);
  });

  it('"I live in porto", capitalised only as a phone does, holds the home; "I live in fear" none', async () => {
    const { said, current } = await ana();
    await said('I live in Lisbon.', '2024-01-01T10:00:00Z');
    await said('I live in porto', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto']);
    // A state is no home: a Memory of its own, and Porto stays current.
    await said('I live in fear', '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'I live in fear']);
  });

  it('"I quit Feedzai" ends the job where Feedzai holds it; quitting Twitter ends nothing', async () => {
    const { said, current } = await ana();
    await said('I work at Feedzai.', '2024-01-01T10:00:00Z');
    await said('I quit Twitter lol', '2024-02-01T10:00:00Z');
    assert.ok((await current()).includes('Ana works at Feedzai'));
    await said('I quit Feedzai today!! starting at Revolut on Monday', '2024-03-01T10:00:00Z');
    const now = await current();
    assert.ok(!now.includes('Ana works at Feedzai'), JSON.stringify(now));
  });

  it('a partner named before a clause of its own holds the slot by name: a parting ends it', async () => {
    const { engine, said, current } = await ana();
    const jordan = await said("my partner is Jordan, we've been together 4 yrs", '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', jordan.memory_ids[0]!);
    assert.deepEqual([m.statement, m.value], ["Ana's partner is Jordan", 'Jordan']);
    await said('I broke up with Jordan.', '2024-03-01T10:00:00Z');
    assert.deepEqual(
      (await current()).filter((x) => /partner/u.test(x)),
      ["Ana's partner is no longer Jordan"],
    );
  });

  it('the profile leads with what holds a slot (home, job, diet), however long ago it was said', async () => {
    const { engine, said } = await ana();
    await said('I live in Porto.', '2024-01-01T10:00:00Z');
    await said('I work at Sonae.', '2024-01-02T10:00:00Z');
    await said('Coffee is life, three espressos a day.', '2024-05-01T10:00:00Z');
    await said("I'm vegetarian.", '2024-02-01T10:00:00Z');
    await said('So tired today.', '2024-06-01T10:00:00Z');
    const lines = async (cursor?: string) => {
      const p = await engine.getProfile(tenant, 'b', { limit: 2, ...(cursor ? { cursor } : {}) });
      return { statements: p.lines.map((l) => l.statement), next: p.next_cursor };
    };
    const first = await lines();
    assert.deepEqual(first.statements, ["Ana's diet is vegetarian", 'Ana works at Sonae']);
    // The cursor carries the group: the next page finishes the slot lines, then the rest, newest first.
    const second = await lines(first.next!);
    assert.deepEqual(second.statements, ['Ana lives in Porto', 'So tired today.']);
    const third = await lines(second.next!);
    assert.deepEqual(third, { statements: ['Coffee is life, three espressos a day.'], next: null });
  });

  it('a later clause that says an attribute whole holds its slot, and the sentence keeps the rest', async () => {
    const { said, current } = await ana();
    await said('i have a cat named Pimenta and my boyfriend is Rui', '2024-01-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's boyfriend is Rui", 'i have a cat named Pimenta']);
    await said('rui and i broke up', '2024-02-01T10:00:00Z');
    const now = await current();
    assert.ok(now.includes("Ana's boyfriend is no longer Rui"), now.join(' | '));
    assert.ok(!now.some((m) => m.includes('boyfriend is Rui')), now.join(' | '));
  });

  it('eating meat again ends a meatless diet, said alone or after a comma', async () => {
    const { said, current } = await ana();
    await said("I'm vegetarian.", '2024-01-01T10:00:00Z');
    await said('actually i eat meat again, not vegetarian anymore', '2024-02-01T10:00:00Z');
    assert.ok((await current()).includes("Ana's diet is no longer vegetarian"));
    await said("I'm vegan now", '2024-03-01T10:00:00Z');
    await said('i eat meat again lol', '2024-04-01T10:00:00Z');
    const now = await current();
    assert.ok(now.includes("Ana's diet is no longer vegan"), now.join(' | '));
  });

  it('what she says of someone else is theirs, not a line of her profile', async () => {
    const { engine, said } = await ana();
    await said('My sister Inês is a nurse.', '2024-01-01T10:00:00Z');
    await said('Inês is vegetarian though', '2024-01-01T10:01:00Z');
    await said('Inês is allergic to cats.', '2024-01-01T10:01:30Z');
    await said('Coffee is life, three espressos a day.', '2024-01-01T10:02:00Z');
    const profile = (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement);
    // That Inês is her sister is hers to say; what Inês is, eats and fears is not.
    assert.deepEqual(profile, ['Coffee is life, three espressos a day.', "Ana's sister is Inês"]);
    const theirs = (await engine.listMemories(tenant, 'b', { limit: 50 })).data
      .filter((m) => m.subject === 'Inês')
      .map((m) => [m.statement, m.owner.state]);
    assert.deepEqual(theirs.sort(), [
      ["Ana's sister is Inês", 'self'],
      ['Inês is allergic to cats.', 'other'],
      ['Inês is vegetarian though', 'other'],
      ['My sister Inês is a nurse.', 'other'],
    ]);
  });

  it('an ending imported before the value it ends still ends it: Lisbon is not current', async () => {
    const { engine, said, current } = await ana();
    const profile = async () =>
      (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement).sort();
    // An old chat imported after live use: the ending is written first, the home it ends after it.
    const not = await said('I no longer live in Lisbon.', '2024-03-01T10:00:00Z');
    const lisbon = await said('I live in Lisbon.', '2023-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana no longer lives in Lisbon']);
    assert.deepEqual(await profile(), ['Ana no longer lives in Lisbon']);
    const old = await engine.getMemory(tenant, 'b', lisbon.memory_ids[0]!);
    const end = await engine.getMemory(tenant, 'b', not.memory_ids[0]!);
    assert.deepEqual(
      [old.status, old.valid_to, end.slot, end.status],
      ['superseded', '2024-03-01T10:00:00Z', old.slot, 'active'],
    );
    // Said again after the ending, the home is current again.
    await said('I live in Lisbon again.', '2024-06-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Lisbon']);
  });

  it('an ending imported before the home, with a move between them, ends nothing', async () => {
    const { engine, said, current } = await ana();
    const not = await said("I don't live in Lisbon anymore.", '2024-03-01T10:00:00Z');
    await said('I moved to Porto.', '2024-02-01T10:00:00Z');
    await said('I live in Lisbon.', '2023-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'Ana no longer lives in Lisbon']);
    assert.equal((await engine.getMemory(tenant, 'b', not.memory_ids[0]!)).slot, null);
  });

  it('a move imported between a home and its ending leaves the move current', async () => {
    const { engine, said, current } = await ana();
    await said('I live in Lisbon.', '2023-01-01T10:00:00Z');
    const not = await said("I don't live in Lisbon anymore.", '2024-03-01T10:00:00Z');
    const porto = await said('I moved to Porto.', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'Ana no longer lives in Lisbon']);
    assert.equal((await engine.getMemory(tenant, 'b', porto.memory_ids[0]!)).status, 'active');
    assert.equal((await engine.getMemory(tenant, 'b', not.memory_ids[0]!)).slot, null);
  });

  it('an ending and a new job from two sources at one instant are no conflict', async () => {
    const { engine, record, current } = await ana();
    const from = (name: string, text: string, at: string) =>
      record({ content: { kind: 'message', text, speaker: 'Ana' }, source: { name }, occurred_at: at });
    const contested = async () =>
      (await engine.listMemories(tenant, 'b', { contested: 'true', limit: 50 })).data.map((m) => m.statement);
    const acme = await from('chat', 'I work at Acme.', '2024-01-01T10:00:00Z');
    await from('mail', 'I no longer work at Acme.', '2024-05-01T10:00:00Z');
    const sonae = await from('sms', 'I work at Sonae.', '2024-05-01T10:00:00Z');
    assert.deepEqual(await contested(), []);
    assert.deepEqual(await current(), ['Ana works at Sonae']);
    assert.equal((await engine.getMemory(tenant, 'b', sonae.memory_ids[0]!)).status, 'active');
    assert.equal((await engine.getMemory(tenant, 'b', acme.memory_ids[0]!)).status, 'superseded');
    // Two different jobs at one instant still contradict each other.
    await from('notes', 'I work at Globex.', '2024-05-01T10:00:00Z');
    assert.deepEqual((await contested()).sort(), ['Ana works at Globex', 'Ana works at Sonae']);
  });

  it('an ending said with more is the ending itself: no Memory of the sentence beside it', async () => {
    const { engine, said, current } = await ana();
    await said('I work at Acme.', '2024-01-01T10:00:00Z');
    const text = "I don't work at Acme anymore, they went bust last spring.";
    const left = await said(text, '2024-06-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana no longer works at Acme']);
    assert.equal(left.memory_ids.length, 1);
    const end = await engine.getMemory(tenant, 'b', left.memory_ids[0]!);
    assert.deepEqual([end.status, end.citations[0]!.quote], ['active', text]);
    // Hired again, the ending is over, and no Memory still says she left.
    await said('I work at Acme again.', '2025-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana works at Acme']);
  });

  it('two slots said with more are each its own version: nothing of the sentence outlives a move', async () => {
    const { said, current } = await ana();
    await said('I live in Lisbon with Tom and I work at Globex with his sister.', '2024-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['I live in Lisbon with Tom', 'I work at Globex with his sister.']);
    await said('I moved to Porto.', '2024-02-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana lives in Porto', 'I work at Globex with his sister.']);
  });

  it('"i live in constant fear" holds no home, as "I live in fear" does not; "i live in porto" does', async () => {
    const { said, current } = await ana();
    await said('i live in porto', '2024-01-01T10:00:00Z');
    for (const [i, text] of [
      'i live in constant fear',
      'i live in hope',
      'i live in the moment',
      'i live in the past lol',
      'i live in a bubble',
      'I live in constant denial',
      'i live in perpetual anxiety',
    ].entries())
      await said(text, `2024-02-0${i + 1}T10:00:00Z`);
    const now = await current();
    assert.deepEqual(
      now.filter((s) => s.startsWith('Ana')),
      ['Ana lives in Porto'],
    );
  });

  it('a home said with where in the place is superseded whole by a fact that moves her', async () => {
    const { engine, said, current, record } = await ana();
    const berlin = await said('I live in Berlin, in Kreuzberg, near the canal.', '2024-01-01T10:00:00Z');
    await record({
      content: { kind: 'fact', subject: 'Ana', predicate: 'home_city', value: 'Lisbon' },
      occurred_at: '2024-05-01T10:00:00Z',
    });
    assert.deepEqual(await current(), ['Ana home city: Lisbon']);
    const [old] = berlin.memory_ids;
    assert.deepEqual(
      [berlin.memory_ids.length, (await engine.getMemory(tenant, 'b', old!)).status],
      [1, 'superseded'],
    );
  });

  it('a new occupation replaces the one before, a fact of it too, and "no longer a nurse" ends it', async () => {
    const { engine, said, current, record } = await ana();
    const nurse = await said('I work as a nurse.', '2024-01-01T10:00:00Z');
    await said('I got promoted to head nurse!', '2024-03-01T10:00:00Z');
    assert.deepEqual(await current(), ["Ana's occupation is head nurse"]);
    assert.equal((await engine.getMemory(tenant, 'b', nurse.memory_ids[0]!)).status, 'superseded');
    await record({
      content: { kind: 'fact', subject: 'Ana', predicate: 'job_title', value: 'ward manager' },
      occurred_at: '2024-05-01T10:00:00Z',
    });
    assert.deepEqual(await current(), ['Ana job title: ward manager']);
    await said("I'm no longer a ward manager. Retired in August!", '2024-09-01T10:00:00Z');
    assert.deepEqual(
      (await current()).filter((m) => /occupation|job title/u.test(m)),
      ["Ana's occupation is no longer ward manager"],
    );
  });

  it('a job said with its employer holds both; a new employer leaves the occupation standing', async () => {
    const { said, current } = await ana();
    await said("I'm a nurse at Santa Maria.", '2024-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana works at Santa Maria', "Ana's occupation is nurse"]);
    await said('I work at São João now.', '2024-06-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana works at São João', "Ana's occupation is nurse"]);
  });

  it('a diet said in a clause after something else is superseded with the diet', async () => {
    const { said, current } = await ana();
    await said("I prefer window seats on flights and I'm vegetarian.", '2024-01-01T10:00:00Z');
    await said("I'm not vegetarian anymore, I'm pescatarian now.", '2024-06-01T10:00:00Z');
    const now = await current();
    assert.ok(now.includes("Ana's diet is pescatarian"), now.join(' | '));
    assert.ok(
      !now.some((m) => m.includes('vegetarian.') || m === "Ana's diet is vegetarian"),
      now.join(' | '),
    );
  });

  it('a job said with its employer in a chat without capitals holds both', async () => {
    const { said, current } = await ana();
    await said("i'm the new nurse at santa maria", '2024-01-01T10:00:00Z');
    assert.deepEqual(await current(), ['Ana works at Santa Maria', "Ana's occupation is nurse"]);
  });

  it("a named person's job is theirs, and a new one replaces it", async () => {
    const { engine, said, current } = await ana();
    const nurse = await said('My brother Rui is a nurse.', '2024-01-01T10:00:00Z');
    const now = await said('Rui works as a paramedic at INEM now.', '2024-06-01T10:00:00Z');
    assert.deepEqual(await current(), [
      "Ana's brother is Rui",
      'Rui works as a paramedic at INEM now.',
      "Rui's occupation is paramedic",
    ]);
    const old = await engine.getMemory(tenant, 'b', nurse.memory_ids[0]!);
    assert.deepEqual([old.statement, old.status], ['My brother Rui is a nurse.', 'superseded']);
    const job = await engine.getMemory(tenant, 'b', now.memory_ids.at(-1)!);
    assert.deepEqual([job.slot, job.citations.map((c) => c.quote)], [old.slot, ['Rui works as a paramedic']]);
    await said("Rui isn't a paramedic anymore.", '2024-09-01T10:00:00Z');
    assert.deepEqual(
      (await current()).filter((m) => m.includes('occupation')),
      ["Rui's occupation is no longer paramedic"],
    );
  });

  it('a dentist said with where one sees them, "in" a place as "at" one, replaces the one before', async () => {
    const { engine, said, current } = await ana();
    const perić = await said('My dentist is Dr. Ante Perić at Vlaška 44.', '2026-11-10T10:00:00Z');
    await said('My dentist is Dr. Kristina Babić in Trešnjevka.', '2026-11-27T10:00:00Z');
    assert.equal((await engine.getMemory(tenant, 'b', perić.memory_ids[0]!)).status, 'superseded');
    assert.deepEqual(
      (await current()).filter((m) => /dentist/u.test(m)),
      ["Ana's dentist is Dr. Kristina Babić"],
    );
  });

  it('everyday wordings of a change hold the slot and replace the value said before', async () => {
    const { engine, said, current, record } = await ana();
    const status = async (r: { memory_ids: string[] }) =>
      (await engine.getMemory(tenant, 'b', r.memory_ids[0]!)).status;
    // A break-up said "tonight" ends the partner as "last night" does.
    const petra = await said('My girlfriend is Petra.', '2026-11-09T10:00:00Z');
    await said("Petra and I broke up tonight. It's over.", '2026-11-28T21:00:00Z');
    assert.equal(await status(petra), 'superseded');
    // "I now live at" a street whose name says street in lower case, and "I moved to" it, whole.
    const ilica = await said('I live at Ilica 120.', '2026-11-09T10:05:00Z');
    const savska = await said('I now live at Savska cesta 41.', '2026-12-01T10:00:00Z');
    assert.equal(await status(ilica), 'superseded');
    const home = await engine.getMemory(tenant, 'b', savska.memory_ids[0]!);
    assert.equal(home.statement, 'Ana lives at Savska cesta 41');
    // The dentist said with where, then a switch in the words of one Record.
    const perić = await said('My dentist is Dr. Ante Perić at Vlaška 44.', '2026-11-10T10:00:00Z');
    const babić = await said(
      "I've decided to switch dentists: from now on I go to Dr. Kristina Babić.",
      '2026-11-27T10:00:00Z',
    );
    assert.equal(await status(perić), 'superseded');
    assert.equal(
      (await engine.getMemory(tenant, 'b', babić.memory_ids[0]!)).slot,
      (await engine.getMemory(tenant, 'b', perić.memory_ids[0]!)).slot,
    );
    // A salary said in a message and a `salary` fact are one slot.
    const salary = await said('My salary is 3,400 EUR net.', '2026-11-16T10:00:00Z');
    await record({
      content: { kind: 'fact', subject: 'Ana', predicate: 'salary', value: '3,600 EUR net' },
      occurred_at: '2026-12-05T10:00:00Z',
    });
    assert.equal(await status(salary), 'superseded');
    assert.deepEqual(
      (await current()).filter((m) => /salary|dentist|lives|girlfriend/u.test(m)),
      [
        'Ana lives at Savska cesta 41',
        'Ana salary: 3,600 EUR net',
        "Ana's dentist is Dr. Kristina Babić",
        "Ana's girlfriend is no longer Petra",
      ],
    );
  });
});
