import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AcceptedObject, MemoryDetail, MemoryPage, ObjectPage } from '../../engine/contract/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { assertError, assertShape, client, eventually, freshKey, type ServerFactory } from './harness.ts';
import { brainWithKey, ready, remember, type EngineTraits } from './suite-records.ts';

export function memoryAndObjectChecks(factory: ServerFactory, traits: EngineTraits): void {
  describe('memories', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('every Memory is cited; getMemory returns revisions and evidence whose quote is in the Record text', async () => {
      const api = await brainWithKey(server);
      const { record } = await remember(api, 'b', {
        content: { kind: 'message', text: 'The boat is called Wanda.', speaker: 'Bo' },
      });
      const done = await ready(api, 'b', record.id);
      const page = assertShape(MemoryPage, (await api.get('/brains/b/memories')).body);
      assert.ok(page.data.length >= 1);
      for (const m of page.data) assert.ok(m.citations.length > 0);
      const detail = assertShape(
        MemoryDetail,
        (await api.get(`/brains/b/memories/${done.memory_ids[0]}`)).body,
      );
      assert.ok(detail.revisions.length >= 1);
      for (const ev of detail.evidence) assert.ok(ev.text?.includes(ev.quote), 'quote is an exact substring');
      assert.ok(detail.citations.some((c) => c.record_id === record.id));
    });

    it('a key that reads Memories but not Records gets the quotes of the evidence, not the whole Records', async (t) => {
      if (!server.registry) return t.skip('no key registry: every key has every scope');
      const project = `ev${Date.now().toString(36)}`;
      const api = client(server, await freshKey(server, project));
      assert.equal(
        (await api.post('/brains', { id: 'b', self: { type: 'person', name: 'Ana' } })).status,
        201,
      );
      const { record } = await remember(api, 'b', {
        content: { kind: 'message', text: 'The boat is called Wanda. My bank PIN is 4321.', speaker: 'Bo' },
      });
      const done = await ready(api, 'b', record.id);
      const path = `/brains/b/memories/${done.memory_ids[0]}`;
      const narrow = client(server, await freshKey(server, project, 'test', { scopes: ['memories:read'] }));
      const seen = assertShape(MemoryDetail, (await narrow.get(path)).body);
      assert.ok(seen.evidence.length > 0);
      for (const ev of seen.evidence) assert.deepEqual([ev.text, ev.quote.length > 0], [null, true]);
      const full = assertShape(MemoryDetail, (await api.get(path)).body);
      assert.ok(full.evidence.every((ev) => ev.text?.includes('PIN')));
    });

    it('getMemory of an unknown id, or after its only Record is forgotten, is memory_not_found', async () => {
      const api = await brainWithKey(server);
      assertError(await api.get('/brains/b/memories/mem_nope'), 404, 'not_found', 'memory_not_found');
      const { record } = await remember(api, 'b', { content: 'A lone note about kayaks.' });
      const done = await ready(api, 'b', record.id);
      await api.del(`/brains/b/records/${record.id}`);
      for (const id of done.memory_ids)
        assertError(await api.get(`/brains/b/memories/${id}`), 404, 'not_found', 'memory_not_found');
    });

    it('the subject filter ignores case, as supersession does', async () => {
      const api = await brainWithKey(server);
      const { record } = await remember(api, 'b', {
        content: { kind: 'message', text: 'The kettle is blue.', speaker: 'Bo' },
      });
      const done = await ready(api, 'b', record.id);
      const mine = assertShape(MemoryPage, (await api.get('/brains/b/memories')).body).data.find(
        (m) => m.id === done.memory_ids[0],
      )!;
      for (const subject of [mine.subject.toUpperCase(), mine.subject.toLowerCase()]) {
        const page = assertShape(
          MemoryPage,
          (await api.get(`/brains/b/memories?subject=${encodeURIComponent(subject)}`)).body,
        );
        assert.ok(
          page.data.some((m) => m.id === mine.id),
          `subject=${subject} finds ${mine.subject}`,
        );
      }
    });

    it('q finds words whatever their case and accents, with ß as ss and a final sigma as sigma', async () => {
      const api = await brainWithKey(server);
      for (const text of [
        'The bakery on Hauptstraße opens at seven.',
        'ΟΔΟΣ ΕΡΜΟΥ is closed on Sundays.',
        'Parking on Bahnhofstrasse is free.',
      ]) {
        const { record } = await remember(api, 'b', { content: { kind: 'message', text, speaker: 'Bo' } });
        await ready(api, 'b', record.id);
      }
      // Each Memory named by the word of its statement that the searches look for.
      const named = ['Hauptstraße', 'ΟΔΟΣ', 'Bahnhofstrasse'];
      const found = async (q: string) =>
        assertShape(MemoryPage, (await api.get(`/brains/b/memories?q=${encodeURIComponent(q)}`)).body)
          .data.flatMap((m) => named.filter((w) => m.statement.includes(w)))
          .sort();
      for (const q of ['hauptstrasse', 'HAUPTSTRASSE', 'Hauptstraße', 'HAUPTSTRAẞE'])
        assert.deepEqual(await found(q), ['Hauptstraße'], `q=${q}`);
      assert.deepEqual(await found('straße'), ['Bahnhofstrasse', 'Hauptstraße']);
      assert.deepEqual(await found('bahnhofstraße'), ['Bahnhofstrasse']);
      assert.deepEqual(await found('οδός'), ['ΟΔΟΣ']);
      assert.deepEqual(await found('Οδος ερμου'), ['ΟΔΟΣ']);
    });

    it('a q of white space or accents alone names no word and is refused, not read as every Memory', async () => {
      const api = await brainWithKey(server);
      for (const q of ['%20', '%C2%A0', '%09%20', '%CC%81', '%CC%81%CC%88']) {
        const e = assertError(
          await api.get(`/brains/b/memories?q=${q}`),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(e.message), /^q: must hold a word/);
      }
      assert.equal((await api.get('/brains/b/memories?q=%2C')).status, 200, 'a separator is searched for');
    });

    it('a full read pages by id with next_cursor until has_more is false', async () => {
      const api = await brainWithKey(server);
      for (const t of ['Alpha note one.', 'Beta note two.', 'Gamma note three.'])
        await ready(api, 'b', (await remember(api, 'b', { content: t })).record.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 20; i += 1) {
        const page: MemoryPage = assertShape(
          MemoryPage,
          (await api.get(`/brains/b/memories?limit=1${cursor ? `&cursor=${cursor}` : ''}`)).body,
        );
        seen.push(...page.data.map((m) => m.id));
        if (!page.has_more) {
          assert.equal(page.next_cursor, null);
          break;
        }
        cursor = page.next_cursor;
      }
      assert.ok(seen.length >= 3);
      assert.deepEqual([...seen].sort(), seen, 'ordered by id');
      assert.equal(new Set(seen).size, seen.length, 'no repeats');
    });

    it('order=desc pages newest first: under every filter the same Memories as oldest first, reversed, none twice', async () => {
      const api = await brainWithKey(server, 'order');
      const write = async (content: unknown, occurred_at: string, source: string) =>
        ready(
          api,
          'order',
          (await remember(api, 'order', { content, occurred_at, source: { name: source } })).record.id,
        );
      const fact = (predicate: string, value: string) => ({ kind: 'fact', subject: 'me', predicate, value });
      const said = (text: string) => ({ kind: 'message', text, speaker: 'Ana' });
      // A superseded home, a contested employer (two current values of one slot), and plain notes.
      await write(fact('home_city', 'Lisbon'), '2024-01-01T00:00:00Z', 'profile');
      await write(fact('employer', 'Siemens'), '2024-01-01T00:00:00Z', 'profile');
      await write(said('I moved to Porto.'), '2024-05-01T00:00:00Z', 'chat');
      await write(said('I work at BMW now.'), '2024-05-01T00:00:00Z', 'chat');
      await write(fact('company', 'Acme'), '2024-05-01T00:00:00Z', 'profile');
      for (const text of ['Alpha note one.', 'Beta note two.', 'Gamma note three.'])
        await write({ kind: 'document', text }, '2024-06-01T00:00:00Z', 'notes');
      const read = async (query: string) =>
        assertShape(MemoryPage, (await api.get(`/brains/order/memories?${query}`)).body);
      // Every page of a read, two at a time, as its ids.
      const paged = async (query: string) => {
        const ids: string[] = [];
        let cursor: string | null = null;
        for (let i = 0; i < 50; i += 1) {
          const page = await read(`limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`);
          ids.push(...page.data.map((m) => m.id));
          if (!page.has_more) return ids;
          cursor = page.next_cursor;
        }
        assert.fail(`${query}: more than 50 pages`);
      };
      const every = (await read('status=all&limit=200')).data;
      const slot = every.find((m) => m.slot !== null)?.slot;
      const filters = [
        '',
        'q=note',
        'status=all',
        'status=superseded',
        `subject=${encodeURIComponent(every[0]!.subject)}`,
        'owner=self',
        `as_of=${encodeURIComponent(new Date().toISOString())}`,
        'contested=true',
        ...(slot ? [`slot=${slot}&status=all`] : []),
      ];
      for (const f of filters) {
        const oldest = await paged(f);
        assert.deepEqual(oldest, [...oldest].sort(), `${f}: asc is by id`);
        assert.deepEqual(await paged(`${f}&order=asc`), oldest, `${f}: asc is the default`);
        const newest = await paged(`${f}&order=desc`);
        assert.equal(new Set(newest).size, newest.length, `${f}: no repeats`);
        assert.deepEqual(newest, [...oldest].reverse(), f);
        if (f === '' || f === 'status=all' || f === 'q=note') assert.ok(oldest.length >= 3, f);
        if (traits.holdsSlots && /contested|slot|superseded/.test(f)) assert.ok(oldest.length >= 1, f);
      }
      // A cursor is a place: sent with the other order, it goes on from there the other way.
      const ids = await paged('status=all');
      const second = await read('status=all&limit=2');
      const back = await read(`status=all&order=desc&cursor=${second.next_cursor}`);
      assert.deepEqual(
        back.data.map((m) => m.id),
        [ids[0]],
      );
    });

    it("another list's cursor is refused, not read as an empty last page", async () => {
      const api = await brainWithKey(server);
      for (const t of ['Alpha note one.', 'Beta note two.'])
        await ready(api, 'b', (await remember(api, 'b', { content: t })).record.id);
      const records = (await api.get('/brains/b/records?limit=1')).body as { next_cursor: string | null };
      const memories = (await api.get('/brains/b/memories?limit=1')).body as { next_cursor: string | null };
      assert.ok(records.next_cursor && memories.next_cursor);
      const wrong = [
        [`/brains/b/memories?cursor=${records.next_cursor}`, /^cursor: not a cursor of listMemories/],
        [`/brains/b/records?cursor=${memories.next_cursor}`, /^cursor: not a cursor of listRecords/],
      ] as const;
      for (const [path, message] of wrong) {
        const res = await api.get(path);
        assertError(res, 400, 'invalid_request', 'invalid_request_body');
        assert.match(String((res.body as { message: string }).message), message);
      }
    });

    it(
      "the owner filter finds a person's Memories by their name in any case, with or without its accents",
      { skip: traits.resolvesOwners ? false : 'this engine resolves no owners' },
      async () => {
        const api = await brainWithKey(server, 'whose');
        const { record } = await remember(api, 'whose', {
          content: { kind: 'message', text: 'I love hiking in the Gerês mountains.', speaker: 'José' },
        });
        const theirs = (await ready(api, 'whose', record.id)).memory_ids;
        assert.ok(theirs.length > 0);
        const owned = async (owner: string) =>
          assertShape(
            MemoryPage,
            (await api.get(`/brains/whose/memories?owner=${encodeURIComponent(owner)}`)).body,
          ).data.map((m) => m.id);
        for (const owner of ['José', 'jose', 'JOSÉ', 'Jose\u0301'])
          assert.deepEqual(await owned(owner), theirs, owner);
        assert.deepEqual(await owned('Josef'), []);
        assert.deepEqual(await owned('Ana'), []);
      },
    );

    it(
      "a self set afterwards owns what she said by her name and as the user: the Brain's Memories are derived again",
      { skip: traits.resolvesOwners ? false : 'this engine resolves no owners' },
      async () => {
        // A hub's Brain made by a device's first sync before sync carried the self: her own words were
        // another person's, the agent's "user" nobody's, her Profile empty.
        const api = client(server, await freshKey(server));
        assert.equal((await api.post('/brains', { id: 'hub' })).status, 201);
        const said = async (speaker: string, text: string) => {
          const { record } = await remember(api, 'hub', { content: { kind: 'message', text, speaker } });
          return (await ready(api, 'hub', record.id)).memory_ids;
        };
        await said('Lea Horvat', 'I live in Zagreb.');
        await said('user', 'I am allergic to hazelnuts.');
        await said('Marko', 'I love jazz.');
        // Whose each Memory in force is, by the word of its statement.
        const owners = async () => {
          const page = assertShape(MemoryPage, (await api.get('/brains/hub/memories?limit=100')).body);
          const whose = (word: string) =>
            page.data
              .filter((m) => m.statement.includes(word))
              .map((m) =>
                m.owner.state === 'unresolved' ? 'unresolved' : `${m.owner.state}: ${m.owner.entity}`,
              );
          return { Zagreb: whose('Zagreb'), hazelnuts: whose('hazelnuts'), jazz: whose('jazz') };
        };
        assert.deepEqual(await owners(), {
          Zagreb: ['other: Lea Horvat'],
          hazelnuts: ['unresolved'],
          jazz: ['other: Marko'],
        });
        assert.deepEqual((await api.get('/brains/hub/profile')).body.lines, []);

        const lea = { type: 'person', name: 'Lea Horvat' };
        assert.equal((await api.post('/brains/hub', { self: lea })).status, 200);
        const mine = {
          Zagreb: ['self: Lea Horvat'],
          hazelnuts: ['self: Lea Horvat'],
          jazz: ['other: Marko'],
        };
        await eventually('her Memories owned by her', async () =>
          JSON.stringify(await owners()) === JSON.stringify(mine) ? true : null,
        );
        const profile = (await api.get('/brains/hub/profile')).body as { lines: { statement: string }[] };
        assert.ok(
          profile.lines.some((l) => /Zagreb/.test(l.statement)) &&
            profile.lines.some((l) => /hazelnut/.test(l.statement)),
          JSON.stringify(profile.lines),
        );
        // Written after the change, her words are hers at once, as in any Brain with a self.
        const later = await said('Lea Horvat', 'I moved to Split.');
        assert.ok(later.length > 0);
        const split = assertShape(MemoryPage, (await api.get('/brains/hub/memories?q=Split')).body).data;
        assert.deepEqual(
          split.map((m) => m.owner.state),
          ['self'],
        );
      },
    );

    it(
      'About, Whose and a search find a person by a first name or a surname, any case, accents optional',
      { skip: traits.resolvesOwners ? false : 'this engine resolves no owners' },
      async () => {
        const api = client(server, await freshKey(server));
        const self = { type: 'person', name: 'Zoë Kovač' };
        assert.equal((await api.post('/brains', { id: 'people', self })).status, 201);
        const said = async (speaker: string, text: string) => {
          const { record } = await remember(api, 'people', { content: { kind: 'message', text, speaker } });
          const ids = (await ready(api, 'people', record.id)).memory_ids;
          assert.ok(ids.length > 0, text);
          return ids;
        };
        const found = async (query: string) =>
          assertShape(MemoryPage, (await api.get(`/brains/people/memories?${query}`)).body)
            .data.map((m) => m.id)
            .sort();
        const of = (...people: string[][]) => people.flat().sort();
        const babic = await said('Marko Babić', 'The ferry to Hvar leaves at nine.');
        // Asked before the second Marko is known, and again after: the names follow the Brain.
        assert.deepEqual(await found('subject=marko'), of(babic), 'About marko, one known');
        assert.deepEqual(await found('owner=marko'), of(babic), 'Whose marko, one known');
        const marko = await said('Marko', 'Band practice moved to Thursday.');
        const ines = await said('Inês Duarte', 'The tiles for the kitchen arrived.');
        const zoe = await said('Zoë Kovač', 'I booked the dentist for Monday.');
        for (const about of ['babic', 'Babić', 'Marko Babic', 'babic marko'])
          assert.deepEqual(await found(`subject=${encodeURIComponent(about)}`), of(babic), `About ${about}`);
        // A first name two people share names them both.
        assert.deepEqual(await found('subject=marko'), of(babic, marko), 'About marko');
        assert.deepEqual(await found('subject=zoe'), of(zoe), 'About zoe');
        // A word of a name, not a part of one.
        assert.deepEqual(await found('subject=bab'), [], 'About bab');
        for (const whose of ['Inês', 'ines', 'DUARTE', 'Ines Duarte'])
          assert.deepEqual(await found(`owner=${encodeURIComponent(whose)}`), of(ines), `Whose ${whose}`);
        assert.deepEqual(await found('owner=marko'), of(babic, marko), 'Whose marko');
        // The Brain's own person by her name, as by her state.
        assert.deepEqual(await found('owner=zoe'), of(zoe), 'Whose zoe');
        assert.deepEqual(await found('owner=self'), of(zoe), 'Whose self');
        assert.deepEqual(await found('owner=mark'), [], 'Whose mark');
        // A search finds a person's Memories by the name they are about or whose they are, as by their words.
        assert.deepEqual(await found('q=babic'), of(babic), 'Search babic');
        assert.deepEqual(await found('q=duarte%20kitchen'), of(ines), 'Search duarte kitchen');
        assert.deepEqual(await found('q=duarte%20ferry'), [], 'Search duarte ferry');
      },
    );

    it('a delta read returns only what changed after the watermark, oldest first, with a watermark to send back', async () => {
      const api = await brainWithKey(server);
      const first = await remember(api, 'b', { content: 'Before the mark.' });
      await ready(api, 'b', first.record.id);
      const mark = assertShape(
        MemoryPage,
        (await api.get('/brains/b/memories?since_watermark=' + encodeURIComponent(first.watermark))).body,
      );
      const second = await remember(api, 'b', { content: 'After the mark.' });
      const done = await ready(api, 'b', second.record.id);
      const delta = assertShape(
        MemoryPage,
        (await api.get(`/brains/b/memories?since_watermark=${encodeURIComponent(mark.watermark!)}`)).body,
      );
      assert.equal(delta.next_cursor, null);
      assert.match(delta.watermark ?? '', /^wm_/);
      const ids = delta.data.map((m) => m.id);
      for (const id of done.memory_ids) assert.ok(ids.includes(id));
      assert.ok(!delta.data.some((m) => m.statement.includes('Before the mark')));
      const empty = assertShape(
        MemoryPage,
        (await api.get(`/brains/b/memories?since_watermark=${encodeURIComponent(delta.watermark!)}`)).body,
      );
      assert.equal(empty.data.length, 0);
    });

    it('a delta read from start lists every Memory of the Brain, then goes on from its watermark', async () => {
      const api = await brainWithKey(server, 'fromstart');
      const ids: string[] = [];
      for (const text of ['The first thing learned.', 'The second thing learned.']) {
        const { record } = await remember(api, 'fromstart', { content: text });
        ids.push(...(await ready(api, 'fromstart', record.id)).memory_ids);
      }
      const all = assertShape(
        MemoryPage,
        (await api.get('/brains/fromstart/memories?since_watermark=start')).body,
      );
      assert.deepEqual(all.data.map((m) => m.id).sort(), [...ids].sort());
      assert.equal(all.has_more, false);
      const after = assertShape(
        MemoryPage,
        (await api.get(`/brains/fromstart/memories?since_watermark=${encodeURIComponent(all.watermark!)}`))
          .body,
      );
      assert.deepEqual(after.data, []);
    });

    it('since_watermark with cursor or order is conflicting_parameters, an order not asc or desc is refused; undeclared parameters are unknown_query_parameter listing them', async () => {
      const api = await brainWithKey(server);
      const { watermark } = await remember(api, 'b', { content: 'x marks' });
      assertError(
        await api.get(`/brains/b/memories?since_watermark=${watermark}&cursor=abc`),
        400,
        'invalid_request',
        'conflicting_parameters',
      );
      // order is a full read's: a delta read is by transaction time, whichever order is asked.
      for (const order of ['asc', 'desc']) {
        const c = assertError(
          await api.get(`/brains/b/memories?since_watermark=${watermark}&order=${order}`),
          400,
          'invalid_request',
          'conflicting_parameters',
        );
        assert.match(String(c.message), /^since_watermark, order: /);
      }
      for (const order of ['newest', 'DESC', '']) {
        const o = assertError(
          await api.get(`/brains/b/memories?order=${order}`),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(o.message), /^order: /);
      }
      const e = assertError(
        await api.get('/brains/b/memories?colour=red&size=2'),
        400,
        'invalid_request',
        'unknown_query_parameter',
      );
      assert.match(String(e.message), /colour/);
      assert.match(String(e.message), /size/);
      const l = assertError(
        await api.get('/brains/b/memories?limit=0'),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(l.message), /^limit: /);
      assertError(
        await api.get('/brains/b/memories?as_of=yesterday'),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      // A slot's words are no slot: said so, not answered with an empty list.
      const slot = assertError(
        await api.get('/brains/b/memories?slot=phone%20number'),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(slot.message), /^slot: must be a Memory's `slot` as it gives it \(lin_…\)/);
    });

    it('constructed, truncated and foreign watermarks are invalid_watermark', async () => {
      const api = await brainWithKey(server);
      await api.post('/brains', { id: 'other' });
      const mine = await remember(api, 'b', { content: 'mine' });
      const theirs = await remember(api, 'other', { content: 'theirs' });
      const forged = `wm_${Buffer.from('b.999.AAAAAAAAAAAAAAAAAAAAAA').toString('base64url')}`;
      for (const wm of [forged, mine.watermark.slice(0, -4), theirs.watermark, 'wm_', 'nonsense', '']) {
        assertError(
          await api.get(`/brains/b/memories?since_watermark=${encodeURIComponent(wm)}`),
          400,
          'invalid_request',
          'invalid_watermark',
        );
      }
    });
  });

  describe('objects', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('acceptObject appends versions; getObject returns the current one', async () => {
      const api = await brainWithKey(server);
      const v1 = await api.post('/brains/b/objects', {
        type: 'preference',
        key: 'Theme',
        value: { mode: 'dark' },
      });
      assert.equal(v1.status, 201);
      assert.equal(assertShape(AcceptedObject, v1.body).version, 1);
      const v2 = assertShape(
        AcceptedObject,
        (
          await api.post('/brains/b/objects', {
            type: 'preference',
            key: 'Theme',
            value: { mode: 'light' },
            if_version: 1,
          })
        ).body,
      );
      assert.equal(v2.version, 2);
      const got = assertShape(AcceptedObject, (await api.get('/brains/b/objects/preference/Theme')).body);
      assert.deepEqual([got.version, got.value], [2, { mode: 'light' }]);
      assertError(await api.get('/brains/b/objects/preference/theme'), 404, 'not_found', 'object_not_found');
    });

    it('an Object value is kept as sent, fields named __proto__ and constructor too; a missing one is required', async () => {
      const api = await brainWithKey(server);
      // Parsed, not written as a literal: a literal's __proto__ would set the prototype, not a field.
      const value: unknown = JSON.parse('{"__proto__":{"x":1},"constructor":1,"list":[{"__proto__":null}]}');
      const r = await api.post('/brains/b/objects', { type: 'odd', key: 'k', value });
      assert.equal(r.status, 201, r.text);
      const got = await api.get('/brains/b/objects/odd/k');
      assert.equal(
        JSON.stringify((got.body as { value: unknown }).value),
        '{"__proto__":{"x":1},"constructor":1,"list":[{"__proto__":null}]}',
      );
      const e = assertError(
        await api.post('/brains/b/objects', { type: 'odd', key: 'k2' }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(e.message), /^value: is required/);
    });

    it('a number a double would not keep exactly is refused naming its path; one it keeps comes back as sent', async () => {
      const api = await brainWithKey(server);
      const accept = (key: string, value: string) =>
        api.post('/brains/b/objects', `{"type":"n","key":"${key}","value":${value}}`);
      for (const [value, field, sent] of [
        ['12345678901234567890', 'value', '12345678901234567890'],
        ['{"ids":[1,9007199254740993]}', 'value.ids[1]', '9007199254740993'],
        ['{"p":0.1000000000000000055511151231257827}', 'value.p', '0.1000000000000000055511151231257827'],
      ] as const) {
        const e = assertError(await accept('k', value), 400, 'invalid_request', 'invalid_request_body');
        assert.ok(
          String(e.message).startsWith(
            `${field}: ${sent} would not be kept exactly: JSON numbers are read as IEEE 754 doubles`,
          ),
          String(e.message),
        );
        assert.match(String(e.message), /send it as a string to keep every digit$/);
      }
      assertError(await api.get('/brains/b/objects/n/k'), 404, 'not_found', 'object_not_found');
      // Each of these comes back as the same decimal value (1.0 as 1, 1e3 as 1000).
      const kept = '[0.1,1.0,1e3,-2.5E-3,9007199254740992,1e21,5e-324,1.7976931348623157e308,-0]';
      assert.equal((await accept('ok', kept)).status, 201);
      const got = await api.get('/brains/b/objects/n/ok');
      // Compared as JSON text: -0 is written 0, the same decimal value.
      assert.equal(JSON.stringify((got.body as { value: unknown }).value), JSON.stringify(JSON.parse(kept)));
    });

    it('listObjects: the current version of each Object, by type then key, paged; type narrows it', async () => {
      const api = await brainWithKey(server);
      const empty = assertShape(ObjectPage, (await api.get('/brains/b/objects')).body);
      assert.deepEqual([empty.data, empty.has_more, empty.next_cursor], [[], false, null]);
      const accept = async (type: string, key: string, value: unknown) =>
        assert.equal((await api.post('/brains/b/objects', { type, key, value })).status, 201);
      await accept('preference', 'theme', 'dark');
      await accept('person', 'home_city', 'Lisbon');
      await accept('preference', 'theme', 'light');
      await accept('preference', 'font', 'serif');
      await accept('person', 'home_city', 'Porto');
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const path: string = `/brains/b/objects?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await api.get(path);
        assert.equal(res.status, 200);
        const page: ObjectPage = assertShape(ObjectPage, res.body);
        assert.ok(page.data.length <= 2);
        seen.push(...page.data.map((o) => `${o.type}/${o.key}@${o.version}=${JSON.stringify(o.value)}`));
        cursor = page.has_more ? page.next_cursor : null;
      } while (cursor);
      assert.deepEqual(seen, [
        'person/home_city@2="Porto"',
        'preference/font@1="serif"',
        'preference/theme@2="light"',
      ]);
      const prefs = assertShape(ObjectPage, (await api.get('/brains/b/objects?type=preference')).body);
      assert.deepEqual(
        prefs.data.map((o) => o.key),
        ['font', 'theme'],
      );
      assertError(
        await api.get('/brains/b/objects?cursor=nope'),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assertError(await api.get('/brains/b/objects?limit=0'), 400, 'invalid_request', 'invalid_request_body');
    });

    it('createBrain and acceptObject are writes: each returns a Brain-Watermark, and accepting advances it', async () => {
      const api = client(server, await freshKey(server));
      const created = await api.post('/brains', { id: 'w' });
      assert.equal(created.status, 201);
      const first = created.headers.get('brain-watermark') ?? '';
      assert.match(first, /^wm_/);
      const before = await remember(api, 'w', { content: 'Written before the object.' });
      await ready(api, 'w', before.record.id);
      const sinceCreate = assertShape(
        MemoryPage,
        (await api.get(`/brains/w/memories?since_watermark=${encodeURIComponent(first)}`)).body,
      );
      assert.ok(sinceCreate.data.some((m) => m.statement.includes('before the object')));

      const h = { 'Idempotency-Key': 'wm-obj' };
      const accepted = await api.post('/brains/w/objects', { type: 't', key: 'k', value: 1 }, h);
      assert.equal(accepted.status, 201);
      const mark = accepted.headers.get('brain-watermark') ?? '';
      assert.match(mark, /^wm_/);
      assert.notEqual(mark, before.watermark, 'the accept advanced the sequence');
      const delta = assertShape(
        MemoryPage,
        (await api.get(`/brains/w/memories?since_watermark=${encodeURIComponent(mark)}`)).body,
      );
      assert.deepEqual(delta.data, [], 'nothing derived before the accept is after its boundary');
      const ctx = await api.post('/brains/w/context', { query: 'object' }, { 'Brain-Watermark': mark });
      assert.equal(ctx.status, 200, ctx.text);
      // A write after the accept moves the Brain on: a replay must still name the accept's own boundary.
      const after = await remember(api, 'w', { content: 'Written after the object.' });
      assert.notEqual(after.watermark, mark);
      const replay = await api.post('/brains/w/objects', { type: 't', key: 'k', value: 1 }, h);
      assert.equal(replay.headers.get('brain-watermark'), mark, 'a replay returns the original boundary');
    });

    it('a stale if_version is 409 stale_version with current_version', async () => {
      const api = await brainWithKey(server);
      await api.post('/brains/b/objects', { type: 't', key: 'k', value: 1 });
      const e = assertError(
        await api.post('/brains/b/objects', { type: 't', key: 'k', value: 2, if_version: 0 }),
        409,
        'conflict',
        'stale_version',
      );
      assert.equal(e.current_version, 1);
      assert.equal(
        (await api.get<{ version: number }>('/brains/b/objects/t/k')).body.version,
        1,
        'nothing written',
      );
    });

    it('Idempotency-Key replays the accepted version; null and false are values, a missing value is not', async () => {
      const api = await brainWithKey(server);
      const h = { 'Idempotency-Key': 'obj-1' };
      const a = await api.post('/brains/b/objects', { type: 't', key: 'flag', value: false }, h);
      const b = await api.post('/brains/b/objects', { type: 't', key: 'flag', value: false }, h);
      assert.deepEqual(a.body, b.body);
      assert.deepEqual(
        [a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')],
        ['false', 'true'],
      );
      assertError(
        await api.post('/brains/b/objects', { type: 't', key: 'flag', value: true }, h),
        409,
        'conflict',
        'idempotency_conflict',
      );
      assert.equal((await api.post('/brains/b/objects', { type: 't', key: 'nil', value: null })).status, 201);
      const e = assertError(
        await api.post('/brains/b/objects', { type: 't', key: 'k' }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(e.message), /^value: /);
    });
  });
}
