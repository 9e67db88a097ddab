import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningServer } from '../../server/start-server.ts';
import { tempDir } from './local-helpers.ts';
import { serveLocal } from './serve-local.ts';

/**
 * What a week of a person's life written over `/v1` showed (`rules-v66`, docs/decisions/local-engine.md):
 * each case is a Record a person or an agent writes every day, read back as they read it, over a real
 * server on loopback and its encrypted store.
 */
describe('a week of use over /v1', () => {
  const root = tempDir();
  let local: { server: RunningServer; auth: Record<string, string> };
  let brain = 0;
  before(async () => {
    local = await serveLocal(root);
  });
  after(() => local.server.close());

  interface Memory {
    id: string;
    statement: string;
    status: string;
    slot: string | null;
    predicate: string | null;
  }
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(local.server.url + path, {
      method,
      headers: local.auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as Record<string, unknown>;
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  /** A Brain of Maria's of its own, so no case reads another's Memories. */
  const newBrain = async () => {
    const id = `maria-${++brain}`;
    await call('POST', '/brains', { id, self: { type: 'person', name: 'Maria Silva' } });
    return id;
  };
  /** Writes a Record and waits until it is derived, as a client polling getRecord does. */
  const remember = async (b: string, body: unknown) => {
    const r = (await call('POST', `/brains/${b}/records`, body)) as { id: string };
    for (let i = 0; i < 200; i++) {
      const got = (await call('GET', `/brains/${b}/records/${r.id}`)) as {
        status: string;
        memory_ids: string[];
      };
      if (got.status === 'ready') return got;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.fail(`${r.id} was not derived`);
  };
  const memories = async (b: string, query = '') =>
    ((await call('GET', `/brains/${b}/memories?limit=200${query}`)) as { data: Memory[] }).data;

  /** Maria's message in Brain `b`, said at `at`. */
  const mariaSays = (b: string) => (text: string, at: string) =>
    remember(b, { content: { kind: 'message', speaker: 'Maria Silva', text }, occurred_at: at });
  /** Whom each current Memory of `b` is about, and whose it is, by its statement. */
  const whoseIn = async (b: string) => {
    const all = (await memories(b)) as Array<Memory & { subject: string; owner: { state: string } }>;
    return (statement: string) => {
      const m = all.find((x) => x.statement === statement);
      return m === undefined ? undefined : [m.subject, m.owner.state];
    };
  };
  const profileLines = async (b: string) =>
    (
      (await call('GET', `/brains/${b}/profile?limit=50`)) as { lines: Array<{ statement: string }> }
    ).lines.map((l) => l.statement);

  it('"my favorite coffee now is a cortado" replaces the favourite coffee a fact gave, in one slot', async () => {
    const b = await newBrain();
    await remember(b, {
      content: { kind: 'fact', subject: 'Maria Silva', predicate: 'favorite coffee', value: 'flat white' },
      occurred_at: '2026-11-27T08:00:00Z',
    });
    await remember(b, {
      content: {
        kind: 'message',
        speaker: 'Maria Silva',
        text: 'Actually my favorite coffee now is a cortado, not a flat white.',
      },
      occurred_at: '2026-11-28T09:00:00Z',
    });
    const current = (await memories(b)).filter((m) => /coffee/u.test(m.statement));
    // The "now" is no part of the attribute: read as "favourite coffee now", a slot of its own, the
    // Profile would hold two current favourite coffees and the flat white would never be replaced.
    assert.deepEqual(
      current.map((m) => m.statement),
      ["Maria Silva's favourite coffee is a cortado"],
    );
    assert.equal(current[0]!.predicate, 'favourite coffee');
    const all = await memories(b, '&status=all');
    const flatWhite = all.find((m) => /flat white/u.test(m.statement) && m.predicate === 'favorite coffee');
    assert.equal(flatWhite?.status, 'superseded');
    assert.equal(flatWhite?.slot, current[0]!.slot);
  });

  for (const [when, text] of [
    ['these days', 'My favourite tea these days is sencha.'],
    ['right now', 'My favourite tea right now is sencha.'],
    ['currently', 'my favorite tea currently is sencha'],
  ] as const) {
    it(`a favourite with "${when}" before its "is" holds the favourite's own slot`, async () => {
      const b = await newBrain();
      await remember(b, {
        content: { kind: 'message', speaker: 'Maria Silva', text: 'My favourite tea is oolong.' },
      });
      await remember(b, { content: { kind: 'message', speaker: 'Maria Silva', text } });
      const teas = (await memories(b)).filter((m) => /tea/u.test(m.statement));
      assert.deepEqual(
        teas.map((m) => [m.predicate, m.statement]),
        [['favourite tea', "Maria Silva's favourite tea is sencha"]],
      );
    });
  }

  for (const [when, from] of [
    ['last month', '2026-11-05T00:00:00.000Z'],
    ['last week', '2026-11-28T00:00:00.000Z'],
    ['last year', '2025-12-05T00:00:00.000Z'],
    ['yesterday', '2026-12-04T00:00:00.000Z'],
  ] as const) {
    it(`"I moved to Porto ${when}" is her home from ${when}, not from when she said it`, async () => {
      const b = await newBrain();
      await remember(b, {
        content: { kind: 'message', speaker: 'Maria Silva', text: `I moved to Porto ${when} for work.` },
        occurred_at: '2026-12-05T10:00:00Z',
      });
      const [home] = (await memories(b)).filter((m) => m.predicate === 'lives in');
      // Held from the day the words name, so a question as of that day (as_of) finds it.
      assert.equal((home as (Memory & { valid_from: string }) | undefined)?.valid_from, from);
      const then = await memories(b, `&as_of=${encodeURIComponent(from)}`);
      assert.deepEqual(
        then.filter((m) => m.predicate === 'lives in').map((m) => m.id),
        [home!.id],
      );
    });
  }

  it("a note's heading on the line above its words is no Memory, in her notes or another's", async () => {
    const b = await newBrain();
    const recipes = await remember(b, {
      content: {
        kind: 'document',
        title: 'Recipes',
        text: "# Recipes\n\n## Bacalhau à Brás\nPotatoes, eggs, onion, salt cod. My grandmother's recipe.",
      },
    });
    const trip = await remember(b, {
      content: {
        kind: 'document',
        title: 'Trip',
        text: 'The ferry leaves at 9.\n### Day two\nThe museum opens at 10.\n#### Packing\n- passport\n- charger',
      },
    });
    const said = await memories(b);
    const statements = said.map((m) => m.statement);
    assert.deepEqual(
      statements.filter((s) => /(?:^|\n)#{1,6}\s/u.test(s)),
      [],
      `no heading is a statement: ${JSON.stringify(statements)}`,
    );
    // What the headings stood over is still remembered, each quoted as the note has it.
    for (const words of [
      'Potatoes, eggs, onion, salt cod.',
      'The ferry leaves at 9.',
      'The museum opens at 10.',
    ])
      assert.ok(
        statements.some((s) => s.includes(words)),
        `${words} is remembered: ${JSON.stringify(statements)}`,
      );
    for (const r of [recipes, trip]) assert.ok(r.memory_ids.length > 0, 'each note has its Memories');
  });

  it("a note's ticked task is done and its open one still to do, in its Memories and a Context", async () => {
    const b = await newBrain();
    await remember(b, {
      content: {
        kind: 'document',
        title: 'To do',
        text: '- [x] renew passport\n- [ ] send Priya the onboarding doc',
      },
    });
    assert.deepEqual((await memories(b)).map((m) => m.statement).sort(), [
      'Done: renew passport',
      'To do: send Priya the onboarding doc',
    ]);
    // What an agent is handed says it: the Memories it cites, beside the note's lines as written.
    const ctx = (await call('POST', `/brains/${b}/context`, {
      query: 'did I renew my passport?',
      include: ['memories'],
    })) as { text: string | null; memories: Memory[] };
    assert.match(ctx.text ?? '', /- \[x\] renew passport/u);
    assert.ok(
      ctx.memories.some((m) => m.statement === 'Done: renew passport'),
      JSON.stringify(ctx.memories.map((m) => m.statement)),
    );
    assert.ok(!ctx.memories.some((m) => m.statement === 'renew passport'));
  });

  it("Inês's cancelled trip, said in Maria's words, is Inês's and out of Maria's Profile", async () => {
    const b = await newBrain();
    const message = mariaSays(b);
    await message('My sister Inês is visiting next weekend.', '2026-11-30T09:00:00Z');
    await message('Inês cancelled her trip, she will come in January instead.', '2026-12-02T09:00:00Z');
    await message('Inês and I went to Porto.', '2026-12-03T09:00:00Z');
    await message("I told Inês I'd come.", '2026-12-04T09:00:00Z');
    const of = await whoseIn(b);
    // The visit her cancellation replaced is no longer current.
    assert.equal(of('My sister Inês is visiting next weekend.'), undefined);
    assert.deepEqual(of('Inês cancelled her trip, she will come in January instead.'), ['Inês', 'other']);
    // What Maria did with her, or told her, is still Maria's.
    assert.deepEqual(of('Inês and I went to Porto.'), ['Maria Silva', 'self']);
    assert.deepEqual(of("I told Inês I'd come."), ['Maria Silva', 'self']);
    const lines = await profileLines(b);
    assert.ok(!lines.some((l) => /cancelled/u.test(l)), JSON.stringify(lines));
    assert.ok(lines.includes('Inês and I went to Porto.'), JSON.stringify(lines));
  });

  it('"my favorite tea is hojicha now, I am tired of genmaicha" replaces the fact\'s genmaicha in its slot', async () => {
    const b = await newBrain();
    await remember(b, {
      content: { kind: 'fact', subject: 'Maria Silva', predicate: 'favorite tea', value: 'genmaicha' },
      occurred_at: '2026-10-12T08:00:00Z',
    });
    await remember(b, {
      content: {
        kind: 'message',
        speaker: 'Maria Silva',
        text: 'My favorite tea is hojicha now, I am tired of genmaicha.',
      },
      occurred_at: '2026-11-20T09:00:00Z',
    });
    const teas = (await memories(b)).filter((m) => /tea/u.test(m.statement));
    // One tea holds the slot: the one said last.
    assert.deepEqual(
      teas.map((m) => [m.predicate, m.statement]),
      [['favourite tea', "Maria Silva's favourite tea is hojicha"]],
    );
    const genmaicha = (await memories(b, '&status=all')).find((m) => m.predicate === 'favorite tea');
    assert.equal(genmaicha?.status, 'superseded');
    const lines = await profileLines(b);
    assert.ok(!lines.some((l) => /genmaicha/u.test(l)), JSON.stringify(lines));
  });

  it("Leo's allergy and Leo's competition, said with what follows for Maria, are Leo's", async () => {
    const b = await newBrain();
    const message = mariaSays(b);
    await message('Leo is allergic to cats, so we cannot adopt the kitten.', '2026-11-10T09:00:00Z');
    await message("Leo can't make it, he has a climbing competition.", '2026-11-11T09:00:00Z');
    await message('Leo and I are allergic to dust.', '2026-11-12T09:00:00Z');
    await message("I told Leo I'm allergic to penicillin.", '2026-11-13T09:00:00Z');
    const of = await whoseIn(b);
    assert.deepEqual(of('Leo is allergic to cats, so we cannot adopt the kitten.'), ['Leo', 'other']);
    assert.deepEqual(of("Leo can't make it, he has a climbing competition."), ['Leo', 'other']);
    // Said of both, or what Maria told him of herself, is still Maria's.
    assert.deepEqual(of('Leo and I are allergic to dust.'), ['Maria Silva', 'self']);
    assert.deepEqual(of("I told Leo I'm allergic to penicillin."), ['Maria Silva', 'self']);
    const lines = await profileLines(b);
    assert.ok(!lines.some((l) => /cats|climbing/u.test(l)), JSON.stringify(lines));
  });

  it("a note named after Priya: what she likes is hers; who she is to Maria, and what she told her, Maria's", async () => {
    const b = await newBrain();
    await remember(b, {
      content: {
        kind: 'document',
        title: 'Priya Nair',
        text: 'My manager at Lumen Labs.\nLikes hiking in Gerês.\nShe told me the team offsite is in Porto.',
      },
      source: { name: 'markdown' },
    });
    const all = (await memories(b)) as Array<Memory & { subject: string; owner: { state: string } }>;
    assert.deepEqual(all.map((m) => [m.statement, m.subject, m.owner.state]).sort(), [
      ['Likes hiking in Gerês.', 'Priya Nair', 'other'],
      ['Priya Nair is my manager at Lumen Labs.', 'Maria Silva', 'self'],
      ['She told me the team offsite is in Porto.', 'Maria Silva', 'self'],
    ]);
  });
});
