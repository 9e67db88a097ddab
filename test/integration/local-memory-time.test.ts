import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Memory, RecordCreate } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { tenant, withBrain } from './local-helpers.ts';

const employer = (value: string, occurred_at: string): RecordCreate => ({
  content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value },
  occurred_at,
});
const statements = (ms: { statement: string }[]) => ms.map((m) => m.statement);
const byStatement = (ms: Memory[], s: string) => ms.find((m) => m.statement === s);

describe('local engine: a value dated in the future is scheduled, not current', () => {
  it('current, as_of now, profile, corrections and Context agree until the clock reaches its start', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now) });
    const acme = await remember(employer('Acme', '2024-01-01T00:00:00Z'));
    const globex = await remember(employer('Globex', '2031-01-01T00:00:00Z'));
    const dentist = await remember({
      content: { kind: 'event', title: 'Dentist', starts_at: '2031-05-01T09:00:00Z', participants: ['Ana'] },
      occurred_at: '2031-05-01T09:00:00Z',
    });
    const acmeId = acme.memory_ids[0]!;
    const globexId = globex.memory_ids[0]!;

    const current = await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 });
    assert.deepEqual(statements(current.data), ['Ana employer: Acme']);
    assert.equal(current.data[0]!.status, 'active');
    assert.equal(current.data[0]!.valid_to, '2031-01-01T00:00:00Z', 'it holds until the scheduled start');
    const asOfNow = await engine.listMemories(tenant, 'b', {
      subject: 'Ana',
      as_of: new Date(now).toISOString(),
      limit: 50,
    });
    assert.deepEqual(asOfNow.data, current.data, 'the current view and as_of now are one view');
    const later = await engine.listMemories(tenant, 'b', { as_of: '2032-01-01T00:00:00Z', limit: 50 });
    assert.ok(statements(later.data).includes('Ana employer: Globex'));
    assert.ok(!statements(later.data).includes('Ana employer: Acme'));
    const scheduled = await engine.getMemory(tenant, 'b', globexId);
    assert.deepEqual([scheduled.status, scheduled.valid_from], ['scheduled', '2031-01-01T00:00:00Z']);
    // One active value per slot: the scheduled one has a status of its own until it starts.
    const byStatus = async (status: 'active' | 'scheduled') =>
      (await engine.listMemories(tenant, 'b', { subject: 'Ana', status, limit: 50 })).data.map((m) => m.id);
    assert.deepEqual(await byStatus('active'), [acmeId]);
    assert.deepEqual(await byStatus('scheduled'), [globexId]);
    const census = await engine.getCensus(tenant, 'b');
    assert.deepEqual(
      [census.counts.memories_active, census.counts.memories_scheduled],
      [(await engine.listMemories(tenant, 'b', { status: 'active', limit: 50 })).data.length, 1],
    );

    // A statement that is not a slot value is known now, whatever date it is about.
    assert.ok(
      (await engine.listMemories(tenant, 'b', { limit: 50 })).data.some(
        (m) => m.id === dentist.memory_ids[0],
      ),
    );

    const profile = await engine.getProfile(tenant, 'b', { limit: 50 });
    assert.ok(statements(profile.lines).includes('Ana employer: Acme'));
    assert.ok(!statements(profile.lines).includes('Ana employer: Globex'));

    const ctx = await engine.createContext(tenant, 'b', { query: 'Ana employer' }, { requestId: 'req_1' });
    assert.ok(ctx.status === 'ready');
    const cited = ctx.citations.map((c) => c.record_id);
    assert.ok(cited.includes(acme.id), 'the current value is evidence');
    assert.ok(!cited.includes(globex.id), 'the scheduled value is not presented as current');

    // The current value can be corrected; its successor holds the same span, up to the scheduled start.
    const fixed = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'correction', corrects: acmeId, statement: 'Ana employer: Initech' } },
      {},
    );
    const initechId = fixed.record.memory_ids[0]!;
    const afterFix = await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 });
    assert.deepEqual(
      afterFix.data.map((m) => [m.id, m.valid_from, m.valid_to]),
      [[initechId, '2024-01-01T00:00:00Z', '2031-01-01T00:00:00Z']],
    );

    // The clock passes the start: Globex becomes current with nothing written.
    now = Date.parse('2031-06-01T00:00:00Z');
    const then = await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 });
    assert.deepEqual(
      then.data.map((m) => m.id),
      [globexId],
    );
    assert.equal((await engine.getMemory(tenant, 'b', initechId)).status, 'superseded');
    assert.equal((await engine.getMemory(tenant, 'b', globexId)).status, 'active');
    assert.deepEqual(await byStatus('scheduled'), []);
    const all = await engine.listMemories(tenant, 'b', { subject: 'Ana', status: 'all', limit: 50 });
    assert.equal(byStatement(all.data, 'Ana employer: Acme')!.status, 'superseded');
    assert.ok(
      statements((await engine.getProfile(tenant, 'b', { limit: 50 })).lines).includes(
        'Ana employer: Globex',
      ),
    );
    await assert.rejects(
      engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'correction', corrects: initechId, statement: 'Ana employer: Umbrella' } },
        {},
      ),
      (e: MnemoError) => e.code === 'correction_conflict' && e.message.includes(globexId),
    );
  });

  it('the same value as the one holding the slot at that world time adds a citation, not a version', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-01-01T00:00:00Z') });
    const acme = await remember(employer('Acme', '2024-01-01T00:00:00Z'));
    await remember(employer('Globex', '2031-01-01T00:00:00Z'));
    const again = await remember(employer('Acme', '2025-06-01T00:00:00Z'));
    assert.deepEqual(again.memory_ids, acme.memory_ids);
    const all = await engine.listMemories(tenant, 'b', { subject: 'Ana', status: 'all', limit: 50 });
    assert.equal(all.data.length, 2);
  });
});

describe('local engine: listMemories subject filter', () => {
  it('matches a slot however its subject was cased, as supersession does; other subjects case-insensitively', async () => {
    const { engine, remember } = await withBrain();
    await remember({
      content: { kind: 'fact', subject: 'Bob', predicate: 'age', value: 30 },
      occurred_at: '2020-01-01T00:00:00Z',
    });
    const newer = await remember({
      content: { kind: 'fact', subject: 'bob', predicate: 'Age', value: 31 },
      occurred_at: '2021-01-01T00:00:00Z',
    });
    for (const subject of ['Bob', 'bob', 'BOB', 'Bob.']) {
      const page = await engine.listMemories(tenant, 'b', { subject, limit: 50 });
      assert.deepEqual(
        page.data.map((m) => m.id),
        newer.memory_ids,
        `subject=${subject}`,
      );
      assert.equal(
        (await engine.listMemories(tenant, 'b', { subject, status: 'all', limit: 50 })).data.length,
        2,
      );
    }
    const carol = await remember({ content: { kind: 'message', text: 'I keep bees.', speaker: 'Carol' } });
    assert.deepEqual(
      (await engine.listMemories(tenant, 'b', { subject: 'carol', limit: 50 })).data.map((m) => m.id),
      carol.memory_ids,
    );
    assert.deepEqual((await engine.listMemories(tenant, 'b', { subject: 'Bo', limit: 50 })).data, []);
  });
});

describe('local engine: correcting a retracted Memory, and re-derivation in the revisions', () => {
  it('a retracted Memory with nothing newer in force can be restated; retracting it again is a conflict', async () => {
    const { engine, remember } = await withBrain();
    const rec = await remember({ content: { kind: 'message', text: 'I work at Globex.', speaker: 'Ana' } });
    const target = rec.memory_ids[0]!;
    await engine.rememberRecord(tenant, 'b', { content: { kind: 'correction', corrects: target } }, {});
    assert.equal((await engine.getMemory(tenant, 'b', target)).status, 'retracted');

    await assert.rejects(
      engine.rememberRecord(tenant, 'b', { content: { kind: 'correction', corrects: target } }, {}),
      (e: MnemoError) => e.code === 'correction_conflict' && e.message.includes('retracted'),
    );
    const restated = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'correction', corrects: target, statement: 'I work at Initech.' } },
      {},
    );
    const successor = restated.record.memory_ids[0]!;
    const current = await engine.listMemories(tenant, 'b', { limit: 50 });
    assert.deepEqual(
      current.data.map((m) => [m.id, m.statement]),
      [[successor, 'I work at Initech.']],
    );
    assert.equal((await engine.getMemory(tenant, 'b', target)).status, 'retracted');
    // Now the slot has a newer value in force: the spec's correction_conflict.
    await assert.rejects(
      engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'correction', corrects: target, statement: 'I work at Hooli.' } },
        {},
      ),
      (e: MnemoError) => e.code === 'correction_conflict' && e.message.includes(successor),
    );
  });

  it('a Memory re-derived after a forget says so in its revisions (cause rederived)', async () => {
    const { engine, remember } = await withBrain();
    const a = await remember({
      content: { kind: 'message', text: 'I like sailing. I hate rain.', speaker: 'user' },
    });
    await remember({ content: { kind: 'message', text: 'I like sailing.', speaker: 'user' } });
    const sailing = (await engine.listMemories(tenant, 'b', { q: 'sailing', limit: 50 })).data[0]!.id;
    assert.ok(a.memory_ids.includes(sailing), 'one Memory supported by both Records');
    assert.deepEqual(
      (await engine.getMemory(tenant, 'b', sailing)).revisions.map((r) => r.cause),
      ['derived'],
    );
    await engine.forgetRecord(tenant, 'b', a.id);
    await engine.idle();
    const rederived = await engine.getMemory(tenant, 'b', sailing);
    assert.deepEqual(
      rederived.revisions.map((r) => [r.id, r.cause]),
      [[sailing, 'rederived']],
    );
  });
});

describe('local engine: a job or a home said to start on a later day', () => {
  const said = (text: string, occurred_at: string): RecordCreate => ({
    content: { kind: 'message', text, speaker: 'user' },
    occurred_at,
  });
  const jobs = async (engine: Awaited<ReturnType<typeof withBrain>>['engine']) =>
    (
      await engine.listMemories(tenant, 'b', {
        subject: 'Ana',
        status: 'all',
        limit: 50,
      })
    ).data
      .filter((m) => m.predicate === 'works at')
      .map((m) => [m.statement, m.status, m.valid_from])
      .sort();

  it('is scheduled from that day, and the old value holds until it', async () => {
    // Friday 6 March 2026; the Monday after is the 9th.
    let now = Date.parse('2026-03-07T10:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now) });
    await remember(said('i work at feedzai', '2026-01-10T09:00:00Z'));
    const plan = await remember(said('starting at revolut on monday, so excited', '2026-03-06T18:00:00Z'));
    assert.deepEqual(await jobs(engine), [
      ['Ana works at Feedzai', 'active', '2026-01-10T09:00:00Z'],
      ['Ana works at Revolut', 'scheduled', '2026-03-09T00:00:00.000Z'],
    ]);
    const profile = await engine.getProfile(tenant, 'b', { limit: 50 });
    assert.ok(statements(profile.lines).includes('Ana works at Feedzai'));
    assert.ok(!statements(profile.lines).includes('Ana works at Revolut'));
    // The message says in its own words that the job is to come: it answers before the day.
    const ctx = await engine.createContext(
      tenant,
      'b',
      { query: 'when do I start at Revolut?' },
      { requestId: 'req_ahead' },
    );
    assert.ok(ctx.status === 'ready');
    assert.ok(ctx.citations.some((c) => c.record_id === plan.id));

    // The Monday comes: Revolut is the job, with nothing written.
    now = Date.parse('2026-03-10T08:00:00Z');
    assert.deepEqual(await jobs(engine), [
      ['Ana works at Feedzai', 'superseded', '2026-01-10T09:00:00Z'],
      ['Ana works at Revolut', 'active', '2026-03-09T00:00:00.000Z'],
    ]);
    // Saying it again on the day cites the same Memory.
    const again = await remember(said('first day at revolut today!!', '2026-03-09T08:30:00Z'));
    assert.deepEqual(again.memory_ids, plan.memory_ids);
  });

  it("counts a day from the person's clock when the Record carries no occurred_at", async () => {
    // 21:00 on Friday 6 March in New York is already Saturday in UTC.
    const evening = Date.parse('2026-03-07T02:00:00Z');
    const { engine, remember } = await withBrain({
      clock: () => new Date(evening),
      timeZone: 'America/New_York',
    });
    await remember(said('i work at feedzai', '2026-01-10T09:00:00Z'));
    const plan = await remember({
      content: { kind: 'message', text: 'starting at revolut tomorrow!', speaker: 'user' },
    });
    assert.equal(plan.occurred_at, '2026-03-06T21:00:00-05:00');
    assert.equal(Date.parse(plan.occurred_at), evening);
    const revolut = (await jobs(engine)).find(([statement]) => statement === 'Ana works at Revolut');
    assert.ok(revolut, 'the plan holds the slot');
    assert.equal(
      Date.parse(revolut[2]!),
      Date.parse('2026-03-07T05:00:00Z'),
      "Saturday's midnight in New York",
    );
  });

  it('stamps a Record written without occurred_at in UTC where the person lives in UTC', async () => {
    const { remember } = await withBrain({
      clock: () => new Date('2026-03-07T02:00:00.250Z'),
      timeZone: 'UTC',
    });
    const r = await remember({ content: { kind: 'message', text: 'hello', speaker: 'user' } });
    assert.equal(r.occurred_at, '2026-03-07T02:00:00.250Z');
  });

  it('a plan said to be off is withdrawn, and the old value holds on past its day', async () => {
    let now = Date.parse('2026-03-07T10:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now) });
    await remember(said('i work at feedzai', '2026-01-10T09:00:00Z'));
    const plan = await remember(said('starting at revolut on monday, so excited', '2026-03-06T18:00:00Z'));
    const off = await remember(said('ugh, revolut pulled the offer :(', '2026-03-07T09:00:00Z'));
    now = Date.parse('2026-03-20T08:00:00Z');
    assert.deepEqual(await jobs(engine), [
      ['Ana works at Feedzai', 'active', '2026-01-10T09:00:00Z'],
      ['Ana works at Revolut', 'retracted', '2026-03-09T00:00:00.000Z'],
    ]);
    const feedzai = (await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 })).data.find(
      (m) => m.statement === 'Ana works at Feedzai',
    );
    assert.equal(feedzai?.valid_to, null, 'nothing is to replace it');
    const profile = await engine.getProfile(tenant, 'b', { limit: 50 });
    assert.ok(statements(profile.lines).includes('Ana works at Feedzai'));
    // The sentence is a Memory of its own, which Context can quote.
    assert.ok(off.memory_ids.length > 0);

    // Forgetting the Record that called it off brings the plan back.
    await engine.forgetRecord(tenant, 'b', off.id);
    await engine.idle();
    assert.deepEqual(await jobs(engine), [
      ['Ana works at Feedzai', 'superseded', '2026-01-10T09:00:00Z'],
      ['Ana works at Revolut', 'active', '2026-03-09T00:00:00.000Z'],
    ]);
    assert.deepEqual((await engine.getRecord(tenant, 'b', plan.id)).memory_ids, plan.memory_ids);
  });

  it('a move called off leaves the home, and one to another place is not touched', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-09-01T00:00:00Z') });
    await remember(said('I live in Lisbon', '2026-01-10T09:00:00Z'));
    await remember(said("We're moving to Porto in July, can't wait", '2026-05-20T12:00:00Z'));
    await remember(said('we are not moving to berlin after all', '2026-05-22T12:00:00Z'));
    const home = async () =>
      statements(
        (await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 })).data.filter(
          (m) => m.predicate === 'lives in',
        ),
      );
    assert.deepEqual(await home(), ['Ana lives in Porto'], 'Berlin was no plan of hers');
    await remember(said("we're staying in tonight after all, too tired", '2026-05-23T20:00:00Z'));
    assert.deepEqual(await home(), ['Ana lives in Porto'], 'staying in for the night keeps no home');
    await remember(said("we're not moving to porto after all, staying put", '2026-06-01T12:00:00Z'));
    assert.deepEqual(await home(), ['Ana lives in Lisbon']);
  });

  it('staying where one lives after all withdraws the move', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-09-01T00:00:00Z') });
    await remember(said('I live in Lisbon', '2026-01-10T09:00:00Z'));
    await remember(said("We're moving to Porto in July, can't wait", '2026-05-20T12:00:00Z'));
    await remember(said('we decided to stay in lisbon after all', '2026-06-01T12:00:00Z'));
    const homes = (await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 })).data;
    assert.deepEqual(statements(homes.filter((m) => m.predicate === 'lives in')), ['Ana lives in Lisbon']);
  });

  it('a plan said again with another day holds from the new day only', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-03-12T10:00:00Z') });
    await remember(said('i work at feedzai', '2026-01-10T09:00:00Z'));
    await remember(said('starting at revolut on monday, so excited', '2026-03-06T18:00:00Z'));
    await remember(said('starting at revolut on the 23rd now, they pushed it', '2026-03-07T09:00:00Z'));
    assert.deepEqual(await jobs(engine), [
      ['Ana works at Feedzai', 'active', '2026-01-10T09:00:00Z'],
      ['Ana works at Revolut', 'retracted', '2026-03-09T00:00:00.000Z'],
      ['starting at revolut on the 23rd now, they pushed it', 'scheduled', '2026-03-23T00:00:00.000Z'],
    ]);
  });

  describe('a move that comes before its day', () => {
    const homes = async (engine: Awaited<ReturnType<typeof withBrain>>['engine'], as_of?: string) =>
      (
        await engine.listMemories(tenant, 'b', {
          subject: 'Ana',
          limit: 50,
          ...(as_of !== undefined ? { as_of } : {}),
        })
      ).data
        .filter((m) => m.predicate === 'lives in')
        .map((m) => [m.statement, m.valid_from, m.valid_to, m.citations.map((c) => c.quote)]);

    it('to the planned place is the home from the day said, and the plan does not end it', async () => {
      const { engine, remember } = await withBrain({ clock: () => new Date('2024-09-01T00:00:00Z') });
      const plan = await remember(said("I'm moving to Lisbon next month!!! 🎉🇵🇹", '2024-07-01T10:00:00Z'));
      const now = await remember(said('I live in Lisbon now. The move went fine.', '2024-07-19T10:00:00Z'));
      const current = [['Ana lives in Lisbon', '2024-07-19T10:00:00Z', null, ['I live in Lisbon now.']]];
      assert.deepEqual(await homes(engine), current);
      assert.deepEqual(
        await homes(engine, '2024-07-25T00:00:00Z'),
        current,
        'her home before the planned day',
      );
      // Context's quote of the Record holds the sentence that answers: while it was a closed value's,
      // the quote was the sentence beside it ("The move went fine.").
      const ctx = await engine.createContext(tenant, 'b', { query: 'lisbon' }, { requestId: 'req_home' });
      assert.ok(ctx.status === 'ready');
      const quoted = ctx.citations.filter((c) => c.record_id === now.id).map((c) => c.quote);
      assert.equal(quoted.length, 1);
      assert.ok(quoted[0]!.includes('I live in Lisbon now.'), quoted[0]);
      // Forgetting what she said brings the plan back, from its day.
      await engine.forgetRecord(tenant, 'b', now.id);
      await engine.idle();
      assert.deepEqual(await homes(engine), [
        ['Ana lives in Lisbon', '2024-08-01T00:00:00.000Z', null, ["I'm moving to Lisbon next month!!!"]],
      ]);
      assert.deepEqual((await engine.getRecord(tenant, 'b', plan.id)).memory_ids, plan.memory_ids);
    });

    it('to another place after a change of plans is the home from the day said', async () => {
      const { engine, remember } = await withBrain({ clock: () => new Date('2024-09-01T00:00:00Z') });
      await remember(said("I'm moving to Lisbon next month!!! 🎉🇵🇹", '2024-07-01T10:00:00Z'));
      await remember(said('Change of plans, I live in Porto now', '2024-07-19T10:00:00Z'));
      const current = [
        [
          'Change of plans, I live in Porto now',
          '2024-07-19T10:00:00Z',
          null,
          ['Change of plans, I live in Porto now'],
        ],
      ];
      assert.deepEqual(await homes(engine), current);
      assert.deepEqual(await homes(engine, '2024-07-25T00:00:00Z'), current);
    });

    it('an old message imported after the plan, from before another home, leaves the plan its day', async () => {
      const { engine, remember } = await withBrain({ clock: () => new Date('2026-09-01T00:00:00Z') });
      await remember(said('I live in Porto now.', '2025-12-05T10:00:00Z'));
      await remember(said("I'm moving back to Lisbon on April 1.", '2026-03-01T10:00:00Z'));
      // A chat imported late: she lived in Lisbon before Porto; it is no plan come early.
      await remember(said('I live in Lisbon now.', '2025-06-05T10:00:00Z'));
      assert.deepEqual(
        (await homes(engine)).map((h) => [h[0], h[1]]),
        [['Ana lives in Lisbon', '2026-04-01T00:00:00.000Z']],
      );
      assert.deepEqual(
        (await homes(engine, '2026-01-15T00:00:00Z')).map((h) => h[0]),
        ['Ana lives in Porto'],
      );
    });

    it('"instead" beside another home that is no choice leaves the plan its day', async () => {
      const { engine, remember } = await withBrain({ clock: () => new Date('2024-09-01T00:00:00Z') });
      await remember(said("I'm moving to Lisbon next month!!! 🎉🇵🇹", '2024-07-01T10:00:00Z'));
      await remember(
        said('Most of my friends live in Lisbon. I live in Porto instead.', '2024-07-10T10:00:00Z'),
      );
      assert.deepEqual(
        (await homes(engine)).map((h) => [h[0], h[1]]),
        [['Ana lives in Lisbon', '2024-08-01T00:00:00.000Z']],
      );
    });

    it('to another place, said without the plan changed, leaves the plan its day', async () => {
      // She may have lived in Porto all along: the plan still holds from its day.
      const { engine, remember } = await withBrain({ clock: () => new Date('2024-09-01T00:00:00Z') });
      await remember(said("I'm moving to Lisbon next month!!! 🎉🇵🇹", '2024-07-01T10:00:00Z'));
      await remember(said('I live in Porto', '2024-07-19T10:00:00Z'));
      assert.deepEqual(await homes(engine, '2024-07-25T00:00:00Z'), [
        ['Ana lives in Porto', '2024-07-19T10:00:00Z', '2024-08-01T00:00:00.000Z', ['I live in Porto']],
      ]);
      assert.deepEqual(await homes(engine), [
        ['Ana lives in Lisbon', '2024-08-01T00:00:00.000Z', null, ["I'm moving to Lisbon next month!!!"]],
      ]);
    });
  });

  it('a move said with its month is the home from that month', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-09-01T00:00:00Z') });
    await remember(said('I live in Lisbon', '2026-01-10T09:00:00Z'));
    await remember(said("We're moving to Porto in July, can't wait", '2026-05-20T12:00:00Z'));
    const homes = await engine.listMemories(tenant, 'b', { subject: 'Ana', limit: 50 });
    assert.deepEqual(
      homes.data.filter((m) => m.predicate === 'lives in').map((m) => [m.statement, m.valid_from]),
      [['Ana lives in Porto', '2026-07-01T00:00:00.000Z']],
    );
    const may = await engine.listMemories(tenant, 'b', {
      subject: 'Ana',
      as_of: '2026-06-15T00:00:00Z',
      limit: 50,
    });
    assert.deepEqual(statements(may.data.filter((m) => m.predicate === 'lives in')), ['Ana lives in Lisbon']);
  });

  it('a move told with how long ago it was holds from that day', async () => {
    const { engine, remember } = await withBrain({ clock: () => new Date('2026-09-01T00:00:00Z') });
    await remember(said('I live in Lisbon', '2026-01-10T09:00:00Z'));
    await remember(said('we moved to porto 2 weeks ago', '2026-07-20T12:00:00Z'));
    const home = async (as_of: string) =>
      statements(
        (await engine.listMemories(tenant, 'b', { subject: 'Ana', as_of, limit: 50 })).data.filter(
          (m) => m.predicate === 'lives in',
        ),
      );
    assert.deepEqual(await home('2026-07-01T00:00:00Z'), ['Ana lives in Lisbon']);
    assert.deepEqual(await home('2026-07-10T00:00:00Z'), ['we moved to porto 2 weeks ago']);
  });
});

describe('local engine: a new job accepted now and started later', () => {
  it('leaves the job held until its last day, the new one and its role from their start', async () => {
    const now = Date.parse('2026-12-02T00:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now) });
    const say = (text: string, occurred_at: string) =>
      remember({ content: { kind: 'message', text, speaker: 'Ana', thread: 't' }, occurred_at });
    await say('I work as a product designer at Dell.', '2026-11-30T09:00:00Z');
    const offer = await say(
      'Big news: I accepted an offer from Figma as a senior product designer. My last day at Dell is December 18 and I start at Figma on January 4.',
      '2026-12-01T09:00:00Z',
    );
    const current = statements((await engine.listMemories(tenant, 'b', { limit: 50 })).data).sort();
    assert.deepEqual(current, ['Ana works at Dell', "Ana's occupation is product designer"]);
    // The new job and role from January 4; Dell ends after its last day, December 18.
    const starts = new Map<string, number>();
    for (const id of offer.memory_ids) {
      const m = await engine.getMemory(tenant, 'b', id);
      assert.equal(m.status, 'scheduled', m.statement);
      starts.set(m.statement, Date.parse(m.valid_from));
    }
    assert.equal(starts.get('Ana no longer works at Dell'), Date.parse('2026-12-19T00:00:00Z'));
    assert.equal(
      starts.get("Ana's occupation is senior product designer"),
      Date.parse('2027-01-04T00:00:00Z'),
    );
  });

  it('starts a job accepted now on the day the next sentence gives "there", with the role said with it', async () => {
    const now = Date.parse('2026-12-06T00:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now) });
    const say = (text: string, occurred_at: string) =>
      remember({ content: { kind: 'message', text, speaker: 'Ana', thread: 't' }, occurred_at });
    await say('I work at Critical Software as a data engineer.', '2025-06-01T10:00:00Z');
    const offer = await say(
      'Big news: I accepted the offer from Sonae. I start there on 11 January 2027 as a senior data engineer.',
      '2026-12-02T20:00:00Z',
    );
    const current = statements((await engine.listMemories(tenant, 'b', { limit: 50 })).data).sort();
    assert.deepEqual(current, ['Ana works at Critical Software', "Ana's occupation is data engineer"]);
    const scheduled = await Promise.all(
      offer.memory_ids.map(async (id) => {
        const m = await engine.getMemory(tenant, 'b', id);
        return [m.statement, m.status, m.valid_from];
      }),
    );
    assert.deepEqual(scheduled, [
      ['Ana works at Sonae', 'scheduled', '2027-01-11T00:00:00.000Z'],
      ["Ana's occupation is senior data engineer", 'scheduled', '2027-01-11T00:00:00.000Z'],
    ]);
  });

  for (const said of [
    'I start at Sonae on 11 January 2027.',
    'My first day at Sonae is January 11.',
    "I'm starting at Sonae on January 11 as a senior data engineer.",
  ])
    it(`holds "${said}" from its day, the job held until then`, async () => {
      const now = Date.parse('2026-12-06T00:00:00Z');
      const { engine, remember } = await withBrain({ clock: () => new Date(now) });
      const say = (text: string, occurred_at: string) =>
        remember({ content: { kind: 'message', text, speaker: 'Ana', thread: 't' }, occurred_at });
      const held = await say('I work at Critical Software.', '2025-06-01T10:00:00Z');
      const next = await say(said, '2026-12-02T20:00:00Z');
      const old = await engine.getMemory(tenant, 'b', held.memory_ids[0]!);
      assert.deepEqual([old.status, old.valid_to], ['active', '2027-01-11T00:00:00.000Z']);
      const job = await engine.getMemory(tenant, 'b', next.memory_ids[0]!);
      assert.deepEqual(
        [job.statement, job.status, job.valid_from],
        ['Ana works at Sonae', 'scheduled', '2027-01-11T00:00:00.000Z'],
      );
    });
});
