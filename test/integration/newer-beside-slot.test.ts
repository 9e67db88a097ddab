import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import { gloveEngines } from './glove-engines.ts';
import { tenant } from './local-helpers.ts';

// At the file's top level: its databases close after the file.
const engines = await gloveEngines();

const home: RecordCreate['content'] = {
  kind: 'fact',
  subject: 'me',
  predicate: 'lives in',
  value: 'Ilica 42, Zagreb',
};
const said = (text: string): RecordCreate['content'] => ({ kind: 'message', speaker: 'user', text });
/** The move in words no rule reads as one: only the semantic lane finds it for "Where is my home?". */
const moved = 'Moving day! New apartment on Vlaška 12.';

for (const [name, start] of engines)
  describe(`${name}: a Record newer than the slot's, found by meaning alone`, () => {
    it("is kept after the slot's Records when it is of the slot's topic, not when it is older or someone else's", async () => {
      const engine = await start();
      after(() => engine.close());
      const brain = async (
        id: string,
        records: ReadonlyArray<readonly [string, RecordCreate['content']]>,
      ) => {
        await engine.createBrain(tenant, { id, self: { type: 'person', name: 'Tomislav' } });
        for (const [at, content] of records)
          await engine.rememberRecord(tenant, id, { content, occurred_at: at }, {});
      };
      const week = [
        ['2026-06-03T19:00:00Z', said('Dinner with Ana and Luka, Luka made sarma.')],
        ['2026-06-10T07:30:00Z', said('Ran 8 km along the Sava this morning.')],
        ['2026-07-05T18:00:00Z', said('My knee hurts again after the run.')],
        ['2026-07-06T18:00:00Z', said('Booked flights to Lisbon for October.')],
      ] as const;
      await brain('b', [['2026-06-01T08:00:00Z', home], ...week, ['2026-07-12T20:00:00Z', said(moved)]]);
      // The same move said before the fact: what the fact holds already answers it.
      await brain('c', [['2026-05-01T08:00:00Z', said(moved)], ['2026-06-01T08:00:00Z', home], ...week]);
      // Someone else's move: no change of her home.
      const mama = 'Mama moved to a new apartment on Vlaška 12.';
      await brain('d', [['2026-06-01T08:00:00Z', home], ...week, ['2026-07-12T20:00:00Z', said(mama)]]);
      await engine.idle();
      const ask = async (brainId: string) => {
        const c = (await engine.createContext(
          tenant,
          brainId,
          { query: 'Where is my home?' },
          { requestId: 'r' },
        )) as ContextReady;
        return {
          quotes: c.citations.map((x) => x.quote),
          trace: await engine.getTrace(tenant, brainId, c.id),
        };
      };
      const newer = await ask('b');
      assert.deepEqual(newer.quotes, ['me lives in: Ilica 42, Zagreb', moved]);
      const semantic = newer.trace.lanes.find((l) => l.name === 'semantic')!;
      assert.match(semantic.candidates[0]!.reason, /newer than the slot's Records and of its topic/u);
      assert.match(newer.trace.fusion.method, /newer than the slot's Records/u);
      const older = await ask('c');
      assert.deepEqual(older.quotes, ['me lives in: Ilica 42, Zagreb']);
      assert.deepEqual((await ask('d')).quotes, ['me lives in: Ilica 42, Zagreb']);
    });
  });
