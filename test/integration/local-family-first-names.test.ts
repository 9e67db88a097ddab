import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tenant, withBrain } from './local-helpers.ts';

/** A Brain whose person is 田中 由紀, with her messages and her father's, as a chat export names them. */
async function yukiBrain() {
  const { engine } = await withBrain({}, false);
  await engine.createBrain(tenant, { id: 'y', self: { type: 'person', name: '田中 由紀' } });
  let at = Date.parse('2026-03-01T10:00:00Z');
  const said = (speaker: string, text: string) =>
    engine
      .rememberRecord(
        tenant,
        'y',
        {
          content: { kind: 'message', speaker, text, thread: 'family' },
          occurred_at: new Date((at += 60_000)).toISOString(),
        },
        {},
      )
      .then(() => engine.idle());
  const owners = async () =>
    Object.fromEntries(
      (await engine.listMemories(tenant, 'y', { limit: 50 })).data.map((m) => [
        m.citations[0]!.quote,
        m.owner.state,
      ]),
    );
  return { engine, said, owners };
}

describe('a self whose name is written family name first', () => {
  it('her messages are hers by her given name or her name without its space; the family name alone is not', async () => {
    const { said, owners } = await yukiBrain();
    await said('由紀', 'I live in Osaka.');
    await said('田中由紀', 'I work at Sony.');
    await said('田中', 'I live in Kyoto.');
    assert.deepEqual(await owners(), {
      'I live in Osaka.': 'self',
      'I work at Sony.': 'self',
      'I live in Kyoto.': 'other',
    });
  });

  it('her given name is nobody known once another of the Brain has it as a given name too', async () => {
    const { said, owners } = await yukiBrain();
    await said('鈴木 由紀', 'I live in Nagoya.');
    await said('由紀', 'I work at Sony.');
    assert.equal((await owners())['I work at Sony.'], 'unresolved');
  });
});
