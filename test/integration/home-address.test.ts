import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContextReady, RecordCreate } from '../../engine/contract/index.ts';
import { bothEngines } from './both-engines.ts';
import { tenant } from './local-helpers.ts';

// Where Lea lives, as a city and a street address said together or one after the other: the address
// refines the city it is in, a new city (or an address in another city) replaces both. Read on both
// engines: the rule is one (engine/derive/home-held.ts), what it finds is read through each adapter.

const engines = await bothEngines();

const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T09:00:00Z`;
const said = (text: string, n: number): RecordCreate => ({
  content: { kind: 'message', speaker: 'Lea Horvat', text },
  occurred_at: day(n),
});

/**
 * What she said, in order; her home then (the one current "lives in" Memory, her Profile's home line);
 * how many Memories the home slot has had; and a question whose Context's text must name these words.
 */
const cases: ReadonlyArray<{
  name: string;
  said: readonly string[];
  home: string;
  versions: number;
  asked?: ReadonlyArray<readonly [query: string, names: readonly string[]]>;
}> = [
  {
    name: 'an address after the city refines it',
    said: ['I live in Zagreb.', 'My address is Vlaška 17.'],
    home: 'Lea Horvat lives at Vlaška 17, Zagreb',
    versions: 2,
    asked: [
      ['Where does Lea live?', ['Vlaška 17', 'Zagreb']],
      ['Which city does Lea live in?', ['Zagreb']],
    ],
  },
  {
    name: 'a city and an address said together are one home',
    said: ['I moved to Vlaška 17 in Zagreb.'],
    home: 'Lea Horvat lives at Vlaška 17, Zagreb',
    versions: 1,
    asked: [['Where does Lea live?', ['Vlaška 17', 'Zagreb']]],
  },
  {
    name: 'a city and an address in two sentences of one message are one home',
    said: ['I live in Zagreb. My address is Vlaška 17.'],
    home: 'Lea Horvat lives at Vlaška 17, Zagreb',
    versions: 1,
  },
  {
    name: 'the city said again is the home held, not a home without its address',
    said: ['I live in Zagreb.', 'My address is Vlaška 17.', 'I live in Zagreb.'],
    home: 'Lea Horvat lives at Vlaška 17, Zagreb',
    versions: 2,
  },
  {
    name: 'the address said again alone is the home held, in its city',
    said: ['I moved to Vlaška 17 in Zagreb.', 'I now live at Vlaška 17.'],
    home: 'Lea Horvat lives at Vlaška 17, Zagreb',
    versions: 1,
  },
  {
    name: 'a new city replaces both',
    said: ['I moved to Vlaška 17 in Zagreb.', 'I moved to Split.'],
    home: 'Lea Horvat lives in Split',
    versions: 2,
    asked: [['Where does Lea live?', ['Split']]],
  },
  {
    name: 'an address after a move is in the new city',
    said: ['I moved to Vlaška 17 in Zagreb.', 'I moved to Split.', 'My address is Ilica 5.'],
    home: 'Lea Horvat lives at Ilica 5, Split',
    versions: 3,
  },
  {
    name: 'an address in another city replaces both',
    said: ['I live in Zagreb.', 'My address is Vlaška 17.', 'My new address is Marmontova 3, Split.'],
    home: 'Lea Horvat lives at Marmontova 3, Split',
    versions: 3,
  },
  {
    name: 'a new address alone is a move within the city',
    said: ['I live at Vlaška 17 in Zagreb.', 'My new address is Ilica 5.'],
    home: 'Lea Horvat lives at Ilica 5, Zagreb',
    versions: 2,
  },
];

for (const [name, opened] of engines)
  describe(`on ${name}`, () => {
    for (const c of cases)
      it(c.name, async () => {
        const engine = await opened();
        try {
          const id = `lea${cases.indexOf(c)}`;
          await engine.createBrain(tenant, { id, self: { type: 'person', name: 'Lea Horvat' } });
          for (const [i, text] of c.said.entries())
            await engine.rememberRecord(tenant, id, said(text, i + 1), {});
          await engine.idle();
          const homes = (await engine.listMemories(tenant, id, { limit: 200, status: 'all' })).data.filter(
            (m) => m.predicate === 'lives in',
          );
          const current = homes.filter((m) => m.status === 'active').map((m) => m.statement);
          assert.deepEqual(current, [c.home], JSON.stringify(homes.map((m) => [m.statement, m.status])));
          assert.equal(homes.length, c.versions, JSON.stringify(homes.map((m) => m.statement)));
          // Every word she said of her home is cited by some version of it.
          assert.equal(
            new Set(homes.flatMap((m) => m.citations.map((x) => x.record_id))).size,
            c.said.length,
          );
          const lines = (await engine.getProfile(tenant, id, { limit: 50 })).lines.map((l) => l.statement);
          assert.deepEqual(
            lines.filter((l) => /lives|Zagreb|Split|Vlaška|Ilica/u.test(l)),
            [c.home],
            lines.join('\n'),
          );
          for (const [query, names] of c.asked ?? []) {
            const context = (await engine.createContext(
              tenant,
              id,
              { query },
              { requestId: 'r' },
            )) as ContextReady;
            assert.equal(context.status, 'ready');
            for (const n of names) assert.ok((context.text ?? '').includes(n), context.text ?? '');
          }
        } finally {
          await engine.close();
        }
      });
  });
