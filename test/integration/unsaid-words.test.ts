import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ContextReady } from '../../engine/contract/index.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

// At the file's top level: its databases close after the file.
const engines = await bothEngines();

const chat: ReadonlyArray<[string, string]> = [
  ['Ana', 'Can you recommend a good book about typography?'],
  ['assistant', "Try 'Thinking with Type' by Ellen Lupton, it's a classic."],
  ['Ana', 'The weather is lovely today, sunny and warm.'],
  ['Ana', 'I like my coffee black, no sugar.'],
  ['Marko', 'I love sailing on weekends.'],
];

for (const [name, start] of engines)
  describe(`${name}: a question with a word no Record says`, () => {
    it('serves what shares its other words, and names the question among the unknowns', async () => {
      const engine = await start();
      after(() => engine.close());
      await engine.createBrain(tenant, { id: 'b', self: { type: 'person', name: 'Ana' } });
      for (const [i, [speaker, text]] of chat.entries())
        await engine.rememberRecord(
          tenant,
          'b',
          {
            content: { kind: 'message', speaker, text, thread: 't1' },
            occurred_at: `2026-09-01T09:0${i}:00Z`,
          },
          {},
        );
      await engine.idle();
      const ask = async (query: string) =>
        (await engine.createContext(tenant, 'b', { query }, { requestId: 'r' })) as ContextReady;
      // No Record says "blood": "Thinking with Type" shares only "type".
      const type = await ask('What is my blood type?');
      assert.ok(type.citations.length > 0);
      assert.deepEqual(type.unknowns, ['What is my blood type?']);
      assert.equal(type.abstained, undefined);
      assert.match(type.text!, /No Record says "blood": the blocks share the question's other words/);
      // Every word said somewhere: answered as before.
      const book = await ask('Which typography book did you recommend?');
      assert.match(book.citations[0]!.quote, /Thinking with Type|typography/);
      assert.deepEqual(book.unknowns, []);
      assert.doesNotMatch(book.text!, /No Record says/);
      const coffee = await ask('How do I like my coffee?');
      assert.deepEqual(coffee.unknowns, []);
      // A speaker's name is said in no text of theirs: a name written so is no word unsaid.
      const sailing = await ask('What does Marko love?');
      assert.match(sailing.citations[0]!.quote, /sailing/);
      assert.deepEqual(sailing.unknowns, []);
      // In lower case too: the entity lane knows the speaker by it.
      assert.deepEqual((await ask('what does marko love?')).unknowns, []);
      // A word that says how, not what ("after"), is never named, on either engine.
      const how = await ask('What coffee did I have after the typography book?');
      assert.doesNotMatch(how.text ?? '', /No Record says "after"/);
    });
  });
