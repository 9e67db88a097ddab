import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite } from '../../engine/adapters/postgres/testing/fixtures.ts';
import type { Profile } from '../../engine/contract/index.ts';
import { encodeCursor } from '../../engine/core/shared/page-cursor.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

// Made at the top level: it closes after the file.
const pg = await migratedPglite();

const engines: [string, () => Promise<Engine>][] = [
  ['SQLite', () => open(tempDir())],
  [
    'PostgreSQL (PGlite)',
    async () =>
      (
        await openPostgresEngine(
          { open: () => postgresStorageOver({ ...pg, close: async () => {} }) },
          { deployment: 'local' },
        )
      ).engine,
  ],
];

const day = (d: number) => new Date(Date.UTC(2024, 0, 1) + d * 86_400_000).toISOString();

/**
 * In a round of use an allergy said early was line 153 of a Profile of everyday statements, each newer
 * than it: an agent reading the first page (50 lines) never saw it.
 */
describe('the Profile puts health first, then the slots, then the rest', () => {
  for (const [name, opened] of engines)
    it(`${name}: an allergy said before 65 everyday statements is on page one, and paging across the groups loses and repeats nothing`, async () => {
      const engine = await opened();
      after(() => engine.close());
      // A Brain of its own: the PGlite database is the file's.
      const brain = `hf${name.length}`;
      await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Ana' } });
      const say = (text: string, d: number) =>
        engine.rememberRecord(
          tenant,
          brain,
          { content: { kind: 'message', speaker: 'user', text }, occurred_at: day(d) },
          {},
        );
      await say("I'm allergic to penicillin.", 0);
      await say('I live in Porto.', 1);
      await say('I take 50mg of sertraline every morning.', 2);
      for (let i = 0; i < 65; i += 1)
        await say(`I watered the tomatoes in the garden ${i + 1} times.`, 10 + i);
      await say('I work at Farfetch.', 80);
      await engine.idle();

      const first = await engine.getProfile(tenant, brain, { limit: 50 });
      const lines = first.lines.map((l) => [l.group, l.statement]);
      assert.deepEqual(lines.slice(0, 4), [
        ['health', 'I take 50mg of sertraline every morning.'],
        ['health', "I'm allergic to penicillin."],
        ['slot', 'Ana works at Farfetch'],
        ['slot', 'Ana lives in Porto'],
      ]);
      assert.deepEqual(lines[4], ['other', 'I watered the tomatoes in the garden 65 times.']);
      assert.equal(first.has_more, true);

      // The whole Profile in one read, and again a few lines a page: with 2 a page ends on the last
      // (oldest) line of each of the first two groups, whose dates are older than the next group's lines.
      const whole = await engine.getProfile(tenant, brain, { limit: 200 });
      assert.equal(whole.has_more, false);
      assert.equal(whole.lines.length, 69);
      for (const limit of [2, 3, 5]) {
        const paged: Profile['lines'] = [];
        let cursor: string | undefined;
        for (let i = 0; i < 40; i += 1) {
          const p: Profile = await engine.getProfile(tenant, brain, { limit, ...(cursor ? { cursor } : {}) });
          paged.push(...p.lines);
          if (!p.next_cursor) break;
          cursor = p.next_cursor;
        }
        assert.deepEqual(
          paged.map((l) => l.memory_id),
          whole.lines.map((l) => l.memory_id),
          `${limit} a page`,
        );
      }
      assert.deepEqual(
        [...new Set(whole.lines.map((l) => l.group))],
        ['health', 'slot', 'other'],
        'each group once, in order',
      );

      // A cursor issued before health came first holds another order's place: refused, naming it.
      for (const old of [
        `profile:o:${Date.parse(day(40))}:12:${brain}`,
        `profile:${Date.parse(day(40))}:12:${brain}`,
      ])
        await assert.rejects(
          engine.getProfile(tenant, brain, { limit: 3, cursor: encodeCursor(old) }),
          (e: Error & { code?: string }) =>
            e.code === 'invalid_request_body' && /earlier version of this server/u.test(e.message),
        );
    });
});

describe('the Profile says a sentence once', () => {
  for (const [name, opened] of engines)
    it(`${name}: a break-up is its slot line, not also a line of its own under the rest`, async () => {
      const engine = await opened();
      after(() => engine.close());
      const brain = `once${name.length}`;
      await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Tomislav' } });
      const say = (text: string, d: number) =>
        engine.rememberRecord(
          tenant,
          brain,
          { content: { kind: 'message', speaker: 'user', text }, occurred_at: day(d) },
          {},
        );
      await say('My girlfriend is Petra Novak.', 0);
      await say('Petra and I broke up tonight. It was mutual but it hurts.', 20);
      await engine.idle();

      const lines = (await engine.getProfile(tenant, brain, { limit: 50 })).lines.map((l) => [
        l.group,
        l.statement,
        l.citations.map((c) => c.quote).join(' / '),
      ]);
      assert.deepEqual(lines, [
        ['slot', "Tomislav's girlfriend is no longer Petra Novak", 'Petra and I broke up tonight.'],
        ['other', 'It was mutual but it hurts.', 'It was mutual but it hurts.'],
      ]);
      // The sentence is still a Memory of its own: only the card leaves it out.
      const all = await engine.listMemories(tenant, brain, { limit: 50 });
      assert.ok(all.data.some((m) => m.statement === 'Petra and I broke up tonight.'));
    });
});
