import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { gloveEngines } from './glove-engines.ts';
import { tenant } from './local-helpers.ts';

// At the file's top level: its databases close after the file.
const engines = await gloveEngines();

const answer =
  'Dora Kovač has the production one: that deploy key rotates monthly, and she keeps it on her laptop.';
const line = 'Reminder: the deploy key for staging is in 1Password.';

/** One answer, then an agent's one line written `times` times, a minute apart. */
async function brainOfRepeats(
  engine: Engine,
  times: number,
  content: (text: string) => RecordCreate['content'],
): Promise<{ answerId: string; lastLineId: string }> {
  await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Tomislav' } });
  const at = (minute: number) => new Date(Date.UTC(2026, 8, 1, 9, minute)).toISOString();
  const first = await engine.rememberRecord(
    tenant,
    'b',
    { content: content(answer), occurred_at: at(0) },
    {},
  );
  let lastLineId = '';
  for (let i = 1; i <= times; i++) {
    const r = await engine.rememberRecord(tenant, 'b', { content: content(line), occurred_at: at(i) }, {});
    lastLineId = r.record.id;
  }
  await engine.idle();
  return { answerId: first.record.id, lastLineId };
}

const ask = async (engine: Engine, query: string, mode: 'fast' | 'thorough') =>
  (await engine.createContext(tenant, 'b', { query, mode }, { requestId: 'r' })) as ContextReady;

for (const [name, start] of engines)
  describe(`${name}: one line written many times`, () => {
    it('keeps no other Record out of the lanes: the answer is cited beside the newest copy', async () => {
      const engine = await start();
      after(() => engine.close());
      const { answerId, lastLineId } = await brainOfRepeats(engine, 80, (text) => ({
        kind: 'message',
        speaker: 'agent',
        text,
      }));
      for (const query of ['deploy key', 'where is the deploy key'])
        for (const mode of ['fast', 'thorough'] as const) {
          const c = await ask(engine, query, mode);
          const cited = c.citations.map((x) => x.record_id);
          assert.ok(cited.includes(answerId), `${mode} "${query}": ${JSON.stringify(c.citations)}`);
          assert.deepEqual(
            cited.filter((id) => id !== answerId),
            [lastLineId],
            `${mode} "${query}"`,
          );
          const trace = await engine.getTrace(tenant, 'b', c.id);
          const searched = trace.lanes.filter((l) => l.name === 'lexical' || l.name === 'semantic');
          assert.equal(searched.length, 2);
          for (const lane of searched) {
            const ids = lane.candidates.map((x) => x.record_id);
            assert.ok(
              ids.indexOf(answerId) >= 0 && ids.indexOf(answerId) <= 1,
              `${lane.name}: ${ids.join()}`,
            );
          }
        }
    });

    it('holds for plain strings an agent stores, past a lane page of copies', async () => {
      const engine = await start();
      after(() => engine.close());
      const { answerId } = await brainOfRepeats(engine, 160, (text) => text);
      const c = await ask(engine, 'deploy key', 'fast');
      assert.ok(
        c.citations.some((x) => x.record_id === answerId),
        JSON.stringify(c.citations),
      );
    });
  });
