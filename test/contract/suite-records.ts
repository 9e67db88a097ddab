import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DeletionReceipt, MemoryPage, MnemoRecord } from '../../engine/contract/index.ts';
import type { RunningServer } from '../../server/start-server.ts';
import {
  assertError,
  assertShape,
  client,
  eventually,
  freshKey,
  type Client,
  type ServerFactory,
} from './harness.ts';

export interface EngineTraits {
  name: string;
  kinds: string[];
  unknownKindCode: 'invalid_request_body' | 'unknown_kind';
  /** Records that say the same thing support one Memory (the reference engine gives each its own). */
  sharesMemories: boolean;
  /**
   * How a replica's Record id is keyed: per Brain (PostgreSQL, shared by projects), across the store
   * (SQLite, one device's), or not at all (an engine without the replication routes).
   */
  replicaIds?: 'per-brain' | 'per-store';
  /** Retrieval runs the entity lane (the reference engine's Context is one substring scan). */
  entityLane?: boolean;
  /** Retrieval runs the time lane, reading a query's days in the server's `timeZone`. */
  timeLane?: boolean;
  /** What the Brain's self says is the self's (the reference engine resolves no owner: no profile lines). */
  resolvesOwners?: boolean;
  /** Facts and a known speaker's home or job hold slots (the reference engine has none). */
  holdsSlots?: boolean;
  /** A Context is assembled in one synchronous step, so no thorough request outlasts its budget. */
  assemblesAtOnce?: boolean;
  /** Thorough Contexts run a configured generative query rewrite (the reference engine has none). */
  rewritesQueries?: boolean;
}

export async function brainWithKey(server: RunningServer, id = 'b'): Promise<Client> {
  const api = client(server, await freshKey(server));
  assert.equal((await api.post('/brains', { id, self: { type: 'person', name: 'Ana' } })).status, 201);
  return api;
}

export async function remember(api: Client, brain: string, body: unknown, headers?: Record<string, string>) {
  const r = await api.post(`/brains/${brain}/records`, body, headers);
  assert.equal(r.status, 202, r.text);
  return { record: assertShape(MnemoRecord, r.body), watermark: r.headers.get('brain-watermark')! };
}

export async function ready(api: Client, brain: string, recordId: string) {
  return eventually(`record ${recordId} ready`, async () => {
    const r = await api.get(`/brains/${brain}/records/${recordId}`);
    const rec = assertShape(MnemoRecord, r.body);
    return rec.status === 'ready' ? rec : null;
  });
}

/**
 * Writes messages of one chat thread to Brain b, each returned once ready; `source` names where they
 * came from, where the case needs one.
 */
export function chatWriter(api: Client, source?: string) {
  return async (speaker: string, text: string, occurred_at: string) => {
    const { record } = await remember(api, 'b', {
      content: { kind: 'message', text, speaker, thread: 'chat' },
      occurred_at,
      ...(source ? { source: { name: source } } : {}),
    });
    return ready(api, 'b', record.id);
  };
}

/** Brain b's first 50 Memories, `q` appended to the query ("&contested=true"). */
export async function memoriesOf(api: Client, q = '') {
  return assertShape(MemoryPage, (await api.get(`/brains/b/memories?limit=50${q}`)).body).data;
}

export function recordChecks(factory: ServerFactory, traits: EngineTraits): void {
  describe('records', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('rememberRecord is 202 with a Record and a Brain-Watermark; getRecord reaches ready with memory_ids', async () => {
      const api = await brainWithKey(server);
      const { record, watermark } = await remember(api, 'b', {
        content: { kind: 'message', text: 'We adopted a cat named Miso', speaker: 'Ana' },
        occurred_at: '2024-03-01T10:00:00+01:00',
      });
      assert.match(watermark, /^wm_/);
      assert.match(record.id, /^rec_/);
      assert.equal(record.visibility, 'shareable');
      assert.equal(Date.parse(record.occurred_at), Date.parse('2024-03-01T09:00:00Z'));
      const done = await ready(api, 'b', record.id);
      assert.ok(done.memory_ids.length >= 1);
    });

    it(
      "a replica's id held by another project's Brain: its Record is neither told of nor touched",
      {
        skip: traits.replicaIds === undefined ? 'this engine has no replication routes' : false,
      },
      async () => {
        const id = 'rec_01M8GA4DNAKFBAD9VVVCSJ3177';
        const replica = (text: string) => ({
          records: [
            {
              id,
              content: { kind: 'message', text },
              visibility: 'shareable',
              occurred_at: '2024-05-01T12:00:00Z',
            },
          ],
        });
        const mine = await brainWithKey(server, 'mine');
        const theirs = await brainWithKey(server, 'theirs');
        const first = await theirs.post('/brains/theirs/sync/records', replica('Their words.'));
        assert.equal(first.status, 200, first.text);
        const second = await mine.post('/brains/mine/sync/records', replica('My words.'));
        assert.equal(second.status, 200, second.text);
        // A SQLite store keys ids across its Brains: the id is refused, and refused alike whether another
        // project holds it or this one does with other words. PostgreSQL keys them per Brain.
        const outcome = traits.replicaIds === 'per-brain' ? 'created' : 'conflict';
        assert.deepEqual((second.body as { data: unknown }).data, [{ id, outcome }]);
        const theirRecord = await theirs.get(`/brains/theirs/records/${id}`);
        assert.deepEqual((theirRecord.body as { content: unknown }).content, {
          kind: 'message',
          text: 'Their words.',
        });
        const myRecord = await mine.get(`/brains/mine/records/${id}`);
        if (outcome === 'created')
          assert.deepEqual((myRecord.body as { content: unknown }).content, {
            kind: 'message',
            text: 'My words.',
          });
        else assertError(myRecord, 404, 'not_found', 'record_not_found');
      },
    );

    it('U+0000 is refused in a body or a query value, and a path segment holding it names nothing', async () => {
      const api = await brainWithKey(server, 'nul');
      const refused = (r: Parameters<typeof assertError>[0], field: string) => {
        const e = assertError(r, 400, 'invalid_request', 'invalid_request_body');
        assert.match(String(e.message), new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: holds U\\+0000`));
      };
      refused(await api.post('/brains/nul/records', { content: 'a\u0000b' }), 'content');
      refused(await api.post('/brains', { id: 'nul2', name: 'x\u0000y' }), 'name');
      refused(
        await api.post('/brains/nul/context', { query: 'cat', filter: { sources: ['a\u0000'] } }),
        'filter.sources[0]',
      );
      refused(await api.get('/brains/nul/memories?subject=a%00b'), 'subject');
      refused(await api.get('/brains/nul/records?source=a%00b'), 'source');
      const missing: Array<[string, string, 'GET' | 'DELETE']> = [
        ['/brains/a%00b', 'brain_not_found', 'GET'],
        ['/brains/nul/records/rec_a%00b', 'record_not_found', 'GET'],
        ['/brains/nul/records/rec_a%00b', 'record_not_found', 'DELETE'],
        ['/brains/nul/memories/mem_a%00b', 'memory_not_found', 'GET'],
        ['/brains/nul/traces/trc_a%00b', 'trace_not_found', 'GET'],
        ['/brains/nul/objects/a%00b/c', 'object_not_found', 'GET'],
        ['/brains/nul/sources/a%00b', 'source_not_found', 'DELETE'],
      ];
      for (const [path, code, method] of missing)
        assertError(method === 'GET' ? await api.get(path) : await api.del(path), 404, 'not_found', code);
      assert.equal((await api.get('/brains/nul/records')).status, 200, 'the Brain is as it was');
    });

    it('a plain string is stored as a document; occurred_at defaults to now', async () => {
      const api = await brainWithKey(server);
      const before = Date.now();
      const { record } = await remember(api, 'b', { content: 'just some text' });
      assert.equal(record.kind, 'document');
      assert.deepEqual(record.content, { kind: 'document', text: 'just some text' });
      assert.ok(Math.abs(Date.parse(record.occurred_at) - before) < 60_000);
    });

    it('each accepted kind is accepted', async () => {
      const api = await brainWithKey(server);
      const samples: Record<string, unknown> = {
        message: { kind: 'message', text: 'hello there', speaker: 'Bo', thread: 't1' },
        document: { kind: 'document', text: 'A page of notes', title: 'Notes' },
        event: {
          kind: 'event',
          title: 'Dentist',
          starts_at: '2024-05-01T09:00:00Z',
          ends_at: '2024-05-01T10:00:00Z',
          participants: ['Ana'],
          place: 'Lisbon',
        },
        fact: { kind: 'fact', subject: 'user', predicate: 'favourite_colour', value: 'green' },
      };
      for (const kind of traits.kinds.filter((k) => k !== 'correction')) {
        const { record } = await remember(api, 'b', { content: samples[kind] });
        assert.equal(record.kind, kind);
      }
    });

    it(`an unaccepted kind is ${traits.unknownKindCode} listing the ${traits.kinds.length} kinds`, async () => {
      const api = await brainWithKey(server);
      const e = assertError(
        await api.post('/brains/b/records', { content: { kind: 'poem', text: 'x' } }),
        400,
        'invalid_request',
        traits.unknownKindCode,
      );
      for (const k of traits.kinds) assert.ok(String(e.message).includes(k), `message lists ${k}`);
      assert.match(String(e.message), /^content\.kind: /);
    });

    it('strict types: booleans are not integers, date-times are RFC 3339, bodies are JSON objects', async () => {
      const api = await brainWithKey(server);
      const bad: [unknown, RegExp][] = [
        [{ content: 'x', occurred_at: '2024-05-01' }, /^occurred_at: /],
        [{ content: 'x', occurred_at: '2024-05-01T10:00:00' }, /^occurred_at: /],
        [{ content: 'x', occurred_at: 1714557600 }, /^occurred_at: /],
        [{ content: 'x', visibility: 'public' }, /^visibility: /],
        [{ content: { kind: 'event', title: 'x', participants: [true] } }, /^content\.participants\[0\]: /],
        [{ content: { kind: 'fact', subject: 's', predicate: 'p' } }, /^content\.value: is required/],
        [{ content: '' }, /^content: /],
        [{}, /^content: is required/],
        [[1, 2], /^body: /],
        ['"a string"', /^body: /],
        ['null', /^body: /],
        [{ content: 'x', extra: 1 }, /^extra: unknown field/],
        // forgetSource could never name it: `…/sources/..` is the Brain's own path.
        [
          { content: 'x', source: { name: '..', external_id: 'x1' } },
          /^source\.name: must not be "\." or "\.\."/,
        ],
        [{ content: 'x', source: { name: '.' } }, /^source\.name: must not be "\." or "\.\."/],
      ];
      for (const [body, message] of bad) {
        const e = assertError(
          await api.post('/brains/b/records', body),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(e.message), message, JSON.stringify(body));
      }
      const ctx = assertError(
        await api.post('/brains/b/context', { query: 'q', budget: { tokens: true } }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(ctx.message), /^budget\.tokens: /);
    });

    it('an event that ends before it starts is refused naming both fields; one that ends as it starts is kept', async () => {
      const api = await brainWithKey(server);
      const event = (starts_at: string, ends_at: string) => ({
        content: { kind: 'event', title: 'Dentist', starts_at, ends_at },
      });
      const e = assertError(
        await api.post('/brains/b/records', event('2024-05-01T10:00:00Z', '2024-05-01T09:00:00Z')),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.equal(e.message, 'content.ends_at: must not be earlier than starts_at');
      // Instants, not strings: 11:30+02:00 is 09:30Z, before 10:00Z, though it sorts after it as text.
      assertError(
        await api.post('/brains/b/records', event('2024-05-01T10:00:00Z', '2024-05-01T11:30:00+02:00')),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      const listed = (await api.get<{ data: unknown[] }>('/brains/b/records')).body;
      assert.equal(listed.data.length, 0, 'nothing was written');
      // The same instant in two spellings, and an end alone, are events that can happen.
      await remember(api, 'b', event('2024-05-01T10:00:00Z', '2024-05-01T12:00:00+02:00'));
      await remember(api, 'b', {
        content: { kind: 'event', title: 'Call', ends_at: '2024-05-01T09:00:00Z' },
      });
    });

    it('a field named twice in one object is refused naming it, however its name is spelled; nothing is written', async () => {
      const api = await brainWithKey(server);
      const cases: [string, string, string][] = [
        ['/brains/b/records', '{"content":"I live in Porto.","content":"I live in Lisbon."}', 'content'],
        [
          '/brains/b/records',
          '{"content":{"kind":"fact","subject":"Ana","predicate":"city","value":"Porto","value":"Lisbon"}}',
          'content.value',
        ],
        // "\u0063ontent" is "content" once JSON.parse has read it.
        ['/brains/b/records', '{"content":"x","\\u0063ontent":"y"}', 'content'],
        ['/brains/b/objects', '{"type":"t","key":"k","value":[{"a":1},{"b":1,"b":2}]}', 'value[1].b'],
        ['/brains/b/context', '{"query":"where","query":"who"}', 'query'],
      ];
      for (const [path, body, field] of cases) {
        const e = assertError(await api.post(path, body), 400, 'invalid_request', 'invalid_request_body');
        assert.equal(
          e.message,
          `${field}: must be given once (this object names it twice; JSON readers disagree on which to take)`,
          body,
        );
      }
      const listed = (await api.get<{ data: unknown[] }>('/brains/b/records')).body;
      assert.equal(listed.data.length, 0, 'nothing was written');
      assertError(await api.get('/brains/b/objects/t/k'), 404, 'not_found', 'object_not_found');
      // One name in each of two objects, and a value that spells a name, are no repeats.
      await remember(
        api,
        'b',
        '{"content":{"kind":"document","text":"\\"text\\": again","title":"text"},"source":{"name":"text"}}',
      );
    });

    it("a fact's number a double would not keep exactly is refused naming the field; as a string it is kept", async () => {
      const api = await brainWithKey(server);
      const fact = (value: string) =>
        `{"content":{"kind":"fact","subject":"account","predicate":"number","value":${value}}}`;
      const e = assertError(
        await api.post('/brains/b/records', fact('12345678901234567890')),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(
        String(e.message),
        /^content\.value: 12345678901234567890 would not be kept exactly: JSON numbers are read as IEEE 754 doubles, which hold it only as 12345678901234567000; send it as a string/,
      );
      const listed = (await api.get<{ data: unknown[] }>('/brains/b/records')).body;
      assert.equal(listed.data.length, 0, 'nothing was written');
      const { record } = await remember(api, 'b', fact('"12345678901234567890"'));
      const kept = (await api.get(`/brains/b/records/${record.id}`)).text;
      assert.ok(kept.includes('"value":"12345678901234567890"'), kept);
      const exact = await remember(api, 'b', fact('0.1'));
      assert.equal((exact.record.content as { value: unknown }).value, 0.1);
    });

    it('malformed JSON and empty bodies are invalid_request_body; non-JSON is 415 unsupported_media_type; +json is accepted', async () => {
      const api = await brainWithKey(server);
      assertError(
        await api.post('/brains/b/records', '{"content": '),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assertError(await api.post('/brains/b/records', ''), 400, 'invalid_request', 'invalid_request_body');
      assertError(
        await api.post('/brains/b/records', 'content=x', {
          'Content-Type': 'application/x-www-form-urlencoded',
        }),
        415,
        'invalid_request',
        'unsupported_media_type',
      );
      assertError(
        await api.post('/brains/b/records', 'hello', { 'Content-Type': 'text/plain' }),
        415,
        'invalid_request',
        'unsupported_media_type',
      );
      // No body at all (and so no Content-Type): the spec lists "no body" under invalid_request_body.
      assertError(
        await api.call('POST', '/brains/b/records', undefined),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      const ok = await api.post(
        '/brains/b/records',
        { content: 'vendor json' },
        { 'Content-Type': 'application/vnd.mnemo+json; charset=utf-8' },
      );
      assert.equal(ok.status, 202);
    });

    it('Idempotency-Key: a replay returns the original Record; different content is idempotency_conflict', async () => {
      const api = await brainWithKey(server);
      const h = { 'Idempotency-Key': 'k-1' };
      const first = await api.post('/brains/b/records', { content: 'remember me once' }, h);
      // A write in between moves the Brain on: the replay must still name the original write's boundary.
      const between = await api.post('/brains/b/records', { content: 'written in between' });
      assert.notEqual(between.headers.get('brain-watermark'), first.headers.get('brain-watermark'));
      const again = await api.post('/brains/b/records', { content: 'remember me once' }, h);
      assert.match(first.headers.get('brain-watermark') ?? '', /^wm_/);
      assert.equal(again.headers.get('brain-watermark'), first.headers.get('brain-watermark'));
      assert.equal(again.status, 202);
      assert.equal(assertShape(MnemoRecord, again.body).id, assertShape(MnemoRecord, first.body).id);
      // Idempotent-Replayed tells a replay (nothing written) from a write; without a key it is absent.
      assert.equal(first.headers.get('idempotent-replayed'), 'false');
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const keyless = await api.post('/brains/b/records', { content: 'no key' });
      assert.equal(keyless.headers.get('idempotent-replayed'), null);
      assertError(
        await api.post('/brains/b/records', { content: 'something else' }, h),
        409,
        'conflict',
        'idempotency_conflict',
      );
      await ready(api, 'b', assertShape(MnemoRecord, first.body).id);
      const page = await api.get<{ data: unknown[] }>('/brains/b/memories?q=remember%20me%20once');
      assert.equal(page.body.data.length, 1, 'no second Memory');
    });

    it('Idempotency-Key after forgetRecord: the key went with the Record; the same POST writes anew, never the forgotten one', async () => {
      const api = await brainWithKey(server);
      const h = { 'Idempotency-Key': 'k-forgotten' };
      const body = { content: 'the spare key is under the blue flowerpot' };
      const first = await remember(api, 'b', body, h);
      await ready(api, 'b', first.record.id);
      assert.equal((await api.del(`/brains/b/records/${first.record.id}`)).status, 200);

      const again = await api.post('/brains/b/records', body, h);
      assert.equal(again.status, 202, again.text);
      const written = assertShape(MnemoRecord, again.body);
      // Not a replay: nothing of the forgotten Record is served, and the answer says this request wrote.
      assert.notEqual(written.id, first.record.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'false');
      assert.notEqual(again.headers.get('brain-watermark'), first.watermark);
      assertError(
        await api.get(`/brains/b/records/${first.record.id}`),
        404,
        'not_found',
        'record_not_found',
      );
      const listed = await api.get<{ data: { id: string }[] }>('/brains/b/records?limit=50');
      assert.deepEqual(
        listed.body.data.map((r) => r.id),
        [written.id],
      );
      // The key now stands for the new Record: replayed as any key is, and other content is a conflict.
      const replay = await api.post('/brains/b/records', body, h);
      assert.equal(assertShape(MnemoRecord, replay.body).id, written.id);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assertError(
        await api.post('/brains/b/records', { content: 'something else' }, h),
        409,
        'conflict',
        'idempotency_conflict',
      );
    });

    it('getRecord and forgetRecord of unknown ids are record_not_found; forgetting is permanent', async () => {
      const api = await brainWithKey(server);
      assertError(await api.get('/brains/b/records/rec_nope'), 404, 'not_found', 'record_not_found');
      assertError(await api.del('/brains/b/records/rec_nope'), 404, 'not_found', 'record_not_found');
      const { record } = await remember(api, 'b', { content: 'short-lived' });
      await ready(api, 'b', record.id);
      const r = await api.del(`/brains/b/records/${record.id}`);
      assert.equal(r.status, 200);
      const receipt = assertShape(DeletionReceipt, r.body);
      assert.equal(receipt.deleted.records, 1);
      assert.equal(typeof receipt.rederiving.memories, 'number');
      assertError(await api.get(`/brains/b/records/${record.id}`), 404, 'not_found', 'record_not_found');
      assertError(await api.del(`/brains/b/records/${record.id}`), 404, 'not_found', 'record_not_found');
    });

    it('forgetRecord takes no body: fields are unknown and forget nothing; {} or nothing is no body', async () => {
      const api = await brainWithKey(server);
      const { record } = await remember(api, 'b', { content: 'kept unless asked plainly' });
      await ready(api, 'b', record.id);
      const path = `/brains/b/records/${record.id}`;
      const refused = assertError(
        await api.call('DELETE', path, { cascade: false }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(refused.message), /^cascade: unknown field/);
      assertError(await api.call('DELETE', path, 'not json'), 400, 'invalid_request', 'invalid_request_body');
      assert.equal((await api.get(path)).status, 200, 'nothing was forgotten');
      assert.equal((await api.call('DELETE', path, {})).status, 200);
      assertError(await api.get(path), 404, 'not_found', 'record_not_found');
    });

    it('a Record reconciled from an external source is 403 record_not_erasable', async () => {
      const api = await brainWithKey(server);
      const { record } = await remember(api, 'b', {
        content: 'from my notes',
        source: { name: 'obsidian', external_id: 'notes/a.md' },
      });
      assert.equal(record.erasable, false);
      assertError(await api.del(`/brains/b/records/${record.id}`), 403, 'policy', 'record_not_erasable');
      assert.equal((await api.get(`/brains/b/records/${record.id}`)).status, 200);
    });

    it('a Record with an external_id but no source name is erased as any other: no import holds it', async () => {
      const api = await brainWithKey(server);
      const { record } = await remember(api, 'b', {
        content: 'crm id only',
        source: { external_id: 'crm-77' },
      });
      assert.equal(record.erasable, true);
      const r = await api.del(`/brains/b/records/${record.id}`);
      assert.equal(r.status, 200, r.text);
      assertError(await api.get(`/brains/b/records/${record.id}`), 404, 'not_found', 'record_not_found');
    });

    it(
      'a fact and a sentence about one home or job hold one slot: the later supersedes, one instant conflicts',
      { skip: traits.holdsSlots ? false : 'this engine holds no slots' },
      async () => {
        const api = await brainWithKey(server);
        const write = async (content: unknown, occurred_at: string, source: string) =>
          ready(
            api,
            'b',
            (await remember(api, 'b', { content, occurred_at, source: { name: source } })).record.id,
          );
        const fact = (predicate: string, value: string) => ({
          kind: 'fact',
          subject: 'me',
          predicate,
          value,
        });
        const said = (text: string) => ({ kind: 'message', text, speaker: 'Ana' });
        await write(fact('home_city', 'Lisbon'), '2024-01-01T00:00:00Z', 'profile');
        await write(fact('employer', 'Siemens'), '2024-01-01T00:00:00Z', 'profile');
        await write(said('I moved to Porto.'), '2024-05-01T00:00:00Z', 'chat');
        await write(said('I work at BMW now.'), '2024-05-01T00:00:00Z', 'chat');
        await write(fact('company', 'Acme'), '2024-05-01T00:00:00Z', 'profile');
        const page = async (q: string) => (await memoriesOf(api, q)).map((m) => m.statement).sort();
        assert.deepEqual(await page(''), ['Ana lives in Porto', 'Ana works at BMW', 'me company: Acme']);
        assert.deepEqual(await page('&contested=true'), ['Ana works at BMW', 'me company: Acme']);
      },
    );

    it(
      "what another speaker says of the Brain's person by name contests her own value, never replaces it",
      { skip: traits.holdsSlots && traits.resolvesOwners ? false : 'this engine holds no slots of hers' },
      async () => {
        const api = await brainWithKey(server);
        const say = chatWriter(api, 'chat');
        const memories = (q: string) => memoriesOf(api, q);
        const own = await say('Ana', 'My birthday is April 12th 1988.', '2024-01-01T10:00:00Z');
        await say('Ana', 'I live in Lisbon.', '2024-01-01T10:01:00Z');
        const rui = await say('Rui', "Ana's birthday is May 3rd.", '2024-01-02T10:00:00Z');
        const agrees = await say('Rui', 'Ana lives in Lisbon.', '2024-01-02T10:01:00Z');

        // Rui's birthday is hers, cited to his Record, beside hers: both current, a conflict.
        const contested = await memories('&contested=true');
        assert.deepEqual(contested.map((m) => [m.statement, m.owner.state, m.valid_to]).sort(), [
          ["Ana's birthday is April 12th 1988", 'self', null],
          ["Rui says Ana's birthday is May 3rd", 'self', null],
        ]);
        const his = contested.find((m) => m.statement.startsWith('Rui says'))!;
        assert.deepEqual(his.citations, [{ record_id: rui.id, quote: "Ana's birthday is May 3rd." }]);
        assert.deepEqual(
          contested.find((m) => m.statement.startsWith("Ana's"))!.citations.map((c) => c.record_id),
          [own.id],
        );
        const ctx = await api.post<{ conflicts: { values: { statement: string }[] }[] }>(
          '/brains/b/context',
          {
            query: "When is Ana's birthday?",
          },
        );
        assert.equal(ctx.status, 200, ctx.text);
        assert.deepEqual(
          ctx.body.conflicts.map((c) => c.values.map((v) => v.statement).sort()),
          [["Ana's birthday is April 12th 1988", "Rui says Ana's birthday is May 3rd"]],
        );

        // The same home agrees: one Memory of hers, citing both, no conflict.
        const home = (await memories('')).filter((m) => / lives in /.test(m.statement));
        assert.deepEqual(
          home.map((m) => [m.statement, m.citations.some((c) => c.record_id === agrees.id)]),
          [['Ana lives in Lisbon', true]],
        );

        // Her own word said after his settles it: her value again, his closed.
        await say('Ana', 'My birthday is April 12th 1988.', '2024-01-03T10:00:00Z');
        assert.deepEqual(await memories('&contested=true'), []);
        const now = (await memories('')).filter((m) => /birthday/.test(m.statement));
        assert.deepEqual(
          now.map((m) => m.statement),
          ["Ana's birthday is April 12th 1988"],
        );
      },
    );

    it(
      'a plan said moved to another time or called off supersedes the plan it names; forgetting the move brings it back',
      { skip: traits.holdsSlots && traits.resolvesOwners ? false : 'this engine reads no plans of hers' },
      async () => {
        const api = await brainWithKey(server);
        const say = chatWriter(api, 'chat');
        const current = async () => (await memoriesOf(api)).map((m) => m.statement).sort();
        const booked = await say(
          'Ana',
          'I booked a dentist appointment for Thursday at 3pm.',
          '2024-03-01T10:00:00Z',
        );
        await say('Ana', "I'm planning a trip to Kyoto next March.", '2024-03-01T10:01:00Z');
        await say('Ana', 'Lunch with Tom on Thursday.', '2024-03-01T10:02:00Z');
        await say('Ana', 'I have a vet appointment on Monday.', '2024-03-01T10:03:00Z');
        const moved = await say(
          'Ana',
          'The dentist moved my appointment to Friday at 10am instead of Thursday.',
          '2024-03-02T09:00:00Z',
        );
        await say(
          'Ana',
          'We changed the Kyoto trip: we are going in May instead of March.',
          '2024-03-03T09:00:00Z',
        );
        await say('Ana', 'I cancelled the vet appointment.', '2024-03-03T10:00:00Z');
        assert.deepEqual(await current(), [
          'I cancelled the vet appointment.',
          'Lunch with Tom on Thursday.',
          'The dentist moved my appointment to Friday at 10am instead of Thursday.',
          'We changed the Kyoto trip: we are going in May instead of March.',
        ]);
        // One Memory, two versions: the booking held until the move.
        const detail = (
          await api.get<{ revisions: { statement: string; status: string; valid_to: string | null }[] }>(
            `/brains/b/memories/${moved.memory_ids[0]!}`,
          )
        ).body;
        assert.deepEqual(
          detail.revisions.map((r) => [
            r.statement,
            r.status,
            r.valid_to && new Date(r.valid_to).toISOString(),
          ]),
          [
            ['I booked a dentist appointment for Thursday at 3pm.', 'superseded', '2024-03-02T09:00:00.000Z'],
            ['The dentist moved my appointment to Friday at 10am instead of Thursday.', 'active', null],
          ],
        );
        assert.equal(
          (await api.get<{ status: string }>(`/brains/b/memories/${booked.memory_ids[0]!}`)).body.status,
          'superseded',
        );

        assert.equal((await api.del(`/brains/b/records/${moved.id}`)).status, 200);
        assert.ok((await current()).includes('I booked a dentist appointment for Thursday at 3pm.'));
      },
    );

    it(
      'a task said or ticked in a checklist is done by a deed said later that names it; the list quotes what is left',
      { skip: traits.holdsSlots && traits.resolvesOwners ? false : 'this engine reads no tasks' },
      async () => {
        const api = await brainWithKey(server);
        const say = chatWriter(api, 'chat');
        const list = '- [ ] renew passport\n- [ ] send Priya the onboarding doc\n- [ ] call the plumber';
        const note = await remember(api, 'b', {
          content: { kind: 'document', title: 'Errands', text: list },
          occurred_at: '2024-03-01T09:00:00Z',
        });
        await ready(api, 'b', note.record.id);
        await say('Ana', 'Yes, and remind me to water the tomatoes on the balcony.', '2024-03-01T10:00:00Z');
        await say('Ana', 'Note to self: book the vet for Luna', '2024-03-01T10:01:00Z');
        const renewed = await say('Ana', 'I renewed my passport today!', '2024-03-02T10:00:00Z');
        await say('Ana', 'Finally sent Priya the doc.', '2024-03-02T11:00:00Z');
        await say('Ana', 'I called my mum.', '2024-03-02T12:00:00Z');
        await say('Ana', 'I watered the tomatoes.', '2024-03-02T13:00:00Z');
        const tasks = (await memoriesOf(api))
          .map((m) => m.statement)
          .filter((t) => /^(?:To do|Done): /u.test(t))
          .sort();
        assert.deepEqual(tasks, [
          'Done: renew passport',
          'Done: send Priya the onboarding doc',
          'Done: water the tomatoes on the balcony',
          'To do: book the vet for Luna',
          'To do: call the plumber',
        ]);
        const done = (
          await api.get<{ citations: { record_id: string; quote: string }[] }>(
            `/brains/b/memories/${renewed.memory_ids[0]!}`,
          )
        ).body;
        assert.deepEqual(
          done.citations.map((c) => [c.record_id, c.quote]),
          [[renewed.id, 'I renewed my passport today!']],
        );
        const ctx = await api.post<{ text: string | null }>('/brains/b/context', {
          query: 'What is still on my to-do list?',
        });
        assert.equal(ctx.status, 200, ctx.text);
        assert.ok(ctx.body.text?.includes('call the plumber'), ctx.body.text ?? '');
        assert.ok(!ctx.body.text?.includes('renew passport'), ctx.body.text ?? '');
      },
    );

    it(
      'a deed the speaker says she needs to do is a task, one for each she lists, done by her deed alone',
      { skip: traits.holdsSlots && traits.resolvesOwners ? false : 'this engine reads no tasks' },
      async () => {
        const api = await brainWithKey(server);
        const say = chatWriter(api, 'chat');
        await say('Ana', 'I need to renew my passport before January.', '2024-03-01T10:00:00Z');
        await say('Ana', 'I need to sleep more.', '2024-03-01T10:01:00Z');
        await say(
          'Ana',
          'I still need to buy the vase for Petra and call the bank about the mortgage.',
          '2024-03-01T10:02:00Z',
        );
        await say('Rui', 'Gotta fix the bike before Sunday.', '2024-03-01T10:03:00Z');
        await say('Rui', 'Noted. I still eat it though.', '2024-03-01T10:04:00Z');
        // His deed, and a vase for someone else: her task stays open.
        await say('Rui', 'Bought the vase for mum, 55 EUR.', '2024-03-02T09:00:00Z');
        await say('Ana', 'Renewed my passport today, finally done.', '2024-03-02T10:00:00Z');
        await say('Ana', "I've called the bank.", '2024-03-02T11:00:00Z');
        const all = await memoriesOf(api);
        const tasks = all
          .filter((m) => /^(?:To do|Done): /u.test(m.statement))
          .map((m) => [m.statement, m.owner.entity ?? m.owner.state])
          .sort();
        assert.deepEqual(tasks, [
          ['Done: call the bank about the mortgage', 'Ana'],
          ['Done: renew my passport before January', 'Ana'],
          ['To do: buy the vase for Petra', 'Ana'],
          ['To do: fix the bike before Sunday', 'Rui'],
        ]);
        // A need that is never done, only kept up, is what she said.
        assert.ok(all.some((m) => m.statement === 'I need to sleep more.'));
        const ctx = await api.post<{ text: string | null }>('/brains/b/context', {
          query: 'What is still to do?',
        });
        assert.equal(ctx.status, 200, ctx.text);
        const text = ctx.body.text ?? '';
        const at = (s: string) => (text.includes(s) ? text.indexOf(s) : Infinity);
        assert.ok(at('buy the vase for Petra') < at('I still eat it'), text);
        assert.ok(!text.includes('renew my passport'), text);
      },
    );

    it(
      'a "she" after her name, or an end of her job, in another speaker\'s words contests or agrees with hers',
      { skip: traits.holdsSlots && traits.resolvesOwners ? false : 'this engine holds no slots of hers' },
      async () => {
        const api = await brainWithKey(server);
        const say = chatWriter(api, 'chat');
        const memories = (q: string) => memoriesOf(api, q);
        const own = await say('Ana', 'I work at Acme.', '2024-01-01T10:00:00Z');
        await say('Ana', 'I live in Lisbon.', '2024-01-01T10:01:00Z');
        // One message of his: the job he says is hers, beside hers, a conflict.
        const job = await say('Rui', 'Ana got a new job. She works at Google now.', '2024-01-02T10:00:00Z');
        const contested = await memories('&contested=true');
        assert.deepEqual(contested.map((m) => [m.statement, m.owner.state]).sort(), [
          ['Ana works at Acme', 'self'],
          ['Rui says Ana works at Google', 'self'],
        ]);
        assert.deepEqual(contested.find((m) => m.statement.startsWith('Rui says'))!.citations, [
          { record_id: job.id, quote: 'She works at Google now.' },
        ]);
        assert.deepEqual(
          contested.find((m) => m.statement === 'Ana works at Acme')!.citations.map((c) => c.record_id),
          [own.id],
        );
        // An ending he says of her contests the job she holds; it closes nothing.
        const ended = await say('Rui', "Ana doesn't work at Acme anymore.", '2024-01-02T11:00:00Z');
        const jobs = async () =>
          (await memories('&contested=true'))
            .filter((m) => / works at /.test(m.statement))
            .map((m) => [m.statement, m.citations.map((c) => c.record_id)])
            .sort();
        assert.deepEqual(await jobs(), [
          ['Ana works at Acme', [own.id]],
          ['Rui says Ana no longer works at Acme', [ended.id]],
        ]);
        // Her own word after it settles the slot.
        await say('Ana', 'I work at Acme.', '2024-01-02T12:00:00Z');
        assert.deepEqual(await jobs(), []);
        assert.deepEqual(
          (await memories('')).filter((m) => / works at /.test(m.statement)).map((m) => m.statement),
          ['Ana works at Acme'],
        );
        // His two messages: the "she" of the second is her, and her home the same: it agrees.
        await say('Rui', 'Ana got back from her trip.', '2024-01-03T10:00:00Z');
        const home = await say('Rui', 'She lives in Lisbon.', '2024-01-03T10:01:00Z');
        const homes = (await memories('')).filter((m) => / lives in /.test(m.statement));
        assert.deepEqual(
          homes.map((m) => [m.statement, m.citations.some((c) => c.record_id === home.id)]),
          [['Ana lives in Lisbon', true]],
        );
      },
    );

    it('listRecords is newest first and filters by kind and by an inclusive since/until span', async () => {
      const api = await brainWithKey(server);
      const a = await remember(api, 'b', {
        content: { kind: 'message', text: 'first message' },
        occurred_at: '2024-05-01T09:00:00+02:00',
      });
      const b = await remember(api, 'b', { content: 'second, a document' });
      const all = await api.get<{ data: { id: string }[] }>('/brains/b/records');
      assert.deepEqual(all.body.data.map((r) => r.id).slice(0, 2), [b.record.id, a.record.id]);
      const msgs = await api.get<{ data: { id: string }[] }>('/brains/b/records?kind=message');
      assert.deepEqual(
        msgs.body.data.map((r) => r.id),
        [a.record.id],
      );
      // 07:00Z is 09:00+02:00: instants are compared, not strings, and both bounds are inclusive.
      const span = await api.get<{ data: { id: string }[] }>(
        '/brains/b/records?since=2024-05-01T07:00:00Z&until=2024-05-01T07:00:00Z',
      );
      assert.deepEqual(
        span.body.data.map((r) => r.id),
        [a.record.id],
      );
      for (const empty of ['source=', 'cursor=']) {
        const r = await api.get(`/brains/b/records?${empty}`);
        const e = assertError(r, 400, 'invalid_request', 'invalid_request_body');
        assert.match(String(e.message), /must not be empty/);
      }
    });

    it("listRecords' ids reads the Records named, newest first, leaving out ids the Brain does not hold", async () => {
      const api = await brainWithKey(server, 'named');
      const ids = [];
      for (const text of ['one', 'two', 'three'])
        ids.push((await remember(api, 'named', { content: text, source: { name: 'notes' } })).record.id);
      const listed = async (query: string) => {
        const page = await api.get<{ data: { id: string }[]; has_more: boolean }>(
          `/brains/named/records?${query}`,
        );
        assert.equal(page.status, 200, page.text);
        return page.body;
      };
      const unknown = 'rec_01J00000000000000000000000';
      const page = await listed(`ids=${[ids[0], unknown, ids[2]].join(',')}&limit=3`);
      assert.deepEqual(
        page.data.map((r) => r.id),
        [ids[2], ids[0]],
      );
      assert.equal(page.has_more, false);
      // Paged and filtered as any list.
      const first = await listed(`ids=${ids.join(',')}&limit=2`);
      assert.deepEqual(
        first.data.map((r) => r.id),
        [ids[2], ids[1]],
      );
      assert.equal(first.has_more, true);
      assert.deepEqual((await listed(`ids=${ids.join(',')}&source=mail`)).data, []);
      // Another Brain's Record is not this one's.
      await api.post('/brains', { id: 'other' });
      const theirs = (await remember(api, 'other', { content: 'elsewhere' })).record.id;
      assert.deepEqual((await listed(`ids=${theirs}`)).data, []);
      for (const bad of [
        '',
        'mem_01J0',
        `${ids[0]},`,
        `${ids[0]} ,${ids[1]}`,
        Array(201).fill(ids[0]).join(','),
      ]) {
        const e = assertError(
          await api.get(`/brains/named/records?ids=${encodeURIComponent(bad)}`),
          400,
          'invalid_request',
          'invalid_request_body',
        );
        assert.match(String(e.message), /^ids: must be 1 to 200 Record ids/);
      }
      if (traits.replicaIds !== undefined)
        assertError(
          await api.get(`/brains/named/records?since_watermark=start&ids=${ids[0]}`),
          400,
          'invalid_request',
          'conflicting_parameters',
        );
    });

    it("listRecords' q finds Records by words of their text, a speaker or a title, case and accents ignored", async () => {
      const api = await brainWithKey(server, 'searched');
      const write = async (content: unknown) => (await remember(api, 'searched', { content })).record.id;
      const ferry = await write({
        kind: 'message',
        text: 'The ferry leaves at nine.',
        speaker: 'Marko Babić',
      });
      const sister = await write({
        kind: 'message',
        text: 'My sister Maja is a NURSE in Split.',
        speaker: 'Ana',
      });
      const tiles = await write({ kind: 'document', title: 'Kitchen tiles', text: 'Ordered from Porto.' });
      const event = await write({ kind: 'event', title: 'Dentist', starts_at: '2026-03-02T09:00:00Z' });
      const found = async (q: string, more = '') => {
        const page = await api.get<{ data: { id: string }[] }>(
          `/brains/searched/records?q=${encodeURIComponent(q)}${more}`,
        );
        assert.equal(page.status, 200, page.text);
        return page.body.data.map((r) => r.id);
      };
      assert.deepEqual(await found('babic'), [ferry], 'a speaker, its accent optional');
      assert.deepEqual(await found('nurse sister'), [sister], 'words in any order, any case');
      assert.deepEqual(await found('tiles'), [tiles], "a document's title");
      assert.deepEqual(await found('porto kitchen'), [tiles], 'its title and its text together');
      assert.deepEqual(await found('dentist'), [event], "an event's title");
      assert.deepEqual(await found('nurs'), [sister], 'within words too');
      assert.deepEqual(await found('nurse ferry'), [], 'every word');
      assert.deepEqual(await found('the', '&kind=message'), [ferry], 'with the other filters');
      const blank = assertError(
        await api.get('/brains/searched/records?q=%20'),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(blank.message), /^q: must hold a word/);
      // The change feed is read whole, unsearched, as it is unfiltered.
      if (traits.replicaIds !== undefined)
        assertError(
          await api.get('/brains/searched/records?since_watermark=start&q=ferry'),
          400,
          'invalid_request',
          'conflicting_parameters',
        );
    });

    it(
      'the change feed splits a step larger than a page: each page holds at most limit entries, none lost or repeated',
      { skip: traits.replicaIds === undefined ? 'this engine has no change feed' : false },
      async () => {
        const api = await brainWithKey(server, 'feed');
        type FeedPage = {
          data: { id: string }[];
          removed: { id: string }[];
          has_more: boolean;
          watermark: string;
        };
        const read = async (since: string, limit: number) => {
          const r = await api.get<FeedPage>(
            `/brains/feed/records?since_watermark=${encodeURIComponent(since)}&limit=${limit}`,
          );
          assert.equal(r.status, 200, r.text);
          return r.body;
        };
        const before = [];
        for (const text of ['kept one', 'kept two'])
          before.push((await remember(api, 'feed', { content: text })).record.id);
        const chat = [];
        for (let i = 0; i < 5; i++)
          chat.push(
            (await remember(api, 'feed', { content: `chat line ${i}`, source: { name: 'chat' } })).record.id,
          );
        // One forget, one step: the five ids removed together.
        assert.equal((await api.del('/brains/feed/sources/chat')).status, 200);
        const last = (await remember(api, 'feed', { content: 'written after' })).record.id;

        const pages: FeedPage[] = [];
        for (let since = 'start'; ;) {
          const page = await read(since, 2);
          pages.push(page);
          since = page.watermark;
          if (!page.has_more) break;
          assert.ok(pages.length < 20, 'the feed ends');
        }
        const bytewise = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
        const gone = [...chat].sort(bytewise).map((id) => `-${id}`);
        assert.deepEqual(
          // Each page lists its Records, then its removals.
          pages.map((p) => [...p.data.map((r) => r.id), ...p.removed.map((r) => `-${r.id}`)]),
          [before, gone.slice(0, 2), gone.slice(2, 4), [last, gone[4]]],
        );
        // A watermark inside the step reads on from there again, and is a boundary every reader takes.
        const within = pages[1]!.watermark;
        assert.deepEqual(
          (await read(within, 2)).removed.map((r) => r.id),
          pages[2]!.removed.map((r) => r.id),
        );
        assert.equal(
          (await api.get(`/brains/feed/memories?since_watermark=${encodeURIComponent(within)}`)).status,
          200,
        );
      },
    );

    it('local deployment keeps local_only Records and serves them on this device, Context included', async () => {
      const api = await brainWithKey(server);
      const { record } = await remember(api, 'b', {
        content: 'the diary of walrus',
        visibility: 'local_only',
      });
      assert.equal(record.visibility, 'local_only');
      assert.equal((await api.get(`/brains/b/records/${record.id}`)).status, 200);
      await ready(api, 'b', record.id);
      const ctx = await api.post<{ citations: { record_id: string }[] }>('/brains/b/context', {
        query: 'walrus diary',
      });
      assert.deepEqual(
        ctx.body.citations.map((c) => c.record_id),
        [record.id],
      );
    });

    it(
      'the change feed never names a local_only Record, written or forgotten',
      { skip: traits.replicaIds === undefined ? 'this engine has no change feed' : false },
      async () => {
        const api = await brainWithKey(server, 'private');
        const shared = (await remember(api, 'private', { content: 'a shared note' })).record.id;
        const mine = (await remember(api, 'private', { content: 'my diary', visibility: 'local_only' }))
          .record.id;
        for (const id of [shared, mine])
          assert.equal((await api.del(`/brains/private/records/${id}`)).status, 200);
        const feed = await api.get<{ data: { id: string }[]; removed: { id: string }[] }>(
          '/brains/private/records?since_watermark=start',
        );
        assert.equal(feed.status, 200, feed.text);
        assert.deepEqual(feed.body.data, []);
        assert.deepEqual(
          feed.body.removed.map((r) => r.id),
          [shared],
        );
      },
    );
  });

  describe('hosted deployment', () => {
    let server: RunningServer;
    before(async () => (server = await factory({ deployment: 'hosted' })));
    after(() => server.close());

    it('rememberRecord with local_only is 403 local_only_record and writes nothing Context could cite', async () => {
      const api = await brainWithKey(server);
      assertError(
        await api.post('/brains/b/records', { content: 'secret zebra diary', visibility: 'local_only' }),
        403,
        'policy',
        'local_only_record',
      );
      const { record } = await remember(api, 'b', { content: 'shared zebra fact' });
      await ready(api, 'b', record.id);
      const ctx = await api.post<{ citations: { record_id: string }[] }>('/brains/b/context', {
        query: 'zebra diary',
      });
      assert.deepEqual(
        ctx.body.citations.map((c) => c.record_id),
        [record.id],
      );
    });
  });
}
