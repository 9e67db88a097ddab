import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContextReady, MemoryDetail, type Memory } from '../../engine/contract/index.ts';
import type { MnemoError } from '../../engine/errors/mnemo-error.ts';
import { tenant, withBrain } from './local-helpers.ts';

const fact = (value: string, occurred_at: string, source?: string) => ({
  content: { kind: 'fact' as const, subject: 'user', predicate: 'favourite_colour', value },
  occurred_at,
  ...(source ? { source: { name: source } } : {}),
});

describe('local engine: derivation', () => {
  it("what an importer writes beside the words is no Memory: attachments, headings alone, a note's tags and links", async () => {
    const { engine, remember } = await withBrain();
    const note = await remember({
      content: {
        kind: 'document',
        title: 'Family',
        text: '# Family\n\nMarta is my sister. She is a nurse.\n\n## Plans\n\nVisit in May.\n\nTags: #family\nLinks: [[mum]]',
      },
    });
    const media = await remember({
      content: { kind: 'message', text: '[attachment: omitted media]', speaker: 'Marta', thread: 't' },
    });
    const photo = await remember({
      content: {
        kind: 'message',
        text: 'Look at this\n[attachment: IMG_2024.jpg]',
        speaker: 'Marta',
        thread: 't',
      },
    });
    const statements = async (ids: string[]) =>
      Promise.all(ids.map(async (id) => (await engine.getMemory(tenant, 'b', id)).statement));
    // Her note ("my sister"): a Memory per sentence, as her messages (rules-v36, own-note.ts).
    // Who Marta is to Ana, as "Marta is my sister." says it (rules-v96).
    assert.deepEqual((await statements(note.memory_ids)).sort(), [
      "Ana's sister is Marta",
      'Marta is my sister.',
      'She is a nurse.',
      'Visit in May.',
    ]);
    assert.equal(media.status, 'ready');
    assert.deepEqual(media.memory_ids, [], 'a placeholder states nothing');
    assert.deepEqual(await statements(photo.memory_ids), ['Look at this']);
    // Only the importers' own forms: a note that is one heading, and a chat line that begins like a
    // footer, say something.
    const heading = await remember({
      content: { kind: 'document', title: 'D', text: '# Dentist: Dr. Carla Silva' },
    });
    assert.deepEqual(await statements(heading.memory_ids), ['# Dentist: Dr. Carla Silva']);
    const chat = await remember({
      content: {
        kind: 'message',
        text: 'Links: the one about the flat is great',
        speaker: 'Marta',
        thread: 't',
      },
    });
    assert.deepEqual(await statements(chat.memory_ids), ['Links: the one about the flat is great']);
    // Still a Record, and still evidence: a question about the photo finds it.
    const found = await engine.createContext(
      tenant,
      'b',
      { query: 'IMG_2024.jpg photo' },
      { requestId: 'r' },
    );
    assert.equal(found.status, 'ready');
    if (found.status === 'ready')
      assert.ok(
        found.citations.some((c) => c.record_id === photo.id),
        JSON.stringify(found.citations),
      );
  });

  it('a newer fact supersedes the slot: one active version 2, the old one kept and closed; as_of reads both', async () => {
    const { engine, remember } = await withBrain();
    const green = await remember(fact('green', '2020-01-01T00:00:00Z'));
    const blue = await remember(fact('blue', '2023-06-01T00:00:00Z'));
    const current = await engine.listMemories(tenant, 'b', { subject: 'user', limit: 50 });
    assert.equal(current.data.length, 1);
    const active = current.data[0]!;
    assert.equal(active.version, 2);
    assert.equal(active.statement, 'user favourite colour: blue');
    assert.deepEqual(active.owner, { state: 'self', entity: 'Ana' });
    assert.equal(active.predicate, 'favourite_colour');
    assert.deepEqual(active.citations, [{ record_id: blue.id, quote: 'user favourite colour: blue' }]);

    const old = await engine.getMemory(tenant, 'b', green.memory_ids[0]!);
    assert.equal(old.status, 'superseded');
    assert.equal(old.valid_to, '2023-06-01T00:00:00Z');
    assert.deepEqual(
      old.revisions.map((r) => [r.version, r.status, r.cause]),
      [
        [1, 'superseded', 'derived'],
        [2, 'active', 'superseded_by_record'],
      ],
    );
    MemoryDetail.parse(old);

    const in2021 = await engine.listMemories(tenant, 'b', { as_of: '2021-01-01T00:00:00Z', limit: 50 });
    assert.deepEqual(
      in2021.data.map((m) => m.statement),
      ['user favourite colour: green'],
    );
    const in2019 = await engine.listMemories(tenant, 'b', { as_of: '2019-01-01T00:00:00Z', limit: 50 });
    assert.equal(in2019.data.length, 0);
    const all = await engine.listMemories(tenant, 'b', { status: 'all', limit: 50 });
    assert.equal(all.data.length, 2);
    const superseded = await engine.listMemories(tenant, 'b', { status: 'superseded', limit: 50 });
    assert.deepEqual(
      superseded.data.map((m) => m.id),
      green.memory_ids,
    );
  });

  it('a fact written late about the past does not supersede the newer one', async () => {
    const { engine, remember } = await withBrain();
    await remember(fact('blue', '2023-06-01T00:00:00Z'));
    const late = await remember(fact('red', '2021-01-01T00:00:00Z'));
    const current = await engine.listMemories(tenant, 'b', { limit: 50 });
    assert.deepEqual(
      current.data.map((m) => m.statement),
      ['user favourite colour: blue'],
    );
    const red = await engine.getMemory(tenant, 'b', late.memory_ids[0]!);
    assert.equal(red.status, 'superseded');
    assert.equal(red.valid_to, '2023-06-01T00:00:00Z');
    const in2022 = await engine.listMemories(tenant, 'b', { as_of: '2022-01-01T00:00:00Z', limit: 50 });
    assert.deepEqual(
      in2022.data.map((m) => m.statement),
      ['user favourite colour: red'],
    );
  });

  it('equal world time from different sources is a conflict: both stay active; the same value twice is one Memory', async () => {
    const { engine, remember } = await withBrain();
    const a = await remember(fact('green', '2024-01-01T00:00:00Z', 'phone'));
    const b = await remember(fact('purple', '2024-01-01T00:00:00Z', 'laptop'));
    const again = await remember(fact('green', '2024-01-01T00:00:00Z', 'tablet'));
    assert.deepEqual(again.memory_ids, a.memory_ids);
    const current = await engine.listMemories(tenant, 'b', { limit: 50 });
    assert.equal(current.data.length, 2);
    const green = current.data.find((m) => m.id === a.memory_ids[0])!;
    assert.deepEqual(green.citations.map((c) => c.record_id).sort(), [a.id, again.id].sort());
    assert.ok(current.data.some((m) => m.id === b.memory_ids[0]));
    const census = await engine.getCensus(tenant, 'b');
    assert.equal(census.noise.find((n) => n.kind === 'conflicts')?.count, 2);
  });

  it('corrections: supersede, retract, and their two error codes leave nothing written', async () => {
    const { engine, remember } = await withBrain();
    const rec = await remember({ content: { kind: 'message', text: 'I work at Globex.', speaker: 'Ana' } });
    const target = rec.memory_ids[0]!;
    const before = await engine.listRecords(tenant, 'b', { limit: 200 });

    await assert.rejects(
      engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'correction', corrects: 'mem_NOPE', statement: 'x' } },
        {},
      ),
      (e: MnemoError) => e.code === 'corrected_memory_not_found',
    );
    const fixed = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'correction', corrects: target, statement: 'I work at Initech.' } },
      {},
    );
    assert.equal(fixed.record.status, 'ready');
    const successor = fixed.record.memory_ids[0]!;
    const detail = await engine.getMemory(tenant, 'b', successor);
    assert.equal(detail.version, 2);
    assert.equal(detail.statement, 'I work at Initech.');
    assert.deepEqual(detail.owner, { state: 'self', entity: 'Ana' });
    assert.equal((await engine.getMemory(tenant, 'b', target)).status, 'superseded');

    const countBefore = (await engine.listRecords(tenant, 'b', { limit: 200 })).data.length;
    await assert.rejects(
      engine.rememberRecord(
        tenant,
        'b',
        { content: { kind: 'correction', corrects: target, statement: 'again' } },
        {},
      ),
      (e: MnemoError) => e.code === 'correction_conflict' && e.message.includes(successor),
    );
    assert.equal((await engine.listRecords(tenant, 'b', { limit: 200 })).data.length, countBefore);
    assert.equal(countBefore, before.data.length + 1);

    // Retraction: no statement closes the Memory with no successor.
    const retract = await engine.rememberRecord(
      tenant,
      'b',
      { content: { kind: 'correction', corrects: successor } },
      {},
    );
    assert.deepEqual(retract.record.memory_ids, []);
    const retracted = await engine.getMemory(tenant, 'b', successor);
    assert.equal(retracted.status, 'retracted');
    assert.notEqual(retracted.valid_to, null);
    assert.equal((await engine.listMemories(tenant, 'b', { limit: 50 })).data.length, 0);

    // Forgetting the retraction re-opens what it closed.
    await engine.forgetRecord(tenant, 'b', retract.record.id);
    assert.equal((await engine.getMemory(tenant, 'b', successor)).status, 'active');
    // Forgetting the correction deletes its version and re-opens the original.
    await engine.forgetRecord(tenant, 'b', fixed.record.id);
    await assert.rejects(
      engine.getMemory(tenant, 'b', successor),
      (e: MnemoError) => e.code === 'memory_not_found',
    );
    const reopened = await engine.getMemory(tenant, 'b', target);
    assert.equal(reopened.status, 'active');
    assert.equal(reopened.valid_to, null);
  });

  it('messages: sentences attributed to the speaker (self, other, unresolved); questions are not statements', async () => {
    const { engine, remember } = await withBrain();
    const mine = await remember({
      content: {
        kind: 'message',
        text: 'I like Porto. Do you like it? My sister is a nurse.',
        speaker: 'user',
      },
    });
    const byId = async (ids: string[]) => Promise.all(ids.map((id) => engine.getMemory(tenant, 'b', id)));
    const ms = await byId(mine.memory_ids);
    assert.deepEqual(ms.map((m) => m.statement).sort(), ['I like Porto.', 'My sister is a nurse.']);
    assert.ok(ms.every((m) => m.owner.state === 'self' && m.owner.entity === 'Ana'));
    const other = await remember({
      content: { kind: 'message', text: 'I prefer tea over coffee.', speaker: 'Ben' },
    });
    const [ben] = await byId(other.memory_ids);
    assert.deepEqual(ben!.owner, { state: 'other', entity: 'Ben' });
    assert.equal(ben!.subject, 'Ben');
    const anon = await remember({ content: { kind: 'message', text: 'The meeting moved to Friday.' } });
    assert.equal((await byId(anon.memory_ids))[0]!.owner.state, 'unresolved');
    const selfList = await engine.listMemories(tenant, 'b', { owner: 'self', limit: 50 });
    assert.equal(selfList.data.length, 2);
    const benList = await engine.listMemories(tenant, 'b', { owner: 'ben', limit: 50 });
    assert.deepEqual(
      benList.data.map((m) => m.id),
      other.memory_ids,
    );
    const profile = await engine.getProfile(tenant, 'b', { limit: 50 });
    assert.equal(profile.lines.length, 2);
    assert.ok(profile.lines.every((l) => l.citations.length > 0));
  });

  it('the same thing said again in other words cites the Memory it repeats; what differs in meaning does not', async () => {
    const { engine, remember } = await withBrain();
    const say = (text: string, at: string, speaker = 'Ana') =>
      remember({ content: { kind: 'message', text, speaker }, occurred_at: at });
    const first = await say('I love hiking.', '2024-01-01T10:00:00Z');
    const again = await say('I really love hiking!', '2024-02-01T10:00:00Z');
    const hike = await say('I love to hike.', '2024-03-01T10:00:00Z');
    for (const r of [again, hike]) assert.deepEqual(r.memory_ids, first.memory_ids, r.content.kind);
    const m = await engine.getMemory(tenant, 'b', first.memory_ids[0]!);
    assert.equal(m.statement, 'I love hiking.', 'in the words it was first said in');
    assert.equal(m.valid_from, '2024-01-01T10:00:00Z');
    assert.deepEqual(
      m.citations.map((c) => c.quote),
      ['I love hiking.', 'I really love hiking!', 'I love to hike.'],
    );
    for (const [text, speaker] of [
      ["I don't love hiking.", 'Ana'],
      ['I loved hiking.', 'Ana'],
      ['I love skiing.', 'Ana'],
      ['I really love hiking!', 'Ben'],
    ] as const) {
      const r = await say(text, '2024-04-01T10:00:00Z', speaker);
      assert.notDeepEqual(r.memory_ids, first.memory_ids, `${speaker}: ${text}`);
    }
  });

  it('saying where you live or work holds a slot: a move replaces the old home, as a fact would', async () => {
    const { engine, remember } = await withBrain();
    const said = (text: string, at: string, speaker = 'user') =>
      remember({ content: { kind: 'message', text, speaker }, occurred_at: at });
    const lisbon = await said('I live in Lisbon. I love the trams.', '2022-03-01T10:00:00Z');
    const again = await said("I'm living in Lisbon, near the river.", '2022-06-01T10:00:00Z');
    const porto = await said('I moved to Porto last month!', '2024-02-01T10:00:00Z');
    const job = await said('I work at Globex.', '2024-02-02T10:00:00Z');
    const bo = await said('I live in Berlin.', '2024-02-03T10:00:00Z', 'Bo');
    await said('I live in fear of the dentist.', '2024-02-04T10:00:00Z');
    const home = async (id: string) => engine.getMemory(tenant, 'b', id);
    const lisbonHome = (await Promise.all(lisbon.memory_ids.map(home))).find(
      (m) => m.predicate === 'lives in',
    )!;
    assert.equal(lisbonHome.statement, 'Ana lives in Lisbon');
    // The same home said again only cites it; where in the place ("near the river") is part of it.
    assert.deepEqual(again.memory_ids, [lisbonHome.id]);
    const portoHome = await home(porto.memory_ids[0]!);
    assert.equal(portoHome.statement, 'Ana lives in Porto');
    assert.equal((await home(lisbonHome.id)).status, 'superseded', 'the move replaced the old home');
    assert.equal(portoHome.status, 'active');
    assert.equal((await home(job.memory_ids[0]!)).statement, 'Ana works at Globex');
    const boHome = await home(bo.memory_ids[0]!);
    assert.deepEqual(
      [boHome.subject, boHome.statement, boHome.status],
      ['Bo', 'Bo lives in Berlin', 'active'],
    );
    const current = await engine.listMemories(tenant, 'b', { q: 'lives in', limit: 50 });
    assert.deepEqual(current.data.map((m) => m.statement).sort(), [
      'Ana lives in Porto',
      'Bo lives in Berlin',
    ]);
    const fear = await engine.listMemories(tenant, 'b', { q: 'fear', limit: 5 });
    assert.deepEqual(
      fear.data.map((m) => [m.statement, m.predicate]),
      [['I live in fear of the dentist.', null]],
    );
    // As of 2023 the old home is what held.
    const then = await engine.listMemories(tenant, 'b', {
      q: 'lives in',
      as_of: '2023-01-01T00:00:00Z',
      limit: 50,
    });
    assert.deepEqual(
      then.data.map((m) => m.statement),
      ['Ana lives in Lisbon'],
    );
  });

  it('one slot per person and predicate however it is written: "me" and the self name, lives_in and "lives in"', async () => {
    const { engine, remember } = await withBrain();
    const fact = (subject: string, predicate: string, value: string, at: string) =>
      remember({ content: { kind: 'fact', subject, predicate, value }, occurred_at: at });
    const old = await fact('me', 'phone', '+351 111', '2020-01-01T00:00:00Z');
    const now = await fact('Ana', 'phone', '+351 222', '2023-01-01T00:00:00Z');
    const phone = await engine.getMemory(tenant, 'b', old.memory_ids[0]!);
    assert.equal(phone.status, 'superseded', 'the newer number about Ana replaced the one about "me"');
    assert.equal(phone.valid_to, '2023-01-01T00:00:00Z');
    assert.equal((await engine.getMemory(tenant, 'b', now.memory_ids[0]!)).version, 2);
    // The fact keeps the subject it was written with, and a filter by either name finds it.
    assert.equal(phone.subject, 'me');
    const byName = await engine.listMemories(tenant, 'b', { subject: 'Ana', status: 'all', limit: 50 });
    assert.equal(byName.data.length, 2);
    const byMe = await engine.listMemories(tenant, 'b', { subject: 'me', status: 'all', limit: 50 });
    assert.deepEqual(
      byMe.data.map((m) => m.id),
      [phone.id],
    );

    await fact('Ana', 'lives_in', 'Lisbon', '2020-01-01T00:00:00Z');
    await remember({
      content: { kind: 'message', speaker: 'Ana', text: 'I moved to Porto.' },
      occurred_at: '2022-01-01T00:00:00Z',
    });
    await fact('ana', 'Lives In', 'Braga', '2023-01-01T00:00:00Z');
    await fact('self', 'lives in', 'Faro', '2024-01-01T00:00:00Z');
    const homes = await engine.listMemories(tenant, 'b', { q: 'lives in', limit: 50 });
    assert.deepEqual(
      homes.data.map((m) => m.statement),
      ['self lives in: Faro'],
    );
    const ctx = await engine.createContext(
      tenant,
      'b',
      { query: 'Where does Ana live?' },
      { requestId: 'req_s' },
    );
    assert.ok(ctx.status === 'ready');
    assert.deepEqual(ctx.conflicts, []);
  });

  it('documents become passage Memories citing exact quotes; events one what/when/where/who Memory', async () => {
    const { engine, remember } = await withBrain();
    const paragraph = (i: number) =>
      Array.from(
        { length: 12 },
        (_, j) => `Paragraph ${i} sentence ${j} talks about topic ${i * 100 + j}.`,
      ).join(' ');
    const text = [paragraph(1), paragraph(2), paragraph(3)].join('\n\n');
    const doc = await remember({ content: { kind: 'document', text, title: 'Notes' } });
    assert.ok(doc.memory_ids.length >= 3);
    const page = await engine.listMemories(tenant, 'b', { subject: 'Notes', limit: 50 });
    const quotes = page.data.flatMap((m: Memory) => m.citations.map((c) => c.quote));
    assert.ok(quotes.every((q) => text.includes(q) && q.length <= 800));
    assert.ok(
      quotes.join(' ').length >= text.replace(/\s+/g, ' ').length - 10,
      'passages cover the document',
    );

    const ev = await remember({
      content: {
        kind: 'event',
        title: 'Dentist',
        starts_at: '2024-05-02T09:00:00Z',
        place: 'Rua Augusta 12',
        participants: ['Ana', 'Dr. Costa'],
      },
    });
    const [m] = await Promise.all(ev.memory_ids.map((id) => engine.getMemory(tenant, 'b', id)));
    assert.equal(
      m!.statement,
      'Dentist; when: 2024-05-02T09:00:00Z; where: Rua Augusta 12; who: Ana, Dr. Costa',
    );
    assert.equal(m!.owner.state, 'self');
  });

  it('a newer revision of an external item supersedes the Memories of the old one', async () => {
    const { engine, remember } = await withBrain();
    const v1 = await remember({
      content: { kind: 'fact', subject: 'Ben', predicate: 'phone', value: '+351 900 000 001' },
      source: { name: 'contacts', external_id: 'vcard-ben' },
      occurred_at: '2024-01-01T00:00:00Z',
    });
    await remember({
      content: { kind: 'fact', subject: 'Ben', predicate: 'phone', value: '+351 900 000 002' },
      source: { name: 'contacts', external_id: 'vcard-ben' },
      occurred_at: '2024-02-01T00:00:00Z',
    });
    assert.equal((await engine.getMemory(tenant, 'b', v1.memory_ids[0]!)).status, 'superseded');
    await assert.rejects(
      engine.forgetRecord(tenant, 'b', v1.id),
      (e: MnemoError) => e.code === 'record_not_erasable',
    );

    // A re-imported note: the unchanged paragraph stays one active Memory, the edited one is superseded.
    const note = (second: string) => ({
      content: {
        kind: 'document' as const,
        text: `Keep the spare key under the blue pot.\n\n${second}`,
        title: 'house',
      },
      source: { name: 'obsidian', external_id: 'house.md' },
    });
    const old = await remember(note('The boiler is serviced every March.'));
    const neu = await remember(note('The boiler is serviced every October.'));
    const oldMs = await Promise.all(old.memory_ids.map((id) => engine.getMemory(tenant, 'b', id)));
    const kept = oldMs.find((m) => m.statement.startsWith('Keep'))!;
    const edited = oldMs.find((m) => m.statement.includes('March'))!;
    assert.equal(kept.status, 'active');
    assert.ok(neu.memory_ids.includes(kept.id));
    assert.equal(edited.status, 'superseded');
    assert.equal(edited.valid_to, neu.occurred_at);
    const current = await engine.listMemories(tenant, 'b', { subject: 'house', limit: 50 });
    assert.deepEqual(current.data.map((m) => m.statement).sort(), [
      'Keep the spare key under the blue pot.',
      'The boiler is serviced every October.',
    ]);
  });

  it('a note edited elsewhere and imported again keeps a correction, and a newer value, over its untouched lines', async () => {
    const { engine, remember } = await withBrain();
    const people = (extra: string, occurred_at: string) => ({
      content: {
        kind: 'document' as const,
        title: 'People',
        text: `# People\n\n## Marko Babić\n- Birthday: July 2\n- Getting married in June.\n\n## Ana Kovač\n- Phone: +385 91 555 1234\n${extra}`,
      },
      source: { name: 'obsidian', external_id: 'People.md' },
      occurred_at,
    });
    const first = await remember(people('', '2026-10-01T10:00:00Z'));
    const memories = await Promise.all(first.memory_ids.map((id) => engine.getMemory(tenant, 'b', id)));
    const birthday = memories.find((m) => m.statement === "Marko Babić's birthday is July 2")!;
    const married = memories.find((m) => m.statement === 'Getting married in June.')!;
    assert.ok(birthday && married, JSON.stringify(memories.map((m) => m.statement)));
    // The person corrects one line, and withdraws another; Ana's new number comes by mail.
    await remember({
      content: { kind: 'correction', corrects: birthday.id, statement: "Marko Babić's birthday is July 3" },
    });
    await remember({ content: { kind: 'correction', corrects: married.id } });
    await remember({
      content: { kind: 'message', speaker: 'Ana Kovač', text: 'My number is now +385 99 777 8899.' },
      occurred_at: '2026-11-01T10:00:00Z',
    });
    // The note is edited elsewhere (a line added) and imported again: its other lines are as they were.
    await remember(people('\n## Petra Jurić\n- Email: petra@sprout.io\n', '2026-12-01T10:00:00Z'));
    const current = async (subject: string) =>
      (await engine.listMemories(tenant, 'b', { subject, limit: 50 })).data.map((m) => m.statement).sort();
    assert.deepEqual(await current('Marko Babić'), ["Marko Babić's birthday is July 3"]);
    assert.deepEqual(await current('Ana Kovač'), ["Ana Kovač's phone number is +385 99 777 8899"]);
    assert.deepEqual(await current('Petra Jurić'), ["Petra Jurić's email address is petra@sprout.io"]);
    // The corrected version stays replaced, citing the new revision too; nothing is written twice.
    const after = await engine.getMemory(tenant, 'b', birthday.id);
    assert.equal(after.status, 'superseded');
    assert.equal((await engine.getMemory(tenant, 'b', married.id)).status, 'retracted');
  });

  it('a sentence with a title ("Dr. Silva") is one Memory, so correcting it leaves no part of it current', async () => {
    const { engine, remember } = await withBrain();
    const said = await remember({
      content: { kind: 'message', speaker: 'Ana', text: 'My dentist is Dr. Silva in Braga.' },
      occurred_at: '2024-01-10T10:00:00Z',
    });
    const [only, ...rest] = said.memory_ids;
    assert.deepEqual(rest, [], 'cut after "Dr." it was "My dentist is Dr." and "Silva in Braga."');
    // It holds the dentist's slot; the whole sentence is its quote.
    const held = await engine.getMemory(tenant, 'b', only!);
    assert.equal(held.statement, "Ana's dentist is Dr. Silva");
    assert.deepEqual(
      held.citations.map((c) => c.quote),
      ['My dentist is Dr. Silva in Braga.'],
    );
    await remember({
      content: { kind: 'correction', corrects: only!, statement: 'My dentist is Dr. Costa in Porto.' },
    });
    const ctx = ContextReady.parse(
      await engine.createContext(tenant, 'b', { query: 'Who is my dentist?' }, { requestId: 'req_test' }),
    );
    assert.ok(
      ctx.citations.every((c) => c.record_id !== said.id),
      `the corrected Record is not served as current: ${ctx.text}`,
    );
    assert.match(ctx.text ?? '', /Dr\. Costa in Porto/);
  });

  it('a landlord\'s "Sr." ends no sentence: the call\'s notes are one Memory', async () => {
    const { engine, remember } = await withBrain();
    const text = 'Notes from the call with the landlord, Sr. Álvaro Magalhães: the boiler needs a new valve.';
    const call = await remember({
      content: { kind: 'message', speaker: 'Ana', thread: 't', text },
      occurred_at: '2026-12-05T18:00:00Z',
    });
    const [only, ...rest] = call.memory_ids;
    assert.deepEqual(rest, [], 'cut after "Sr." it was "…the landlord, Sr." and "Álvaro Magalhães: …"');
    const m = await engine.getMemory(tenant, 'b', only!);
    assert.deepEqual([m.statement, m.citations[0]!.quote], [text, text]);
  });

  it('a job held until a new one starts is quoted whole, not as its role alone ("as a data engineer.")', async () => {
    const now = Date.parse('2026-12-06T12:00:00Z');
    const { engine, remember } = await withBrain({ clock: () => new Date(now) });
    const say = (text: string, occurred_at: string) =>
      remember({ content: { kind: 'message', speaker: 'Ana', thread: 't', text }, occurred_at });
    await say(
      'Hi! Quick background: I live in Lisbon, in Alfama, and I work at Critical Software as a data engineer.',
      '2025-06-01T10:00:00Z',
    );
    await say('I moved to Porto last week, to Cedofeita.', '2026-11-24T19:00:00Z');
    await say(
      'Big news: I accepted the offer from Sonae. I start there on 11 January 2027 as a senior data engineer.',
      '2026-12-02T20:00:00Z',
    );
    // The job and the role still hold until January 11, so the clause that says them is quoted, the
    // home gone since left out. With the job closed on December 2 it was "… as a data engineer." alone.
    const ctx = ContextReady.parse(
      await engine.createContext(tenant, 'b', { query: 'Where do I work?' }, { requestId: 'req_test' }),
    );
    assert.match(ctx.text ?? '', /^I work at Critical Software as a data engineer\.$/mu, ctx.text ?? '');
    assert.doesNotMatch(ctx.text ?? '', /^(?:… )?as a data engineer/mu);
  });
});
