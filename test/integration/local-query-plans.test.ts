import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it, mock } from 'node:test';
import { openDatabase } from '../../engine/adapters/sqlite/open-database.ts';
import { newDatabase } from '../../engine/adapters/sqlite/sqlite-binding.ts';
import { messageSpeakersSql } from '../../engine/adapters/sqlite/message-speakers.ts';
import { key, open, tempDir, tenant, withBrain } from './local-helpers.ts';

/**
 * What one request or one Record's derivation reads must not grow with the Brain: the store keeps no
 * table statistics, and a statement with a `brain_uid = ?` guard beside its selective key has been
 * planned over a Brain-wide index more than once (docs/decisions/local-engine.md, "A plan audit"). The
 * statements each step runs are taken from the store's connection as it runs them, and each one's plan
 * is read on the same schema: no step of it may walk every Record, Memory or citation of the Brain.
 */
const wholeBrain = [
  /^SCAN (records|memories|citations)\b/,
  /^(SCAN|SEARCH) \w+ USING (COVERING )?INDEX (records|memories)_brain_\w+ \(brain_uid=\?\)$/,
  /^(SCAN|SEARCH) \w+ USING (COVERING )?INDEX sqlite_autoindex_(records|memories)_\d\b(?! \()/,
];

/** Statements that read a page in index order and stop at its limit: the page's cost, not the Brain's. */
const pagesInOrder = /ORDER BY (r|m)\.id( DESC)? LIMIT \?\s*$/;

type Statement = { source: string; database: { name: string } };
type Run = (this: Statement, ...args: unknown[]) => unknown;

/** Every statement run on the store file's connections while `fn` runs, by its SQL, with the rows it read. */
async function statementsRunBy(file: string, fn: () => Promise<void>): Promise<Map<string, number>> {
  const probe = newDatabase(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    'run' | 'get' | 'all' | 'iterate',
    Run
  >;
  probe.close();
  const seen = new Map<string, number>();
  const mocks = (['run', 'get', 'all', 'iterate'] as const).map((name) => {
    const original = proto[name];
    return mock.method(proto, name, function (this: Statement, ...args: unknown[]) {
      const out = original.apply(this, args);
      if (this.database.name === file) {
        const rows = name === 'all' ? (out as unknown[]).length : name === 'get' && out !== undefined ? 1 : 0;
        seen.set(this.source, (seen.get(this.source) ?? 0) + rows);
      }
      return out;
    });
  });
  try {
    await fn();
  } finally {
    for (const m of mocks) m.mock.restore();
  }
  return seen;
}

/** Each statement with a step that walks the whole Brain, and those steps, read on the store's schema. */
function wholeBrainReads(file: string, statements: Iterable<string>): string[] {
  const db = openDatabase({ file, key });
  try {
    const found: string[] = [];
    for (const sql of statements) {
      if (!/^\s*(SELECT|WITH|INSERT|UPDATE|DELETE)\b/i.test(sql) || pagesInOrder.test(sql)) continue;
      const explain = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
      let steps: string[] | null = null;
      // Parameters bound as 1 (without statistics the plan does not depend on their values).
      for (let n = 0; n <= 80 && steps === null; n++) {
        try {
          steps = (explain.all(...Array<number>(n).fill(1)) as { detail: string }[]).map((r) => r.detail);
        } catch (e) {
          if (!/Too few parameter/.test(String(e))) throw new Error(`${String(e)}: ${sql}`);
        }
      }
      if (steps === null) throw new Error(`no plan read for: ${sql}`);
      const walks = steps.filter((s) => wholeBrain.some((p) => p.test(s)));
      if (walks.length > 0) found.push(`${sql.replace(/\s+/g, ' ').slice(0, 300)}\n    ${walks.join(' | ')}`);
    }
    return found;
  } finally {
    db.close();
  }
}

describe("local engine: a request's reads do not grow with the Brain", () => {
  it('deriving a Record, a Context, the change feed and forgetting a Record read what they need', async () => {
    const { dir, engine, remember } = await withBrain();
    const file = join(dir, 'mnemo.db');
    const chat = (speaker: string, text: string, at: string) =>
      remember({ content: { kind: 'message', speaker, text, thread: 'family' }, occurred_at: at });
    // A Brain with speakers, slot values that replace each other and a note revised by its source.
    await chat('Petra Kos', 'I live in Zagreb now.', '2026-11-01T10:00:00Z');
    await chat('Marko Babić', 'My sister Petra is pregnant!', '2026-11-02T10:00:00Z');
    const acme = await chat('Ana', 'I work at Acme.', '2026-11-03T10:00:00Z');
    await remember({
      content: { kind: 'document', text: 'Birthday: July 2. Lives in Split.' },
      source: { name: 'notes', external_id: 'n1' },
      occurred_at: '2026-11-04T10:00:00Z',
    });
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['a slot value replaced', () => chat('Ana', 'I work at Globex now.', '2026-11-05T10:00:00Z')],
      [
        'a first name alone',
        () => chat('Marko Babić', 'Petra had her baby, a girl!', '2026-11-06T10:00:00Z'),
      ],
      [
        'a note revised',
        () =>
          remember({
            content: { kind: 'document', text: 'Birthday: July 2. Lives in Rijeka.' },
            source: { name: 'notes', external_id: 'n1' },
            occurred_at: '2026-11-07T10:00:00Z',
          }),
      ],
      [
        'a Context naming a first name',
        () => engine.createContext(tenant, 'b', { query: 'Did Petra have her baby?' }, { requestId: 'r1' }),
      ],
      [
        'a Context of what changed',
        () => engine.createContext(tenant, 'b', { query: 'What changed last week?' }, { requestId: 'r2' }),
      ],
      ['the change feed', () => engine.listRecords(tenant, 'b', { since_watermark: 'start', limit: 2 })],
    ];
    const found: string[] = [];
    for (const [name, step] of steps) {
      const ran = await statementsRunBy(file, async () => {
        await step();
        await engine.idle();
      });
      assert.ok(ran.size > 0, `${name}: its statements were seen`);
      found.push(...wholeBrainReads(file, ran.keys()).map((s) => `${name}: ${s}`));
    }
    const forgotten = await statementsRunBy(file, async () => {
      await engine.forgetRecord(tenant, 'b', acme.id);
      await engine.idle();
    });
    found.push(...wholeBrainReads(file, forgotten.keys()).map((s) => `a forget: ${s}`));
    assert.deepEqual(found, []);
  });

  it("reads a Brain's messages once for derivation and the entity lane together", async () => {
    const { dir, engine, remember } = await withBrain();
    const file = join(dir, 'mnemo.db');
    const said = [
      ['Petra Kos', 'I live in Zagreb now.'],
      ['Marko Babić', 'My sister Petra is pregnant!'],
      // The self's first name alone: derivation asks who else is called Ana.
      ['Ana', 'I work at Acme.'],
    ];
    const read = await statementsRunBy(file, async () => {
      for (const [speaker, text] of said)
        await remember({ content: { kind: 'message', speaker: speaker!, text: text! } });
      await engine.createContext(tenant, 'b', { query: 'Did Petra have her baby?' }, { requestId: 'r' });
    });
    const runs = [...read].filter(([sql]) => sql === messageSpeakersSql);
    assert.equal(runs.length, 1, 'the speakers were read');
    assert.equal(runs[0]![1], said.length, 'each message once');
  });

  it('finds a statement that walks the Brain', async () => {
    const dir = tempDir();
    // The engine's first open makes the store's schema.
    await (await open(dir)).close();
    const walks = wholeBrainReads(
      join(dir, 'mnemo.db'),
      new Set([
        'SELECT m.id FROM citations c JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ? AND m.brain_uid = ?',
        'SELECT m.id FROM citations c CROSS JOIN memories m ON m.id = c.memory_id WHERE c.record_id = ? AND m.brain_uid = ?',
      ]),
    );
    assert.equal(walks.length, 1, walks.join('\n'));
    assert.match(walks[0]!, /^SELECT m\.id FROM citations c JOIN/);
  });
});
