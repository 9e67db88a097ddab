import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, Memory, RecordCreate } from '../../engine/contract/index.ts';
import type { Engine } from '../../engine/types.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

// Tom's month as a round of real use wrote it (use8, M2): what was said with a value, or of a plan,
// stayed current after the value ended or the plan was called off. Read on both engines: the rules
// are one, but what they find is read through each adapter.

const engines = await bothEngines();

type Said = readonly [speaker: string, text: string, at: string];
const message = ([speaker, text, at]: Said): RecordCreate => ({
  content: { kind: 'message', speaker, text },
  occurred_at: at,
});

let brains = 0;
/** A Brain of Tomislav Kovačević's holding these Records, derived: each Record's id, in order. */
async function toms(engine: Engine, records: readonly RecordCreate[]) {
  const id = `tom${++brains}`;
  await engine.createBrain(tenant, { id, self: { type: 'person', name: 'Tomislav Kovačević' } });
  const ids: string[] = [];
  for (const body of records) ids.push((await engine.rememberRecord(tenant, id, body, {})).record.id);
  await engine.idle();
  const memories = async (): Promise<Memory[]> =>
    (await engine.listMemories(tenant, id, { limit: 200, status: 'all' })).data;
  const statusOf = async (statement: string) =>
    (await memories()).filter((m) => m.statement === statement).map((m) => [m.status, m.valid_to]);
  const ask = async (query: string) => {
    const context = (await engine.createContext(tenant, id, { query }, { requestId: 'r' })) as ContextReady;
    assert.equal(context.status, 'ready');
    return context.citations.map((c) => c.quote);
  };
  return { id, ids, memories, statusOf, ask };
}

for (const [name, opened] of engines)
  describe(`on ${name}`, () => {
    it('what was said of a partner with her goes with her when they break up', async () => {
      const engine = await opened();
      try {
        const tom = await toms(
          engine,
          (
            [
              [
                'self',
                "My girlfriend is Petra Novak. We've been together three years.",
                '2026-11-09T08:12:00Z',
              ],
              ['self', 'Petra is a doctor.', '2026-11-10T08:00:00Z'],
              ['self', "Petra and I broke up last night. It's over.", '2026-11-23T09:00:00Z'],
            ] as const
          ).map(message),
        );
        assert.deepEqual(await tom.statusOf("We've been together three years."), [
          ['superseded', '2026-11-23T09:00:00Z'],
        ]);
        // True of her whoever her partner is: not tied to the slot.
        assert.deepEqual(await tom.statusOf("Petra's occupation is doctor"), [['active', null]]);
        assert.ok(!(await tom.ask('Do I have a girlfriend?')).includes("We've been together three years."));
        // Forgetting the break-up, it holds again.
        await engine.forgetRecord(tenant, tom.id, tom.ids[2]!);
        await engine.idle();
        assert.deepEqual(await tom.statusOf("We've been together three years."), [['active', null]]);
      } finally {
        await engine.close();
      }
    });
  });
