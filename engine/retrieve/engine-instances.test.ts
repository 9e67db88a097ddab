import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ContextReady, RecordCreate, Trace } from '../contract/index.ts';
import { createHashModel } from '../embed/hash-model.ts';
import { createLocalEngine } from '../local/index.ts';
import type { Engine, Tenant } from '../types.ts';

const tenant: Tenant = { project: 'acme', env: 'test' };

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-instances-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function open(dataDir: string): Promise<Engine> {
  const m = createHashModel(32);
  return createLocalEngine({
    dataDir,
    dbKey: 'instances-test-key',
    embedder: {
      provider: 'hash',
      model: 'hash-32',
      dims: 32,
      embed: async (t: readonly string[]) => t.map((x) => m.embedOne(x)),
      close: async () => {},
    },
  });
}

const msg = (text: string, at: string, thread: string): RecordCreate => ({
  content: { kind: 'message', text, speaker: 'Ana', thread },
  occurred_at: at,
});

async function write(engine: Engine, body: RecordCreate): Promise<string> {
  const id = (await engine.rememberRecord(tenant, 'b', body, {})).record.id;
  await engine.idle();
  return id;
}

/** The Context's citations, and the Records its lexical and semantic lanes found. */
async function ask(engine: Engine, query: string) {
  const ctx = (await engine.createContext(tenant, 'b', { query }, { requestId: 'req_test' })) as ContextReady;
  assert.equal(ctx.status, 'ready');
  const trace: Trace = await engine.getTrace(tenant, 'b', ctx.id);
  const lane = (name: string) =>
    (trace.lanes.find((l) => l.name === name)?.candidates ?? []).map((c) => c.record_id);
  return {
    cited: ctx.citations.map((c) => c.record_id),
    lexical: lane('lexical'),
    semantic: lane('semantic'),
  };
}

describe('two local engines in one process', () => {
  it('keep retrieval copies of their own, even over copies of one store, and closing one leaves the other', async () => {
    // Two data dirs holding the same Brain (same uid, tables and rowids): a cache shared by anything
    // but the engine would mix them up.
    const first = tempDir();
    const seed = await open(first);
    await seed.createBrain(tenant, { id: 'b' });
    for (const [i, text] of ['garden tomatoes', 'a lake painting', 'beach trip with my sister'].entries())
      await write(seed, msg(text, `2023-05-0${i + 1}T10:00:00Z`, `t${i}`));
    await seed.close();
    const second = tempDir();
    for (const f of readdirSync(first))
      if (f.startsWith('mnemo.db')) copyFileSync(join(first, f), join(second, f));
    const a = await open(first);
    const b = await open(second);
    after(() => Promise.all([a.close(), b.close()]));
    // Both copies loaded (lexical at start, vectors on the first search) before either store changes.
    await Promise.all([a.idle(), b.idle()]);
    assert.deepEqual((await ask(a, 'garden tomatoes')).cited, (await ask(b, 'garden tomatoes')).cited);

    // The same next rowid in both stores, holding different words.
    const quokka = await write(a, msg('a zanzibar quokka sighting', '2023-06-01T10:00:00Z', 'q'));
    const bread = await write(b, msg('plain bread recipe', '2023-06-01T10:00:00Z', 'q'));
    const answersA = a.info.lexicalCopyAnswers ?? 0;
    const answersB = b.info.lexicalCopyAnswers ?? 0;
    const inA = await ask(a, 'zanzibar quokka');
    assert.ok(inA.lexical.includes(quokka) && inA.semantic.includes(quokka), 'found where it was written');
    const inB = await ask(b, 'zanzibar quokka');
    assert.deepEqual([inB.cited, inB.lexical, inB.semantic], [[], [], []], 'never in the other engine');
    const breadInA = await ask(a, 'plain bread recipe');
    assert.ok(!breadInA.cited.includes(quokka));
    assert.deepEqual(breadInA.lexical, []);
    // Each answer came from that engine's own copy, not from FTS5 after a copy went wrong.
    assert.ok((a.info.lexicalCopyAnswers ?? 0) > answersA);
    assert.ok((b.info.lexicalCopyAnswers ?? 0) > answersB);

    const bytes = b.info.vectorCopyBytes ?? 0;
    assert.ok(bytes > 0);
    await a.close();
    assert.equal(b.info.vectorCopyBytes, bytes, 'its vector copies are not released with the other');
    const answers = b.info.lexicalCopyAnswers ?? 0;
    const later = await ask(b, 'plain bread recipe');
    assert.equal(later.cited[0], bread);
    assert.ok(later.semantic.includes(bread));
    assert.ok((b.info.lexicalCopyAnswers ?? 0) > answers, 'its lexical copy still answers');
  });
});
