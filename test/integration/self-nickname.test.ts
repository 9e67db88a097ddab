import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { postgresStorageOver } from '../../engine/adapters/postgres/storage.ts';
import { migratedPglite } from '../../engine/adapters/postgres/testing/fixtures.ts';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import { openPostgresEngine } from '../../engine/index.ts';
import type { Engine } from '../../engine/types.ts';
import { open, tempDir, tenant } from './local-helpers.ts';

// Made at the top level: it closes after the file. Each test has a Brain of its own in it.
const pg = await migratedPglite();

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

let brains = 0;

/**
 * Tomislav Kovačević's Brain, as a tester's (use8 H3): he says most people call him Tom, and the
 * assistant greets him by it in every reply, so "Tom" is in many Records that say nothing of him.
 */
async function tomislav(opened: () => Promise<Engine>) {
  const engine = await opened();
  const id = `tom${++brains}`;
  await engine.createBrain(tenant, { id, self: { type: 'person', name: 'Tomislav Kovačević' } });
  let minute = 0;
  const say = async (speaker: string, text: string) => {
    const at = new Date(Date.UTC(2026, 10, 9, 8, minute++)).toISOString();
    const body: RecordCreate = {
      content: { kind: 'message', speaker, text, thread: 'chat' },
      occurred_at: at,
    };
    const r = await engine.rememberRecord(tenant, id, body, {});
    await engine.idle();
    return r.record.id;
  };
  const intro = await say('user', "Hi, I'm Tomislav, most people call me Tom.");
  await say('assistant', 'Nice to meet you, Tom.');
  const zagreb = await say('user', 'I live in Zagreb.');
  await say('assistant', 'Sounds lovely, Tom. Have a great evening, Tom!');
  await say('assistant', "I'm sorry to hear that, Tom.");
  await say('assistant', 'Good morning, Tom! Ready for the week, Tom?');
  const split = await say('user', 'I moved to Split.');
  await say('assistant', 'Congratulations, Tom!');
  const ask = async (query: string) =>
    (
      (await engine.createContext(tenant, id, { query }, { requestId: `r${++brains}` })) as ContextReady
    ).citations.map((c) => c.record_id);
  const profile = async () =>
    (await engine.getProfile(tenant, id, { limit: 50 })).lines.map((l) => l.statement).sort();
  return { engine, id, intro, zagreb, split, ask, profile };
}

describe('a nickname the self says she goes by names her, as her own name does', () => {
  for (const [name, opened] of engines) {
    it(`${name}: "Where does Tom live?" is answered by his home, not by the greetings naming Tom`, async () => {
      const { engine, split, ask, profile } = await tomislav(opened);
      try {
        assert.ok((await profile()).includes("Tomislav Kovačević's nickname is Tom"));
        const byNickname = await ask('Where does Tom live?');
        // As by his own name: the home that holds now first.
        assert.equal(byNickname[0], split, byNickname.join(' '));
        assert.deepEqual(byNickname.slice(0, 1), (await ask('Where does Tomislav live?')).slice(0, 1));
      } finally {
        await engine.close();
      }
    });

    it(`${name}: forgetting the Record that said it forgets the nickname`, async () => {
      const { engine, id, intro, split, ask, profile } = await tomislav(opened);
      try {
        await engine.forgetRecord(tenant, id, intro);
        await engine.idle();
        assert.ok(!(await profile()).some((l) => l.includes('nickname')));
        // "Tom" is then a word like any other: nobody known holds a home by it.
        assert.notEqual((await ask('Where does Tom live?'))[0], split);
      } finally {
        await engine.close();
      }
    });
  }
});
