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
 * Tomislav Kovačević's Brain, as a tester's: he says most people call him Tom, and the
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
  return { engine, id, intro, zagreb, split, ask, profile, say };
}

/** A Brain of `self` told `said` (the user's messages, or facts), then asked. */
async function told(
  opened: () => Promise<Engine>,
  self: string,
  said: ReadonlyArray<string | { subject: string; predicate: string; value: string } | [string, string]>,
) {
  const engine = await opened();
  const id = `b${++brains}`;
  await engine.createBrain(tenant, { id, self: { type: 'person', name: self } });
  const ids: string[] = [];
  for (const [i, x] of said.entries()) {
    const content =
      typeof x === 'string'
        ? { kind: 'message' as const, speaker: 'user', text: x, thread: 'chat' }
        : Array.isArray(x)
          ? { kind: 'message' as const, speaker: x[0], text: x[1], thread: 'chat' }
          : { kind: 'fact' as const, ...x };
    const at = new Date(Date.UTC(2026, 10, 9, 8, i)).toISOString();
    ids.push(
      (await engine.rememberRecord(tenant, id, { content, occurred_at: at } as RecordCreate, {})).record.id,
    );
    await engine.idle();
  }
  const ask = async (query: string) =>
    (
      (await engine.createContext(tenant, id, { query }, { requestId: `r${++brains}` })) as ContextReady
    ).citations.map((c) => c.record_id);
  const profile = async () =>
    (await engine.getProfile(tenant, id, { limit: 50 })).lines.map((l) => l.statement).sort();
  return { engine, ids, ask, profile };
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

    it(`${name}: a second nickname names him beside the first; "Same here." is none`, async () => {
      const { engine, id, split, ask, profile, say } = await tomislav(opened);
      try {
        await say('user', 'My colleagues call me Kova.');
        await say('user', 'Same here.');
        await say('user', 'I go by Uber to work most days.');
        const lines = await profile();
        // The slot holds the one he goes by now; no reply or ride took it.
        assert.ok(lines.includes("Tomislav Kovačević's nickname is Kova"), lines.join(' | '));
        assert.ok(!lines.some((l) => /nickname is (?:Same|Uber)/u.test(l)), lines.join(' | '));
        // Each names him: the one he went by before as much, so the slot lane answers it with his home.
        const byTom = (await engine.createContext(
          tenant,
          id,
          { query: 'Where does Tom live?' },
          {
            requestId: 'r-tom',
          },
        )) as ContextReady;
        assert.equal(byTom.citations[0]?.record_id, split);
        const trace = await engine.getTrace(tenant, id, byTom.id);
        const slot = trace.lanes.find((l) => l.name === 'slot');
        assert.deepEqual(
          slot?.candidates.map((c) => c.record_id),
          [split],
          JSON.stringify(trace.lanes),
        );
        assert.equal((await ask('Where does Kova live?'))[0], split);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: a nickname corrected names him no more; the corrected one does`, async () => {
      const { engine, id, intro, split, ask, profile } = await tomislav(opened);
      try {
        // Named by it, he is asked about as by his name: his home alone, no greeting naming Tom.
        const byTom = await ask('Where does Tom live?');
        assert.equal(byTom[0], split);
        const [held] = (await engine.getRecord(tenant, id, intro)).memory_ids;
        const correction = await engine.rememberRecord(
          tenant,
          id,
          {
            content: {
              kind: 'correction',
              corrects: held!,
              statement: "Tomislav Kovačević's nickname is Tomo",
            },
          } as RecordCreate,
          {},
        );
        await engine.idle();
        assert.ok((await profile()).includes("Tomislav Kovačević's nickname is Tomo"));
        assert.deepEqual((await ask('Where does Tomo live?')).slice(0, 3), byTom.slice(0, 3));
        // Never right, it held for no time: "Tom" is a word like any other again, and the assistant's
        // greetings naming Tom are found by it.
        const after = await ask('Where does Tom live?');
        assert.ok(
          after.some((r) => !byTom.includes(r) && r !== correction.record.id),
          `${byTom.join(' ')} / ${after.join(' ')}`,
        );
      } finally {
        await engine.close();
      }
    });

    it(`${name}: what a nickname's sentence says besides it holds its slot`, async () => {
      const { engine, ids, ask } = await told(opened, 'Tomislav Kovačević', [
        'I live in Zagreb.',
        'My friends call me Tom and I just moved to Split.',
        'I work at Span.',
        'Everyone calls me Tom, I work at Infobip now.',
      ]);
      try {
        assert.equal((await ask('Where does Tom work?'))[0], ids[3]);
        assert.equal((await ask('Where do I live?'))[0], ids[1]);
      } finally {
        await engine.close();
      }
    });

    it(`${name}: a fact "called" is a call, and an everyday-word nickname names her only as a name`, async () => {
      const mom = await told(opened, 'Ana Horvat', [
        { subject: 'Ana Horvat', predicate: 'called', value: 'Mom' },
        ['Mom', 'I live in Split now, sweetie.'],
        'I live in Zagreb.',
      ]);
      try {
        assert.equal((await mom.ask('Where does Mom live?'))[0], mom.ids[1]);
      } finally {
        await mom.engine.close();
      }
      const will = await told(opened, 'William Smith', [
        'Most people call me Will.',
        'I work at Infobip.',
        'Luka works at Span.',
      ]);
      try {
        assert.equal((await will.ask('Where will Luka work?'))[0], will.ids[2]);
        assert.equal((await will.ask('Where does Will work?'))[0], will.ids[1]);
      } finally {
        await will.engine.close();
      }
    });

    it(`${name}: a role word or a place passed is no nickname: "my boss" stays the boss`, async () => {
      const { engine, ids, ask, profile } = await told(opened, 'Tomislav Kovačević', [
        'Most people call me Tom.',
        'Everyone calls me Boss.',
        'I go by Maksimir Park twice a week.',
        'I work at Span.',
        'My boss is Rita Gomes.',
        'Rita works at Infobip.',
      ]);
      try {
        const lines = await profile();
        assert.ok(lines.includes("Tomislav Kovačević's nickname is Tom"), lines.join(' | '));
        assert.ok(!lines.some((l) => /nickname is (?:Boss|Maksimir)/u.test(l)), lines.join(' | '));
        // Read as her name, "Boss" made this a question about her: who her boss is was not cited.
        const boss = await ask('Where does my boss work?');
        assert.ok(boss.includes(ids[4]!) && boss.includes(ids[5]!), boss.join(' '));
      } finally {
        await engine.close();
      }
    });

    it(`${name}: a name said with how often, or a title, is a nickname`, async () => {
      const tom = await told(opened, 'Tomislav Kovačević', [
        'I go by Tom a lot these days.',
        'I work at Span.',
      ]);
      try {
        assert.ok((await tom.profile()).includes("Tomislav Kovačević's nickname is Tom"));
        assert.equal((await tom.ask('Where does Tom work?'))[0], tom.ids[1]);
      } finally {
        await tom.engine.close();
      }
      const doc = await told(opened, 'Nina Babić', [
        'Everyone calls me Doc.',
        'I work at KBC Zagreb.',
        'Ivan Horvat works at Poliklinika Medikol.',
      ]);
      try {
        assert.ok((await doc.profile()).includes("Nina Babić's nickname is Doc"));
        assert.equal((await doc.ask('Where does Doc work?'))[0], doc.ids[1]);
      } finally {
        await doc.engine.close();
      }
    });

    it(`${name}: a full name she goes by that shares her own is hers, a place word in it or not`, async () => {
      const jo = await told(opened, 'Joanna Park', [
        'I go by Jo Park.',
        'I work at Span.',
        'I go by Maksimir Park twice a week.',
      ]);
      try {
        const lines = await jo.profile();
        assert.ok(lines.includes("Joanna Park's nickname is Jo Park"), lines.join(' | '));
        assert.ok(!lines.some((l) => /nickname is Maksimir/u.test(l)), lines.join(' | '));
        assert.equal((await jo.ask('Where does Jo Park work?'))[0], jo.ids[1]);
      } finally {
        await jo.engine.close();
      }
    });

    it(`${name}: a place whose name shares hers is passed, not her nickname: "I go by Victoria Station."`, async () => {
      for (const [self, place] of [
        ['Victoria Hughes', 'Victoria Station'],
        ['Christina Lee', 'Christ Church'],
        ['Hyde Miller', 'Hyde Park'],
      ] as const) {
        const { engine, profile } = await told(opened, self, [`I go by ${place}.`, 'I work at Span.']);
        try {
          const lines = await profile();
          assert.ok(!lines.some((l) => l.includes('nickname')), `${self}: ${lines.join(' | ')}`);
        } finally {
          await engine.close();
        }
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
