import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

/*
 * use7 S7: "What changed this week?" got the week's every Record, a therapist session and imported notes
 * first, and the changes of the week (a dentist replaced, a birthday corrected, a trip moved) only as
 * a bare statement or a "held:" span among them. A question asking what changed is led by the changes
 * of its span, each as its value before and after, cited to the Record that made it.
 */
const now = new Date('2026-12-05T18:00:00+01:00');
const zone = 'Europe/Zagreb';
const engines = await bothEngines({ clock: () => now, timeZone: zone });

for (const [name, openEngine] of engines)
  describe(`${name}: a question asking what changed is led by the changes of its span`, () => {
    it('a move, a moved plan and a correction lead, old → new, before the chatter; other questions as before', async () => {
      const engine = await openEngine();
      try {
        await engine.createBrain(tenant, { id: 'lea', self: { type: 'person', name: 'Lea Horvat' } });
        const remember = async (
          content: RecordCreate['content'],
          at: string,
          visibility: RecordCreate['visibility'] = 'shareable',
        ) => {
          const r = await engine.rememberRecord(tenant, 'lea', { content, occurred_at: at, visibility }, {});
          await engine.idle();
          return engine.getRecord(tenant, 'lea', r.record.id);
        };
        const said = (text: string, at: string, visibility?: RecordCreate['visibility']) =>
          remember({ kind: 'message', speaker: 'Lea Horvat', text }, at, visibility);
        // Before the week; the old home shared only redacted.
        const lisbon = await said('I live in Lisbon.', '2026-11-10T09:00:00+01:00', 'redacted_summary');
        const booked = await said(
          'Booked the trip to Rome with Marko for December 12 to 15.',
          '2026-11-12T10:00:00+01:00',
        );
        const birthday = await said("Marko's birthday is on March 3.", '2026-11-14T20:00:00+01:00');
        const gym = await said('I have a gym class on Friday evening.', '2026-11-27T08:00:00+01:00');
        // The week: the changes, and chatter around them.
        const moved = await said('I moved to Porto.', '2026-11-30T12:00:00+01:00');
        const weather = await said(
          'The weather was lovely today, we walked by the river.',
          '2026-12-01T18:00:00+01:00',
        );
        const withdrawn = await remember(
          { kind: 'correction', corrects: gym.memory_ids[0]! },
          '2026-12-02T09:00:00+01:00',
        );
        const pasta = await said('Had pasta for lunch with the team.', '2026-12-02T13:00:00+01:00');
        const trip = await said(
          'We moved the Rome trip: it is now January 9 to 12.',
          '2026-12-03T09:15:00+01:00',
        );
        const march3 = (await engine.listMemories(tenant, 'lea', { subject: 'Marko', limit: 50 })).data.find(
          (m) => m.statement.includes('March 3'),
        )!;
        const corrected = await remember(
          { kind: 'correction', corrects: march3.id, statement: "Marko's birthday is March 13" },
          '2026-12-04T09:00:00+01:00',
        );
        const film = await said('Watched a film tonight, it was fine.', '2026-12-04T22:00:00+01:00');

        const ask = async (query: string, purpose?: string) => {
          const c = (await engine.createContext(
            tenant,
            'lea',
            { query, include: ['citations', 'explain'], ...(purpose ? { purpose } : {}) },
            { requestId: 'req_t' },
          )) as ContextReady;
          const trace = await engine.getTrace(tenant, 'lea', c.id);
          return { c, text: c.text ?? '', cited: c.citations.map((x) => x.record_id), trace };
        };
        const blocks = (text: string) => text.split(/\n\n(?=#mnemo-)/u).slice(1);

        const week = await ask('What changed this week?');
        // The changes first, oldest first: the move, the class withdrawn, the trip moved, the birthday
        // corrected; each block the Record that made it, saying what it was and what it is.
        assert.deepEqual(week.cited.slice(0, 4), [moved.id, gym.id, trip.id, corrected.id], week.text);
        const [first, second, third, fourth] = blocks(week.text);
        assert.match(first!, /· change: "Lea Horvat lives in": "Lisbon" → "Porto" \(said 2026-11-30\)/u);
        assert.match(first!, /\nI moved to Porto\.$/u);
        assert.match(second!, /· change: "I have a gym class on Friday evening\." withdrawn \(2026-12-02\)/u);
        assert.match(
          third!,
          /· change: "Booked the trip to Rome with Marko for December 12 to 15\." → below \(said 2026-12-03\)\nWe moved the Rome trip: it is now January 9 to 12\.$/u,
        );
        assert.match(
          fourth!,
          /· change: "Marko's birthday": "March 3" → "March 13" \(corrected 2026-12-04\)\nMarko's birthday is March 13$/u,
        );
        // The Trace names the lane, first, with the versions each Record made.
        const lane = week.trace.lanes[0]!;
        assert.equal(lane.name, 'changes');
        assert.deepEqual(
          lane.candidates.map((x) => x.record_id),
          [moved.id, gym.id, trip.id, corrected.id],
        );
        assert.match(lane.candidates[3]!.reason, /^corrected this week \(2026-12-04\)$/u);
        // The week's other Records are what happened, not what changed: left out, and said so.
        assert.equal(week.cited.length, 4, week.text);
        assert.equal(week.c.budget.truncated, false);
        const notChanges = ((week.c.explain?.dropped ?? []) as Array<{ record_id: string; reason: string }>)
          .filter((d) => d.reason.startsWith('not a change:'))
          .map((d) => d.record_id);
        for (const chatter of [weather, pasta, film]) assert.ok(notChanges.includes(chatter.id), week.text);
        // Neither the bare correction nor the Records before the week are quoted as changes.
        assert.ok(!week.cited.includes(withdrawn.id));
        assert.ok(!week.cited.slice(0, 4).includes(lisbon.id) && !week.cited.includes(birthday.id));

        // Off the device, the old home is not shown, only said to be there.
        const off = await ask('What changed this week?', 'off_device');
        assert.equal(off.cited[0], moved.id);
        assert.match(
          blocks(off.text)[0]!,
          /· change: "Lea Horvat lives in": a value not shown here → "Porto" \(said 2026-11-30\)/u,
        );
        assert.doesNotMatch(off.text, /Lisbon/u);

        // Asked about someone or something, only its changes lead.
        const marko = await ask("What's new with Marko this week?");
        assert.deepEqual(
          marko.trace.lanes[0]!.candidates.map((x) => x.record_id),
          [trip.id, corrected.id],
        );
        // After them, what names Marko (the booking), not the week's chatter.
        assert.deepEqual(marko.cited.slice(0, 2), [trip.id, corrected.id]);
        assert.ok(marko.cited.includes(booked.id), marko.text);
        for (const chatter of [weather, pasta, film])
          assert.ok(!marko.cited.includes(chatter.id), marko.text);
        const bday = await ask("What changed about Marko's birthday this week?");
        assert.deepEqual(
          bday.trace.lanes[0]!.candidates.map((x) => x.record_id),
          [corrected.id],
        );
        assert.equal(bday.cited[0], corrected.id);
        // "since" a day reads to now; a span before the changes holds none.
        assert.deepEqual(
          (await ask('What has changed since Thursday?')).trace.lanes[0]!.candidates.map((x) => x.record_id),
          [trip.id, corrected.id],
        );
        const before = await ask('What changed in October?');
        assert.equal(before.trace.lanes[0]!.name, 'changes');
        assert.equal(before.trace.lanes[0]!.candidates.length, 0);
        assert.doesNotMatch(before.text, /· (?:change|new): /u);

        // Asked in Croatian or Portuguese, the same: the span by its own time words, the topic by its name.
        const hr = await ask('Što se promijenilo ovaj tjedan?');
        assert.equal(hr.trace.lanes[0]!.name, 'changes');
        assert.deepEqual(hr.cited.slice(0, 4), [moved.id, gym.id, trip.id, corrected.id], hr.text);
        assert.match(blocks(hr.text)[0]!, /· change: "Lea Horvat lives in": "Lisbon" → "Porto"/u);
        assert.ok(!hr.cited.includes(weather.id) && !hr.cited.includes(pasta.id), hr.text);
        assert.deepEqual(
          (await ask('Ima li što novo od četvrtka?')).trace.lanes[0]!.candidates.map((x) => x.record_id),
          [trip.id, corrected.id],
        );
        const pt = await ask('O que há de novo com o Marko esta semana?');
        assert.deepEqual(
          pt.trace.lanes[0]!.candidates.map((x) => x.record_id),
          [trip.id, corrected.id],
        );
        assert.deepEqual(pt.cited.slice(0, 2), [trip.id, corrected.id], pt.text);
        // Marko in a Croatian case ("s Markom", "kod Marka") is Marko, whom the Records name so.
        for (const q of ['Što se promijenilo s Markom ovaj tjedan?', 'Što je novo kod Marka ovaj tjedan?']) {
          const hrMarko = await ask(q);
          assert.deepEqual(
            hrMarko.trace.lanes[0]!.candidates.map((x) => x.record_id),
            [trip.id, corrected.id],
            q,
          );
          assert.deepEqual(hrMarko.cited.slice(0, 2), [trip.id, corrected.id], hrMarko.text);
        }

        // A question that does not ask what changed: no lane of changes, no change in any header.
        for (const q of ['Where do I live?', 'When is the Rome trip?', 'What did I do this week?']) {
          const plain = await ask(q);
          assert.ok(!plain.trace.lanes.some((l) => l.name === 'changes'), q);
          assert.doesNotMatch(plain.text, /· (?:change|new): /u, q);
        }
        assert.equal((await ask('Where do I live?')).cited[0], moved.id);
      } finally {
        await engine.close();
      }
    });
  });
