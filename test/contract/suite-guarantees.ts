import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Brain,
  ContextReady,
  MemoryDetail,
  MemoryPage,
  MnemoRecord,
  Trace,
  TracePage,
} from '../../engine/contract/index.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import type { RunningServer } from '../../server/start-server.ts';
import { assertError, assertShape, client, eventually, freshKey, type ServerFactory } from './harness.ts';
import { brainWithKey, ready, remember, type EngineTraits } from './suite-records.ts';
import { startChatCompletionsStandIn } from '../support/chat-completions-stand-in.ts';

/**
 * Guarantees of the spec (and of docs/decisions.md where the spec leaves a choice open) that no other
 * check of the suite held: each test here fails if its rule breaks on any engine it runs on.
 */
export function guaranteeChecks(factory: ServerFactory, traits: EngineTraits): void {
  describe('spec guarantees', () => {
    let server: RunningServer;
    before(async () => (server = await factory()));
    after(() => server.close());

    it('forgetBrain removes everything the Brain held: the same id made again holds nothing of it', async () => {
      const api = await brainWithKey(server, 'again');
      const { record, watermark } = await remember(api, 'again', { content: 'The gate code is 4410.' });
      await ready(api, 'again', record.id);
      assert.equal(
        (await api.post('/brains/again/objects', { type: 'door', key: 'gate', value: 4410 })).status,
        201,
      );
      assert.equal((await api.post('/brains/again/context', { query: 'gate code' })).status, 200);
      assert.equal((await api.del('/brains/again')).status, 200);

      assert.equal(
        (await api.post('/brains', { id: 'again', self: { type: 'person', name: 'Ana' } })).status,
        201,
      );
      assertError(await api.get(`/brains/again/records/${record.id}`), 404, 'not_found', 'record_not_found');
      assert.deepEqual((await api.get<{ data: unknown[] }>('/brains/again/records')).body.data, []);
      assert.deepEqual(assertShape(MemoryPage, (await api.get('/brains/again/memories')).body).data, []);
      assertError(await api.get('/brains/again/objects/door/gate'), 404, 'not_found', 'object_not_found');
      assert.deepEqual(assertShape(TracePage, (await api.get('/brains/again/traces')).body).data, []);
      const miss = assertShape(
        ContextReady,
        (await api.post('/brains/again/context', { query: 'gate code' })).body,
      );
      assert.deepEqual([miss.citations, miss.text], [[], null]);
      // A watermark of the old Brain names a boundary of a Brain that no longer exists.
      assertError(
        await api.get(`/brains/again/memories?since_watermark=${encodeURIComponent(watermark)}`),
        400,
        'invalid_request',
        'invalid_watermark',
      );
    });

    it('forgetRecord is a write: it returns a Brain-Watermark past the one of the write it undoes', async () => {
      const api = await brainWithKey(server, 'fw');
      const { record, watermark } = await remember(api, 'fw', { content: 'A note about the red canoe.' });
      await ready(api, 'fw', record.id);
      const r = await api.del(`/brains/fw/records/${record.id}`);
      assert.equal(r.status, 200, r.text);
      const mark = r.headers.get('brain-watermark') ?? '';
      assert.match(mark, /^wm_/);
      assert.notEqual(mark, watermark);
      assert.equal((r.body as { watermark: string }).watermark, mark, 'the receipt names the same boundary');
      // Read-your-write holds for a forget too: a Context at its boundary no longer cites the Record.
      const ctx = await eventually('a Context at the forget', async () => {
        const c = await api.post('/brains/fw/context', { query: 'red canoe' }, { 'Brain-Watermark': mark });
        return c.status === 200 && assertShape(ContextReady, c.body);
      });
      assert.ok(!ctx.citations.some((c) => c.record_id === record.id));
      const delta = await api.get(`/brains/fw/memories?since_watermark=${encodeURIComponent(mark)}`);
      assert.equal(delta.status, 200, delta.text);
    });

    it('an undeclared query parameter is unknown_query_parameter on every operation, naming it', async () => {
      const api = await brainWithKey(server, 'uq');
      const { record } = await remember(api, 'uq', { content: 'x' });
      const paths: Array<['GET' | 'POST' | 'DELETE', string, unknown?]> = [
        ['GET', '/brains?colour=red'],
        ['GET', '/brains/uq?colour=red'],
        ['GET', `/brains/uq/records/${record.id}?colour=red`],
        ['GET', '/brains/uq/profile?colour=red'],
        ['GET', '/brains/uq/census?colour=red'],
        ['GET', '/brains/uq/traces?colour=red'],
        ['GET', '/brains/uq/objects/t/k?colour=red'],
        ['POST', '/brains/uq/context?colour=red', { query: 'x' }],
        ['POST', '/brains/uq/records?colour=red', { content: 'y' }],
        ['DELETE', `/brains/uq/records/${record.id}?colour=red`],
      ];
      for (const [method, path, body] of paths) {
        const e = assertError(
          await api.call(method, path, body),
          400,
          'invalid_request',
          'unknown_query_parameter',
        );
        assert.match(String(e.message), /colour/, `${method} ${path}`);
      }
      assert.equal((await api.get(`/brains/uq/records/${record.id}`)).status, 200, 'nothing was forgotten');
      assert.equal((await api.get<{ data: unknown[] }>('/brains/uq/records')).body.data.length, 1);
    });

    it('page sizes and the Idempotency-Key length are bounded as docs/decisions.md gives them, not clamped', async () => {
      const api = await brainWithKey(server, 'pg');
      const bounds: Array<[string, number]> = [
        ['memories', 200],
        ['records', 200],
        ['profile', 200],
        ['traces', 100],
        ['objects', 500],
      ];
      for (const [list, max] of bounds) {
        assert.equal((await api.get(`/brains/pg/${list}?limit=${max}`)).status, 200, list);
        for (const limit of [max + 1, 0]) {
          const e = assertError(
            await api.get(`/brains/pg/${list}?limit=${limit}`),
            400,
            'invalid_request',
            'invalid_request_body',
          );
          assert.equal(e.message, `limit: must be an integer between 1 and ${max}`, `${list} ${limit}`);
        }
      }
      for (let i = 0; i < 21; i += 1)
        assert.equal((await api.post('/brains/pg/context', { query: `question ${i}` })).status, 200);
      const traces = assertShape(TracePage, (await api.get('/brains/pg/traces')).body);
      assert.deepEqual([traces.data.length, traces.has_more], [20, true], 'listTraces pages 20 by default');

      const refused = assertError(
        await api.post('/brains/pg/records', { content: 'x' }, { 'Idempotency-Key': 'k'.repeat(256) }),
        400,
        'invalid_request',
        'invalid_request_body',
      );
      assert.match(String(refused.message), /^Idempotency-Key: /);
      await remember(api, 'pg', { content: 'x' }, { 'Idempotency-Key': 'k'.repeat(255) });
    });

    it('a Trace records the request, the filters Context does not enforce included', async () => {
      const api = await brainWithKey(server, 'tr');
      const request = {
        query: 'where is the canoe',
        purpose: 'planning',
        as_of: '2030-01-01T00:00:00Z',
        filter: { subjects: ['Ana'], owner: 'self', sensitivity_lte: 'low' },
      };
      const ctx = assertShape(ContextReady, (await api.post('/brains/tr/context', request)).body);
      const trace = assertShape(Trace, (await api.get(`/brains/tr/traces/${ctx.id}`)).body);
      assert.deepEqual([trace.id, trace.query, trace.purpose], [ctx.id, request.query, 'planning']);
      const recorded = trace.request as Record<string, unknown>;
      assert.equal(recorded.as_of, request.as_of, 'the as_of boundary is recorded');
      assert.deepEqual(recorded.filter, request.filter);
    });

    it('a Brain created without name or self reports both as null', async () => {
      const api = client(server, await freshKey(server));
      const created = assertShape(Brain, (await api.post('/brains', { id: 'bare' })).body);
      assert.deepEqual([created.name, created.self], [null, null]);
      assert.deepEqual((await api.get('/brains/bare')).body, created);
    });

    it('a schema is answered as unavailable structured output, never malformed; budget.ms is echoed', async () => {
      const api = await brainWithKey(server, 'sc');
      const r = await api.post('/brains/sc/context', {
        query: 'anything',
        schema: { type: 'object', properties: { city: { type: 'string' } } },
        budget: { ms: 5000 },
      });
      assert.equal(r.status, 200, r.text);
      const ctx = assertShape(ContextReady, r.body) as ContextReady & {
        structured?: { available: boolean; reason: string };
      };
      assert.equal(ctx.structured?.available, false);
      assert.ok(typeof ctx.structured.reason === 'string' && ctx.structured.reason.length > 0);
      assert.equal(ctx.budget.ms, 5000);
      const plain = assertShape(ContextReady, (await api.post('/brains/sc/context', { query: 'x' })).body);
      assert.equal('structured' in plain, false, 'no schema asked, none answered');
    });

    it(
      'a thorough Context past its synchronous budget is 202 with only the processing fields; the retry is 200 under its id',
      { skip: traits.assemblesAtOnce ? 'this engine assembles a Context in one synchronous step' : false },
      async () => {
        const slow = await factory({ thoroughSyncMs: 1 });
        try {
          const api = await brainWithKey(slow, 'th');
          for (const text of ['Ana keeps bees in Sintra.', 'The bees make orange honey.'])
            await ready(api, 'th', (await remember(api, 'th', { content: text })).record.id);
          // Each query is a new request: a kept result of an earlier one is never served to it.
          let processing: { status: number; body: Record<string, unknown>; query: string } | null = null;
          for (let i = 0; i < 10 && !processing; i += 1) {
            const query = `Where does Ana keep bees? (${i})`;
            const r = await api.post('/brains/th/context', { query, mode: 'thorough' });
            if (r.status === 202) processing = { status: r.status, body: r.body, query };
            else assert.equal(r.status, 200, r.text);
          }
          assert.ok(processing, 'a 1 ms budget was exceeded at least once in 10 requests');
          const p = processing.body;
          // "A processing Context carries only: id, object, status, query, watermark, empty citations,
          // unknowns containing the query, and a budget with estimated_tokens and truncated."
          assert.deepEqual(Object.keys(p).sort(), [
            'budget',
            'citations',
            'id',
            'object',
            'query',
            'status',
            'unknowns',
            'watermark',
          ]);
          assert.deepEqual(Object.keys(p.budget as object).sort(), ['estimated_tokens', 'truncated']);
          assert.deepEqual(
            [p.object, p.status, p.query, p.citations],
            ['context', 'processing', processing.query, []],
          );
          assert.ok((p.unknowns as string[]).includes(processing.query));
          assert.match(String(p.id), /^ctx_/);
          assert.match(String(p.watermark), /^wm_/);
          // A loaded machine may take a while to finish the assembly in the background.
          const done = await eventually(
            'the same request to be answered ready',
            async () => {
              const r = await api.post('/brains/th/context', { query: processing.query, mode: 'thorough' });
              return r.status === 200 && assertShape(ContextReady, r.body);
            },
            60_000,
          );
          assert.deepEqual([done.id, done.status], [p.id, 'ready']);
        } finally {
          await slow.close();
        }
      },
    );

    it(
      'a correction supersedes its Memory, keeping the old version; a missing or already-superseded target writes nothing',
      { skip: traits.kinds.includes('correction') ? false : 'this engine takes no correction Records' },
      async () => {
        const api = await brainWithKey(server, 'fix');
        const { record } = await remember(api, 'fix', {
          content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value: 'Globex' },
        });
        const target = (await ready(api, 'fix', record.id)).memory_ids[0]!;
        const records = async () =>
          (await api.get<{ data: unknown[] }>('/brains/fix/records?limit=200')).body.data.length;
        const before = await records();

        const missing = assertError(
          await api.post('/brains/fix/records', {
            content: { kind: 'correction', corrects: 'mem_01M0000000000000000000NOPE', statement: 'x' },
          }),
          404,
          'not_found',
          'corrected_memory_not_found',
        );
        assert.match(String(missing.message), /mem_01M0000000000000000000NOPE/);
        assert.equal(await records(), before, 'checked before anything is written');

        const fixed = await remember(api, 'fix', {
          content: { kind: 'correction', corrects: target, statement: 'Ana works at Initech' },
        });
        const successor = (await ready(api, 'fix', fixed.record.id)).memory_ids[0]!;
        assert.ok(successor && successor !== target);
        const now = assertShape(MemoryDetail, (await api.get(`/brains/fix/memories/${successor}`)).body);
        const old = assertShape(MemoryDetail, (await api.get(`/brains/fix/memories/${target}`)).body);
        assert.deepEqual([now.status, now.valid_to, now.version], ['active', null, old.version + 1]);
        assert.notEqual(old.status, 'active', 'one active value per slot');
        assert.notEqual(old.valid_to, null, 'the old version is kept, closed');
        const current = assertShape(MemoryPage, (await api.get('/brains/fix/memories')).body).data;
        assert.ok(current.some((m) => m.id === successor));
        assert.ok(!current.some((m) => m.id === target));
        const after = await records();

        assertError(
          await api.post('/brains/fix/records', {
            content: { kind: 'correction', corrects: target, statement: 'Ana works at Hooli' },
          }),
          409,
          'conflict',
          'correction_conflict',
        );
        assert.equal(await records(), after, 'the attempt rolls back whole');
        assert.equal(
          assertShape(MemoryDetail, (await api.get(`/brains/fix/memories/${successor}`)).body).status,
          'active',
        );
      },
    );

    describe('a correction that says from when its statement holds (valid_from)', () => {
      const skip = traits.kinds.includes('correction') ? false : 'this engine takes no correction Records';
      const employer = (value: string, occurred_at: string) => ({
        content: { kind: 'fact', subject: 'Ana', predicate: 'employer', value },
        occurred_at,
      });
      /** Brain `id` where Ana worked at Acme from 2024 and the engine took Sonae as holding from `said`. */
      const sonaeSaid = async (id: string, said: string) => {
        const api = await brainWithKey(server, id);
        const acme = (
          await ready(api, id, (await remember(api, id, employer('Acme', '2024-01-01T00:00:00Z'))).record.id)
        ).memory_ids[0]!;
        const sonae = (await ready(api, id, (await remember(api, id, employer('Sonae', said))).record.id))
          .memory_ids[0]!;
        const memory = async (m: string) =>
          assertShape(MemoryDetail, (await api.get(`/brains/${id}/memories/${m}`)).body);
        const asOf = async (at: string) =>
          assertShape(
            MemoryPage,
            (await api.get(`/brains/${id}/memories?subject=Ana&as_of=${encodeURIComponent(at)}`)).body,
          ).data.map((m) => m.statement);
        const correct = (content: Record<string, unknown>) =>
          api.post(`/brains/${id}/records`, { content: { kind: 'correction', corrects: sonae, ...content } });
        const records = async () =>
          (await api.get<{ data: unknown[] }>(`/brains/${id}/records?limit=200`)).body.data.length;
        return { api, acme, sonae, memory, asOf, correct, records };
      };

      it(
        'later than now: the new version is scheduled, and the value before the corrected one holds until then',
        { skip },
        async () => {
          const b = await sonaeSaid('vf-later', '2026-03-01T10:00:00Z');
          const start = '2099-01-11T00:00:00+01:00';
          const fixed = await b.correct({ statement: 'Ana works at Sonae', valid_from: start });
          assert.equal(fixed.status, 202, fixed.text);
          const successor = (await ready(b.api, 'vf-later', assertShape(MnemoRecord, fixed.body).id))
            .memory_ids[0]!;
          const made = await b.memory(successor);
          assert.deepEqual([made.status, made.valid_from, made.valid_to], ['scheduled', start, null]);
          // The corrected Memory never held (a correction says so); Acme is current until the start.
          const corrected = await b.memory(b.sonae);
          assert.deepEqual([corrected.status, corrected.valid_to], ['superseded', corrected.valid_from]);
          const acme = await b.memory(b.acme);
          assert.deepEqual([acme.status, acme.valid_to], ['active', start]);
          const current = assertShape(
            MemoryPage,
            (await b.api.get('/brains/vf-later/memories?subject=Ana')).body,
          ).data;
          assert.deepEqual(
            current.map((m) => m.id),
            [b.acme],
          );
          assert.deepEqual(await b.asOf('2026-06-01T00:00:00Z'), ['Ana employer: Acme']);
          assert.deepEqual(await b.asOf('2099-02-01T00:00:00Z'), ['Ana works at Sonae']);
          const scheduled = assertShape(
            MemoryPage,
            (await b.api.get('/brains/vf-later/memories?subject=Ana&status=scheduled')).body,
          ).data;
          assert.deepEqual(
            scheduled.map((m) => m.id),
            [successor],
          );
          // The Record keeps the date as it was sent.
          const record = assertShape(
            MnemoRecord,
            (await b.api.get(`/brains/vf-later/records/${made.citations[0]!.record_id}`)).body,
          );
          assert.equal((record.content as { valid_from?: string }).valid_from, start);
        },
      );

      it(
        'in the past: the new version holds from that date, and as_of reads the history by it',
        { skip },
        async () => {
          // Earlier than the corrected Memory's own start: she started at Sonae before she said so.
          const early = await sonaeSaid('vf-early', '2026-03-01T10:00:00Z');
          const fixed = await early.correct({
            statement: 'Ana works at Sonae',
            valid_from: '2026-02-01T00:00:00Z',
          });
          assert.equal(fixed.status, 202, fixed.text);
          const id = (await ready(early.api, 'vf-early', assertShape(MnemoRecord, fixed.body).id))
            .memory_ids[0]!;
          const made = await early.memory(id);
          assert.deepEqual(
            [made.status, made.valid_from, made.valid_to],
            ['active', '2026-02-01T00:00:00Z', null],
          );
          assert.equal((await early.memory(early.acme)).valid_to, '2026-02-01T00:00:00Z');
          assert.deepEqual(await early.asOf('2026-01-15T00:00:00Z'), ['Ana employer: Acme']);
          assert.deepEqual(await early.asOf('2026-02-15T00:00:00Z'), ['Ana works at Sonae']);

          // Later than it: Acme held until then, the corrected Memory never.
          const late = await sonaeSaid('vf-late', '2026-03-01T10:00:00Z');
          const again = await late.correct({
            statement: 'Ana works at Sonae',
            valid_from: '2026-04-01T00:00:00Z',
          });
          assert.equal(again.status, 202, again.text);
          assert.equal((await late.memory(late.acme)).valid_to, '2026-04-01T00:00:00Z');
          assert.deepEqual(await late.asOf('2026-03-15T00:00:00Z'), ['Ana employer: Acme']);
          assert.deepEqual(await late.asOf('2026-04-15T00:00:00Z'), ['Ana works at Sonae']);
        },
      );

      it(
        'a date that is not one, or that cannot hold, is invalid_request_body and writes nothing',
        { skip },
        async () => {
          const b = await sonaeSaid('vf-bad', '2026-03-01T10:00:00Z');
          const before = await b.records();
          const refused = async (content: Record<string, unknown>, says: RegExp) => {
            const body = assertError(
              await b.correct(content),
              400,
              'invalid_request',
              'invalid_request_body',
            );
            assert.match(String(body.message), says);
            assert.equal(await b.records(), before, 'nothing was written');
          };
          // As every time of the API: a date-time with an offset, not a bare day.
          await refused(
            { statement: 'Ana works at Sonae', valid_from: '2027-01-11' },
            /^content\.valid_from: .*RFC 3339/,
          );
          await refused(
            { statement: 'Ana works at Sonae', valid_from: 'next monday' },
            /^content\.valid_from: /,
          );
          // A withdrawal has no date.
          await refused({ valid_from: '2027-01-11T00:00:00Z' }, /^content\.valid_from: needs a statement/);
          // Before Acme began: Acme would follow it and be current again.
          await refused(
            { statement: 'Ana works at Sonae', valid_from: '2023-01-01T00:00:00Z' },
            new RegExp(`^content\\.valid_from: .*${b.acme}`),
          );
          const note = await remember(b.api, 'vf-bad', { content: 'A note about the red canoe.' });
          const noSlot = (await ready(b.api, 'vf-bad', note.record.id)).memory_ids[0]!;
          assert.equal((await b.memory(noSlot)).slot, null);
          const later = await b.records();
          const body = assertError(
            await b.api.post('/brains/vf-bad/records', {
              content: {
                kind: 'correction',
                corrects: noSlot,
                statement: 'A note about the blue canoe.',
                valid_from: '2099-01-01T00:00:00Z',
              },
            }),
            400,
            'invalid_request',
            'invalid_request_body',
          );
          assert.match(String(body.message), /^content\.valid_from: .*holds no slot/);
          assert.equal(await b.records(), later, 'nothing was written');
          // The Memories are as they were.
          assert.equal((await b.memory(b.sonae)).status, 'active');
        },
      );
    });

    it(
      'a Memory waiting for re-derivation is memory_pending_rederivation and left out of reads, then served under its id',
      { skip: traits.sharesMemories ? false : 'no Memory of this engine is supported by two Records' },
      async () => {
        // The engine's own rules, refusing to derive while the test holds them: a re-derivation that
        // fails is tried again 1 s later, so the Memory stays pending until the test lets it go.
        const rules = createRuleDeriver();
        let held = false;
        const deriver: Deriver = {
          name: rules.name,
          derive: (record, ctx) => {
            if (held) throw new Error('held by the test');
            return rules.derive(record, ctx);
          },
        };
        const own = await factory({ deriver });
        try {
          const api = await brainWithKey(own, 'pend');
          const said = (text: string) => ({ content: { kind: 'message', text, speaker: 'user' } });
          const a = await remember(api, 'pend', said('I like sailing. The locker code is 7731.'));
          const ra = await ready(api, 'pend', a.record.id);
          const rb = await ready(
            api,
            'pend',
            (await remember(api, 'pend', said('I like sailing.'))).record.id,
          );
          const shared = ra.memory_ids.filter((id) => rb.memory_ids.includes(id));
          assert.equal(shared.length, 1, 'the two Records support one Memory');
          const id = shared[0]!;

          held = true;
          const r = await api.del(`/brains/pend/records/${a.record.id}`);
          assert.equal(r.status, 200, r.text);
          assert.equal((r.body as { rederiving: { memories: number } }).rederiving.memories, 1);
          const e = assertError(
            await api.get(`/brains/pend/memories/${id}`),
            404,
            'not_found',
            'memory_pending_rederivation',
          );
          assert.match(String(e.message), new RegExp(id));
          const listed = assertShape(MemoryPage, (await api.get('/brains/pend/memories?limit=200')).body);
          assert.ok(!listed.data.some((m) => m.id === id), 'excluded from every read');

          held = false;
          const back = await eventually(
            'the Memory derived again',
            async () => {
              const g = await api.get(`/brains/pend/memories/${id}`);
              return g.status === 200 && assertShape(MemoryDetail, g.body);
            },
            30_000,
          );
          assert.deepEqual(
            back.citations.map((c) => c.record_id),
            [rb.id],
            'derived from the surviving Record only',
          );
        } finally {
          held = false;
          await own.close();
        }
      },
    );

    it(
      'an owner that is resolved names its entity',
      { skip: traits.resolvesOwners ? false : 'this engine resolves no owners' },
      async () => {
        const api = await brainWithKey(server, 'own');
        for (const [speaker, text] of [
          ['Ana', 'I grow tomatoes on the balcony.'],
          ['Rui', 'I play the cello on Fridays.'],
        ] as const) {
          const { record } = await remember(api, 'own', { content: { kind: 'message', text, speaker } });
          await ready(api, 'own', record.id);
        }
        const page = assertShape(MemoryPage, (await api.get('/brains/own/memories?limit=50')).body);
        const states = new Set(page.data.map((m) => m.owner.state));
        assert.ok(states.has('self') && states.has('other'), JSON.stringify(page.data.map((m) => m.owner)));
        for (const m of page.data) {
          if (m.owner.state === 'unresolved') continue;
          assert.ok(typeof m.owner.entity === 'string' && m.owner.entity.length > 0, JSON.stringify(m));
        }
        assert.ok(page.data.some((m) => m.owner.state === 'self' && m.owner.entity === 'Ana'));
      },
    );

    it('a Record is processing with no memory_ids, or ready with them; memory_ids are fetchable Memories', async () => {
      const api = await brainWithKey(server, 'st');
      const { record } = await remember(api, 'st', { content: 'The spare tyre is in the boot.' });
      if (record.status === 'processing') assert.deepEqual(record.memory_ids, []);
      const done = await ready(api, 'st', record.id);
      assert.ok(done.memory_ids.length > 0);
      for (const id of done.memory_ids) {
        const m = assertShape(MemoryDetail, (await api.get(`/brains/st/memories/${id}`)).body);
        assert.ok(m.citations.some((c) => c.record_id === record.id));
      }
      assertShape(MnemoRecord, done);
    });
    it(
      'thorough adds a generative query rewrite: its own lane, one generative call; fast never calls the model',
      { skip: traits.rewritesQueries ? false : 'this engine has no query rewrite' },
      async () => {
        const llm = await startChatCompletionsStandIn();
        const withModel = await factory({ rewriteUrl: llm.url, rewriteModel: 'stand-in' });
        try {
          const api = await brainWithKey(withModel, 'rw');
          const { record } = await remember(api, 'rw', { content: 'My vehicle is a blue Volvo.' });
          await ready(api, 'rw', record.id);
          llm.behave({ kind: 'phrasings', lines: ['vehicle'] });
          const fast = assertShape(
            ContextReady,
            (await api.post('/brains/rw/context', { query: 'What car do I drive?' })).body,
          );
          assert.equal(llm.requests.length, 0, 'fast never calls the generative model');
          assert.equal(fast.cost.generative_calls, 0);
          assert.equal(fast.cost.model_calls_total, fast.cost.embedding_calls);

          const r = await api.post('/brains/rw/context', { query: 'What car do I drive?', mode: 'thorough' });
          assert.equal(r.status, 200, r.text);
          const thorough = assertShape(ContextReady, r.body);
          assert.equal(llm.requests.length, 1);
          assert.equal(thorough.cost.generative_calls, 1);
          assert.equal(thorough.cost.model_calls_total, 1 + thorough.cost.embedding_calls);
          const trace = assertShape(Trace, (await api.get(`/brains/rw/traces/${thorough.id}`)).body);
          const lane = trace.lanes.find((l) => l.name === 'rewrite');
          assert.deepEqual(
            lane?.candidates.map((c) => [c.record_id, c.reason]),
            [[record.id, 'shared words: vehicle']],
            trace.lanes.map((l) => l.name).join(' | '),
          );
          assert.ok(thorough.citations.some((c) => c.record_id === record.id));
        } finally {
          await withModel.close();
          await llm.close();
        }
      },
    );
  });
}
