import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { reusedPgliteDatabases } from '../../engine/adapters/postgres/testing/pglite.ts';
import type { Context, ContextReady } from '../../engine/contract/index.ts';
import { createMnemoClient } from '../../server/client/index.ts';
import { startServer, type RunningServer } from '../../server/start-server.ts';
import { tempDir } from './local-helpers.ts';
import { serveLocal } from './serve-local.ts';

/*
 * U8: "Where did I live in mid October?", asked in December of a Brain whose person moved on 1
 * November, was answered with the home since and not the one of then: the slot lane read the holder at
 * the end of October where the person lives, west of UTC hours after the move's 1 November (UTC).
 * Through the real HTTP server of each engine, with times counted back from the server's own clock
 * (the question's month is the one two months before now).
 */
const database = await reusedPgliteDatabases({ vector: true, migrated: true });
const zone = 'America/New_York';
const servers: Array<[string, () => Promise<{ server: RunningServer; key: string }>]> = [
  ['SQLite', () => serveLocal(tempDir(), { timeZone: zone })],
  [
    'PostgreSQL (PGlite)',
    async () => {
      const server = await startServer({
        engine: 'postgres',
        port: 0,
        rateLimit: 0,
        deployment: 'local',
        timeZone: zone,
        configDir: join(tempDir(), 'config'),
        openDatabase: async (kept) => postgresStorageOver(await database(), kept),
      });
      return { server, key: (await server.registry!.create({ env: 'test', project: 'home' })).key };
    },
  ],
];

const months = 'January February March April May June July August September October November December'.split(
  ' ',
);
const DAY = 86_400_000;

for (const [name, serve] of servers)
  describe(`${name}: a question naming a past time reads a slot's values of then`, () => {
    it('the home of a month before the move leads, saying when it held; now and as_of read as before', async () => {
      const { server, key } = await serve();
      try {
        const mnemo = createMnemoClient({ baseUrl: server.url, apiKey: key });
        await mnemo.createBrain({ id: 'me', self: { type: 'person', name: 'Maya Costa' } });
        // The month asked about (M) is the one two months before this one; she moved on the 1st of the
        // month after it (00:00 UTC, the evening before in New York), and changed jobs on M's 20th.
        const today = new Date();
        const m = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 2, 1));
        const moved = Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1);
        const newJob = Date.UTC(m.getUTCFullYear(), m.getUTCMonth(), 20, 12);
        const month = months[m.getUTCMonth()]!;
        let watermark: string | undefined;
        const say = async (text: string, atMs: number) => {
          const r = await mnemo.rememberRecord('me', {
            content: { kind: 'message', text, speaker: 'Maya Costa' },
            occurred_at: new Date(atMs).toISOString(),
          });
          watermark = r.watermark ?? watermark;
          return r.record.id;
        };
        const lisbon = await say('I live in Lisbon.', moved - 400 * DAY);
        const farfetch = await say('I work at Farfetch.', moved - 390 * DAY);
        const berlin = await say('I moved to Berlin.', moved);
        const sonae = await say('I started a new job at Sonae.', newJob);
        const ask = async (query: string, extra: object = {}) => {
          let c: Context;
          for (;;) {
            c = (await mnemo.createContext('me', { query, ...extra }, { watermark })).context;
            if (c.status === 'ready') break;
            await new Promise((r) => setTimeout(r, 50));
          }
          const ready = c as ContextReady;
          const trace = await mnemo.getTrace('me', ready.id);
          const slot = trace.lanes.find((l) => l.name === 'slot')?.candidates.map((x) => x.record_id) ?? [];
          return { cited: ready.citations.map((x) => x.record_id), text: ready.text ?? '', slot };
        };

        const then = await ask(`Where did I live in mid ${month}?`);
        // Lisbon held all the month but its last hours, Berlin those: both, Lisbon first.
        assert.deepEqual(then.slot, [lisbon, berlin], 'the home of then leads, not the one since');
        assert.equal(then.cited[0], lisbon, then.text);
        const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
        assert.match(
          then.text,
          new RegExp(
            `held: ${day(moved - 400 * DAY)}T[^\\n]* to ${day(moved)}T00:00:00Z\\nI live in Lisbon\\.`,
          ),
        );

        // The job changed inside the month: both, the one held the longer part of it first.
        const jobs = await ask(`Where did I work in ${month}?`);
        assert.deepEqual(jobs.slot, [farfetch, sonae]);
        assert.match(
          jobs.text,
          new RegExp(`held: from ${day(newJob)}T12:00:00Z\\nI started a new job at Sonae\\.`),
        );

        // Asked in the present, the home now, as before, and no block says when it held.
        const now = await ask('Where do I live?');
        assert.deepEqual(now.slot, [berlin]);
        assert.equal(now.cited[0], berlin);
        assert.ok(!now.cited.includes(lisbon), now.text);
        assert.doesNotMatch(now.text, /held:/);

        // as_of still wins: read at a day of the month asked about, "now" is then; and a time the
        // question names is read only up to it: hours before the move, "last week" (which the parser
        // reads up to the end of as_of's day) has no Berlin in it.
        const asOf = { as_of: new Date(m.getTime() + 14 * DAY).toISOString() };
        assert.deepEqual((await ask('Where do I live?', asOf)).slot, [lisbon]);
        const eve = await ask('Where did I live last week?', {
          as_of: new Date(moved - 6 * 3_600_000).toISOString(),
        });
        assert.deepEqual(eve.slot, [lisbon]);
        assert.ok(!eve.cited.includes(berlin), eve.text);
      } finally {
        await server.close();
      }
    });
  });
