import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pgUpgradeList } from '../../engine/adapters/postgres/derivation-upgrade.ts';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite, recordRow } from '../../engine/adapters/postgres/testing/fixtures.ts';
import { pgUnitsOfWork } from '../../engine/adapters/postgres/unit-of-work.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import type { Context, ContextReady } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import { eventually } from '../contract/harness.ts';
import { open, rememberReady, tempDir, tenant } from './local-helpers.ts';

// Made at the top level: it closes after the file.
const pg = await migratedPglite();

/** A chat export names its people by first name: "Maya" is the self "Maya Costa" unless it may be another. */
describe("the self's first name alone is the self, unless another person has it", () => {
  async function maya(engine?: Engine) {
    engine ??= await open(tempDir());
    await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Maya Costa' } });
    const said = (text: string, speaker: string, at: string) =>
      rememberReady(engine, { content: { kind: 'message', text, speaker, thread: 'chat' }, occurred_at: at });
    const profile = async () =>
      (await engine.getProfile(tenant, 'b', { limit: 50 })).lines.map((l) => l.statement).sort();
    return { engine, said, profile };
  }

  it('"Maya" (or "máya") says where the self lives: the Profile has it, and a move replaces it', async () => {
    const { engine, said, profile } = await maya();
    const porto = await said('I live in Porto.', 'Maya', '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
    assert.deepEqual(
      [m.statement, m.owner.state, m.subject],
      ['Maya Costa lives in Porto', 'self', 'Maya Costa'],
    );
    await said('I moved to Braga.', 'máya', '2024-02-01T10:00:00Z');
    assert.deepEqual(await profile(), ['Maya Costa lives in Braga']);
    await engine.close();
  });

  it('with another speaker "Maya Silva" in the Brain, "Maya" is nobody known: not in the Profile', async () => {
    const { engine, said, profile } = await maya();
    await said('I live in Lisbon.', 'Maya Silva', '2024-01-01T09:00:00Z');
    const porto = await said('I live in Porto.', 'Maya', '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', porto.memory_ids[0]!);
    assert.deepEqual([m.statement, m.owner.state], ['I live in Porto.', 'unresolved']);
    assert.deepEqual(await profile(), []);
    // The self's full name is still hers.
    await said('I live in Faro.', 'Maya Costa', '2024-01-02T10:00:00Z');
    assert.deepEqual(await profile(), ['Maya Costa lives in Faro']);
    await engine.close();
  });

  it('another first name is another person, as before', async () => {
    const { engine, said } = await maya();
    const rui = await said('I live in Porto.', 'Rui', '2024-01-01T10:00:00Z');
    const m = await engine.getMemory(tenant, 'b', rui.memory_ids[0]!);
    assert.deepEqual([m.statement, m.owner.state], ['Rui lives in Porto', 'other']);
    await engine.close();
  });

  describe('a Context reads the first name alone by the same rule', () => {
    const ready = (c: Context) => c as ContextReady;
    async function chat(namesake: boolean) {
      const { engine, said } = await maya();
      if (namesake) await said('Good morning, everyone.', 'Maya Silva', '2024-04-01T09:00:00Z');
      const asked = await said('What city do you live in?', 'assistant', '2024-05-01T10:00:00Z');
      const answer = await said('I live in Lisbon.', 'Maya', '2024-05-01T10:00:05Z');
      const museum = await said('I went to the city museum with my sister.', 'Maya', '2024-05-02T18:00:00Z');
      const context = ready(
        await engine.createContext(tenant, 'b', { query: 'What city do I live in?' }, { requestId: 'r' }),
      );
      await engine.close();
      return { asked, answer, museum, context };
    }

    it('"Maya" answers as the self: her words are marked hers, and the question goes below them', async () => {
      const { asked, answer, museum, context } = await chat(false);
      assert.deepEqual(
        context.citations.map((c) => c.record_id),
        [answer.id, museum.id, asked.id],
      );
      assert.match(context.text ?? '', /speaker: "Maya Costa" \(self\) · source/);
      assert.doesNotMatch(context.text ?? '', /speaker: "Maya"/);
    });

    it('with a "Maya Silva" in the Brain, "Maya" is nobody known there too', async () => {
      const { asked, answer, context } = await chat(true);
      const ids = context.citations.map((c) => c.record_id);
      assert.ok(ids.indexOf(asked.id) < ids.indexOf(answer.id), ids.join(' '));
      assert.match(context.text ?? '', /speaker: "Maya" · source/);
      assert.doesNotMatch(context.text ?? '', /\(self\)/);
    });
  });

  const engines: Array<[string, () => Promise<Engine>]> = [
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
  for (const [name, opened] of engines)
    it(`${name}: a "Maya Silva" who first speaks after "Maya" was derived has her derived again, as nobody known`, async () => {
      const { engine, said, profile } = await maya(await opened());
      const porto = await said('I live in Porto.', 'Maya', '2024-01-01T10:00:00Z');
      const dinner = await rememberReady(engine, {
        content: { kind: 'event', title: 'Dinner at Tasca', participants: ['MAYA', 'Rui'] },
        occurred_at: '2024-01-02T20:00:00Z',
      });
      // Another's words naming her by it are hers too, as said by him.
      const birthday = await said("Maya's birthday is May 4.", 'Rui', '2024-01-02T21:00:00Z');
      const owner = async (id: string) => (await engine.getMemory(tenant, 'b', id)).owner.state;
      assert.deepEqual(await profile(), [
        'Dinner at Tasca; who: MAYA, Rui',
        'Maya Costa lives in Porto',
        "Rui says Maya Costa's birthday is May 4",
      ]);
      assert.equal(await owner(dinner.memory_ids[0]!), 'self');

      await said('Good morning, everyone.', 'Maya Silva', '2024-01-03T09:00:00Z');
      await engine.idle();
      assert.deepEqual(await profile(), []);
      const now = (await engine.getRecord(tenant, 'b', porto.id)).memory_ids;
      const m = await engine.getMemory(tenant, 'b', now[0]!);
      assert.deepEqual([now.length, m.statement, m.owner.state], [1, 'I live in Porto.', 'unresolved']);
      const event = (await engine.getRecord(tenant, 'b', dinner.id)).memory_ids;
      assert.equal(await owner(event[0]!), 'unresolved');
      // His words are then of a "Maya", as they were before her first name in words was read as hers.
      const his = (await engine.getRecord(tenant, 'b', birthday.id)).memory_ids;
      const m2 = await engine.getMemory(tenant, 'b', his[0]!);
      assert.deepEqual(
        [his.length, m2.statement, m2.owner],
        [1, "Maya's birthday is May 4", { state: 'other', entity: 'Maya' }],
      );
      await engine.close();
    });

  it("PostgreSQL: a process derives again what another listed at a namesake's arrival and died before deriving", async () => {
    const engine = (
      await openPostgresEngine(
        { open: () => postgresStorageOver({ ...pg, close: async () => {} }) },
        { deployment: 'local', upkeepRecheckMs: 50 },
      )
    ).engine;
    try {
      // A Brain of its own: the database is the file's.
      await engine.createBrain(tenant, { id: 'ns', self: { type: 'person', name: 'Maya Costa' } });
      const profile = async () =>
        (await engine.getProfile(tenant, 'ns', { limit: 50 })).lines.map((l) => l.statement);
      const message = { kind: 'message', text: 'I live in Porto.', speaker: 'Maya', thread: 'chat' } as const;
      const porto = await engine.rememberRecord(
        tenant,
        'ns',
        { content: message, occurred_at: '2024-01-01T10:00:00Z' },
        {},
      );
      await engine.idle();
      assert.deepEqual(await profile(), ['Maya Costa lives in Porto']);
      // What another process's job for a namesake's first message writes before that process dies:
      // the message, and what "Maya" said before it listed to be derived again. This engine's own pass
      // ended at its start.
      const uid = (await pg.query<{ uid: string }>("SELECT uid FROM brains WHERE id = 'ns'")).rows[0]!.uid;
      const list = pgUpgradeList(pg);
      await list.listFor(createRuleDeriver().name);
      const namesake = { ...message, text: 'Good morning, everyone.', speaker: 'Maya Silva' };
      await pgUnitsOfWork(pg).write(uid, async (u) => {
        const seq = await u.sequence.next();
        await u.records.insert({
          ...recordRow(uid, 'rec_maya_silva', seq),
          content: JSON.stringify(namesake),
          text: namesake.text,
          occurred_at: '2024-01-03T09:00:00.000Z',
          occurred_ms: Date.parse('2024-01-03T09:00:00.000Z'),
        });
        assert.equal(await list.within(u).listNaming('maya', seq), 1);
      });
      await eventually('the listed Record derived again', async () => (await profile()).length === 0);
      const now = (await engine.getRecord(tenant, 'ns', porto.record.id)).memory_ids;
      const m = await engine.getMemory(tenant, 'ns', now[0]!);
      assert.deepEqual([now.length, m.statement, m.owner.state], [1, 'I live in Porto.', 'unresolved']);
      assert.deepEqual((await pg.query('SELECT n FROM derive_upgrade')).rows, []);
    } finally {
      await engine.close();
    }
  });
});
