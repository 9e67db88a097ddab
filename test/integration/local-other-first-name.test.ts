import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite } from '../../engine/adapters/postgres/testing/fixtures.ts';
import type { ContextReady } from '../../engine/contract/index.ts';
import type { Deriver } from '../../engine/core/derive/deriver.ts';
import { createRuleDeriver } from '../../engine/core/derive/rule-deriver.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import type { RecordCreate } from '../../engine/contract/index.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

// Made at the top level: it closes after the file.
const pg = await migratedPglite();

/**
 * Notes and mail name people in full ("Marko Babić"), chats by first name ("Marko"): where the Brain
 * knows one Marko, a slot said of "Marko" is his (use5 I8).
 */
describe('a first name alone is the one known person of that first name', () => {
  /** Each backend: a store, opened again under `deriver` (today's rules when left out). */
  const engines: Array<[string, () => (deriver?: Deriver) => Promise<Engine>]> = [
    [
      'SQLite',
      () => {
        const dir = tempDir();
        return (deriver) => open(dir, deriver ? { deriver } : {});
      },
    ],
    [
      'PostgreSQL (PGlite)',
      () => async (deriver) =>
        (
          await openPostgresEngine(
            { open: () => postgresStorageOver({ ...pg, close: async () => {} }) },
            { deployment: 'local', ...(deriver ? { deriver } : {}) },
          )
        ).engine,
    ],
  ];
  // The rules before v79, which read no first name as a known person's.
  const rules = createRuleDeriver();
  const rulesV75: Deriver = {
    name: 'rules-v75',
    derive: (r, ctx) => rules.derive(r, { ...ctx, knownFirstNames: undefined }),
  };
  let brains = 0;
  async function ivo(store: () => (deriver?: Deriver) => Promise<Engine>, deriver?: Deriver) {
    const engine = await store()(deriver);
    // A Brain of its own each time: PGlite's database is the file's.
    const brain = `ivo${++brains}`;
    await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Ivo Marić' } });
    const remember = async (body: RecordCreate) => {
      const r = await engine.rememberRecord(tenant, brain, body, {});
      await engine.idle();
      return engine.getRecord(tenant, brain, r.record.id);
    };
    const note = (title: string, text: string, at: string) =>
      remember({ content: { kind: 'document', title, text }, occurred_at: at });
    const said = (text: string, at: string, speaker = 'Ivo Marić') =>
      remember({ content: { kind: 'message', text, speaker, thread: 'chat' }, occurred_at: at });
    const memory = (id: string) => engine.getMemory(tenant, brain, id);
    // The birthdays held now (listMemories serves current values by default).
    const birthdays = async () =>
      (await engine.listMemories(tenant, brain, { limit: 100 })).data
        .filter((m) => m.predicate === 'birthday')
        .map((m) => [m.subject, m.statement]);
    return { engine, brain, note, said, memory, birthdays };
  }
  const people = '## Marko Babić\n- Birthday: July 2\n- Works at Span\n';

  for (const [name, opened] of engines) {
    it(`${name}: what rules-v75 derived as a person "Marko" is derived again as Marko Babić's`, async () => {
      const reopen = opened();
      let engine = await reopen(rulesV75);
      const brain = `ivo${++brains}`;
      const record = async (content: RecordCreate['content'], at: string) => {
        const r = await engine.rememberRecord(tenant, brain, { content, occurred_at: at }, {});
        await engine.idle();
        return r.record.id;
      };
      const birthdays = async () =>
        (await engine.listMemories(tenant, brain, { limit: 100 })).data
          .filter((m) => m.predicate === 'birthday')
          .map((m) => `${m.subject}: ${m.statement}`)
          .sort();
      try {
        await engine.createBrain(tenant, { id: brain, self: { type: 'person', name: 'Ivo Marić' } });
        await record({ kind: 'document', title: 'People', text: people }, '2025-11-01T10:00:00Z');
        const text = "Marko's birthday is actually July 3, not July 2.";
        await record({ kind: 'message', text, speaker: 'Ivo Marić', thread: 'chat' }, '2025-12-05T10:00:00Z');
        assert.equal((await birthdays()).length, 2, 'two people before');
      } finally {
        await engine.close();
      }
      engine = await reopen();
      try {
        await engine.idle();
        const now = await birthdays();
        assert.equal(now.length, 1, now.join(' | '));
        assert.match(now[0]!, /^Marko Babić: .*July 3/);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: "Marko's birthday is actually July 3" replaces Marko Babić's July 2`, async () => {
      const { engine, brain, note, said, memory, birthdays } = await ivo(opened);
      try {
        await note('People', people, '2025-11-01T10:00:00Z');
        const fix = await said("Marko's birthday is actually July 3, not July 2.", '2025-12-05T10:00:00Z');
        const m = await memory(fix.memory_ids[0]!);
        assert.deepEqual(
          [m.subject, m.owner, m.predicate],
          ['Marko Babić', { state: 'other', entity: 'Marko Babić' }, 'birthday'],
        );
        const held = await birthdays();
        assert.equal(held.length, 1, JSON.stringify(held));
        assert.equal(held[0]![0], 'Marko Babić');
        assert.match(held[0]![1]!, /July 3/);
        const context = (await engine.createContext(
          tenant,
          brain,
          { query: "When is Marko's birthday?" },
          { requestId: 'r' },
        )) as ContextReady;
        assert.ok(
          context.citations.some((c) => c.record_id === fix.id),
          context.text ?? undefined,
        );
      } finally {
        await engine.close();
      }
    });

    it(`${name}: a "Marko" said before Marko Babić was known is read again as his once he is`, async () => {
      const { engine, note, said, birthdays } = await ivo(opened);
      try {
        await said("Marko's birthday is July 3.", '2025-12-05T10:00:00Z');
        assert.deepEqual(await birthdays(), [['Marko', "Marko's birthday is July 3"]]);
        // Imported after, dated before: the message's word is the later.
        await note('People', people, '2025-11-01T10:00:00Z');
        await engine.idle();
        const now = await birthdays();
        assert.equal(now.length, 1, JSON.stringify(now));
        assert.deepEqual(now[0], ['Marko Babić', "Marko Babić's birthday is July 3"]);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: what a message and a daily note said of "Marko" is his once Marko Babić is known`, async () => {
      const { engine, brain, note, said } = await ivo(opened);
      try {
        await said('Marko called to ask how the move went.', '2025-12-05T10:00:00Z');
        await note('2025-12-06', 'Marko called about the drill.', '2025-12-06T20:00:00Z');
        const whose = async () =>
          (await engine.listMemories(tenant, brain, { limit: 100 })).data
            .filter((m) => /^Marko called/u.test(m.statement))
            .map((m) => [m.statement, m.subject, m.owner.entity])
            .sort();
        assert.deepEqual(await whose(), [
          ['Marko called about the drill.', 'Marko', 'Marko'],
          ['Marko called to ask how the move went.', 'Marko', 'Marko'],
        ]);
        await note('People', people, '2025-11-01T10:00:00Z');
        await engine.idle();
        assert.deepEqual(await whose(), [
          ['Marko called about the drill.', 'Marko Babić', 'Marko Babić'],
          ['Marko called to ask how the move went.', 'Marko Babić', 'Marko Babić'],
        ]);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: a second Marko known later makes "Marko" a person of that name again`, async () => {
      const { engine, note, said, birthdays } = await ivo(opened);
      try {
        await note('People', people, '2025-11-01T10:00:00Z');
        await said("Marko's birthday is actually July 3, not July 2.", '2025-12-05T10:00:00Z');
        const more = '## Marko Horvat\n- Birthday: March 9\n\n## Ana Kovač\n- Birthday: March 12\n';
        await note('More people', more, '2025-12-05T12:00:00Z');
        await engine.idle();
        const now = (await birthdays()).map(([who]) => who).sort();
        assert.deepEqual(now, ['Ana Kovač', 'Marko', 'Marko Babić', 'Marko Horvat']);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: with a "Marko Horvat" known too, "Marko" stays a person of that name`, async () => {
      const { engine, note, said, memory } = await ivo(opened);
      try {
        await note('People', people + '\n## Marko Horvat\n- Birthday: March 9\n', '2025-11-01T10:00:00Z');
        const fix = await said("Marko's birthday is actually July 3, not July 2.", '2025-12-05T10:00:00Z');
        const m = await memory(fix.memory_ids[0]!);
        assert.deepEqual([m.subject, m.owner], ['Marko', { state: 'other', entity: 'Marko' }]);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: a speaker "Marko Kos" besides Marko Babić's note leaves "Marko" as said`, async () => {
      const { engine, note, said, memory } = await ivo(opened);
      try {
        await note('People', people, '2025-11-01T10:00:00Z');
        await said('See you at the meeting.', '2025-11-02T10:00:00Z', 'Marko Kos');
        const fix = await said("Marko's birthday is July 3.", '2025-12-05T10:00:00Z');
        const m = await memory(fix.memory_ids[0]!);
        assert.deepEqual([m.subject, m.owner], ['Marko', { state: 'other', entity: 'Marko' }]);
      } finally {
        await engine.close();
      }
    });
  }
});
